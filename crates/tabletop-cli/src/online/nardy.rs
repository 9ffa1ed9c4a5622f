//! Long Nardy online: the board, dice and legal steps of the server's view, drawn as in
//! line mode. A typed turn (`24/18 18/13`) goes as one `turn` from the start of a turn,
//! else step by step; the table refuses what is illegal.

use nardy_core::{Color, Move, Outcome};
use serde_json::Value;
use tabletop_play::nardy::{self, Event, Input};
use tabletop_play::{Ending, Seat};

use super::ConnectArgs;
use super::lines as client;
use super::remote::{Create, Remote, Reply, View};
use crate::common::{CliError, CliResult, Painter};
use crate::nardy::{board_text, dice_text};

const HELP: &str = "\
commands:
  24/18 18/13   play a whole turn (steps in the order played; 24/18(2), 3/off work)
  24/18         play one step; the turn ends when every playable die is used
  moves         list the legal next steps
  from 24       legal steps of the checker on point 24";

/// Long Nardy as the online clients play it.
pub(crate) struct Nardy;

/// Plays nardy at the server of `args`: a new table with `seats` and `rules`, or the
/// table of `--invite` or `--table`.
pub fn play(args: &ConnectArgs, seats: Vec<Value>, rules: Value) -> CliResult {
    client::play(Nardy, args, Create { seats, rules })
}

fn color(seat: u8) -> Color {
    nardy::color_of(Seat(seat))
}

/// The view's legal next steps, as text.
fn steps(view: &View<Nardy>) -> String {
    let steps: Vec<String> = view
        .state
        .legal_steps
        .iter()
        .map(|s| s.to_string())
        .collect();
    steps.join(" ")
}

impl Remote for Nardy {
    type View = nardy::View;
    type Score = Outcome;
    type Event = Event;
    const GAME: &'static str = "nardy";
    const HELP: &'static str = HELP;

    fn side(seat: u8) -> String {
        color(seat).to_string()
    }

    fn board(&self, view: &View<Self>, me: Option<u8>, painter: Painter) -> String {
        let to_move = view.to_act.zip(view.state.dice).map(|(seat, dice)| {
            let who = if me == Some(seat.0) { " (you)" } else { "" };
            (color(seat.0), who, dice)
        });
        board_text(painter, view.state.position, to_move)
    }

    fn mid_turn(&self, view: &View<Self>) -> bool {
        !view.state.played.is_empty() && view.ending.is_none()
    }

    fn your_turn(&self, view: &View<Self>, me: u8) -> String {
        let state = &view.state;
        let dice = state.dice.map(dice_text).unwrap_or_default();
        if state.played.is_empty() {
            format!(
                "Your move, {}, dice {dice}: legal steps {}",
                Self::side(me),
                steps(view)
            )
        } else {
            let played: Vec<String> = state.played.iter().map(|s| s.to_string()).collect();
            let left: Vec<String> = state.dice_left.iter().map(u8::to_string).collect();
            format!(
                "Your move, {}, dice {dice}: played {}; dice left {}; legal steps {}",
                Self::side(me),
                played.join(" "),
                left.join(" "),
                steps(view)
            )
        }
    }

    fn narrate(&self, event: &Event, me: Option<u8>) -> Option<String> {
        let Event::Turn {
            seat,
            dice,
            mv,
            forced,
        } = event
        else {
            return None;
        };
        let text = dice_text(*dice);
        let c = color(seat.0);
        Some(if *forced {
            format!("{c} rolls {text} and has no legal move: pass.")
        } else if me == Some(seat.0) {
            format!("You played {mv}.")
        } else {
            format!("{c} rolls {text} and plays {mv}.")
        })
    }

    fn command(
        &mut self,
        line: &str,
        view: &View<Self>,
        me: u8,
        _painter: Painter,
    ) -> CliResult<Reply> {
        let lower = line.trim().to_ascii_lowercase();
        if view.to_act != Some(Seat(me)) {
            return Err(CliError::new("it is not your turn"));
        }
        if lower == "moves" {
            return Ok(Reply::Text(format!("Legal next steps: {}", steps(view))));
        }
        if let Some(point) = lower.strip_prefix("from") {
            let point: u8 = point
                .trim()
                .parse()
                .map_err(|_| CliError::new("usage: from POINT, e.g. from 24"))?;
            let from: Vec<String> = view
                .state
                .legal_steps
                .iter()
                .filter(|s| s.from() == point)
                .map(|s| s.to_string())
                .collect();
            return Ok(Reply::Text(if from.is_empty() {
                format!("No legal step from {point} now.")
            } else {
                format!("From {point}: {}", from.join(" "))
            }));
        }
        let mv: Move = line.parse().map_err(|e: nardy_core::ParseMoveError| {
            CliError::new(format!("{e}; type help for the commands"))
        })?;
        if mv.is_pass() {
            return Err(CliError::new(
                "you cannot pass: the table passes for you when nothing is legal",
            ));
        }
        let state = &view.state;
        // A whole turn from its start goes at once, so a wrong step refuses it all.
        let inputs = if state.played.is_empty() && mv.steps().len() == state.dice_left.len() {
            vec![Input::Turn(mv)]
        } else {
            mv.steps().iter().map(|s| Input::Step(*s)).collect()
        };
        let inputs = inputs
            .iter()
            .map(serde_json::to_value)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Reply::Play(inputs))
    }

    fn result(&self, ending: &Ending<Self::Score>, _view: &View<Self>, me: Option<u8>) -> String {
        let you = match ending.winner {
            Some(seat) if me == Some(seat.0) => " (you win)",
            Some(_) if me.is_some() => " (you lose)",
            _ => "",
        };
        format!("{}{you}", ending.score)
    }
}
