//! Reversi online: the board and the legal moves of the server's view, drawn as in line
//! mode; a typed square (`f5`) is the move.

use reversi_core::{Color, Move};
use serde_json::Value;
use tabletop_play::Ending;
use tabletop_play::reversi::{self, Event};

use super::ConnectArgs;
use super::lines as client;
use super::remote::{Create, Remote, Reply, View};
use crate::common::{CliError, CliResult, Painter};
use crate::reversi::{describe, draw, score_line};

const HELP: &str = "\
commands:
  f5            play a disc on a square (column a-h, row 1-8); passes are played for you";

/// Reversi as the online client plays it.
pub(crate) struct Reversi;

/// Plays reversi at the server of `args`: a new table with `seats` and `rules`, or the
/// table of `--invite` or `--table`.
pub fn play(args: &ConnectArgs, seats: Vec<Value>, rules: Value) -> CliResult {
    client::play(Reversi, args, Create { seats, rules })
}

fn color(seat: u8) -> Color {
    reversi::color_of(tabletop_play::Seat(seat))
}

impl Remote for Reversi {
    type View = reversi::View;
    type Score = reversi_core::Outcome;
    type Event = Event;
    const GAME: &'static str = "reversi";
    const HELP: &'static str = HELP;

    fn side(seat: u8) -> String {
        let c = color(seat);
        format!("{c} ({})", c.letter())
    }

    fn board(&self, view: &View<Self>, _me: Option<u8>, painter: Painter) -> String {
        if view.ending.is_some() {
            // The result line follows; `describe` would say it a second time.
            format!(
                "{}\n{}",
                draw(&view.state.position, painter),
                score_line(&view.state.position)
            )
        } else {
            describe(&view.state.position, painter)
        }
    }

    fn your_turn(&self, view: &View<Self>, me: u8) -> String {
        let legal: Vec<String> = view.state.legal.iter().map(Move::to_string).collect();
        format!("Your move, {}: {}", Self::side(me), legal.join(" "))
    }

    fn narrate(&self, event: &Event, me: Option<u8>) -> Option<String> {
        match event {
            Event::Moved { seat, mv, flipped } => {
                let who = if me == Some(seat.0) {
                    "You".to_owned()
                } else {
                    color(seat.0).to_string()
                };
                Some(match mv {
                    Move::Pass => format!("{who} had no legal move: pass."),
                    _ => {
                        let n = flipped.len();
                        let discs = if n == 1 { "disc" } else { "discs" };
                        let verb = if who == "You" { "play" } else { "plays" };
                        format!("{who} {verb} {mv}, flipping {n} {discs}.")
                    }
                })
            }
            Event::TakenBack { .. } => None,
        }
    }

    fn command(
        &mut self,
        line: &str,
        _view: &View<Self>,
        _me: u8,
        _painter: Painter,
    ) -> CliResult<Reply> {
        let mv: Move = line.trim().parse().map_err(|_| {
            CliError::new(format!(
                "unknown command '{line}': type a move like f5, or help"
            ))
        })?;
        Ok(Reply::Play(vec![serde_json::to_value(mv)?]))
    }

    fn result(&self, ending: &Ending<Self::Score>, _view: &View<Self>, me: Option<u8>) -> String {
        let you = match ending.winner {
            Some(seat) if me == Some(seat.0) => " (you win)",
            Some(_) if me.is_some() => " (you lose)",
            _ => "",
        };
        match (ending.reason, ending.winner) {
            (tabletop_play::EndReason::Rules, _) => format!("{}{you}", ending.score),
            (_, Some(seat)) => format!("{} wins{you}", color(seat.0)),
            (_, None) => "a draw".to_owned(),
        }
    }
}
