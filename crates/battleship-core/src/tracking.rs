//! One player's knowledge of the other's grid: the results of its own shots.

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::coord::{Cells, Coord, Geometry};
use crate::fleet::Ship;
use crate::game::ShotResult;
use crate::rules::Rules;

/// What a cell of the opponent's grid is known to be, from one player's shots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mark {
    /// Not shot and not known.
    Unknown,
    /// Shot: water.
    Miss,
    /// Not shot, but known to be water (around a sunk ship).
    Water,
    /// Shot: a ship still afloat.
    Hit,
    /// Shot: part of a sunk ship.
    Sunk,
}

/// Why a shot's result cannot be recorded in a [`Tracking`] (the tracking is unchanged).
///
/// These are the facts a single result can contradict on its own; a tracking may still
/// admit no consistent fleet at all (the bots then fall back to simpler guesses).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The cell is not on the grid.
    #[error("{0} is not on the grid")]
    OffGrid(Coord),
    /// The cell was already shot at.
    #[error("{0} was already shot at")]
    AlreadyShot(Coord),
    /// The whole fleet is already sunk.
    #[error("the whole fleet is already sunk")]
    Finished,
    /// A hit on a cell known to be water, or one that would make ships touch where the
    /// rules forbid it.
    #[error("{0} cannot hold a ship: it is next to a sunk ship")]
    KnownWater(Coord),
    /// The sunk ship does not lie wholly on the grid.
    #[error("the sunk ship at {0} does not fit on the grid")]
    ShipOffGrid(Coord),
    /// The sunk ship does not cover the cell shot.
    #[error("the sunk ship at {ship} does not cover the cell shot, {cell}")]
    NotOnShip {
        /// The bow of the ship.
        ship: Coord,
        /// The cell shot.
        cell: Coord,
    },
    /// A cell of the sunk ship other than the one shot is not a hit on a ship afloat.
    #[error("the sunk ship's cell {0} was not hit before")]
    NotHit(Coord),
    /// No ship of this length is afloat.
    #[error("no {0}-cell ship is afloat")]
    NotAfloat(u8),
    /// The end was announced while ships are afloat, or not announced for the last ship.
    #[error("{0}")]
    WrongEnd(&'static str),
}

/// What one player knows about the opponent's grid: the results of its own shots, and
/// nothing else. Bots decide from this alone.
///
/// A [`Game`](crate::Game) keeps one per player. To use a bot against an opponent the engine does not
/// referee (a person with a paper grid, a remote program), build one with
/// [`Tracking::new`] and [`Tracking::record`] each announced result:
///
/// ```
/// use battleship_core::ai::{Bot, Level};
/// use battleship_core::{Orientation, ShotResult, Rules, Ship, Tracking};
/// use rand::SeedableRng;
/// let rules = Rules::russian();
/// let mut t = Tracking::new(rules.clone());
/// t.record("e5".parse().unwrap(), ShotResult::Miss).unwrap();
/// let a1 = "a1".parse().unwrap();
/// t.record(a1, ShotResult::Sunk(Ship::new(a1, Orientation::Horizontal, 1))).unwrap();
/// // b2 touches the sunk ship: it cannot be a hit
/// assert!(t.record("b2".parse().unwrap(), ShotResult::Hit).is_err());
/// let mut bot = Level::MAX.bot(&rules);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let next = bot.choose_move(&t, &mut rng).unwrap();
/// assert!(t.can_shoot(next));
/// ```
///
/// Deserialising checks the same facts (hits among the shots, sunk ships on the grid,
/// wholly hit, of lengths in the fleet, no hit next to a sunk ship when ships may not
/// touch), so a stored tracking cannot smuggle in an impossible state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "TrackingRepr", into = "TrackingRepr")]
pub struct Tracking {
    rules: Rules,
    shots: Cells,
    hits: Cells,
    revealed: Cells,
    sunk: Vec<Ship>,
}

impl Tracking {
    /// Nothing known yet.
    pub fn new(rules: Rules) -> Tracking {
        Tracking {
            rules,
            shots: Cells::EMPTY,
            hits: Cells::EMPTY,
            revealed: Cells::EMPTY,
            sunk: Vec::new(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Cells shot at.
    pub fn shots(&self) -> Cells {
        self.shots
    }

    /// Cells shot at that hit a ship (afloat or sunk).
    pub fn hits(&self) -> Cells {
        self.hits
    }

    /// Hits on ships still afloat.
    pub fn open_hits(&self) -> Cells {
        let w = self.rules.width();
        let sunk = self.sunk.iter().fold(Cells::EMPTY, |m, s| m | s.mask(w));
        Cells(self.hits.0 & !sunk.0)
    }

    /// Cells known to be water: misses and the cells revealed around sunk ships.
    pub fn water(&self) -> Cells {
        Cells((self.shots.0 & !self.hits.0) | self.revealed.0)
    }

    /// Cells that may still be shot (neither shot nor known water).
    pub fn unknown(&self) -> Cells {
        let all = Geometry::of(&self.rules).all;
        Cells(all & !self.shots.0 & !self.revealed.0)
    }

    /// The sunk ships, in the order they were sunk.
    pub fn sunk(&self) -> &[Ship] {
        &self.sunk
    }

    /// The lengths of the ships still afloat, longest first.
    pub fn afloat(&self) -> Vec<u8> {
        let mut left: Vec<u8> = self.rules.fleet().to_vec();
        for s in &self.sunk {
            if let Some(k) = left.iter().position(|&l| l == s.len()) {
                left.remove(k);
            }
        }
        left
    }

    /// Number of shots fired.
    pub fn shots_fired(&self) -> u32 {
        self.shots.len()
    }

    /// What is known about `cell`.
    pub fn mark(&self, cell: Coord) -> Mark {
        let i = cell.index(self.rules.width());
        if !cell.is_on(&self.rules) || !self.shots.has(i) {
            if cell.is_on(&self.rules) && self.revealed.has(i) {
                return Mark::Water;
            }
            return Mark::Unknown;
        }
        if !self.hits.has(i) {
            Mark::Miss
        } else if self.sunk.iter().any(|s| s.covers(cell)) {
            Mark::Sunk
        } else {
            Mark::Hit
        }
    }

    /// Whether the cell may be shot: on the grid and not shot before. (Water revealed
    /// around a sunk ship may still be shot, as the rules only forbid shooting a cell
    /// twice; it is a sure miss.)
    pub fn can_shoot(&self, cell: Coord) -> bool {
        cell.is_on(&self.rules) && !self.shots.has(cell.index(self.rules.width()))
    }

    /// Cells not shot yet (the cells that may be shot).
    pub fn unshot(&self) -> Cells {
        let all = Geometry::of(&self.rules).all;
        Cells(all & !self.shots.0)
    }

    /// Records the announced result of a shot at `cell`, after checking that it does not
    /// contradict what is known (see [`RecordError`]); on an error nothing changes.
    pub fn record(&mut self, cell: Coord, result: ShotResult) -> Result<(), RecordError> {
        self.check(cell, result)?;
        self.apply(cell, result);
        Ok(())
    }

    fn check(&self, cell: Coord, result: ShotResult) -> Result<(), RecordError> {
        let w = self.rules.width();
        if !cell.is_on(&self.rules) {
            return Err(RecordError::OffGrid(cell));
        }
        if self.shots.has(cell.index(w)) {
            return Err(RecordError::AlreadyShot(cell));
        }
        let afloat = self.afloat();
        if afloat.is_empty() {
            return Err(RecordError::Finished);
        }
        if !result.is_hit() {
            return Ok(());
        }
        if self.forbidden().has(cell.index(w)) {
            return Err(RecordError::KnownWater(cell));
        }
        let Some(ship) = result.sunk() else {
            return Ok(());
        };
        if !ship.fits(&self.rules) {
            return Err(RecordError::ShipOffGrid(ship.bow()));
        }
        if !ship.covers(cell) {
            return Err(RecordError::NotOnShip {
                ship: ship.bow(),
                cell,
            });
        }
        let open = self.open_hits();
        if let Some(c) = ship.cells().find(|&c| c != cell && !open.has(c.index(w))) {
            return Err(RecordError::NotHit(c));
        }
        if !afloat.contains(&ship.len()) {
            return Err(RecordError::NotAfloat(ship.len()));
        }
        if !self.rules.ships_may_touch() {
            // another ship's hit next to the sunk one would make them touch
            let geo = Geometry::of(&self.rules);
            let m = ship.mask(w).0;
            let next_to = open.0 & !m & geo.dilate(m);
            if next_to != 0 {
                let i = next_to.trailing_zeros() as usize;
                return Err(RecordError::KnownWater(Coord::from_index(i, w)));
            }
        }
        match (result, afloat.len()) {
            (ShotResult::GameOver(_), n) if n > 1 => Err(RecordError::WrongEnd(
                "'game over' announced while other ships are afloat",
            )),
            (ShotResult::Sunk(_), 1) => Err(RecordError::WrongEnd(
                "the last ship afloat was sunk, so the game is over",
            )),
            _ => Ok(()),
        }
    }

    /// Cells that cannot hold a ship afloat: known water, and (when ships may not touch)
    /// every cell next to a sunk ship.
    pub(crate) fn forbidden(&self) -> Cells {
        let mut m = self.water().0;
        if !self.rules.ships_may_touch() {
            let geo = Geometry::of(&self.rules);
            let w = self.rules.width();
            for s in &self.sunk {
                let cells = s.mask(w).0;
                m |= geo.dilate(cells) & !cells;
            }
        }
        Cells(m)
    }

    /// Records a result known to be consistent (the referee's own).
    pub(crate) fn apply(&mut self, cell: Coord, result: ShotResult) {
        let w = self.rules.width();
        let i = cell.index(w);
        self.shots.insert(i);
        // a shot at revealed water is a miss: the cell is now known by the shot
        self.revealed.0 &= !(1u128 << i);
        if result.is_hit() {
            self.hits.insert(i);
        }
        if let Some(ship) = result.sunk() {
            self.sunk.push(ship);
            if self.rules.reveal_around_sunk() {
                let geo = Geometry::of(&self.rules);
                let m = ship.mask(w).0;
                self.revealed.0 |= geo.dilate(m) & !m & !self.shots.0;
            }
        }
    }
}

/// What a [`Tracking`] is stored as: the rules, the cells shot (each with whether it was
/// a hit) and the sunk ships in the order they were sunk. Loading replays them through
/// [`Tracking::record`].
#[derive(Serialize, Deserialize)]
struct TrackingRepr {
    rules: Rules,
    shots: Vec<(Coord, bool)>,
    sunk: Vec<Ship>,
}

impl From<Tracking> for TrackingRepr {
    fn from(t: Tracking) -> TrackingRepr {
        let w = t.rules.width();
        let shots = t
            .shots
            .indices()
            .map(|i| (Coord::from_index(i, w), t.hits.has(i)))
            .collect();
        TrackingRepr {
            rules: t.rules,
            shots,
            sunk: t.sunk,
        }
    }
}

impl TryFrom<TrackingRepr> for Tracking {
    type Error = RecordError;
    fn try_from(r: TrackingRepr) -> Result<Tracking, RecordError> {
        // Misses and hits first (as plain hits), then each sunk ship in order: its cells
        // must all be hits by then, and sinking it marks its surroundings.
        let mut t = Tracking::new(r.rules);
        let mut hits = Vec::new();
        for &(cell, hit) in &r.shots {
            if hit {
                hits.push(cell);
            } else {
                t.record(cell, ShotResult::Miss)?;
            }
        }
        let sinking: Vec<Coord> = r
            .sunk
            .iter()
            .map(|s| s.cells().next().unwrap_or(s.bow()))
            .collect();
        for &cell in &hits {
            if !sinking.contains(&cell) {
                t.record(cell, ShotResult::Hit)?;
            }
        }
        let last = r.sunk.len();
        for (k, (&ship, &cell)) in r.sunk.iter().zip(&sinking).enumerate() {
            if !hits.contains(&cell) {
                return Err(RecordError::NotHit(cell));
            }
            let end = k + 1 == last && t.afloat().len() == 1;
            let result = if end {
                ShotResult::GameOver(ship)
            } else {
                ShotResult::Sunk(ship)
            };
            // (recording a sinking refuses a hit afloat next to the ship, and every hit was
            // recorded before the first sinking, so no such hit is left afterwards)
            t.record(cell, result)?;
        }
        Ok(t)
    }
}
