//! Sudoku at a server, full screen: the same grid and palette as the local screen (a
//! [`Scene`]), made from the server's view: its givens, entries and pencil marks (the
//! server keeps the notes too), the conflicts the engine finds in the view's grid, the
//! mistakes the server counted. Keys and clicks go through the same [`Editor`]; each
//! entry goes to the server after the time spent on it, and the server refuses what is
//! illegal (the refusal is said). Hints, check and verify need the solution, which the
//! server keeps: they stay offline, like undo, saves and new games. `r` twice resigns
//! (the solution is then shown), and a spectator (`--table` of another's puzzle) sees the
//! entries as they come.

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, MouseButton, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Widget, Wrap};
use sudoku_core::{Digits, Move};

use super::Button;
use super::draw;
use super::input::{Act, Editor};
use super::layout::View as Hits;
use super::scene::{Scene, Tone, edit_buttons};
use crate::common::CliResult;
use crate::online::ConnectArgs;
use crate::online::remote::{Create, Remote};
use crate::online::sudoku::Sudoku;
use crate::sudoku::text::{clock, plural};
use crate::tui::online::Session;
use crate::tui::{Ctx, GameScreen, Handled, Theme};

/// What the panel says of the keys while the puzzle goes on.
const KEYS_LINE: &str = "p pencil marks · a pencil in all · r r resign · ? keys";

/// Sudoku played at a server.
pub struct OnlineSudoku {
    session: Session<Sudoku>,
    /// The selected cell, the pencil-mark mode (made again when the first view comes).
    editor: Editor,
    /// `r` was pressed once: a second `r` resigns.
    resigning: bool,
    /// Where the last draw put the cells and buttons, for the mouse.
    hits: Hits,
    /// The second of the clock last drawn.
    shown_second: u64,
}

impl OnlineSudoku {
    /// Connects to the server of `args` and starts or joins the puzzle.
    pub fn start(args: &ConnectArgs, create: Create) -> CliResult<OnlineSudoku> {
        Ok(OnlineSudoku::with(Session::start(
            Sudoku::new(),
            args,
            create,
        )?))
    }

    /// The screen of a session.
    pub fn with(session: Session<Sudoku>) -> OnlineSudoku {
        let mut screen = OnlineSudoku {
            session,
            editor: Editor::new(1, (0, 0)),
            resigning: false,
            hits: Hits::default(),
            shown_second: 0,
        };
        screen.follow_view();
        screen
    }

    /// The session (for the tests).
    pub fn session(&self) -> &Session<Sudoku> {
        &self.session
    }

    /// A new grid (the first view): the editor starts on its first empty cell.
    fn follow_view(&mut self) {
        let Some(view) = self.session.view() else {
            return;
        };
        let grid = &view.state.grid;
        let n = grid.size().side();
        if self.editor.n != n {
            let first = grid.cells().iter().position(|&v| v == 0);
            self.editor = Editor::new(n, first.map_or((0, 0), |i| (i / n, i % n)));
        }
    }

    /// The time on the puzzle: the server's count and, for the solver, the time since
    /// the last report.
    fn elapsed(&self) -> Duration {
        let Some(view) = self.session.view() else {
            return Duration::ZERO;
        };
        let mut elapsed = Duration::from_millis(view.state.elapsed_ms);
        if view.ending.is_none() && self.session.seat().is_some() {
            elapsed += self.session.client.game.unreported();
        }
        elapsed
    }

    /// Sends `mv` to the server after the time spent on it, or says why not now.
    fn play(&mut self, mv: Move, ctx: &mut Ctx) {
        if self.session.client.pending.is_some() {
            ctx.say("Wait: your last entry is on its way to the server");
            return;
        }
        if !self.session.my_turn() {
            ctx.say(self.session.waiting_for());
            return;
        }
        match self.session.client.game.inputs(mv) {
            Ok(inputs) => {
                self.session.play_all(inputs, ctx);
            }
            Err(e) => ctx.say(e.message().to_owned()),
        }
    }

    /// Does what the editor asked, in order.
    fn act(&mut self, acts: Vec<Act>, ctx: &mut Ctx) {
        for act in acts {
            match act {
                Act::Play(mv) => self.play(mv, ctx),
                Act::Press(Button::Hint | Button::Check | Button::Verify) => ctx.say(
                    "Hints, check and verify need the solution, which the server keeps: \
                     offline only",
                ),
                Act::Press(Button::Undo) => self.undo(ctx),
                Act::Press(Button::NewGame) => self.new_game(ctx),
                // The editor turns the grid's own buttons into moves.
                Act::Press(_) => {}
            }
        }
    }

    /// The result in words, once the game is over.
    fn result(&self) -> Option<String> {
        let view = self.session.view()?;
        let ending = view.ending.as_ref()?;
        let result = self
            .session
            .client
            .game
            .result(ending, view, self.session.seat());
        Some(format!("Game over: {result}"))
    }

    /// What the grid and panel show, once the server has sent a view.
    fn scene(&self) -> Option<Scene<'_>> {
        let view = self.session.view()?;
        let state = &view.state;
        let over = view.ending.is_some();
        let mut message = Vec::new();
        if let Some(result) = self.result() {
            message.push((result, Tone::Good));
            message.push(("q: leave".to_owned(), Tone::Dim));
        }
        // The table's id and the newest line of the client (a refusal, a mistake…): the
        // panel beside a 9×9 grid is narrow.
        for (line, bad) in self.session.table_lines(2) {
            // The client's own line of the end says the result again.
            if !message.iter().any(|(said, _)| *said == line) {
                message.push((line, if bad { Tone::Bad } else { Tone::Normal }));
            }
        }
        if !over {
            message.push((KEYS_LINE.to_owned(), Tone::Dim));
        }
        let buttons = if over || self.session.seat().is_none() {
            Vec::new()
        } else {
            edit_buttons(self.editor.notes_mode, &[])
        };
        Some(Scene {
            puzzle: &state.puzzle,
            grid: &state.grid,
            notes: state.notes.iter().map(|&b| Digits::from_bits(b)).collect(),
            editor: &self.editor,
            hint: None,
            wrong: &[],
            over,
            buttons,
            message,
        })
    }
}

impl GameScreen for OnlineSudoku {
    fn title(&self) -> String {
        match self.session.view() {
            Some(view) => format!("Sudoku online · {}", view.state.grid.size()),
            None => "Sudoku online".to_owned(),
        }
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let area = area.intersection(frame.area());
        let hits = match self.scene() {
            Some(scene) => draw::draw(&scene, frame.buffer_mut(), area, theme),
            None => {
                let mut lines = vec![self.session.waiting_for()];
                lines.extend(self.session.table_lines(6).into_iter().map(|l| l.0));
                Paragraph::new(lines.join("\n"))
                    .style(theme.normal)
                    .wrap(Wrap { trim: true })
                    .render(area, frame.buffer_mut());
                Hits::default()
            }
        };
        self.hits = hits;
    }

    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled {
        match event {
            Event::Key(key) => {
                if !crate::tui::plain_key(key) {
                    return Handled::No;
                }
                if key.code == KeyCode::Char('r') {
                    if self.resigning {
                        self.resigning = false;
                        self.session.resign(ctx);
                    } else {
                        self.resigning = true;
                        ctx.say("Press r again to resign (the solution is then shown)");
                    }
                    return Handled::Yes;
                }
                self.resigning = false;
                let (acts, handled) = self.editor.key(key, ctx);
                self.act(acts, ctx);
                handled
            }
            Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                match self.editor.click(&self.hits, m.column, m.row, ctx) {
                    Some(acts) => {
                        self.act(acts, ctx);
                        Handled::Yes
                    }
                    None => Handled::No,
                }
            }
            _ => Handled::No,
        }
    }

    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> bool {
        let mut changed = self.session.poll(ctx);
        self.follow_view();
        if let Some(act) = self.editor.tick(now) {
            self.act(vec![act], ctx);
            changed = true;
        }
        let second = self.elapsed().as_secs();
        if second != self.shown_second {
            self.shown_second = second;
            changed = true;
        }
        changed
    }

    fn status(&self) -> String {
        let Some(view) = self.session.view() else {
            return self.session.waiting_for();
        };
        if let Some(result) = self.result() {
            return format!("{result} · q: leave");
        }
        let state = &view.state;
        let empty = state.grid.cells().iter().filter(|&&v| v == 0).count();
        let mut parts = vec![
            clock(self.elapsed()),
            plural(state.mistakes as usize, "mistake"),
            format!("{empty} to fill"),
        ];
        if self.editor.notes_mode {
            parts.push("pencil marks".to_owned());
        }
        if !self.session.my_turn() {
            parts.push(self.session.waiting_for());
        }
        parts.join(" · ")
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("arrows, hjkl, click", "select a cell"),
            ("1-9", "write a digit: the server says if it is legal"),
            (
                "0, Delete, Backspace",
                "clear the cell (its digit, else its notes)",
            ),
            ("p", "pencil-mark mode: digits switch notes on and off"),
            ("a", "pencil in every candidate"),
            ("palette", "click a digit, notes, clear, fill"),
            ("r r", "resign: the solution is shown"),
            ("q", "leave (the table stays: come back with --table)"),
        ]
    }

    crate::tui::online::local_game_is_off!();
}

#[cfg(test)]
mod tests;
