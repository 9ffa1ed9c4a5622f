//! Battleship online: your fleet and your shots from the server's view, drawn as in line
//! mode. Before the battle you arrange your fleet as offline (a random one to start with,
//! `auto`, `place`, `remove`, `rotate`, `clear`) and `done` places it: the other seat
//! learns only that it is placed. Then a typed cell is a shot.

use std::cell::RefCell;

use battleship_core::{Coord, Mark, Outcome, Placement, Rules, Ship, UniformFleets};
use serde_json::Value;
use tabletop_play::battleship::{self, Event, FleetCheck, Input};
use tabletop_play::{Ending, Seat};

use super::ConnectArgs;
use super::lines as client;
use super::remote::{Create, Remote, Reply, View};
use crate::battleship::{draw, parse_ship, show_placement};
use crate::common::{CliError, CliResult, Painter, clock_seed};

const HELP: &str = "\
placement commands (before the battle):
  place CELL h|v LEN   put a ship with its bow (top/left cell) at CELL, e.g. place a1 h 4
  remove CELL          take away the ship covering CELL
  rotate CELL          turn the ship covering CELL about its bow
  auto                 a uniformly random fleet
  clear                remove every ship
  done                 place the fleet shown (the other player never sees it)
battle commands:
  CELL        shoot, e.g. e5 (Russian letters а…к work too)
legend: # ship, X hit, o miss, ~ known water, . unknown";

/// The client's side of battleship: the fleet being arranged before it is placed (the
/// player's own until `done`).
pub(crate) struct Battleship {
    draft: RefCell<Option<Placement>>,
    /// The fleet commitments of the `table` message as seen before the first shot.
    first_commitments: RefCell<Value>,
}

impl Battleship {
    /// The game with no fleet arranged yet.
    pub(crate) fn new() -> Battleship {
        Battleship {
            draft: RefCell::new(None),
            first_commitments: RefCell::new(Value::Null),
        }
    }
}

/// Plays battleship at the server of `args`: a new table with `seats` and `rules`, or
/// the table of `--invite` or `--table`.
pub fn play(args: &ConnectArgs, seats: Vec<Value>, rules: Value) -> CliResult {
    client::play(Battleship::new(), args, Create { seats, rules })
}

/// The check of a finished game's fleets (docs/protocol.md, "Battleship fleet
/// commitments"): each fleet of the final view hashed with its salt is the commitment of
/// the last `table` message (`info`), and that commitment is the one first seen while no
/// shot was fired (`first`, when seen). `None` until the game is over and the salts are
/// revealed (or when no fleet was placed); then whether it holds and the words to say.
pub(crate) fn check_fleets(
    view: &View<Battleship>,
    info: &Value,
    first: &Value,
) -> Option<(bool, String)> {
    view.ending.as_ref()?;
    info["salts"].as_array()?;
    let hashes = |v: &Value| {
        [0, 1].map(|seat| {
            v[seat]
                .as_str()
                .and_then(tabletop_server::identity::unhex)
                .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        })
    };
    let check = battleship::check_fleets(
        &view.state.fleets,
        &hashes(&info["commitments"]),
        &hashes(&info["salts"]),
        &hashes(first),
    );
    let who = |seat: u8| Battleship::side(seat);
    let words = match check {
        FleetCheck::NothingToCheck => return None,
        FleetCheck::Verified { fleets: 1 } => {
            "Fleets verified: the fleet matches the server's commitment.".to_owned()
        }
        FleetCheck::Verified { .. } => {
            "Fleets verified: both match the server's commitments.".to_owned()
        }
        FleetCheck::NoSalt { seat } => {
            format!("Fleets NOT verified: {}'s salt does not read.", who(seat))
        }
        FleetCheck::NotCommitted { seat } => {
            format!(
                "Fleets NOT verified: {}'s fleet is not its commitment.",
                who(seat)
            )
        }
        FleetCheck::Changed { seat } => format!(
            "Fleets NOT verified: {}'s commitment changed in the game.",
            who(seat)
        ),
    };
    Some((check.verified(), words))
}

fn other(me: u8) -> usize {
    usize::from(1 - me.min(1))
}

impl Battleship {
    /// The fleet being arranged: a random one the first time.
    fn draft(&self, view: &View<Self>) -> Placement {
        self.draft
            .borrow_mut()
            .get_or_insert_with(|| random(&view.state.rules))
            .clone()
    }

    /// The placement commands, on the draft.
    fn arrange(&self, line: &str, view: &View<Self>, painter: Painter) -> CliResult<Reply> {
        let mut words = line.split_whitespace();
        let word = words.next().unwrap_or("").to_ascii_lowercase();
        let rest = words.collect::<Vec<_>>().join(" ");
        let mut p = self.draft(view);
        let cell = || -> CliResult<Coord> { Ok(rest.replace(' ', "").parse()?) };
        match word.as_str() {
            "done" | "ready" => {
                let fleet = p
                    .finish()
                    .map_err(|e| CliError::new(format!("the fleet is not ready: {e}")))?;
                return Ok(Reply::Play(vec![serde_json::to_value(Input::Place(
                    fleet,
                ))?]));
            }
            "show" => {}
            "auto" => p = random(p.rules()),
            "clear" => p.clear(),
            "place" | "put" => {
                let ship = parse_ship(&rest, p.rules())?;
                p.place(ship)
                    .map_err(|e| CliError::new(format!("cannot place {ship}: {e}")))?;
            }
            "remove" => {
                let cell = cell()?;
                p.remove(cell)
                    .ok_or_else(|| CliError::new(format!("no ship at {cell}")))?;
            }
            "rotate" => {
                let cell = cell()?;
                match p.rotate(cell) {
                    Ok(Some(_)) => {}
                    Ok(None) => return Err(CliError::new(format!("no ship at {cell}"))),
                    Err(e) => return Err(CliError::new(format!("cannot turn it: {e}"))),
                }
            }
            _ => {
                return Err(CliError::new(format!(
                    "place your fleet first: unknown command '{word}' (type help)"
                )));
            }
        }
        let text = show_placement(&p, &[], painter);
        *self.draft.borrow_mut() = Some(p);
        Ok(Reply::Text(text))
    }
}

/// A uniformly random fleet of `rules`, as a placement to change.
fn random(rules: &Rules) -> Placement {
    let fleet = UniformFleets::new(rules).sample_seeded(clock_seed());
    Placement::from_fleet(rules.clone(), &fleet)
}

impl Remote for Battleship {
    type View = battleship::View;
    type Score = Outcome;
    type Event = Event;
    const GAME: &'static str = "battleship";
    const HELP: &'static str = HELP;

    fn side(seat: u8) -> String {
        if seat == 0 {
            "the first shooter".to_owned()
        } else {
            "the second shooter".to_owned()
        }
    }

    fn board(&self, view: &View<Self>, me: Option<u8>, painter: Painter) -> String {
        let state = &view.state;
        let rules = &state.rules;
        let Some(me) = me else {
            let left = draw::target(rules, &state.tracking[1], painter);
            let right = draw::target(rules, &state.tracking[0], painter);
            return draw::side_by_side(
                ("first shooter's waters", "second shooter's waters"),
                &left,
                &right,
                rules,
            );
        };
        let mine = usize::from(me);
        if !state.placed[mine] {
            let draft = self.draft(view);
            return format!(
                "Your fleet ({rules}):\n{}",
                show_placement(&draft, &[], painter)
            );
        }
        let incoming = &state.tracking[other(me)];
        let left = match &state.fleets[mine] {
            Some(fleet) => draw::fleet(rules, fleet, Some(incoming), painter),
            None => draw::target(rules, incoming, painter),
        };
        let (title, right) = match &state.fleets[other(me)] {
            Some(enemy) if view.ending.is_some() => (
                "enemy fleet",
                draw::fleet(rules, enemy, Some(&state.tracking[mine]), painter),
            ),
            _ => (
                "enemy waters",
                draw::target(rules, &state.tracking[mine], painter),
            ),
        };
        let afloat: Vec<String> = state.tracking[mine]
            .afloat()
            .iter()
            .map(u8::to_string)
            .collect();
        format!(
            "{}enemy ships afloat: {}",
            draw::side_by_side(("your fleet", title), &left, &right, rules),
            afloat.join(" ")
        )
    }

    fn my_turn(&self, view: &View<Self>, me: u8) -> bool {
        !view.state.placed[usize::from(me)] || view.to_act == Some(Seat(me))
    }

    fn your_turn(&self, view: &View<Self>, me: u8) -> String {
        if !view.state.placed[usize::from(me)] {
            "Place your fleet: done takes the one shown, auto draws another.".to_owned()
        } else {
            format!("Your shot, {}: type a cell like e5.", Self::side(me))
        }
    }

    fn narrate(&self, event: &Event, me: Option<u8>) -> Option<String> {
        match event {
            Event::Placed { seat } if me != Some(seat.0) => Some(format!(
                "The other player ({}) has placed the fleet.",
                Self::side(seat.0)
            )),
            Event::BattleStarted => Some("Both fleets are placed: the battle begins.".to_owned()),
            Event::Shot { seat, cell, result } if me == Some(seat.0) => {
                Some(format!("you shoot {cell}: {result}"))
            }
            Event::Shot { cell, result, .. } => {
                Some(format!("the other player shoots {cell}: {result}"))
            }
            _ => None,
        }
    }

    fn command(
        &mut self,
        line: &str,
        view: &View<Self>,
        me: u8,
        painter: Painter,
    ) -> CliResult<Reply> {
        let state = &view.state;
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if !state.placed[usize::from(me)] {
            return self.arrange(line, view, painter);
        }
        if word == "show" {
            return Ok(Reply::Text(self.board(view, Some(me), painter)));
        }
        let cell: Coord = line
            .trim()
            .parse()
            .map_err(|e| CliError::new(format!("{e} (type help for commands)")))?;
        if state.tracking[usize::from(me)].mark(cell) == Mark::Water {
            return Err(CliError::new(format!(
                "{cell} is known water (next to a sunk ship): shoot elsewhere"
            )));
        }
        Ok(Reply::Play(vec![serde_json::to_value(Input::Shoot(cell))?]))
    }

    fn result(&self, ending: &Ending<Self::Score>, view: &View<Self>, me: Option<u8>) -> String {
        let you = match ending.winner {
            Some(seat) if me == Some(seat.0) => "you win".to_owned(),
            Some(seat) if me.is_some() => format!("{} wins: you lose", Self::side(seat.0)),
            Some(seat) => format!("{} wins", Self::side(seat.0)),
            None => "no winner".to_owned(),
        };
        let enemy = me
            .and_then(|me| view.state.fleets[other(me)].as_ref())
            .map(|fleet| {
                let ships: Vec<String> = fleet.ships().iter().map(Ship::to_string).collect();
                format!(" (the enemy fleet: {})", ships.join(", "))
            })
            .unwrap_or_default();
        format!("{you}{enemy}")
    }

    /// The fleets of the end against the server's commitments ([`check_fleets`]); the
    /// commitments are kept as first seen before any shot.
    fn end_check(&self, view: &View<Self>, info: &Value) -> Option<(bool, String)> {
        let mut first = self.first_commitments.borrow_mut();
        if info["commitments"].is_array() && (view.state.shots.is_empty() || first.is_null()) {
            *first = info["commitments"].clone();
        }
        check_fleets(view, info, &first)
    }

    /// A table that committed to a fleet reveals the salts at the end.
    fn has_end_check(&self, info: &Value) -> bool {
        info["commitments"]
            .as_array()
            .is_some_and(|c| c.iter().any(Value::is_string))
    }
}
