//! Saves: the shared binary format (magic `TTSU`, version 1) and a readable text form.
//!
//! The binary save holds the puzzle, the moves (and those taken back), the mistakes and
//! the time; loading replays every move through [`Game::play`], so a save can never hold
//! a state the rules forbid. The text form holds the state only (no history): the puzzle,
//! the entries, the notes, the mistakes and the time.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};
use tabletop_common::{Format, LoadError};

use super::moves::{parse_cell, parse_digit};
use super::{Game, Move};
use crate::candidates::Digits;
use crate::grid::{Grid, symbol_char};
use crate::solve::SolveError;

/// The save format of Sudoku games: magic `TTSU`, version 1.
pub const SAVE_FORMAT: Format = Format::new(*b"TTSU", 1, "Sudoku");

/// The body of a save, as written.
#[derive(Serialize)]
struct SaveRef<'a> {
    puzzle: &'a Grid,
    moves: Vec<Move>,
    redo: &'a [Move],
    mistakes: u32,
    elapsed_ms: u64,
}

/// The body of a save, as read.
#[derive(Deserialize)]
struct Save {
    puzzle: Grid,
    moves: Vec<Move>,
    redo: Vec<Move>,
    mistakes: u32,
    elapsed_ms: u64,
}

/// Why a puzzle cannot start a game, in a load error's words.
fn improper(e: SolveError) -> String {
    match e {
        SolveError::NoSolution => "the puzzle has no solution".to_string(),
        SolveError::MultipleSolutions => "the puzzle has more than one solution".to_string(),
    }
}

impl Game {
    /// The game as a save in [`SAVE_FORMAT`]: the puzzle, the moves (with those taken back
    /// that [`Game::redo`] can replay), the mistakes and the time.
    pub fn to_bytes(&self) -> Vec<u8> {
        SAVE_FORMAT.encode(&SaveRef {
            puzzle: &self.puzzle,
            moves: self.moves().copied().collect(),
            redo: &self.redo,
            mistakes: self.mistakes,
            elapsed_ms: self.elapsed_ms,
        })
    }

    /// Loads a save written by [`Game::to_bytes`], replaying its moves. Bad, truncated,
    /// over-long, newer-version or impossible data is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
        let (_version, save): (u16, Save) = SAVE_FORMAT.decode(bytes)?;
        let mut game = Game::new(save.puzzle).map_err(|e| LoadError::Illegal(improper(e)))?;
        for (i, mv) in save.moves.iter().enumerate() {
            game.play(*mv).map_err(|e| {
                LoadError::Illegal(format!("move {} ({mv}) is illegal: {e}", i + 1))
            })?;
        }
        if save.mistakes < game.mistakes {
            return Err(LoadError::Illegal(format!(
                "the save counts {} mistakes but its moves enter {} wrong digits",
                save.mistakes, game.mistakes
            )));
        }
        let mut check = game.clone();
        for mv in save.redo.iter().rev() {
            check.play(*mv).map_err(|e| {
                LoadError::Illegal(format!("a move to redo ({mv}) is illegal: {e}"))
            })?;
        }
        game.redo = save.redo;
        game.mistakes = save.mistakes;
        game.elapsed_ms = save.elapsed_ms;
        Ok(game)
    }
}

/// The text form: five lines, the state without its history.
///
/// ```text
/// puzzle 1......2..4..3..
/// entries .2..............
/// notes r1c4:34 r2c1:3
/// mistakes 0
/// elapsed 61000
/// ```
///
/// `entries` has a digit where the player wrote one and `.` elsewhere (givens
/// included); `notes` lists the pencil marks of each cell that has some (`notes -` when
/// none); `elapsed` is in milliseconds.
impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "puzzle {}", self.puzzle)?;
        f.write_str("entries ")?;
        for (&g, &p) in self.grid.cells().iter().zip(self.puzzle.cells()) {
            let ch = if p == 0 { symbol_char(g) } else { '.' };
            write!(f, "{ch}")?;
        }
        f.write_str("\nnotes")?;
        let n = self.size().side();
        let mut any = false;
        for (cell, notes) in self.notes.iter().enumerate() {
            if notes.is_empty() {
                continue;
            }
            any = true;
            write!(f, " r{}c{}:", cell / n + 1, cell % n + 1)?;
            for d in notes.iter() {
                write!(f, "{}", symbol_char(d))?;
            }
        }
        if !any {
            f.write_str(" -")?;
        }
        writeln!(f, "\nmistakes {}", self.mistakes)?;
        writeln!(f, "elapsed {}", self.elapsed_ms)
    }
}

/// Why a text is not a game in the form of [`Game`]'s `Display`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseGameError {
    /// There is no `puzzle` line.
    #[error("a game needs a 'puzzle' line")]
    MissingPuzzle,
    /// A line is wrong.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl FromStr for Game {
    type Err = ParseGameError;

    fn from_str(text: &str) -> Result<Game, ParseGameError> {
        let mut fields: [Option<(usize, &str)>; 5] = [None; 5];
        const KEYS: [&str; 5] = ["puzzle", "entries", "notes", "mistakes", "elapsed"];
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let err = |message: String| ParseGameError::Line {
                line: line_no,
                message,
            };
            let k = KEYS
                .iter()
                .position(|k| k.eq_ignore_ascii_case(key))
                .ok_or_else(|| {
                    err(format!(
                        "unknown field {key:?} (use puzzle, entries, notes, mistakes, elapsed)"
                    ))
                })?;
            if fields[k].is_some() {
                return Err(err(format!("a second {:?} line", KEYS[k])));
            }
            fields[k] = Some((line_no, value.trim()));
        }
        let (line, puzzle) = fields[0].ok_or(ParseGameError::MissingPuzzle)?;
        let at = |line: usize| move |message: String| ParseGameError::Line { line, message };
        let puzzle: Grid = puzzle.parse().map_err(|e| at(line)(format!("{e}")))?;
        let mut game = Game::new(puzzle).map_err(|e| at(line)(improper(e)))?;
        let n = game.size().side();
        if let Some((line, entries)) = fields[1] {
            let err = at(line);
            let entries: Grid = entries.parse().map_err(|e| err(format!("{e}")))?;
            if entries.size() != game.size() {
                return Err(err(format!(
                    "the entries are a {} grid, the puzzle {}",
                    entries.size(),
                    game.size()
                )));
            }
            for (cell, &v) in entries.cells().iter().enumerate() {
                if v == 0 {
                    continue;
                }
                if game.puzzle.cells()[cell] != 0 {
                    return Err(err(format!(
                        "r{}c{} is a given, it cannot hold an entry",
                        cell / n + 1,
                        cell % n + 1
                    )));
                }
                game.write(cell, v, Digits::EMPTY);
            }
        }
        if let Some((line, notes)) = fields[2].filter(|&(_, v)| v != "-") {
            let err = at(line);
            for word in notes.split_whitespace() {
                let (cell, digits) = word
                    .split_once(':')
                    .ok_or_else(|| err(format!("{word:?} is not notes (write r1c2:357)")))?;
                let (row, col) = parse_cell(cell).map_err(|e| err(e.to_string()))?;
                let mut set = Digits::EMPTY;
                for ch in digits.chars() {
                    set.insert(
                        parse_digit(ch.encode_utf8(&mut [0; 4])).map_err(|e| err(e.to_string()))?,
                    );
                }
                let index = game.cell_index(row, col).map_err(|e| err(e.to_string()))?;
                game.check_digits(set).map_err(|e| err(e.to_string()))?;
                if game.grid.cells()[index] != 0 {
                    return Err(err(format!("{cell} holds a digit, it cannot have notes")));
                }
                if set.is_empty() || !game.notes[index].is_empty() {
                    return Err(err(format!("{word:?}: notes given twice or empty")));
                }
                game.notes[index] = set;
            }
        }
        let number = |field: Option<(usize, &str)>| -> Result<u64, ParseGameError> {
            match field {
                None => Ok(0),
                Some((line, v)) => v
                    .parse()
                    .map_err(|_| at(line)(format!("{v:?} is not a whole number"))),
            }
        };
        let wrong = game.wrong_entries().len() as u64;
        let mistakes = match fields[3] {
            None => wrong,
            Some((line, _)) => {
                let m = number(fields[3])?;
                if m < wrong {
                    return Err(at(line)(format!(
                        "{m} mistakes, but {wrong} of the entries are wrong"
                    )));
                }
                m
            }
        };
        game.mistakes = u32::try_from(mistakes).map_err(|_| ParseGameError::Line {
            line: fields[3].map_or(0, |f| f.0),
            message: format!("{mistakes} mistakes is too many"),
        })?;
        game.elapsed_ms = number(fields[4])?;
        Ok(game)
    }
}
