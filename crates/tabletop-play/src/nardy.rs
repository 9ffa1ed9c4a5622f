//! Long Nardy at a table: whole turns or single steps, dice thrown by the engine, forced
//! passes played by the table, undo back to a person's turn with the same dice.
//!
//! Seat 0 is White, seat 1 is Black.

use alloc::vec::Vec;

use nardy_core::ai::Bot;
use nardy_core::{
    Color, Dice, Game, Move, Outcome, Position, Rules, Step, TurnBuilder, TurnRecord,
};
use rand::Rng;
use serde::{Deserialize, Serialize};
use tabletop_common::LoadError;

use crate::table::{Action, Table, TableGame, persons_turn};
use crate::{Player, Refusal, Seat, Viewer};

pub use crate::proof::{DiceProof, PROOF_FORMAT};
pub use crate::verify::{DiceCheck, Mismatch, Played, check, commitment_of, game_seed};

/// The seat of a colour.
pub fn seat_of(color: Color) -> Seat {
    Seat(color.index() as u8)
}

/// The colour of a seat.
pub fn color_of(seat: Seat) -> Color {
    if seat.0 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// A new table: a game under `rules` with dice from `seed`, White and Black played by
/// `players`; a forced first pass is played at once.
pub fn new_table(rules: Rules, seed: u64, players: [Player; 2]) -> Table<Nardy> {
    Table::new(Nardy::new(Game::new(rules, seed)), &players)
}

/// What a seat does: one step of its turn, or a whole turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// One step (`24/18`); the turn ends when no die is left to play.
    Step(Step),
    /// A whole turn (`24/18 18/13`), from the start of the turn.
    Turn(Move),
}

/// What happened in a nardy game; no event holds a future roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A step of a turn in progress.
    Step {
        /// Who.
        seat: Seat,
        /// The step.
        step: Step,
    },
    /// A step taken back.
    StepTakenBack {
        /// Whose.
        seat: Seat,
        /// The step.
        step: Step,
    },
    /// A whole turn was played (`forced` for a pass the table played).
    Turn {
        /// Who.
        seat: Seat,
        /// The dice.
        dice: Dice,
        /// The turn.
        mv: Move,
        /// Whether the table played it because nothing else was legal.
        forced: bool,
    },
    /// A turn was taken back; its dice will be thrown again as they were.
    TurnTakenBack {
        /// Whose.
        seat: Seat,
        /// The turn.
        mv: Move,
    },
    /// The dice of the next turn.
    Rolled {
        /// Who will play them.
        seat: Seat,
        /// The dice.
        dice: Dice,
    },
}

/// A game of Long Nardy with the steps of a turn in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nardy {
    game: Game,
    /// The steps of the side to move played so far this turn.
    played: Vec<Step>,
}

/// What a viewer sees of a nardy game: everything public, never the generator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The rules.
    pub rules: Rules,
    /// The position with the steps of the turn in progress played.
    pub position: Position,
    /// The position at the start of the turn.
    pub turn_start: Position,
    /// The dice of the turn, while the game goes on.
    pub dice: Option<Dice>,
    /// The steps played so far this turn.
    pub played: Vec<Step>,
    /// The dice still to play this turn.
    pub dice_left: Vec<u8>,
    /// Every legal next step.
    pub legal_steps: Vec<Step>,
    /// The turns played.
    pub history: Vec<TurnRecord>,
    /// How many turns redo would play again.
    pub redo: usize,
}

impl Nardy {
    /// A table state around `game`; a forced pass of its side to move is played at once.
    pub fn new(game: Game) -> Nardy {
        let mut nardy = Nardy {
            game,
            played: Vec::new(),
        };
        nardy.forced_passes(&mut Vec::new());
        nardy
    }

    /// The engine game (at the start of the turn in progress).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The steps played so far this turn.
    pub fn played(&self) -> &[Step] {
        &self.played
    }

    /// The turn in progress, step by step (`None` once the game is over).
    pub fn builder(&self) -> Option<TurnBuilder> {
        let mut b = self.game.builder().ok()?;
        b.play_all(&self.played).ok()?;
        Some(b)
    }

    /// The position with the steps of the turn in progress played.
    pub fn position(&self) -> Position {
        match self.builder() {
            Some(b) if !self.played.is_empty() => b.position(),
            _ => *self.game.position(),
        }
    }

    /// Plays the pass for every side that has no legal move.
    fn forced_passes(&mut self, events: &mut Vec<Event>) {
        while self.game.outcome().is_none() && self.game.must_pass() {
            let seat = seat_of(self.game.side_to_move());
            let dice = self.game.dice();
            if self.game.play(&Move::pass()).is_err() {
                break;
            }
            events.push(Event::Turn {
                seat,
                dice,
                mv: Move::pass(),
                forced: true,
            });
            self.rolled(events);
        }
    }

    /// Announces the dice of the next turn, if the game goes on.
    fn rolled(&self, events: &mut Vec<Event>) {
        if self.game.outcome().is_none() {
            events.push(Event::Rolled {
                seat: seat_of(self.game.side_to_move()),
                dice: self.game.dice(),
            });
        }
    }

    fn finish_turn(&mut self, mv: Move, events: &mut Vec<Event>) -> Result<(), Refusal> {
        let seat = seat_of(self.game.side_to_move());
        let dice = self.game.dice();
        self.game.play(&mv).map_err(Refusal::illegal)?;
        self.played.clear();
        events.push(Event::Turn {
            seat,
            dice,
            mv,
            forced: false,
        });
        self.rolled(events);
        self.forced_passes(events);
        Ok(())
    }

    /// Whether a person must decide now (not a bot, not a forced pass).
    fn person_decides(&self, persons: &[bool]) -> bool {
        !self.game.must_pass() && persons_turn(persons, self.to_act())
    }
}

impl TableGame for Nardy {
    type Input = Input;
    type Event = Event;
    type Score = Outcome;
    type View = View;
    const NAME: &'static str = "nardy";

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> Option<Seat> {
        self.game
            .outcome()
            .is_none()
            .then(|| seat_of(self.game.side_to_move()))
    }

    fn play(
        &mut self,
        seat: Seat,
        input: &Input,
        events: &mut Vec<Event>,
    ) -> Result<bool, Refusal> {
        match input {
            Input::Turn(mv) => {
                if !self.played.is_empty() {
                    return Err(Refusal::Illegal(alloc::format!(
                        "{} step(s) of this turn are played: go on step by step or take them back",
                        self.played.len()
                    )));
                }
                self.finish_turn(mv.clone(), events)?;
                Ok(true)
            }
            Input::Step(step) => {
                let mut b = self.builder().ok_or(Refusal::GameOver)?;
                b.play(*step).map_err(Refusal::illegal)?;
                events.push(Event::Step { seat, step: *step });
                if !b.is_complete() {
                    self.played.push(*step);
                    return Ok(false);
                }
                let mv = b.finish().map_err(Refusal::illegal)?;
                self.finish_turn(mv, events)?;
                Ok(true)
            }
        }
    }

    fn undo(&mut self, persons: &[bool], events: &mut Vec<Event>) -> Result<(), Refusal> {
        if let Some(step) = self.played.pop() {
            events.push(Event::StepTakenBack {
                seat: seat_of(self.game.side_to_move()),
                step,
            });
            return Ok(());
        }
        loop {
            let Some(mv) = self.game.undo() else {
                return Err(Refusal::NothingToUndo);
            };
            events.push(Event::TurnTakenBack {
                seat: seat_of(self.game.side_to_move()),
                mv,
            });
            if self.person_decides(persons) {
                return Ok(());
            }
        }
    }

    fn redo(&mut self, persons: &[bool], events: &mut Vec<Event>) -> Result<(), Refusal> {
        if !self.played.is_empty() {
            return Err(Refusal::Illegal(
                "take back the steps of this turn before redoing".into(),
            ));
        }
        let mut first = true;
        while first || !self.person_decides(persons) {
            let seat = seat_of(self.game.side_to_move());
            let dice = self.game.dice();
            let Some(mv) = self.game.redo() else {
                if first {
                    return Err(Refusal::NothingToRedo);
                }
                break;
            };
            first = false;
            events.push(Event::Turn {
                seat,
                dice,
                forced: mv.is_pass(),
                mv,
            });
            self.rolled(events);
        }
        self.forced_passes(events);
        Ok(())
    }

    fn outcome(&self) -> Option<(Option<Seat>, Outcome)> {
        let outcome = self.game.outcome()?;
        Some((outcome.winner().map(seat_of), outcome))
    }

    fn concede(&self, loser: Seat) -> Outcome {
        let winner = color_of(loser).other();
        Outcome::Win {
            winner,
            kind: nardy_core::score(self.game.position(), winner, self.game.rules()),
        }
    }

    fn view(&self, _viewer: Viewer, _over: bool) -> View {
        let builder = self.builder();
        View {
            rules: *self.game.rules(),
            position: self.position(),
            turn_start: *self.game.position(),
            dice: self.game.outcome().is_none().then(|| self.game.dice()),
            played: self.played.clone(),
            dice_left: builder
                .as_ref()
                .map(|b| b.remaining_dice())
                .unwrap_or_default(),
            legal_steps: builder.map(|b| b.legal_steps()).unwrap_or_default(),
            history: self.game.history().to_vec(),
            redo: self.game.redo_moves().len(),
        }
    }

    fn encode(&self) -> Vec<u8> {
        self.game.to_bytes()
    }

    fn decode(bytes: &[u8]) -> Result<Nardy, LoadError> {
        Ok(Nardy::new(Game::from_bytes(bytes)?))
    }
}

/// The action `bot` chooses for the seat to act (`None` once the game is over). The
/// frontend runs this wherever it likes and applies the action for that seat.
pub fn bot_action(nardy: &Nardy, bot: &mut dyn Bot, rng: &mut dyn Rng) -> Option<Action<Input>> {
    if nardy.game.outcome().is_some() {
        return None;
    }
    let mv = bot.choose_move(nardy.game.position(), nardy.game.dice(), rng)?;
    Some(Action::Play(Input::Turn(mv)))
}
