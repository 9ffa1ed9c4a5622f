//! Sudoku online: a puzzle the server made, alone at its table (others may watch). The
//! grid comes from the server's view, which never holds the solution: the server counts
//! mistakes, and `hint`, `check` and `verify` stay in offline play.

use std::cell::Cell;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sudoku_core::Move;
use tabletop_play::Ending;
use tabletop_play::sudoku::{self, Event, Input, Score};

use super::ConnectArgs;
use super::lines as client;
use super::remote::{Create, Remote, Reply, View};
use crate::common::{CliError, CliResult, Painter};
use crate::sudoku::draw_cells;
use crate::sudoku::text::{clock, plural};

const HELP: &str = "\
commands:
  r3c5 7        write 7 in row 3, column 5
  clear r3c5    remove the digit (or else the notes) of r3c5
  note r3c5 1 2 switch the pencil marks 1 and 2 of r3c5 on or off
  show          draw the grid again
  solve         show the solution (ends the game)
(hint, check and verify need the solution, which the server keeps: offline only)";

/// The client's side of sudoku: the time spent since the last report (the table adds up
/// the times its player reports, as offline).
pub(crate) struct Sudoku {
    since: Cell<Instant>,
}

impl Sudoku {
    /// A client side whose time counts from now.
    pub(crate) fn new() -> Sudoku {
        Sudoku {
            since: Cell::new(Instant::now()),
        }
    }

    /// The time spent since the last report, not yet reported.
    pub(crate) fn unreported(&self) -> Duration {
        self.since.get().elapsed()
    }

    /// The inputs that play `mv`: the time spent goes first, so the table's clock has it
    /// when the puzzle ends.
    pub(crate) fn inputs(&self, mv: Move) -> CliResult<Vec<Value>> {
        let now = Instant::now();
        let spent = now.duration_since(self.since.replace(now));
        let ms = u64::try_from(spent.as_millis()).unwrap_or(u64::MAX).max(1);
        Ok(vec![
            serde_json::to_value(Input::Time(ms))?,
            serde_json::to_value(Input::Move(mv))?,
        ])
    }
}

/// Plays a sudoku of the server of `args` with these rules (`{"size": 9}`), or the table
/// of `--table`.
pub fn play(args: &ConnectArgs, rules: Value) -> CliResult {
    client::play(
        Sudoku::new(),
        args,
        Create {
            seats: vec![json!("me")],
            rules,
        },
    )
}

/// The empty cells of the view.
fn empty(view: &View<Sudoku>) -> usize {
    view.state.grid.cells().iter().filter(|&&v| v == 0).count()
}

impl Remote for Sudoku {
    type View = sudoku::View;
    type Score = Score;
    type Event = Event;
    const GAME: &'static str = "sudoku";
    const HELP: &'static str = HELP;

    fn side(_seat: u8) -> String {
        "the solver".to_owned()
    }

    fn board(&self, view: &View<Self>, _me: Option<u8>, painter: Painter) -> String {
        let mistakes = view.state.mistakes as usize;
        format!(
            "{}{} to fill, {} so far, time {}.",
            draw_cells(&view.state.puzzle, &view.state.grid, painter),
            plural(empty(view), "cell"),
            plural(mistakes, "mistake"),
            clock(Duration::from_millis(view.state.elapsed_ms))
        )
    }

    fn your_turn(&self, _view: &View<Self>, _me: u8) -> String {
        "Your move: type an entry like r3c5 7, or help.".to_owned()
    }

    fn narrate(&self, event: &Event, me: Option<u8>) -> Option<String> {
        match event {
            // The player sees the grid again; a spectator is told the move.
            Event::Played { mv, mistake } if me.is_none() => Some(format!(
                "played {mv}{}",
                if *mistake { " (a mistake)" } else { "" }
            )),
            Event::Played { mistake: true, .. } => Some("That digit is a mistake.".to_owned()),
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
        let lower = line.trim().to_ascii_lowercase();
        if matches!(lower.as_str(), "show" | "notes") {
            return Ok(Reply::Text(self.board(view, Some(me), painter)));
        }
        if matches!(lower.as_str(), "hint" | "check" | "verify") {
            return Err(CliError::new(format!(
                "{lower} needs the solution, which the server keeps: it works offline only"
            )));
        }
        let mv: Move = line.parse().map_err(|e: sudoku_core::ParseMoveError| {
            CliError::new(format!("{e}; type help for the commands"))
        })?;
        Ok(Reply::Play(self.inputs(mv)?))
    }

    fn result(&self, ending: &Ending<Self::Score>, _view: &View<Self>, _me: Option<u8>) -> String {
        let score = &ending.score;
        if score.revealed {
            "the solution is shown.".to_owned()
        } else {
            format!(
                "solved in {} with {}.",
                clock(Duration::from_millis(score.elapsed_ms)),
                plural(score.mistakes as usize, "mistake")
            )
        }
    }
}
