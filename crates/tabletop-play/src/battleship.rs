//! Battleship at a table: each seat places its fleet (seat 0 first), then the seats shoot;
//! a seat sees its own fleet and both sides' shots, never the other fleet before the end.
//!
//! Seat 0 shoots first. A placement action carries the whole fleet: it is kept in the log
//! (the save) but no event or view shows it to anyone else. Before that a seat may keep
//! its fleet in progress at the table ([`Input::Arrange`], a draft), so that a save made
//! during a hand placement keeps the ships placed so far; only that seat sees its draft.

use alloc::vec::Vec;

use battleship_core::ai::Bot;
use battleship_core::{
    Coord, Fleet, Game, Outcome, Placement, Player as Side, Rules, Ship, ShotResult, Tracking,
};
use rand::Rng;
use serde::{Deserialize, Serialize};
use tabletop_common::LoadError;

pub use crate::fleets::{FleetCheck, check_fleets, fleet_commitment};
use crate::table::{Action, Table, TableGame, persons_turn};
use crate::{Player, Refusal, Seat, Viewer};

/// The seat of a side.
pub fn seat_of(side: Side) -> Seat {
    Seat(side.index() as u8)
}

/// The side of a seat.
pub fn side_of(seat: Seat) -> Side {
    if seat.0 == 0 {
        Side::First
    } else {
        Side::Second
    }
}

/// A new table under `rules`, no fleet placed yet.
pub fn new_table(rules: Rules, players: [Player; 2]) -> Table<Battleship> {
    Table::new(Battleship::new(rules), &players)
}

/// What a seat does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// Place the seat's whole fleet (once, before the battle).
    Place(Fleet),
    /// Keep the ships placed so far (each one where the rules allow it, as in a
    /// [`Placement`]) as the seat's draft, replacing its previous draft, until it places
    /// its fleet. Nothing else changes and no one else learns where they are.
    Arrange(Vec<Ship>),
    /// Shoot at a cell of the other grid.
    Shoot(Coord),
}

/// What happened; a placement says only that it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A seat has changed its fleet in progress (where, only that seat knows).
    Arranged {
        /// Who.
        seat: Seat,
    },
    /// A seat has placed its fleet.
    Placed {
        /// Who.
        seat: Seat,
    },
    /// Both fleets are placed: the battle begins.
    BattleStarted,
    /// A shot and its result.
    Shot {
        /// Who shot.
        seat: Seat,
        /// Where.
        cell: Coord,
        /// Miss, hit, sunk (with the ship) or the game's end.
        result: ShotResult,
    },
    /// A shot taken back.
    ShotTakenBack {
        /// Whose.
        seat: Seat,
        /// Where.
        cell: Coord,
    },
}

/// A battleship match: fleets being placed, then the battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Battleship {
    rules: Rules,
    fleets: [Option<Fleet>; 2],
    /// Each seat's fleet in progress, until it places its fleet.
    drafts: [Vec<Ship>; 2],
    game: Option<Game>,
}

/// What a viewer may know: its own fleet, and the shots of both sides (announced to both).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The rules.
    pub rules: Rules,
    /// Whether each seat has placed its fleet.
    pub placed: [bool; 2],
    /// The fleets the viewer may see: its own once placed, both once the game is over.
    pub fleets: [Option<Fleet>; 2],
    /// The viewer's own fleet in progress ([`Input::Arrange`]) before it places its
    /// fleet; empty for a spectator and for every other seat's.
    pub draft: Vec<Ship>,
    /// What each seat's shots have revealed of the other grid.
    pub tracking: [Tracking; 2],
    /// Every shot, in order.
    pub shots: Vec<(Seat, Coord, ShotResult)>,
}

/// The state a save of this module encodes.
#[derive(Serialize, Deserialize)]
struct Saved {
    rules: Rules,
    fleets: [Option<Fleet>; 2],
    drafts: [Vec<Ship>; 2],
    game: Option<Vec<u8>>,
}

/// The format of a battleship table state that is not an engine game.
const STATE_FORMAT: tabletop_common::Format =
    tabletop_common::Format::new(*b"TTBP", 1, "Battleship placement");

impl Battleship {
    /// Before the placement, under `rules`.
    pub fn new(rules: Rules) -> Battleship {
        Battleship {
            rules,
            fleets: [None, None],
            drafts: [Vec::new(), Vec::new()],
            game: None,
        }
    }

    /// The battle of an engine game.
    pub fn from_game(game: Game) -> Battleship {
        Battleship {
            rules: game.rules().clone(),
            fleets: [
                Some(game.fleet(Side::First).clone()),
                Some(game.fleet(Side::Second).clone()),
            ],
            drafts: [Vec::new(), Vec::new()],
            game: Some(game),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The engine game, once the battle has begun.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The fleet `seat` placed. This is the referee's knowledge: a frontend shows a person
    /// [`Table::view`](crate::Table::view), never this.
    pub fn fleet(&self, seat: Seat) -> Option<&Fleet> {
        self.fleets.get(seat.index())?.as_ref()
    }

    /// The placement `seat` has in progress: its draft's ships ([`Input::Arrange`]), or
    /// `None` once it has placed its fleet. Like [`Battleship::fleet`], the referee's
    /// knowledge: a frontend may resume its own seat's placement from it.
    pub fn placement(&self, seat: Seat) -> Option<Placement> {
        let draft = self.drafts.get(seat.index())?;
        if self.placed(seat) {
            return None;
        }
        let mut placement = Placement::new(self.rules.clone());
        for ship in draft {
            // every draft was checked ship by ship when it was arranged
            placement.place(*ship).ok()?;
        }
        Some(placement)
    }

    /// Whether `seat` has placed its fleet.
    pub fn placed(&self, seat: Seat) -> bool {
        self.fleets.get(seat.index()).is_some_and(Option::is_some)
    }

    /// What `seat`'s own shots have revealed (a bot decides from this alone).
    pub fn tracking(&self, seat: Seat) -> Tracking {
        match &self.game {
            Some(g) => g.view(side_of(seat)).tracking().clone(),
            None => Tracking::new(self.rules.clone()),
        }
    }

    fn person_decides(&self, persons: &[bool]) -> bool {
        self.game.is_some() && persons_turn(persons, self.to_act())
    }
}

impl TableGame for Battleship {
    type Input = Input;
    type Event = Event;
    type Score = Outcome;
    type View = View;
    const NAME: &'static str = "battleship";

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> Option<Seat> {
        match &self.game {
            Some(g) => (!g.is_over()).then(|| seat_of(g.side_to_move())),
            None => (0..2u8).map(Seat).find(|&s| !self.placed(s)),
        }
    }

    fn may_act(&self, seat: Seat) -> bool {
        match &self.game {
            None => seat.index() < 2 && !self.placed(seat),
            Some(_) => self.to_act() == Some(seat),
        }
    }

    fn play(
        &mut self,
        seat: Seat,
        input: &Input,
        events: &mut Vec<Event>,
    ) -> Result<bool, Refusal> {
        match (input, &mut self.game) {
            (Input::Arrange(ships), None) => {
                let mut placement = Placement::new(self.rules.clone());
                for ship in ships {
                    placement.place(*ship).map_err(Refusal::illegal)?;
                }
                self.drafts[seat.index()] = ships.clone();
                events.push(Event::Arranged { seat });
                Ok(false)
            }
            (Input::Arrange(_), Some(_)) => Err(Refusal::Illegal(
                "the fleets are placed: the battle is on".into(),
            )),
            (Input::Place(fleet), None) => {
                fleet.validate(&self.rules).map_err(Refusal::illegal)?;
                let mut fleets = self.fleets.clone();
                fleets[seat.index()] = Some(fleet.clone());
                if let [Some(a), Some(b)] = &fleets {
                    let game = Game::new(self.rules.clone(), a.clone(), b.clone())
                        .map_err(Refusal::illegal)?;
                    self.game = Some(game);
                    events.push(Event::Placed { seat });
                    events.push(Event::BattleStarted);
                } else {
                    events.push(Event::Placed { seat });
                }
                self.fleets = fleets;
                self.drafts[seat.index()].clear();
                Ok(true)
            }
            (Input::Place(_), Some(_)) => Err(Refusal::Illegal(
                "the fleets are placed: the battle is on".into(),
            )),
            (Input::Shoot(_), None) => Err(Refusal::Illegal(
                "the battle begins when both fleets are placed".into(),
            )),
            (Input::Shoot(cell), Some(game)) => {
                let result = game.play(*cell).map_err(Refusal::illegal)?;
                events.push(Event::Shot {
                    seat,
                    cell: *cell,
                    result,
                });
                Ok(game.side_to_move() != side_of(seat) || game.is_over())
            }
        }
    }

    fn undo(&mut self, persons: &[bool], events: &mut Vec<Event>) -> Result<(), Refusal> {
        loop {
            let game = self.game.as_mut().ok_or(Refusal::NothingToUndo)?;
            let Some(cell) = game.undo() else {
                return Err(Refusal::NothingToUndo);
            };
            events.push(Event::ShotTakenBack {
                seat: seat_of(game.side_to_move()),
                cell,
            });
            if self.person_decides(persons) {
                return Ok(());
            }
        }
    }

    fn redo(&mut self, persons: &[bool], events: &mut Vec<Event>) -> Result<(), Refusal> {
        let mut first = true;
        while first || !self.person_decides(persons) {
            let Some(game) = self.game.as_mut() else {
                return Err(Refusal::NothingToRedo);
            };
            let seat = seat_of(game.side_to_move());
            let Some(cell) = game.redo() else {
                if first {
                    return Err(Refusal::NothingToRedo);
                }
                break;
            };
            first = false;
            let result = game
                .history()
                .last()
                .map(|&(_, _, r)| r)
                .unwrap_or(ShotResult::Miss);
            events.push(Event::Shot { seat, cell, result });
        }
        Ok(())
    }

    fn outcome(&self) -> Option<(Option<Seat>, Outcome)> {
        let outcome = self.game.as_ref()?.outcome()?;
        Some((Some(seat_of(outcome.winner)), outcome))
    }

    fn concede(&self, loser: Seat) -> Outcome {
        let winner = side_of(loser.other());
        Outcome {
            winner,
            shots: self
                .game
                .as_ref()
                .map_or(0, |g| g.view(winner).tracking().shots_fired()),
        }
    }

    fn view(&self, viewer: Viewer, over: bool) -> View {
        let visible = |i: usize| over || viewer.seat().is_some_and(|s| s.index() == i);
        View {
            rules: self.rules.clone(),
            placed: [self.fleets[0].is_some(), self.fleets[1].is_some()],
            fleets: [0, 1].map(|i| self.fleets[i].clone().filter(|_| visible(i))),
            draft: viewer
                .seat()
                .and_then(|s| self.drafts.get(s.index()))
                .cloned()
                .unwrap_or_default(),
            tracking: [self.tracking(Seat(0)), self.tracking(Seat(1))],
            shots: self
                .game
                .as_ref()
                .map(|g| {
                    g.history()
                        .iter()
                        .map(|&(p, c, r)| (seat_of(p), c, r))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    fn encode(&self) -> Vec<u8> {
        match &self.game {
            Some(game) => game.to_bytes(),
            None => STATE_FORMAT.encode(&Saved {
                rules: self.rules.clone(),
                fleets: self.fleets.clone(),
                drafts: self.drafts.clone(),
                game: None,
            }),
        }
    }

    fn decode(bytes: &[u8]) -> Result<Battleship, LoadError> {
        if bytes.starts_with(&STATE_FORMAT.magic()) {
            let (_, saved): (u16, Saved) = STATE_FORMAT.decode(bytes)?;
            if saved.game.is_some() || saved.fleets.iter().all(Option::is_some) {
                return Err(LoadError::Corrupt);
            }
            for fleet in saved.fleets.iter().flatten() {
                fleet
                    .validate(&saved.rules)
                    .map_err(|e| LoadError::Illegal(alloc::format!("{e}")))?;
            }
            for (fleet, draft) in saved.fleets.iter().zip(&saved.drafts) {
                if fleet.is_some() && !draft.is_empty() {
                    return Err(LoadError::Corrupt);
                }
                let mut placement = Placement::new(saved.rules.clone());
                for ship in draft {
                    placement
                        .place(*ship)
                        .map_err(|e| LoadError::Illegal(alloc::format!("{e}")))?;
                }
            }
            return Ok(Battleship {
                rules: saved.rules,
                fleets: saved.fleets,
                drafts: saved.drafts,
                game: None,
            });
        }
        Ok(Battleship::from_game(Game::from_bytes(bytes)?))
    }
}

/// The shot `bot` chooses for the seat to shoot, from that seat's own knowledge only
/// (`None` before the battle or after it).
pub fn bot_shot(state: &Battleship, bot: &mut dyn Bot, rng: &mut dyn Rng) -> Option<Action<Input>> {
    let game = state.game.as_ref()?;
    if game.is_over() {
        return None;
    }
    let tracking = state.tracking(seat_of(game.side_to_move()));
    Some(Action::Play(Input::Shoot(bot.choose_move(&tracking, rng)?)))
}
