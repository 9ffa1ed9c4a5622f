//! A whole game: roll-off, dice, turns, history, result and versioned saves.

use alloc::vec::Vec;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::dice::{Dice, RollOff};
use crate::movegen::{MoveList, Turn};
use crate::position::{CHECKERS, Color, Position};
use crate::rules::{Opening, Rules, Scoring};
use crate::steps::{PlayError, TurnBuilder};

/// One played turn of the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Who played.
    pub color: Color,
    /// The dice thrown.
    pub dice: Dice,
    /// The steps played (empty for a forced pass).
    pub turn: Turn,
}

/// How a game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinKind {
    /// The loser had borne off at least one checker: 1 point.
    Oin,
    /// The loser had borne off none: 2 points.
    Mars,
    /// The loser had borne off none and still had a checker in its starting quarter
    /// ([`Scoring::WithKoks`] only): 3 points.
    Koks,
}

impl WinKind {
    /// The points this win scores.
    pub fn points(self) -> u8 {
        match self {
            WinKind::Oin => 1,
            WinKind::Mars => 2,
            WinKind::Koks => 3,
        }
    }
}

/// The end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Oin, mars or koks.
        kind: WinKind,
    },
    /// Both sides finished under the last-roll-tie rule.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// The points scored by the winner (0 for a draw).
    pub fn points(self) -> u8 {
        match self {
            Outcome::Win { kind, .. } => kind.points(),
            Outcome::Draw => 0,
        }
    }
}

/// How a finished position scores for `winner` under `rules`.
pub fn score(position: &Position, winner: Color, rules: &Rules) -> WinKind {
    let loser = winner.opponent();
    if position.borne_off(loser) > 0 {
        WinKind::Oin
    } else if rules.scoring == Scoring::WithKoks && position.in_starting_quarter(loser) {
        WinKind::Koks
    } else {
        WinKind::Mars
    }
}

/// Why a saved game cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The data does not start with the nardy save header.
    #[error("not a Long Nardy save file (wrong header)")]
    BadHeader,
    /// The save was written by a newer version of the engine.
    #[error(
        "the save has format version {0}, newer than this program understands ({SAVE_VERSION})"
    )]
    NewerVersion(u8),
    /// The data is truncated or corrupt.
    #[error("the save file is corrupt or truncated")]
    Corrupt,
    /// The data decodes, but the game it describes is not consistent.
    #[error("the save file is inconsistent: {0}")]
    Inconsistent(&'static str),
}

/// The first bytes of every save.
pub const SAVE_MAGIC: [u8; 6] = *b"NARDY\x1a";
/// The current save format version.
pub const SAVE_VERSION: u8 = 1;

/// A game of Long Nardy: rules, position, the dice to play, the generator that throws the
/// dice, the history and the result.
///
/// The dice of the side to move are thrown as soon as the previous turn ends, and the
/// generator's state is saved with the game, so reloading a save never re-rolls them.
///
/// ```
/// use nardy_core::{Game, Rules};
/// let mut game = Game::new(Rules::default(), 7);
/// while game.outcome().is_none() {
///     let turn = game.legal_turns()[0].clone();
///     game.play(&turn)?;
/// }
/// let bytes = game.to_bytes();
/// assert_eq!(Game::from_bytes(&bytes)?, game);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GameRepr", into = "GameRepr")]
pub struct Game {
    rules: Rules,
    roll_off: Option<RollOff>,
    initial: Position,
    position: Position,
    dice: Dice,
    rng: ChaCha8Rng,
    history: Vec<TurnRecord>,
    outcome: Option<Outcome>,
}

#[derive(Serialize, Deserialize)]
struct GameRepr {
    rules: Rules,
    roll_off: Option<RollOff>,
    initial: Position,
    position: Position,
    dice: Dice,
    rng: ChaCha8Rng,
    history: Vec<TurnRecord>,
    outcome: Option<Outcome>,
}

impl From<Game> for GameRepr {
    fn from(g: Game) -> GameRepr {
        GameRepr {
            rules: g.rules,
            roll_off: g.roll_off,
            initial: g.initial,
            position: g.position,
            dice: g.dice,
            rng: g.rng,
            history: g.history,
            outcome: g.outcome,
        }
    }
}

impl TryFrom<GameRepr> for Game {
    type Error = LoadError;

    /// Replays the history from the start to check that the game is consistent.
    fn try_from(r: GameRepr) -> Result<Game, LoadError> {
        if let Some(roll_off) = &r.roll_off {
            let Some(&(w, b)) = roll_off.throws.last() else {
                return Err(LoadError::Inconsistent("no roll-off"));
            };
            let valid_die = |d: u8| (1..=6).contains(&d);
            if roll_off
                .throws
                .iter()
                .any(|&(x, y)| !valid_die(x) || !valid_die(y))
                || roll_off.throws[..roll_off.throws.len() - 1]
                    .iter()
                    .any(|&(x, y)| x != y)
                || w == b
            {
                return Err(LoadError::Inconsistent("bad roll-off"));
            }
            if r.initial != Position::start().with_turn(roll_off.winner()) {
                return Err(LoadError::Inconsistent(
                    "a game with a roll-off starts from the start position",
                ));
            }
        }
        if r.initial.finished().is_some() {
            return Err(LoadError::Inconsistent("the game starts finished"));
        }
        let mut replay = Game {
            rules: r.rules,
            roll_off: r.roll_off.clone(),
            initial: r.initial,
            position: r.initial,
            dice: r.dice,
            rng: r.rng.clone(),
            history: Vec::new(),
            outcome: None,
        };
        let roll_off_dice = r
            .roll_off
            .as_ref()
            .filter(|_| r.rules.opening == Opening::RollOff)
            .map(RollOff::dice);
        for (i, rec) in r.history.iter().enumerate() {
            if replay.outcome.is_some() {
                return Err(LoadError::Inconsistent("turns after the end of the game"));
            }
            if rec.color != replay.position.turn() {
                return Err(LoadError::Inconsistent("a turn by the wrong side"));
            }
            if i == 0 && roll_off_dice.is_some_and(|d| d != rec.dice) {
                return Err(LoadError::Inconsistent(
                    "first dice differ from the roll-off",
                ));
            }
            replay.dice = rec.dice;
            replay
                .apply(&rec.turn, None)
                .map_err(|_| LoadError::Inconsistent("an illegal turn in the history"))?;
        }
        if replay.position != r.position {
            return Err(LoadError::Inconsistent(
                "the position does not follow from the history",
            ));
        }
        if replay.outcome != r.outcome {
            return Err(LoadError::Inconsistent(
                "the result does not follow from the history",
            ));
        }
        if r.history.is_empty() && roll_off_dice.is_some_and(|d| d != r.dice) {
            return Err(LoadError::Inconsistent(
                "first dice differ from the roll-off",
            ));
        }
        Ok(Game {
            rules: r.rules,
            roll_off: r.roll_off,
            initial: r.initial,
            position: r.position,
            dice: r.dice,
            rng: r.rng,
            history: r.history,
            outcome: r.outcome,
        })
    }
}

impl Game {
    /// A new game: the roll-off and the first dice are thrown with a ChaCha8 generator
    /// seeded with `seed`.
    pub fn new(rules: Rules, seed: u64) -> Game {
        Game::with_rng(rules, ChaCha8Rng::seed_from_u64(seed))
    }

    /// A new game throwing its dice with `rng`: the roll-off, then the first dice (the
    /// roll-off dice under [`Opening::RollOff`], a fresh throw under [`Opening::Reroll`]).
    pub fn with_rng(rules: Rules, mut rng: ChaCha8Rng) -> Game {
        let roll_off = RollOff::roll(&mut rng);
        let dice = match rules.opening {
            Opening::RollOff => roll_off.dice(),
            Opening::Reroll => Dice::roll(&mut rng),
        };
        let initial = Position::start().with_turn(roll_off.winner());
        Game {
            rules,
            roll_off: Some(roll_off),
            initial,
            position: initial,
            dice,
            rng,
            history: Vec::new(),
            outcome: None,
        }
    }

    /// A game continuing from a set-up `position` (its side to move counts as the first
    /// mover for the last-roll tie), with fresh dice from a ChaCha8 generator seeded with
    /// `seed`. A finished position is an error.
    pub fn from_position(rules: Rules, position: Position, seed: u64) -> Result<Game, PlayError> {
        if position.finished().is_some() {
            return Err(PlayError::GameOver);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let dice = Dice::roll(&mut rng);
        Ok(Game {
            rules,
            roll_off: None,
            initial: position,
            position,
            dice,
            rng,
            history: Vec::new(),
            outcome: None,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The roll-off that decided the first mover (`None` for a game set up with
    /// [`Game::from_position`]).
    pub fn roll_off(&self) -> Option<&RollOff> {
        self.roll_off.as_ref()
    }

    /// The side that moved first.
    pub fn first_mover(&self) -> Color {
        self.initial.turn()
    }

    /// The position the game started from.
    pub fn initial_position(&self) -> &Position {
        &self.initial
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The dice the side to move plays (the last dice thrown once the game is over).
    pub fn dice(&self) -> Dice {
        self.dice
    }

    /// The turns played so far.
    pub fn history(&self) -> &[TurnRecord] {
        &self.history
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The winner, once the game is won (`None` while it is on, or for a draw).
    pub fn winner(&self) -> Option<Color> {
        self.outcome.and_then(Outcome::winner)
    }

    /// The points the winner scored (0 while the game is on, or for a draw).
    pub fn points(&self) -> u8 {
        self.outcome.map_or(0, Outcome::points)
    }

    /// The side to move, while the game is on.
    pub fn to_move(&self) -> Option<Color> {
        self.outcome.is_none().then_some(self.position.turn())
    }

    /// Every distinct legal turn for the current dice (empty once the game is over; a
    /// single pass when no step is legal).
    pub fn legal_turns(&self) -> MoveList {
        if self.outcome.is_some() {
            return MoveList::new();
        }
        self.position.legal_turns(self.dice, &self.rules)
    }

    /// Same as [`Game::legal_turns`], under the name the other Tabletop engines use.
    pub fn legal_moves(&self) -> MoveList {
        self.legal_turns()
    }

    /// Whether the side to move must pass (no legal step with its dice).
    pub fn must_pass(&self) -> bool {
        let turns = self.legal_turns();
        turns.len() == 1 && turns[0].is_pass()
    }

    /// A step-by-step builder for the current turn.
    pub fn builder(&self) -> Result<TurnBuilder, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        Ok(TurnBuilder::new(self.position, self.dice, self.rules))
    }

    /// Plays a whole turn for the side to move, then throws the next side's dice. An
    /// illegal turn is an error and changes nothing.
    pub fn play(&mut self, turn: &Turn) -> Result<(), PlayError> {
        let mut rng = self.rng.clone();
        self.apply(turn, Some(&mut rng))?;
        self.rng = rng;
        Ok(())
    }

    /// Plays a turn built step by step (see [`Game::builder`]).
    pub fn play_builder(&mut self, builder: &TurnBuilder) -> Result<(), PlayError> {
        if builder.start() != &self.position || builder.dice() != self.dice {
            return Err(PlayError::Incomplete);
        }
        let turn = builder.finish()?;
        self.play(&turn)
    }

    fn apply(&mut self, turn: &Turn, rng: Option<&mut ChaCha8Rng>) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let color = self.position.turn();
        let next = self.position.play(self.dice, turn, &self.rules)?;
        self.history.push(TurnRecord {
            color,
            dice: self.dice,
            turn: turn.clone(),
        });
        self.position = next;
        let first = self.first_mover();
        let finished = |c: Color| next.borne_off(c) == CHECKERS;
        self.outcome = if color != first && finished(first) {
            // The second mover's last turn under the last-roll tie (or the first mover
            // finished earlier without it, which cannot happen: the game ended then).
            if finished(color) {
                Some(Outcome::Draw)
            } else {
                Some(Outcome::Win {
                    winner: first,
                    kind: score(&next, first, &self.rules),
                })
            }
        } else if finished(color) {
            if self.rules.last_roll_tie && color == first {
                None
            } else {
                Some(Outcome::Win {
                    winner: color,
                    kind: score(&next, color, &self.rules),
                })
            }
        } else {
            None
        };
        if self.outcome.is_none()
            && let Some(rng) = rng
        {
            self.dice = Dice::roll(rng);
        }
        Ok(())
    }

    /// The game as a save: [`SAVE_MAGIC`], [`SAVE_VERSION`], then postcard.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::from(SAVE_MAGIC);
        out.push(SAVE_VERSION);
        let body = postcard::to_allocvec(self).expect("a game always serializes");
        out.extend_from_slice(&body);
        out
    }

    /// Loads a save written by [`Game::to_bytes`]. Bad, truncated, inconsistent or
    /// newer-version data is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
        let rest = bytes
            .strip_prefix(&SAVE_MAGIC)
            .ok_or(LoadError::BadHeader)?;
        let (&version, body) = rest.split_first().ok_or(LoadError::Corrupt)?;
        if version > SAVE_VERSION {
            return Err(LoadError::NewerVersion(version));
        }
        if version == 0 {
            return Err(LoadError::Corrupt);
        }
        let repr: GameRepr = match postcard::from_bytes(body) {
            Ok(r) => r,
            Err(_) => return Err(LoadError::Corrupt),
        };
        Game::try_from(repr)
    }
}
