//! Ships, fleets with validation, and the interactive placement API.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::coord::{Cells, Coord, Geometry, ParseCoordError};
use crate::rules::Rules;

/// The direction a ship points from its bow (its top or left cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Orientation {
    /// Left to right from the bow.
    Horizontal,
    /// Top to bottom from the bow.
    Vertical,
}

/// Why an orientation could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an orientation: use h or г (horizontal), v or в (vertical)")]
pub struct ParseOrientationError(pub String);

impl FromStr for Orientation {
    type Err = ParseOrientationError;
    /// `h` or `v` (any case), or the Russian `г` (горизонтально) or `в` (вертикально).
    fn from_str(s: &str) -> Result<Orientation, ParseOrientationError> {
        match s.trim().to_lowercase().as_str() {
            "h" | "г" => Ok(Orientation::Horizontal),
            "v" | "в" => Ok(Orientation::Vertical),
            other => Err(ParseOrientationError(other.into())),
        }
    }
}

impl fmt::Display for Orientation {
    /// `h` or `v`, as in ship notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Orientation::Horizontal => "h",
            Orientation::Vertical => "v",
        })
    }
}

impl Orientation {
    /// The other orientation.
    pub fn flipped(self) -> Orientation {
        match self {
            Orientation::Horizontal => Orientation::Vertical,
            Orientation::Vertical => Orientation::Horizontal,
        }
    }
}

/// A ship: its bow (top or left cell), orientation and length.
///
/// Notation: `a1 h 4` (bow, `h` or `v`, length); spaces are optional (`a1h4`). A ship of
/// length 1 is always horizontal.
///
/// ```
/// use battleship_core::{Orientation, Ship};
/// let ship: Ship = "b2 v 3".parse().unwrap();
/// assert_eq!(ship.orientation(), Orientation::Vertical);
/// assert_eq!(ship.cells().map(|c| c.to_string()).collect::<Vec<_>>(), ["b2", "b3", "b4"]);
/// assert_eq!(ship.to_string(), "b2 v 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ShipRepr", into = "ShipRepr")]
pub struct Ship {
    bow: Coord,
    orientation: Orientation,
    len: u8,
}

#[derive(Serialize, Deserialize)]
struct ShipRepr {
    bow: Coord,
    orientation: Orientation,
    len: u8,
}

impl TryFrom<ShipRepr> for Ship {
    type Error = ParseShipError;
    fn try_from(r: ShipRepr) -> Result<Ship, ParseShipError> {
        if r.len == 0 || r.len > crate::rules::MAX_SHIP_LEN {
            return Err(ParseShipError::Length(alloc::format!("{}", r.len)));
        }
        Ok(Ship::new(r.bow, r.orientation, r.len))
    }
}

impl From<Ship> for ShipRepr {
    fn from(s: Ship) -> ShipRepr {
        ShipRepr {
            bow: s.bow,
            orientation: s.orientation,
            len: s.len,
        }
    }
}

impl Ord for Ship {
    fn cmp(&self, other: &Ship) -> core::cmp::Ordering {
        other
            .len
            .cmp(&self.len)
            .then(self.bow.row().cmp(&other.bow.row()))
            .then(self.bow.col().cmp(&other.bow.col()))
            .then(self.orientation.cmp(&other.orientation))
    }
}

impl PartialOrd for Ship {
    fn partial_cmp(&self, other: &Ship) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ship {
    /// A ship with this bow, orientation and length (clamped to 1…6). A ship of length 1
    /// is stored as horizontal.
    pub fn new(bow: Coord, orientation: Orientation, len: u8) -> Ship {
        let orientation = if len <= 1 {
            Orientation::Horizontal
        } else {
            orientation
        };
        Ship {
            bow,
            orientation,
            len: len.clamp(1, crate::rules::MAX_SHIP_LEN),
        }
    }

    /// The bow: the top cell of a vertical ship, the left cell of a horizontal one.
    pub fn bow(&self) -> Coord {
        self.bow
    }

    /// The orientation.
    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// The length in cells.
    pub fn len(&self) -> u8 {
        self.len
    }

    /// Always false: a ship has at least one cell.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The cells from the bow to the stern; cells beyond the 10×10 limit are left out.
    pub fn cells(&self) -> impl Iterator<Item = Coord> + '_ {
        let (dc, dr) = match self.orientation {
            Orientation::Horizontal => (1, 0),
            Orientation::Vertical => (0, 1),
        };
        (0..self.len)
            .filter_map(move |k| Coord::new(self.bow.col() + k * dc, self.bow.row() + k * dr))
    }

    /// Whether every cell lies on the grid of these rules.
    pub fn fits(&self, rules: &Rules) -> bool {
        let (c, r) = (self.bow.col(), self.bow.row());
        match self.orientation {
            Orientation::Horizontal => r < rules.height() && c + self.len <= rules.width(),
            Orientation::Vertical => c < rules.width() && r + self.len <= rules.height(),
        }
    }

    /// Whether the ship covers `cell`.
    pub fn covers(&self, cell: Coord) -> bool {
        let (c, r) = (self.bow.col(), self.bow.row());
        match self.orientation {
            Orientation::Horizontal => {
                cell.row() == r && cell.col() >= c && cell.col() < c + self.len
            }
            Orientation::Vertical => {
                cell.col() == c && cell.row() >= r && cell.row() < r + self.len
            }
        }
    }

    /// The cells as a set on a grid `width` columns wide (the ship must fit the grid).
    pub fn mask(&self, width: u8) -> Cells {
        let mut m = Cells::EMPTY;
        for c in self.cells() {
            if c.col() < width {
                m.insert(c.index(width));
            }
        }
        m
    }

    /// The same ship turned about its bow.
    pub fn rotated(&self) -> Ship {
        Ship::new(self.bow, self.orientation.flipped(), self.len)
    }
}

impl fmt::Display for Ship {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.bow, self.orientation, self.len)
    }
}

/// Why a ship could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseShipError {
    /// The bow is not a cell.
    #[error("bad bow cell: {0}")]
    Bow(#[from] ParseCoordError),
    /// The orientation is neither `h` nor `v`.
    #[error("'{0}' is not an orientation: use h or г (horizontal), v or в (vertical)")]
    Orientation(String),
    /// The length is not a number from 1 to 6.
    #[error("'{0}' is not a ship length: use a number from 1 to 6")]
    Length(String),
    /// Something is missing, e.g. `a1 h`.
    #[error("a ship is written as bow, orientation and length, like: a1 h 4")]
    Shape,
}

impl FromStr for Ship {
    type Err = ParseShipError;
    fn from_str(s: &str) -> Result<Ship, ParseShipError> {
        let s = s.trim();
        // The orientation is the first letter after the bow's row digits.
        let mut split = None;
        for (i, ch) in s.char_indices().skip(1) {
            if ch.is_alphabetic() {
                split = Some(i);
                break;
            }
        }
        let Some(at) = split else {
            return Err(ParseShipError::Shape);
        };
        let bow: Coord = s[..at].trim().parse()?;
        let rest = &s[at..];
        let o_end = rest
            .char_indices()
            .find(|(_, c)| !c.is_alphabetic())
            .map_or(rest.len(), |(i, _)| i);
        let orientation: Orientation = rest[..o_end]
            .parse()
            .map_err(|ParseOrientationError(o)| ParseShipError::Orientation(o))?;
        let len_text = rest[o_end..].trim();
        if len_text.is_empty() {
            return Err(ParseShipError::Shape);
        }
        let len = match len_text.parse::<u8>() {
            Ok(l) if (1..=crate::rules::MAX_SHIP_LEN).contains(&l) => l,
            _ => return Err(ParseShipError::Length(len_text.into())),
        };
        Ok(Ship::new(bow, orientation, len))
    }
}

/// One thing wrong with a fleet or a placement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Problem {
    /// The ship leaves the grid.
    OffGrid {
        /// The ship.
        ship: Ship,
    },
    /// Two ships share cells.
    Overlap {
        /// One ship.
        a: Ship,
        /// The other ship.
        b: Ship,
        /// The shared cells.
        cells: Vec<Coord>,
    },
    /// Two ships touch (by a side or a corner) and the rules forbid it.
    Touching {
        /// One ship.
        a: Ship,
        /// The other ship.
        b: Ship,
        /// The cells of both ships that touch the other one.
        cells: Vec<Coord>,
    },
    /// The fleet does not have the right number of ships of one length.
    WrongCount {
        /// The ship length.
        len: u8,
        /// How many ships of this length the rules ask for.
        expected: usize,
        /// How many there are.
        found: usize,
    },
    /// A ship is being placed when every ship of its length is placed already.
    AllPlaced {
        /// The ship length.
        len: u8,
        /// The ships of this length already placed.
        placed: Vec<Ship>,
    },
}

fn write_cells(f: &mut fmt::Formatter<'_>, cells: &[Coord]) -> fmt::Result {
    for (k, c) in cells.iter().enumerate() {
        if k > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{c}")?;
    }
    Ok(())
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::OffGrid { ship } => write!(f, "ship {ship} goes off the grid"),
            // placing a ship again where it is: one ship, not two that overlap
            Problem::Overlap { a, b, .. } if a == b => {
                write!(f, "ship {a} is placed there already")
            }
            Problem::Overlap { a, b, cells } => {
                write!(f, "ships {a} and {b} overlap at ")?;
                write_cells(f, cells)
            }
            Problem::Touching { a, b, cells } => {
                write!(f, "ships {a} and {b} touch at ")?;
                write_cells(f, cells)
            }
            Problem::WrongCount {
                len,
                expected,
                found,
            } => write!(f, "{found} ship(s) of length {len} instead of {expected}"),
            Problem::AllPlaced { len, placed } => {
                let n = placed.len();
                write!(f, "the fleet has {n} ship(s) of length {len}, all placed: ")?;
                for (k, ship) in placed.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{ship}")?;
                }
                f.write_str(" (remove one first)")
            }
        }
    }
}

/// A fleet or placement that breaks the rules, with every problem found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct FleetError {
    /// Every problem, ships off the grid first, then overlaps, touches and counts.
    pub problems: Vec<Problem>,
}

impl fmt::Display for FleetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.problems.is_empty() {
            return f.write_str("invalid fleet");
        }
        for (k, p) in self.problems.iter().enumerate() {
            if k > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// Problems between `ship` and the already placed `others` (off grid, overlap, touching).
fn pair_problems(rules: &Rules, ship: &Ship, others: &[Ship], out: &mut Vec<Problem>) {
    if !ship.fits(rules) {
        out.push(Problem::OffGrid { ship: *ship });
        return;
    }
    let geo = Geometry::of(rules);
    let w = rules.width();
    let m = ship.mask(w).0;
    for other in others {
        if !other.fits(rules) {
            continue;
        }
        let o = other.mask(w).0;
        if m & o != 0 {
            out.push(Problem::Overlap {
                a: *other,
                b: *ship,
                cells: Cells(m & o).coords(w).collect(),
            });
        } else if !rules.ships_may_touch() && geo.dilate(m) & o != 0 {
            let touching = (geo.dilate(m) & o) | (geo.dilate(o) & m);
            out.push(Problem::Touching {
                a: *other,
                b: *ship,
                cells: Cells(touching).coords(w).collect(),
            });
        }
    }
}

/// A complete, valid fleet for a rule set: every ship on the grid, no overlap, no touching
/// unless allowed, exactly the ships the rules ask for.
///
/// Ships are kept in a canonical order (longest first, then by bow), so two fleets with the
/// same ships are equal.
///
/// ```
/// use battleship_core::{Fleet, Rules};
/// let rules = Rules::russian();
/// let ships = ["a1 h 4", "a3 h 3", "e3 h 3", "a5 h 2", "d5 h 2", "g5 h 2",
///              "a7 h 1", "c7 h 1", "e7 h 1", "g7 h 1"];
/// let fleet = Fleet::new(&rules, ships.iter().map(|s| s.parse().unwrap()).collect()).unwrap();
/// assert_eq!(fleet.ships().len(), 10);
///
/// // a ship touching another at a corner is refused under Russian rules, with the cells
/// let bad = ["a1 h 4", "e2 h 3", "a3 h 3", "a5 h 2", "d5 h 2", "g5 h 2",
///            "a7 h 1", "c7 h 1", "e7 h 1", "g7 h 1"];
/// let err = Fleet::new(&rules, bad.iter().map(|s| s.parse().unwrap()).collect()).unwrap_err();
/// assert_eq!(err.to_string(), "ships a1 h 4 and e2 h 3 touch at d1, e2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fleet {
    ships: Vec<Ship>,
}

impl Fleet {
    /// Validates `ships` against `rules`, naming every problem.
    pub fn new(rules: &Rules, mut ships: Vec<Ship>) -> Result<Fleet, FleetError> {
        let problems = Fleet::problems(rules, &ships);
        if !problems.is_empty() {
            return Err(FleetError { problems });
        }
        ships.sort_unstable();
        Ok(Fleet { ships })
    }

    /// A fleet known to be valid (built by the engine itself).
    pub(crate) fn from_valid(mut ships: Vec<Ship>) -> Fleet {
        ships.sort_unstable();
        Fleet { ships }
    }

    /// Every problem of a set of ships under `rules` (empty when the fleet is valid).
    pub fn problems(rules: &Rules, ships: &[Ship]) -> Vec<Problem> {
        let mut out = Vec::new();
        for (k, ship) in ships.iter().enumerate() {
            pair_problems(rules, ship, &ships[..k], &mut out);
        }
        out.sort_by_key(|p| match p {
            Problem::OffGrid { .. } => 0,
            Problem::Overlap { .. } => 1,
            Problem::Touching { .. } => 2,
            Problem::WrongCount { .. } | Problem::AllPlaced { .. } => 3,
        });
        let mut lens: Vec<u8> = rules.fleet().to_vec();
        for s in ships {
            lens.push(s.len());
        }
        lens.sort_unstable_by(|a, b| b.cmp(a));
        lens.dedup();
        for len in lens {
            let expected = rules.ships_of_len(len);
            let found = ships.iter().filter(|s| s.len() == len).count();
            if expected != found {
                out.push(Problem::WrongCount {
                    len,
                    expected,
                    found,
                });
            }
        }
        out
    }

    /// Re-checks a fleet against `rules` (e.g. after loading it).
    pub fn validate(&self, rules: &Rules) -> Result<(), FleetError> {
        let problems = Fleet::problems(rules, &self.ships);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(FleetError { problems })
        }
    }

    /// The ships, longest first.
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }

    /// The ship covering `cell`, if any.
    pub fn ship_at(&self, cell: Coord) -> Option<&Ship> {
        self.ships.iter().find(|s| s.covers(cell))
    }

    /// All ship cells, on a grid `width` columns wide.
    pub fn mask(&self, width: u8) -> Cells {
        self.ships
            .iter()
            .fold(Cells::EMPTY, |m, s| m | s.mask(width))
    }

    /// The fleet as text: one line per row, `#` for a ship cell, `.` for water.
    pub fn to_plain(&self, rules: &Rules) -> String {
        let w = rules.width();
        let m = self.mask(w);
        let mut s = String::new();
        for r in 0..rules.height() {
            for c in 0..w {
                let i = usize::from(r) * usize::from(w) + usize::from(c);
                s.push(if m.has(i) { '#' } else { '.' });
            }
            s.push('\n');
        }
        s
    }
}

/// An interactive placement: ships are added, turned and removed one at a time, every
/// change is checked against the rules, and [`Placement::finish`] gives the fleet.
///
/// ```
/// use battleship_core::{Orientation, Placement, Rules, Ship};
/// let mut p = Placement::new(Rules::russian());
/// p.place("a1 h 4".parse().unwrap()).unwrap();
/// // what is wrong if I put a 3-ship at b2?
/// let why = p.problems_if(&"b2 h 3".parse().unwrap());
/// assert_eq!(why.len(), 1);
/// // where can the bow of a vertical 3-ship go?
/// let bows = p.bow_cells(3, Orientation::Vertical);
/// assert!(!bows.iter().any(|c| c.to_string() == "b2"));
/// assert_eq!(p.missing(), vec![3, 3, 2, 2, 2, 1, 1, 1, 1]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    rules: Rules,
    ships: Vec<Ship>,
}

impl Placement {
    /// An empty placement.
    pub fn new(rules: Rules) -> Placement {
        Placement {
            rules,
            ships: Vec::new(),
        }
    }

    /// A placement holding a complete fleet (to edit it).
    pub fn from_fleet(rules: Rules, fleet: &Fleet) -> Placement {
        Placement {
            rules,
            ships: fleet.ships().to_vec(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The ships placed so far.
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }

    /// The lengths still to place, longest first.
    pub fn missing(&self) -> Vec<u8> {
        let mut left: Vec<u8> = self.rules.fleet().to_vec();
        for s in &self.ships {
            if let Some(k) = left.iter().position(|&l| l == s.len()) {
                left.remove(k);
            }
        }
        left
    }

    /// Everything wrong with adding `ship` now (empty if it may be placed): off the grid,
    /// overlapping or touching a placed ship, or no ship of that length left to place.
    pub fn problems_if(&self, ship: &Ship) -> Vec<Problem> {
        let mut out = Vec::new();
        pair_problems(&self.rules, ship, &self.ships, &mut out);
        let expected = self.rules.ships_of_len(ship.len());
        let placed = self.ships.iter().filter(|s| s.len() == ship.len()).count();
        if placed >= expected {
            out.push(Problem::AllPlaced {
                len: ship.len(),
                placed: self
                    .ships
                    .iter()
                    .filter(|s| s.len() == ship.len())
                    .copied()
                    .collect(),
            });
        }
        out
    }

    /// Adds `ship`, or explains every reason it cannot go there (nothing changes then).
    pub fn place(&mut self, ship: Ship) -> Result<(), FleetError> {
        let problems = self.problems_if(&ship);
        if !problems.is_empty() {
            return Err(FleetError { problems });
        }
        self.ships.push(ship);
        Ok(())
    }

    /// Removes and returns the ship covering `cell`.
    pub fn remove(&mut self, cell: Coord) -> Option<Ship> {
        let k = self.ships.iter().position(|s| s.covers(cell))?;
        Some(self.ships.remove(k))
    }

    /// Turns the ship covering `cell` about its bow, if the turned ship fits; on error the
    /// placement is unchanged. Returns the turned ship.
    pub fn rotate(&mut self, cell: Coord) -> Result<Option<Ship>, FleetError> {
        let Some(k) = self.ships.iter().position(|s| s.covers(cell)) else {
            return Ok(None);
        };
        let old = self.ships.remove(k);
        let new = old.rotated();
        match self.place(new) {
            Ok(()) => Ok(Some(new)),
            Err(e) => {
                self.ships.insert(k, old);
                Err(e)
            }
        }
    }

    /// The cells where the bow of a ship of length `len` and orientation `orientation` can
    /// go now.
    pub fn bow_cells(&self, len: u8, orientation: Orientation) -> Vec<Coord> {
        let mut out = Vec::new();
        for r in 0..self.rules.height() {
            for c in 0..self.rules.width() {
                if let Some(bow) = Coord::new(c, r) {
                    let ship = Ship::new(bow, orientation, len);
                    if self.problems_if(&ship).is_empty() {
                        out.push(bow);
                    }
                }
            }
        }
        out
    }

    /// Removes every ship.
    pub fn clear(&mut self) {
        self.ships.clear();
    }

    /// The fleet, if the placement is complete and valid.
    pub fn finish(&self) -> Result<Fleet, FleetError> {
        Fleet::new(&self.rules, self.ships.clone())
    }
}
