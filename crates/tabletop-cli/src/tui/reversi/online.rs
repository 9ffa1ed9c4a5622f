//! Reversi at a server, full screen: the same board as the local screen ([`Board`]),
//! drawn from the server's view, whose legal moves are marked; a square played goes to
//! the server, which refuses what is illegal (the refusal is said). Passes are played by
//! the table. Undo, save, hints and the settings are off (the server keeps the game).

use std::time::Instant;

use crossterm::event::{Event, KeyCode, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use reversi_core::{Color, Move, Square, SquareSet};
use tabletop_play::reversi::color_of;

use super::draw::{self, Board, CursorInput, Geometry};
use crate::common::CliResult;
use crate::online::ConnectArgs;
use crate::online::remote::{Create, Remote};
use crate::online::reversi::Reversi;
use crate::tui::online::Session;
use crate::tui::{Ctx, GameScreen, Handled, Theme};

/// The keys listed under the panel.
const KEYS: [(&str, &str); 3] = [
    ("arrows/hjkl", " move the cursor"),
    ("Enter/click", " play there"),
    ("r r", " resign  q leave  ? keys"),
];

/// Reversi played at a server.
pub struct OnlineReversi {
    session: Session<Reversi>,
    /// The cursor: file and rank, 0..8.
    cursor: (u8, u8),
    /// `r` was pressed once: a second `r` resigns.
    resigning: bool,
    geometry: Geometry,
}

impl OnlineReversi {
    /// Connects to the server of `args` and starts or joins the game.
    pub fn start(args: &ConnectArgs, create: Create) -> CliResult<OnlineReversi> {
        Ok(OnlineReversi::with(Session::start(Reversi, args, create)?))
    }

    /// The screen of a session.
    pub fn with(session: Session<Reversi>) -> OnlineReversi {
        OnlineReversi {
            session,
            cursor: (3, 2),
            resigning: false,
            geometry: Geometry::default(),
        }
    }

    /// The session (for the tests).
    pub fn session(&self) -> &Session<Reversi> {
        &self.session
    }

    /// The cursor's square.
    pub fn cursor(&self) -> Square {
        Square::from_coords(self.cursor.0, self.cursor.1).expect("the cursor is on the board")
    }

    /// Where a square was last drawn (the middle of its cell), for tests that click.
    pub fn cell_of(&self, square: Square) -> (u16, u16) {
        self.geometry.middle(square.file(), square.rank())
    }

    /// The squares this seat may play now, from the view.
    fn legal(&self) -> SquareSet {
        let mut bits = 0;
        if let Some(view) = self.session.view().filter(|_| self.session.my_turn()) {
            for mv in &view.state.legal {
                if let Move::Place(sq) = mv {
                    bits |= sq.bit();
                }
            }
        }
        SquareSet(bits)
    }

    /// Sends a disc on `sq`; the server says whether it is legal.
    fn play(&mut self, sq: Square, ctx: &mut Ctx) {
        let input = serde_json::to_value(Move::Place(sq)).unwrap_or_default();
        self.session.play(input, ctx);
    }

    /// What the board shows.
    fn board(&self) -> Board {
        let names = [0, 1].map(|s| self.session.player_name(s));
        let names = Color::ALL.map(|c| {
            let seat = usize::from(tabletop_play::reversi::seat_of(c).0);
            names[seat].clone()
        });
        let mut board = Board {
            pos: reversi_core::Position::default(),
            cursor: self.cursor,
            legal: self.legal(),
            last: None,
            hint: None,
            names,
            turn: self.session.waiting_for(),
            over: false,
            keys: KEYS.to_vec(),
            lines: self.session.table_lines(5),
        };
        let Some(view) = self.session.view() else {
            board.pos = reversi_core::Position::default();
            return board;
        };
        let state = &view.state;
        board.pos = state.position;
        if let Some(&mv) = state.moves.last() {
            // Moves alternate from the first mover, passes included.
            let odd = state.moves.len() % 2 == 0;
            let color = if odd {
                state.rules.first.other()
            } else {
                state.rules.first
            };
            board.last = Some((color, mv, state.last_flipped));
        }
        if let Some(ending) = &view.ending {
            board.over = true;
            let result = self
                .session
                .client
                .game
                .result(ending, view, self.session.seat());
            board.turn = format!("Game over: {result}");
        } else if let Some(seat) = view.to_act {
            let color = color_of(seat);
            let glyph = draw::glyph(color);
            let you = Some(seat.0) == self.session.seat();
            board.turn = if you && self.session.my_turn() {
                format!("{color} {glyph} to move: you")
            } else {
                format!("{} {glyph}", self.session.waiting_for())
            };
        }
        board
    }
}

impl GameScreen for OnlineReversi {
    fn title(&self) -> String {
        let name = |c: Color| {
            self.session
                .player_name(tabletop_play::reversi::seat_of(c).0)
        };
        format!(
            "Reversi online · Black: {} · White: {}",
            name(Color::Black),
            name(Color::White)
        )
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let board = self.board();
        self.geometry = draw::draw(&board, frame, area, theme);
    }

    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled {
        match event {
            Event::Key(key) => {
                if key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                    || !crate::tui::plain_key(key)
                {
                    return Handled::No;
                }
                if key.code != KeyCode::Char('r') {
                    self.resigning = false;
                }
                match draw::cursor_key(&mut self.cursor, key.code) {
                    CursorInput::Moved => return Handled::Yes,
                    CursorInput::Play(sq) => {
                        self.play(sq, ctx);
                        return Handled::Yes;
                    }
                    CursorInput::Other => {}
                }
                match key.code {
                    KeyCode::Char('t') => ctx.say("Hints are off in online play"),
                    KeyCode::Char('r') if self.resigning => {
                        self.resigning = false;
                        self.session.resign(ctx);
                    }
                    KeyCode::Char('r') => {
                        self.resigning = true;
                        ctx.say("Press r again to resign the game");
                    }
                    _ => return Handled::No,
                }
                Handled::Yes
            }
            Event::Mouse(mouse) => {
                match draw::cursor_mouse(&mut self.cursor, &self.geometry, mouse) {
                    CursorInput::Moved => Handled::Yes,
                    CursorInput::Play(sq) => {
                        self.play(sq, ctx);
                        Handled::Yes
                    }
                    CursorInput::Other => Handled::No,
                }
            }
            _ => Handled::No,
        }
    }

    fn tick(&mut self, _now: Instant, ctx: &mut Ctx) -> bool {
        self.session.poll(ctx)
    }

    fn status(&self) -> String {
        let Some(view) = self.session.view() else {
            return self.session.waiting_for();
        };
        let pos = &view.state.position;
        let counts = format!(
            "● {}  ○ {}",
            pos.count(Color::Black),
            pos.count(Color::White)
        );
        if let Some(result) = self.session.result() {
            return format!("Game over: {result} · {counts} · q: leave");
        }
        let last = view
            .state
            .moves
            .last()
            .map(|mv| format!(" · last: {mv}"))
            .unwrap_or_default();
        format!("{}{last} · {counts}", self.session.waiting_for())
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("← → ↑ ↓ h j k l", "move the cursor"),
            ("Enter Space", "play a disc at the cursor"),
            ("click", "play a disc there"),
            ("·", "a legal move; [●] the last move"),
            ("r r", "resign the game"),
            ("n", "once the game is over: a rematch, the sides swapped"),
            ("q", "leave (the table stays: come back with --table)"),
        ]
    }

    crate::tui::online::local_game_is_off!();
}

#[cfg(test)]
mod tests;
