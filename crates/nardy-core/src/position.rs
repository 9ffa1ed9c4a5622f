//! Colours, points and the validated [`Position`] with its text notation.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

/// Number of checkers per side.
pub const CHECKERS: u8 = 15;

/// One of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    /// White: head on point 24, moves 24 → 1, home 1–6.
    White,
    /// Black: head on point 12, moves 12 → 1 → 24 → 13, home 13–18.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation letter: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The absolute point of this colour's head (24 for White, 12 for Black).
    pub const fn head(self) -> u8 {
        match self {
            Color::White => 24,
            Color::Black => 12,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// Turns an absolute point (1–24) into `color`'s path coordinate (24 = head, 1..6 = home),
/// and back: the conversion is its own inverse.
pub const fn path_coordinate(color: Color, point: u8) -> u8 {
    match color {
        Color::White => point,
        Color::Black => rotate(point),
    }
}

/// Shifts a point by 12 along the circle (1..=24 → 1..=24).
pub(crate) const fn rotate(x: u8) -> u8 {
    if x <= 12 { x + 12 } else { x - 12 }
}

/// Rotates a 24-bit mask of path coordinates into the other colour's coordinates.
#[inline]
pub(crate) const fn rotate_mask(m: u32) -> u32 {
    ((m << 12) | (m >> 12)) & 0x00FF_FFFF
}

/// One side's checkers, by its own path coordinate `q` (1..=24): a nibble per point
/// (`packed`), the occupied points as bits (`mask`, bit `q - 1`) and the borne-off count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct SideBoard {
    pub(crate) packed: u128,
    pub(crate) mask: u32,
    pub(crate) off: u8,
}

impl SideBoard {
    pub(crate) const EMPTY: SideBoard = SideBoard {
        packed: 0,
        mask: 0,
        off: CHECKERS,
    };

    /// Checkers on path coordinate `q` (1..=24).
    #[inline]
    pub(crate) fn count(&self, q: u8) -> u8 {
        ((self.packed >> (4 * (u32::from(q) - 1))) & 0xF) as u8
    }

    /// Adds `n` checkers on `q` (taken from the borne-off pile).
    pub(crate) fn put(&mut self, q: u8, n: u8) {
        self.packed += u128::from(n) << (4 * (u32::from(q) - 1));
        if n > 0 {
            self.mask |= 1 << (q - 1);
        }
        self.off -= n;
    }

    /// Sum of the path coordinates of every checker on the board.
    pub(crate) fn pips(&self) -> u32 {
        (0..24)
            .map(|i| (i as u32 + 1) * ((self.packed >> (4 * i)) & 0xF) as u32)
            .sum()
    }
}

/// A Long Nardy position: both sides' checkers, borne-off counts (15 minus the checkers on
/// the board) and the side to move.
///
/// The notation is `<white>/<black> <side>`: each side is `-` or comma-separated
/// `point:count` pairs in absolute numbering, the side `w` or `b`.
///
/// ```
/// use nardy_core::{Color, Position};
/// let start: Position = "24:15/12:15 w".parse()?;
/// assert_eq!(start, Position::start());
/// assert_eq!(start.count(Color::White, 24), 15);
/// let p: Position = "1:14,10:1/12:14,7:1 w".parse()?;
/// assert_eq!(p.to_string(), "10:1,1:14/12:14,7:1 w");
/// # Ok::<(), nardy_core::ParsePositionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "PositionRepr", try_from = "PositionRepr")]
pub struct Position {
    pub(crate) sides: [SideBoard; 2],
    pub(crate) turn: Color,
}

/// The serialized form of a [`Position`]: counts by absolute point (index `point - 1`).
#[derive(Serialize, Deserialize)]
struct PositionRepr {
    white: [u8; 24],
    black: [u8; 24],
    turn: Color,
}

impl From<Position> for PositionRepr {
    fn from(p: Position) -> PositionRepr {
        PositionRepr {
            white: p.board(Color::White),
            black: p.board(Color::Black),
            turn: p.turn,
        }
    }
}

impl TryFrom<PositionRepr> for Position {
    type Error = ParsePositionError;
    fn try_from(r: PositionRepr) -> Result<Position, ParsePositionError> {
        Position::from_boards(r.white, r.black, r.turn)
    }
}

/// Why a position is invalid or its notation cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// The text has no `/` between White's and Black's checkers.
    #[error("expected `<white>/<black> <side>`, e.g. `24:15/12:15 w`: missing `/`")]
    MissingSlash,
    /// The side to move is missing.
    #[error("missing the side to move (`w` or `b`) after the checkers")]
    MissingSide,
    /// The side to move is not `w` or `b`.
    #[error("`{0}` is not a side to move: use `w` or `b`")]
    BadSide(String),
    /// Something follows the side to move.
    #[error("unexpected `{0}` after the side to move")]
    Trailing(String),
    /// A list entry is not `point:count`.
    #[error("{color}: `{text}` is not `point:count` (use `-` for no checkers)")]
    BadPair {
        /// Whose list.
        color: Color,
        /// The entry.
        text: String,
    },
    /// A point number is not 1–24.
    #[error("{color}: `{text}` is not a point (points are 1 to 24)")]
    BadPoint {
        /// Whose list.
        color: Color,
        /// The point as written.
        text: String,
    },
    /// A count is not 1–15.
    #[error("{color}: `{text}` checkers on point {point}: a count is 1 to 15")]
    BadCount {
        /// Whose list.
        color: Color,
        /// The point.
        point: u8,
        /// The count as written.
        text: String,
    },
    /// A point is listed twice for one colour.
    #[error("{color}: point {point} is listed twice")]
    DuplicatePoint {
        /// Whose list.
        color: Color,
        /// The point.
        point: u8,
    },
    /// A side has more than 15 checkers on the board.
    #[error("{color} has {total} checkers on the board, but a side has only 15")]
    TooManyCheckers {
        /// Whose checkers.
        color: Color,
        /// How many were given.
        total: u32,
    },
    /// A point holds checkers of both colours.
    #[error("point {point} holds both White and Black checkers")]
    SharedPoint {
        /// The point.
        point: u8,
    },
}

impl Position {
    /// The starting position: 15 White checkers on 24, 15 Black on 12, White to move.
    pub fn start() -> Position {
        let mut sides = [SideBoard::EMPTY; 2];
        sides[0].put(24, CHECKERS);
        sides[1].put(24, CHECKERS);
        Position {
            sides,
            turn: Color::White,
        }
    }

    /// A position from counts by absolute point (index `point - 1`); the rest of each side's
    /// 15 checkers are borne off.
    pub fn from_boards(
        white: [u8; 24],
        black: [u8; 24],
        turn: Color,
    ) -> Result<Position, ParsePositionError> {
        let mut sides = [SideBoard::EMPTY; 2];
        for (color, board) in [(Color::White, &white), (Color::Black, &black)] {
            let mut total = 0u32;
            for (i, &n) in board.iter().enumerate() {
                if n > CHECKERS {
                    return Err(ParsePositionError::BadCount {
                        color,
                        point: i as u8 + 1,
                        text: n.to_string(),
                    });
                }
                total += u32::from(n);
            }
            if total > u32::from(CHECKERS) {
                return Err(ParsePositionError::TooManyCheckers { color, total });
            }
            for (i, &n) in board.iter().enumerate() {
                if n > 0 {
                    sides[color.index()].put(path_coordinate(color, i as u8 + 1), n);
                }
            }
        }
        for i in 0..24 {
            if white[i] > 0 && black[i] > 0 {
                return Err(ParsePositionError::SharedPoint { point: i as u8 + 1 });
            }
        }
        Ok(Position { sides, turn })
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The same checkers with `color` to move.
    pub fn with_side_to_move(mut self, color: Color) -> Position {
        self.turn = color;
        self
    }

    /// Checkers of `color` on absolute `point` (1–24; 0 for any other number).
    pub fn count(&self, color: Color, point: u8) -> u8 {
        if !(1..=24).contains(&point) {
            return 0;
        }
        self.sides[color.index()].count(path_coordinate(color, point))
    }

    /// Who holds absolute `point`, and with how many checkers.
    pub fn owner(&self, point: u8) -> Option<(Color, u8)> {
        Color::ALL.into_iter().find_map(|c| {
            let n = self.count(c, point);
            (n > 0).then_some((c, n))
        })
    }

    /// `color`'s checkers by absolute point (index `point - 1`).
    pub fn board(&self, color: Color) -> [u8; 24] {
        let mut out = [0; 24];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = self.count(color, i as u8 + 1);
        }
        out
    }

    /// How many checkers `color` has borne off.
    pub fn borne_off(&self, color: Color) -> u8 {
        self.sides[color.index()].off
    }

    /// Pips `color` still has to travel to bear everything off.
    pub fn pip_count(&self, color: Color) -> u32 {
        self.sides[color.index()].pips()
    }

    /// Whether `color` is on its first turn: all 15 checkers on its head.
    pub fn on_first_turn(&self, color: Color) -> bool {
        self.sides[color.index()].count(24) == CHECKERS
    }

    /// A side that has borne off all 15 checkers, if any (White first when both have, as
    /// in a drawn game under the last-roll tie).
    pub fn finished(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.sides[c.index()].off == CHECKERS)
    }

    /// Whether every checker of `color` left on the board is in its home.
    pub fn all_home(&self, color: Color) -> bool {
        self.sides[color.index()].mask & !0x3F == 0
    }

    /// Whether `color` has a checker in its own starting quarter (19–24 for White, 7–12 for
    /// Black), as counted by koks.
    pub fn in_starting_quarter(&self, color: Color) -> bool {
        self.sides[color.index()].mask & 0x00FC_0000 != 0
    }

    pub(crate) fn mover(&self) -> SideBoard {
        self.sides[self.turn.index()]
    }

    pub(crate) fn waiter(&self) -> SideBoard {
        self.sides[self.turn.other().index()]
    }

    /// The position after the mover's board became `mover`, with the other side to move.
    pub(crate) fn after(&self, mover: SideBoard) -> Position {
        let mut p = *self;
        p.sides[self.turn.index()] = mover;
        p.turn = self.turn.other();
        p
    }

    fn write_side(&self, f: &mut fmt::Formatter<'_>, color: Color) -> fmt::Result {
        let mut first = true;
        for point in (1..=24u8).rev() {
            let n = self.count(color, point);
            if n > 0 {
                if !first {
                    f.write_str(",")?;
                }
                first = false;
                write!(f, "{point}:{n}")?;
            }
        }
        if first {
            f.write_str("-")?;
        }
        Ok(())
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_side(f, Color::White)?;
        f.write_str("/")?;
        self.write_side(f, Color::Black)?;
        write!(f, " {}", self.turn.letter())
    }
}

fn parse_side(color: Color, text: &str) -> Result<[u8; 24], ParsePositionError> {
    let mut board = [0u8; 24];
    let text = text.trim();
    if text == "-" {
        return Ok(board);
    }
    let mut seen = [false; 24];
    for item in text.split(',') {
        let item = item.trim();
        let (p, n) = item
            .split_once(':')
            .ok_or_else(|| ParsePositionError::BadPair {
                color,
                text: item.into(),
            })?;
        let (p, n) = (p.trim(), n.trim());
        let point = p
            .parse::<u8>()
            .ok()
            .filter(|x| (1..=24).contains(x) && p.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| ParsePositionError::BadPoint {
                color,
                text: p.into(),
            })?;
        let count = n
            .parse::<u8>()
            .ok()
            .filter(|x| (1..=CHECKERS).contains(x) && n.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| ParsePositionError::BadCount {
                color,
                point,
                text: n.into(),
            })?;
        let i = usize::from(point - 1);
        if seen[i] {
            return Err(ParsePositionError::DuplicatePoint { color, point });
        }
        seen[i] = true;
        board[i] = count;
    }
    let total: u32 = board.iter().map(|&n| u32::from(n)).sum();
    if total > u32::from(CHECKERS) {
        return Err(ParsePositionError::TooManyCheckers { color, total });
    }
    Ok(board)
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let mut words = s.split_whitespace();
        let checkers = words.next().ok_or(ParsePositionError::MissingSlash)?;
        let (white, black) = checkers
            .split_once('/')
            .ok_or(ParsePositionError::MissingSlash)?;
        let white = parse_side(Color::White, white)?;
        let black = parse_side(Color::Black, black)?;
        let side = words.next().ok_or(ParsePositionError::MissingSide)?;
        let turn = match side {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(ParsePositionError::BadSide(other.into())),
        };
        let rest: Vec<&str> = words.collect();
        if !rest.is_empty() {
            return Err(ParsePositionError::Trailing(rest.join(" ")));
        }
        Position::from_boards(white, black, turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn start_round_trips() {
        assert_eq!(Position::start().to_string(), "24:15/12:15 w");
        assert_eq!("24:15/12:15 w".parse::<Position>(), Ok(Position::start()));
    }

    #[test]
    fn coordinates() {
        assert_eq!(path_coordinate(Color::Black, 12), 24);
        assert_eq!(path_coordinate(Color::Black, 13), 1);
        assert_eq!(path_coordinate(Color::Black, 1), 13);
        assert_eq!(path_coordinate(Color::Black, 24), 12);
        assert_eq!(rotate_mask(1 << 23), 1 << 11);
        assert_eq!(rotate_mask(1), 1 << 12);
    }

    #[test]
    fn errors() {
        use ParsePositionError::*;
        let e = |s: &str| s.parse::<Position>().unwrap_err();
        assert_eq!(e("24:15 w"), MissingSlash);
        assert_eq!(e("24:15/12:15"), MissingSide);
        assert_eq!(e("24:15/12:15 x"), BadSide("x".into()));
        assert_eq!(e("24:15/12:15 w w"), Trailing("w".into()));
        assert!(matches!(
            e("25:1/12:15 w"),
            BadPoint {
                color: Color::White,
                ..
            }
        ));
        assert!(matches!(e("24:16/12:15 w"), BadCount { point: 24, .. }));
        assert!(matches!(e("24:0/12:15 w"), BadCount { .. }));
        assert!(matches!(
            e("24:10,24:2/12:15 w"),
            DuplicatePoint { point: 24, .. }
        ));
        assert!(matches!(
            e("24:10,23:6/12:15 w"),
            TooManyCheckers { total: 16, .. }
        ));
        assert_eq!(e("24:1,12:1/12:15 w"), SharedPoint { point: 12 });
        // Both sides finished: the end of a drawn game under the last-roll tie.
        assert_eq!("-/- w".parse::<Position>().unwrap().to_string(), "-/- w");
        assert!(matches!(e("24/12:15 w"), BadPair { .. }));
        assert!(matches!(e("+5:1/12:15 w"), BadPoint { .. }));
    }

    #[test]
    fn borne_off_and_first_turn() {
        let p: Position = "1:14,10:1/- b".parse().unwrap();
        assert_eq!(p.borne_off(Color::White), 0);
        assert_eq!(p.borne_off(Color::Black), 15);
        assert_eq!(p.finished(), Some(Color::Black));
        assert!(Position::start().on_first_turn(Color::Black));
        assert_eq!(Position::start().pip_count(Color::White), 360);
        assert_eq!(Position::start().pip_count(Color::Black), 360);
    }
}
