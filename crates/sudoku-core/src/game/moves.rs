//! The player's actions ([`Move`]) and their notation, the words of the command line.

use alloc::string::{String, ToString};
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::candidates::Digits;
use crate::grid::symbol_char;

/// One action of the player on the grid, undone and redone as a whole.
///
/// Rows and columns are 0-based here, as in [`Grid::get`](crate::Grid::get); the notation
/// is 1-based: `r3c5` is `row: 2, col: 4`.
///
/// | move | notation |
/// |---|---|
/// | `Enter` | `r3c5 7` |
/// | `Clear` | `clear r3c5` |
/// | `ToggleNotes` | `note r3c5 1 2` |
/// | `SetNotes` | `notes r3c5 1 2` (`notes r3c5` clears them) |
/// | `FillNotes` | `notes all` |
/// | `Solve` | `solve` |
///
/// Digits are written `1`–`9` then `A`–`P` (as in the grid notation); the parser also reads
/// the numbers `10`–`25`.
///
/// ```
/// use sudoku_core::Move;
/// let mv: Move = "r3c5 7".parse().unwrap();
/// assert_eq!(mv, Move::Enter { row: 2, col: 4, digit: 7 });
/// assert_eq!(mv.to_string(), "r3c5 7");
/// assert_eq!("NOTE R1C1 12 3".parse::<Move>().unwrap().to_string(), "note r1c1 3 C");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// Write `digit` in an empty or entered cell (replacing the entry and its notes); the
    /// digit leaves the notes of the cell's peers (its row, column and box), and undo
    /// gives them back.
    Enter {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The digit, `1..=N`.
        digit: u8,
    },
    /// Remove the entry of a cell, or its notes when it has no entry.
    Clear {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// Switch each of `digits` on or off among the notes of an empty cell.
    ToggleNotes {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The digits to switch (at least one).
        #[serde(with = "digit_bits")]
        digits: Digits,
    },
    /// Make the notes of an empty cell exactly `digits`.
    SetNotes {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The new notes (possibly none).
        #[serde(with = "digit_bits")]
        digits: Digits,
    },
    /// Give every empty cell the notes its filled peers allow (all its candidates).
    FillNotes,
    /// Fill the whole grid with the solution (the player gives up).
    Solve,
}

impl Move {
    /// The cell the move is about (0-based row and column), `None` for the whole-grid
    /// moves.
    pub fn cell(&self) -> Option<(usize, usize)> {
        match *self {
            Move::Enter { row, col, .. }
            | Move::Clear { row, col }
            | Move::ToggleNotes { row, col, .. }
            | Move::SetNotes { row, col, .. } => Some((row, col)),
            Move::FillNotes | Move::Solve => None,
        }
    }
}

/// `Digits` in a save: its bit set (bit `d - 1` for digit `d`).
mod digit_bits {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::candidates::Digits;

    pub fn serialize<S: Serializer>(d: &Digits, s: S) -> Result<S::Ok, S::Error> {
        d.bits().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Digits, D::Error> {
        u32::deserialize(d).map(Digits::from_bits)
    }
}

/// Writes `r3c5` for a 0-based cell.
struct CellText(usize, usize);

impl fmt::Display for CellText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "r{}c{}",
            self.0.saturating_add(1),
            self.1.saturating_add(1)
        )
    }
}

/// Writes ` 1 2 C`: each digit after a space.
fn write_digits(f: &mut fmt::Formatter<'_>, digits: Digits) -> fmt::Result {
    for d in digits.iter() {
        write!(f, " {}", symbol_char(d))?;
    }
    Ok(())
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Enter { row, col, digit } => {
                write!(f, "{} {}", CellText(row, col), symbol_char(digit))
            }
            Move::Clear { row, col } => write!(f, "clear {}", CellText(row, col)),
            Move::ToggleNotes { row, col, digits } => {
                write!(f, "note {}", CellText(row, col))?;
                write_digits(f, digits)
            }
            Move::SetNotes { row, col, digits } => {
                write!(f, "notes {}", CellText(row, col))?;
                write_digits(f, digits)
            }
            Move::FillNotes => f.write_str("notes all"),
            Move::Solve => f.write_str("solve"),
        }
    }
}

/// Why a text is not a [`Move`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Not one of the move forms.
    #[error(
        "{0:?} is not a move (use r3c5 7, clear r3c5, note r3c5 1 2, notes r3c5 1 2, notes all or solve)"
    )]
    Unknown(String),
    /// A cell that is not written `r3c5` with a row and a column from 1 to 25.
    #[error("{0:?} is not a cell (write r3c5: row 3, column 5)")]
    BadCell(String),
    /// A digit that is not `1`–`9`, `A`–`P` or a number from 1 to 25.
    #[error("{0:?} is not a digit (use 1-9, A-P, or 10-25)")]
    BadDigit(String),
}

/// Reads `r3c5` (any case) as a 0-based cell.
pub(crate) fn parse_cell(text: &str) -> Result<(usize, usize), ParseMoveError> {
    let bad = || ParseMoveError::BadCell(text.to_string());
    let lower = text.to_ascii_lowercase();
    let rest = lower.strip_prefix('r').ok_or_else(bad)?;
    let (row, col) = rest.split_once('c').ok_or_else(bad)?;
    let number = |s: &str| match s.parse::<usize>() {
        Ok(n @ 1..=25) if s.bytes().all(|b| b.is_ascii_digit()) => Ok(n - 1),
        _ => Err(bad()),
    };
    Ok((number(row)?, number(col)?))
}

/// Reads one digit: a symbol character or a number from 1 to 25.
pub(crate) fn parse_digit(text: &str) -> Result<u8, ParseMoveError> {
    let bad = || ParseMoveError::BadDigit(text.to_string());
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return match text.parse::<u8>() {
            Ok(d @ 1..=25) => Ok(d),
            _ => Err(bad()),
        };
    }
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c @ ('A'..='P' | 'a'..='p')), None) => Ok(c.to_ascii_uppercase() as u8 - b'A' + 10),
        _ => Err(bad()),
    }
}

/// Reads digits separated by white space.
fn parse_digits<'a>(words: impl Iterator<Item = &'a str>) -> Result<Digits, ParseMoveError> {
    let mut digits = Digits::EMPTY;
    for w in words {
        digits.insert(parse_digit(w)?);
    }
    Ok(digits)
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let unknown = || ParseMoveError::Unknown(text.trim().to_string());
        let mut words = text.split_whitespace();
        let first = words.next().ok_or_else(unknown)?.to_ascii_lowercase();
        match first.as_str() {
            "solve" if words.next().is_none() => Ok(Move::Solve),
            "clear" => {
                let (row, col) = parse_cell(words.next().ok_or_else(unknown)?)?;
                match words.next() {
                    None => Ok(Move::Clear { row, col }),
                    Some(_) => Err(unknown()),
                }
            }
            "note" => {
                let (row, col) = parse_cell(words.next().ok_or_else(unknown)?)?;
                let digits = parse_digits(words)?;
                if digits.is_empty() {
                    return Err(unknown());
                }
                Ok(Move::ToggleNotes { row, col, digits })
            }
            "notes" => {
                let cell = words.next().ok_or_else(unknown)?;
                if cell.eq_ignore_ascii_case("all") {
                    return match words.next() {
                        None => Ok(Move::FillNotes),
                        Some(_) => Err(unknown()),
                    };
                }
                let (row, col) = parse_cell(cell)?;
                let digits = parse_digits(words)?;
                Ok(Move::SetNotes { row, col, digits })
            }
            _ if first.starts_with('r') && first.contains('c') => {
                let (row, col) = parse_cell(&first)?;
                let digit = parse_digit(words.next().ok_or_else(unknown)?)?;
                match words.next() {
                    None => Ok(Move::Enter { row, col, digit }),
                    Some(_) => Err(unknown()),
                }
            }
            _ => Err(unknown()),
        }
    }
}
