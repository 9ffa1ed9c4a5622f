//! A whole game: roll-off, dice, turns, history with undo and redo, and the result.

use alloc::vec::Vec;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::dice::{Dice, RollOff};
use crate::movegen::{Move, MoveList};
use crate::outcome::{Outcome, score};
use crate::position::{CHECKERS, Color, Position};
use crate::rules::{Opening, Rules};
use crate::steps::{PlayError, TurnBuilder};

/// One played turn of the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Who played.
    pub color: Color,
    /// The dice thrown.
    pub dice: Dice,
    /// The steps played (the pass when no step was legal).
    pub mv: Move,
}

/// A game of Long Nardy: rules, position, the dice to play, the generator that throws the
/// dice, the history and the result.
///
/// The dice of the side to move are thrown as soon as the previous turn ends, and the
/// generator's state is saved with the game, so reloading a save never re-rolls them.
/// [`Game::undo`] takes back whole turns and restores the dice and the generator, so
/// playing again rolls the same dice.
///
/// ```
/// use nardy_core::{Game, Rules};
/// let mut game = Game::new(Rules::default(), 7);
/// while game.outcome().is_none() {
///     let mv = game.legal_moves()[0].clone();
///     game.play(&mv)?;
/// }
/// let bytes = game.to_bytes();
/// assert_eq!(Game::from_bytes(&bytes)?, game);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub(crate) rules: Rules,
    pub(crate) roll_off: Option<RollOff>,
    pub(crate) initial: Position,
    pub(crate) position: Position,
    pub(crate) dice: Dice,
    pub(crate) rng: ChaCha8Rng,
    /// Turns that cannot be taken back: 0, except for a game loaded from a format-1 save
    /// whose generator could not be traced back to its start.
    pub(crate) base_turns: usize,
    /// The generator once `base_turns` turns were played and the dice of the next one
    /// thrown; undo re-derives the generator of any later turn from it.
    pub(crate) base_rng: ChaCha8Rng,
    pub(crate) history: Vec<TurnRecord>,
    /// The position before each turn of `history`.
    pub(crate) before: Vec<Position>,
    /// Turns taken back, the next one to replay last.
    pub(crate) redo: Vec<Move>,
    pub(crate) outcome: Option<Outcome>,
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
        let initial = Position::start().with_side_to_move(roll_off.winner());
        Game::starting(rules, Some(roll_off), initial, dice, rng)
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
        Ok(Game::starting(rules, None, position, dice, rng))
    }

    /// A game with no turn played yet.
    pub(crate) fn starting(
        rules: Rules,
        roll_off: Option<RollOff>,
        initial: Position,
        dice: Dice,
        rng: ChaCha8Rng,
    ) -> Game {
        Game {
            rules,
            roll_off,
            initial,
            position: initial,
            dice,
            base_turns: 0,
            base_rng: rng.clone(),
            rng,
            history: Vec::new(),
            before: Vec::new(),
            redo: Vec::new(),
            outcome: None,
        }
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
        self.initial.side_to_move()
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

    /// The side to move (once the game is over, the side that would be next; see
    /// [`Game::outcome`]).
    pub fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }

    /// Every distinct legal turn for the current dice (empty once the game is over; a
    /// single pass when no step is legal).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() {
            return MoveList::new();
        }
        self.position.legal_moves(self.dice, &self.rules)
    }

    /// Whether the side to move must pass (no legal step with its dice).
    pub fn must_pass(&self) -> bool {
        let moves = self.legal_moves();
        moves.len() == 1 && moves[0].is_pass()
    }

    /// A step-by-step builder for the current turn.
    pub fn builder(&self) -> Result<TurnBuilder, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        Ok(TurnBuilder::new(self.position, self.dice, self.rules))
    }

    /// Plays a whole turn for the side to move, then throws the next side's dice. An
    /// illegal turn is an error and changes nothing. The turns taken back with
    /// [`Game::undo`] can no longer be redone.
    pub fn play(&mut self, mv: &Move) -> Result<(), PlayError> {
        self.apply(mv, true)?;
        self.redo.clear();
        Ok(())
    }

    /// Plays a turn built step by step (see [`Game::builder`]).
    pub fn play_builder(&mut self, builder: &TurnBuilder) -> Result<(), PlayError> {
        if builder.start() != &self.position || builder.dice() != self.dice {
            return Err(PlayError::Incomplete);
        }
        let mv = builder.finish()?;
        self.play(&mv)
    }

    /// Takes back the last turn: the position, the dice that were rolled for it and the
    /// generator are restored, so playing on rolls the same dice again. `None` when no
    /// turn can be taken back.
    ///
    /// ```
    /// use nardy_core::{Game, Rules};
    /// let mut game = Game::new(Rules::default(), 3);
    /// let start = game.clone();
    /// let first = game.legal_moves()[0].clone();
    /// game.play(&first)?;
    /// let after = game.clone();
    /// assert_eq!(game.undo(), Some(first.clone()));
    /// assert_eq!(game.position(), start.position());
    /// assert_eq!(game.dice(), start.dice());
    /// assert_eq!(game.redo(), Some(first));
    /// assert_eq!(game, after);
    /// # Ok::<(), nardy_core::PlayError>(())
    /// ```
    pub fn undo(&mut self) -> Option<Move> {
        if self.history.len() <= self.base_turns {
            return None;
        }
        let record = self.history.pop()?;
        self.position = self.before.pop()?;
        self.dice = record.dice;
        self.outcome = None;
        self.rng = self.base_rng.clone();
        for _ in self.base_turns..self.history.len() {
            Dice::roll(&mut self.rng);
        }
        self.redo.push(record.mv.clone());
        Some(record.mv)
    }

    /// Plays again the last turn taken back with [`Game::undo`] (with the same dice);
    /// `None` when there is none.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        match self.apply(&mv, true) {
            Ok(()) => Some(mv),
            Err(_) => {
                // Unreachable for a redo list built by `undo`; drop it rather than panic.
                self.redo.clear();
                None
            }
        }
    }

    /// The turns that [`Game::redo`] would play again, the next one last.
    pub fn redo_moves(&self) -> &[Move] {
        &self.redo
    }

    /// Plays `mv` with the current dice; with `roll`, throws the next dice if the game
    /// goes on. On error nothing changes.
    pub(crate) fn apply(&mut self, mv: &Move, roll: bool) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let color = self.position.side_to_move();
        let mut next = self.position;
        next.play(self.dice, mv, &self.rules)?;
        self.history.push(TurnRecord {
            color,
            dice: self.dice,
            mv: mv.clone(),
        });
        self.before.push(self.position);
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
        if self.outcome.is_none() && roll {
            self.dice = Dice::roll(&mut self.rng);
        }
        Ok(())
    }
}
