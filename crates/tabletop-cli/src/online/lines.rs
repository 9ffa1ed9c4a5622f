//! The line mode of online play: typed commands on one thread, the link's notes on
//! another, both into one loop that prints the other seats' moves as their events arrive
//! and the board after each view ([`Client`] with [`Out::Print`]).

use std::io::IsTerminal;
use std::sync::mpsc::{self, Receiver, Sender};

use serde_json::json;

use super::ConnectArgs;
use super::client::{Client, Out};
use super::link::Note;
use super::remote::{Create, Remote, Reply};
use crate::common::{CliError, CliResult, Console, Painter};

const ONLINE_HELP: &str = "\
online commands:
  board       draw the board again      resign      give the game up
  help        this help                 quit        leave (the table stays; come back
                                                    with --table)
  rematch     after the game: play again with the sides swapped
undo and save are off in online play; the server keeps the game.";

/// What the loop waits for: a note of the link or a typed line (`None`: end of input).
enum Input {
    Note(Note),
    Line(Option<String>),
}

/// Plays `game` at the server of `args` (a new table as `create` says, unless `--invite`
/// or `--table` name one).
pub fn play<R: Remote>(game: R, args: &ConnectArgs, create: Create) -> CliResult {
    let (inputs, input_rx) = mpsc::channel();
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let painter = if terminal {
        Painter::stdout()
    } else {
        Painter::plain()
    };
    let client = Client::connect(game, args, create, painter, Out::Print)?;
    let mut client = client.start_link(inputs.clone(), Input::Note)?;
    std::thread::spawn(move || read_lines(&inputs));
    client.run(&input_rx)
}

/// Reads typed lines on a thread of its own, so moves of the other seats print at once.
fn read_lines(inputs: &Sender<Input>) {
    let mut console = Console::stdin();
    loop {
        match console.read_command("") {
            Ok(Some(line)) => {
                if inputs.send(Input::Line(Some(line))).is_err() {
                    return;
                }
            }
            _ => {
                let _ = inputs.send(Input::Line(None));
                return;
            }
        }
    }
}

impl<R: Remote> Client<R> {
    fn run(&mut self, inputs: &Receiver<Input>) -> CliResult {
        while let Ok(input) = inputs.recv() {
            let done = match input {
                Input::Note(note) => self.note(note)?,
                Input::Line(Some(line)) => {
                    self.typed.push(line);
                    false
                }
                Input::Line(None) => {
                    self.eof = true;
                    false
                }
            };
            // A finished game waits for `rematch` or `quit` (or the end of the input).
            let over = done && !self.can_rematch();
            let idle = self.typed.is_empty() && self.pending.is_none() && !self.rematch_asked();
            if over || self.drain() || (self.eof && idle) {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Handles the typed lines that can be now; `true` to leave.
    fn drain(&mut self) -> bool {
        while !self.typed.is_empty()
            && self.view.is_some()
            && self.pending.is_none()
            && !self.rematch_asked()
        {
            let line = self.typed.remove(0);
            if self.line(&line) {
                return true;
            }
        }
        false
    }

    /// A typed line; `true` to leave.
    pub(crate) fn line(&mut self, line: &str) -> bool {
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let result = match word.as_str() {
            "quit" | "exit" | "q" => {
                if let Some(table) = &self.table {
                    println!(
                        "Left table {table}; come back with: tabletop {} --connect {} --table {table}",
                        R::GAME,
                        self.url
                    );
                }
                return true;
            }
            "help" | "?" => Ok(Some(format!("{}\n{ONLINE_HELP}", R::HELP.trim_end()))),
            "rematch" => self.ask_rematch().map(|()| None),
            "save" | "load" | "new" => Err(CliError::new(format!(
                "{word} is off in online play: the server keeps the game"
            ))),
            _ => self.game_line(line, &word),
        };
        match result {
            Ok(Some(text)) if !text.is_empty() => println!("{}", text.trim_end()),
            Ok(_) => {}
            Err(e) => e.print(),
        }
        false
    }

    /// A command that needs the table: a move, `board`, `resign`, `undo`.
    fn game_line(&mut self, line: &str, word: &str) -> CliResult<Option<String>> {
        let Some(view) = &self.view else {
            return Err(CliError::new("the game has not started yet"));
        };
        if word == "board" {
            return Ok(Some(self.game.board(view, self.seat, self.painter)));
        }
        let Some(me) = self.seat else {
            return Err(CliError::new("you watch this table: you cannot play"));
        };
        if self.pending.is_some() {
            return Err(CliError::new(
                "wait: your last move is on its way to the server",
            ));
        }
        let action = match word {
            "resign" => json!("resign"),
            "undo" | "redo" => json!(word),
            _ => match self.game.command(line, view, me, self.painter)? {
                Reply::Text(text) => return Ok(Some(text)),
                Reply::Play(mut inputs) if !inputs.is_empty() => {
                    let first = inputs.remove(0);
                    self.queue = inputs;
                    json!({"play": first})
                }
                Reply::Play(_) => return Ok(None),
            },
        };
        self.act(action);
        Ok(None)
    }
}
