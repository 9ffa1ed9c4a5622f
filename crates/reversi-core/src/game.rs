//! A whole game: its positions and moves, undo/redo, the move record and saves.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use tabletop_common::{Format, LoadError};

use crate::{Color, Move, MoveList, Outcome, PlayError, Position, Rules, SquareSet};

/// A game record: the moves in order, e.g. `f5d6c3d3c4`.
///
/// As text, moves are square names concatenated without separators and passes are
/// omitted; [`Game::from_record`] infers them when it replays the record. On input,
/// whitespace between moves is allowed and explicit passes (`pass`, `pa`, `ps`, `--`)
/// are accepted and kept.
///
/// ```
/// use reversi_core::{Game, Record, Rules};
///
/// let record: Record = "f5d6C3 d3c4".parse()?;
/// assert_eq!(record.to_string(), "f5d6c3d3c4");
/// let game = Game::from_record(Rules::default(), &record)?;
/// assert_eq!(game.moves().len(), 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Record(pub Vec<Move>);

impl Record {
    /// The moves, explicit passes included.
    pub fn moves(&self) -> &[Move] {
        &self.0
    }
}

impl fmt::Display for Record {
    /// The squares concatenated, passes omitted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for mv in &self.0 {
            if let Move::Place(sq) = mv {
                write!(f, "{sq}")?;
            }
        }
        Ok(())
    }
}

/// Why a game record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index} of the record: '{text}' is not a move (squares are a1 to h8)")]
pub struct ParseRecordError {
    /// The 1-based number of the move that could not be read.
    pub index: usize,
    /// The text found there.
    pub text: String,
}

impl FromStr for Record {
    type Err = ParseRecordError;

    fn from_str(s: &str) -> Result<Record, ParseRecordError> {
        let mut moves = Vec::new();
        let mut rest = s.trim_start();
        while !rest.is_empty() {
            let index = moves.len() + 1;
            let bytes = rest.as_bytes();
            if bytes.len() >= 4
                && rest.is_char_boundary(4)
                && rest[..4].eq_ignore_ascii_case("pass")
            {
                moves.push(Move::Pass);
                rest = rest[4..].trim_start();
                continue;
            }
            let cut = rest.char_indices().nth(2).map_or(rest.len(), |(i, _)| i);
            let token = &rest[..cut];
            match token.parse::<Move>() {
                Ok(mv) if token.chars().count() == 2 => moves.push(mv),
                _ => {
                    return Err(ParseRecordError {
                        index,
                        text: token.into(),
                    });
                }
            }
            rest = rest[cut..].trim_start();
        }
        Ok(Record(moves))
    }
}

/// Why a record could not be replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index} ({mv}) is illegal: {reason}")]
pub struct ReplayError {
    /// The 1-based number of the move in the record (inferred passes not counted).
    pub index: usize,
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: PlayError,
}

/// The binary save format of a game: magic `TTRV`, version 1, then the game in
/// postcard (the rules, the start position, the moves played and the moves undone).
pub const SAVE_FORMAT: Format = Format::new(*b"TTRV", 1, "Reversi");

/// A game: the start position, the moves played (passes included) and the positions
/// they led to, plus the moves undone and not yet replayed (for redo).
///
/// ```
/// use reversi_core::{Color, Game, Move, Rules};
///
/// let mut game = Game::new(Rules::default());
/// game.play("f5".parse()?)?;
/// game.play("d6".parse()?)?;
/// assert_eq!(game.position().side_to_move(), Color::Black);
/// assert_eq!(game.undo(), Some("d6".parse()?));
/// assert_eq!(game.redo(), Some("d6".parse()?));
/// assert_eq!(game.record().to_string(), "f5d6");
///
/// let bytes = game.to_bytes();
/// assert_eq!(Game::from_bytes(&bytes)?, game);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    /// `positions[0]` is the start, `positions[i + 1]` the position after `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Undone moves, the next one to redo last.
    redo: Vec<Move>,
}

/// The body of a save: enough to replay the game. The start position is kept as its raw
/// fields (the same bytes as a `Position`) so that overlapping bitboards are reported as
/// an illegal game rather than a damaged file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct GameData {
    rules: Rules,
    start: RawStart,
    moves: Vec<Move>,
    redo: Vec<Move>,
}

/// The fields of a `Position`, in its serialised order, not yet validated.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct RawStart {
    player: u64,
    opponent: u64,
    turn: Color,
}

impl GameData {
    fn of(game: &Game) -> GameData {
        let start = game.start();
        GameData {
            rules: game.rules,
            start: RawStart {
                player: start.player(),
                opponent: start.opponent(),
                turn: start.side_to_move(),
            },
            moves: game.moves.clone(),
            redo: game.redo.clone(),
        }
    }

    /// Replays the saved moves (and checks the redo list replays too).
    fn replay(self) -> Result<Game, LoadError> {
        let illegal = |e: &dyn fmt::Display| LoadError::Illegal(alloc::format!("{e}"));
        let start = Position::new(self.start.player, self.start.opponent, self.start.turn)
            .map_err(|e| illegal(&e))?;
        self.replay_from(start).map_err(|e| illegal(&e))
    }

    fn replay_from(self, start: Position) -> Result<Game, ReplayError> {
        let data = self;
        let mut game = Game::from_position(data.rules, start);
        for (i, &mv) in data.moves.iter().enumerate() {
            game.play(mv).map_err(|reason| ReplayError {
                index: i + 1,
                mv,
                reason,
            })?;
        }
        // The redo list must replay from here too (last entry first).
        let mut probe = *game.position();
        for (i, &mv) in data.redo.iter().rev().enumerate() {
            probe.play(mv).map_err(|reason| ReplayError {
                index: data.moves.len() + i + 1,
                mv,
                reason,
            })?;
        }
        game.redo = data.redo;
        Ok(game)
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Rules::default())
    }
}

impl Game {
    /// A new game from the start position of `rules`.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(rules, rules.start_position())
    }

    /// A game starting from any position.
    pub fn from_position(rules: Rules, start: Position) -> Game {
        Game {
            rules,
            positions: alloc::vec![start],
            moves: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// Replays a record from the start position of `rules`, inserting a pass wherever the
    /// side to move has no legal move.
    pub fn from_record(rules: Rules, record: &Record) -> Result<Game, ReplayError> {
        Game::from_record_at(rules, rules.start_position(), record)
    }

    /// Replays a record from `start`, inserting passes where forced.
    pub fn from_record_at(
        rules: Rules,
        start: Position,
        record: &Record,
    ) -> Result<Game, ReplayError> {
        let mut game = Game::from_position(rules, start);
        for (i, &mv) in record.0.iter().enumerate() {
            let error = |reason| ReplayError {
                index: i + 1,
                mv,
                reason,
            };
            if !mv.is_pass() && game.position().must_pass() {
                game.play(Move::Pass).map_err(error)?;
            }
            game.play(mv).map_err(error)?;
        }
        Ok(game)
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The record of the moves played (passes omitted when printed).
    pub fn record(&self) -> Record {
        Record(self.moves.clone())
    }

    /// Plays `mv` (a square or a pass); the redo list is cleared. On an illegal move
    /// nothing changes. Returns the flipped discs.
    pub fn play(&mut self, mv: Move) -> Result<SquareSet, PlayError> {
        let mut next = *self.position();
        let flipped = next.play(mv)?;
        self.positions.push(next);
        self.moves.push(mv);
        self.redo.clear();
        Ok(flipped)
    }

    /// Takes back the last move (a pass counts as a move); `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.redo.push(mv);
        Some(mv)
    }

    /// Replays the last undone move; `None` if there is none.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        let mut next = *self.position();
        next.play(mv).expect("redo moves were legal here");
        self.positions.push(next);
        self.moves.push(mv);
        Some(mv)
    }

    /// Whether there is a move to undo.
    pub fn can_undo(&self) -> bool {
        !self.moves.is_empty()
    }

    /// Whether there is a move to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The colour to move.
    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// The final disc count once the game is over, `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    /// The legal moves of the current position (see [`Position::legal_moves`]).
    pub fn legal_moves(&self) -> MoveList {
        self.position().legal_moves()
    }

    /// The binary save in [`SAVE_FORMAT`].
    pub fn to_bytes(&self) -> Vec<u8> {
        SAVE_FORMAT.encode(&GameData::of(self))
    }

    /// Loads a binary save written by [`Game::to_bytes`]. The game is replayed move by
    /// move, so a save can only hold a legal game. Damaged, truncated, over-long or
    /// newer-version data is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
        let (_version, data): (u16, GameData) = SAVE_FORMAT.decode(bytes)?;
        data.replay()
    }
}
