//! Reversi at a table: one move a turn, forced passes played by the table, undo back to a
//! person's move.
//!
//! Seat 0 is Black, seat 1 is White (whoever the rules let move first).

use alloc::vec::Vec;

use rand::Rng;
use reversi_core::ai::Bot;
use reversi_core::{Color, Game, Move, Outcome, Position, Rules, SquareSet};
use serde::{Deserialize, Serialize};
use tabletop_common::LoadError;

use crate::table::{Action, Table, TableGame, persons_turn};
use crate::{Player, Refusal, Seat, Viewer};

/// The seat of a colour.
pub fn seat_of(color: Color) -> Seat {
    match color {
        Color::Black => Seat(0),
        Color::White => Seat(1),
    }
}

/// The colour of a seat.
pub fn color_of(seat: Seat) -> Color {
    if seat.0 == 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// A new table: a game under `rules`, Black and White played by `players`.
pub fn new_table(rules: Rules, players: [Player; 2]) -> Table<Reversi> {
    Table::new(Reversi::new(Game::new(rules)), &players)
}

/// What happened in a reversi game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A move with the discs it flipped; a pass (always forced) flips none.
    Moved {
        /// Who.
        seat: Seat,
        /// The move.
        mv: Move,
        /// The discs turned over.
        flipped: SquareSet,
    },
    /// A move taken back.
    TakenBack {
        /// Whose.
        seat: Seat,
        /// The move.
        mv: Move,
    },
}

/// A game of reversi at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reversi {
    game: Game,
}

/// What a viewer sees of a reversi game (everything: reversi has no secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The rules.
    pub rules: Rules,
    /// The position.
    pub position: Position,
    /// The legal moves of the side to move.
    pub legal: Vec<Move>,
    /// The moves played, passes included.
    pub moves: Vec<Move>,
    /// The discs the last move flipped.
    pub last_flipped: SquareSet,
    /// Whether redo would play a move again.
    pub can_redo: bool,
}

impl Reversi {
    /// A table state around `game`; a forced pass is played at once.
    pub fn new(game: Game) -> Reversi {
        let mut reversi = Reversi { game };
        reversi.forced_passes(&mut Vec::new());
        reversi
    }

    /// The engine game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn forced_passes(&mut self, events: &mut Vec<Event>) {
        while !self.game.is_over() && self.game.position().must_pass() {
            let seat = seat_of(self.game.side_to_move());
            if self.game.play(Move::Pass).is_err() {
                break;
            }
            events.push(Event::Moved {
                seat,
                mv: Move::Pass,
                flipped: SquareSet::default(),
            });
        }
    }

    fn person_decides(&self, persons: &[bool]) -> bool {
        !self.game.position().must_pass() && persons_turn(persons, self.to_act())
    }

    /// The discs flipped by the last move.
    pub fn last_flipped(&self) -> SquareSet {
        let positions = self.game.positions();
        match (self.game.moves().last(), positions.len()) {
            (Some(Move::Place(sq)), n) if n >= 2 => positions[n - 2].flips(*sq),
            _ => SquareSet::default(),
        }
    }
}

impl TableGame for Reversi {
    type Input = Move;
    type Event = Event;
    type Score = Outcome;
    type View = View;
    const NAME: &'static str = "reversi";

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> Option<Seat> {
        (!self.game.is_over()).then(|| seat_of(self.game.side_to_move()))
    }

    fn play(&mut self, seat: Seat, mv: &Move, events: &mut Vec<Event>) -> Result<bool, Refusal> {
        let flipped = self.game.play(*mv).map_err(Refusal::illegal)?;
        events.push(Event::Moved {
            seat,
            mv: *mv,
            flipped,
        });
        self.forced_passes(events);
        Ok(true)
    }

    fn undo(&mut self, persons: &[bool], events: &mut Vec<Event>) -> Result<(), Refusal> {
        loop {
            let Some(mv) = self.game.undo() else {
                return Err(Refusal::NothingToUndo);
            };
            events.push(Event::TakenBack {
                seat: seat_of(self.game.side_to_move()),
                mv,
            });
            if self.person_decides(persons) {
                return Ok(());
            }
        }
    }

    fn redo(&mut self, persons: &[bool], events: &mut Vec<Event>) -> Result<(), Refusal> {
        let mut first = true;
        while first || !self.person_decides(persons) {
            let seat = seat_of(self.game.side_to_move());
            let before = *self.game.position();
            let Some(mv) = self.game.redo() else {
                if first {
                    return Err(Refusal::NothingToRedo);
                }
                break;
            };
            first = false;
            let flipped = match mv {
                Move::Place(sq) => before.flips(sq),
                Move::Pass => SquareSet::default(),
            };
            events.push(Event::Moved { seat, mv, flipped });
        }
        self.forced_passes(events);
        Ok(())
    }

    fn outcome(&self) -> Option<(Option<Seat>, Outcome)> {
        let outcome = self.game.outcome()?;
        Some((outcome.winner().map(seat_of), outcome))
    }

    fn concede(&self, _loser: Seat) -> Outcome {
        let pos = self.game.position();
        Outcome {
            black: pos.count(Color::Black) as u8,
            white: pos.count(Color::White) as u8,
        }
    }

    fn view(&self, _viewer: Viewer, _over: bool) -> View {
        View {
            rules: self.game.rules(),
            position: *self.game.position(),
            legal: self.game.legal_moves().to_vec(),
            moves: self.game.moves().to_vec(),
            last_flipped: self.last_flipped(),
            can_redo: self.game.can_redo(),
        }
    }

    fn encode(&self) -> Vec<u8> {
        self.game.to_bytes()
    }

    fn decode(bytes: &[u8]) -> Result<Reversi, LoadError> {
        Ok(Reversi::new(Game::from_bytes(bytes)?))
    }
}

/// The action `bot` chooses for the side to move (`None` once the game is over).
pub fn bot_action(reversi: &Reversi, bot: &mut dyn Bot, rng: &mut dyn Rng) -> Option<Action<Move>> {
    if reversi.game.is_over() {
        return None;
    }
    Some(Action::Play(bot.choose_move(reversi.game.position(), rng)?))
}
