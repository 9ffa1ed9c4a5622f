//! What keys and clicks do, alike for the local and the online screen: the [`Editor`]
//! keeps the selected cell, the pencil-mark mode and the first key of a two-key number,
//! and turns keys, clicks and the palette's buttons into [`Act`]s: a move for the grid,
//! or a button the screen itself answers (hint, check, undo…).

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent};
use sudoku_core::{Digits, Move};

use super::layout::View;
use super::{Button, SudokuScreen};
use crate::tui::{Ctx, GameScreen, Handled};

/// How long the first key of a two-key number (`1` then `6` for 16) waits for the second.
const PENDING: Duration = Duration::from_millis(1200);

/// What a key or a click asks of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Act {
    /// Play this move (the local table or the server says whether it is legal).
    Play(Move),
    /// A button that is the screen's own business: hint, check, verify, undo, new game.
    Press(Button),
}

/// The cursor, the mode and a half-typed number: see the module documentation.
#[derive(Debug, Clone)]
pub(super) struct Editor {
    /// The selected cell (row, column).
    pub(super) cursor: (usize, usize),
    /// Pencil-mark mode: digits toggle notes.
    pub(super) notes_mode: bool,
    /// The first key of a two-key number and when it was typed.
    pub(super) pending: Option<(u8, Instant)>,
    /// The side of the grid.
    pub(super) n: usize,
}

impl Editor {
    /// An editor for a grid of side `n`, the cursor on `cursor`, in digit mode.
    pub(super) fn new(n: usize, cursor: (usize, usize)) -> Editor {
        Editor {
            cursor,
            notes_mode: false,
            pending: None,
            n,
        }
    }

    /// The move that writes `digit` in the selected cell, or toggles it among the notes in
    /// pencil mode.
    pub(super) fn digit(&self, digit: u8) -> Option<Act> {
        let (row, col) = self.cursor;
        if !(1..=25).contains(&digit) {
            return None;
        }
        Some(Act::Play(if self.notes_mode {
            Move::ToggleNotes {
                row,
                col,
                digits: Digits::single(digit),
            }
        } else {
            Move::Enter { row, col, digit }
        }))
    }

    fn clear(&self) -> Act {
        let (row, col) = self.cursor;
        Act::Play(Move::Clear { row, col })
    }

    /// The first key of a two-key number typed alone, now played.
    pub(super) fn commit_pending(&mut self) -> Option<Act> {
        let (first, _) = self.pending.take()?;
        self.digit(first)
    }

    /// The first key of a two-key number, once it has waited long enough for a second.
    pub(super) fn tick(&mut self, now: Instant) -> Option<Act> {
        let waited = self
            .pending
            .is_some_and(|(_, at)| now.saturating_duration_since(at) >= PENDING);
        if waited { self.commit_pending() } else { None }
    }

    /// A digit key: a digit, the first or second key of a number above 9 on 16×16 and
    /// 25×25 grids, or `0` to clear.
    fn typed(&mut self, d: u8, ctx: &mut Ctx) -> Vec<Act> {
        let n = self.n;
        let mut acts = Vec::new();
        if let Some((first, _)) = self.pending.take() {
            let two = first * 10 + d;
            if usize::from(two) <= n {
                acts.extend(self.digit(two));
                return acts;
            }
            acts.extend(self.digit(first));
        }
        if d == 0 {
            acts.push(self.clear());
        } else if n >= 10 && usize::from(d) * 10 <= n {
            self.pending = Some((d, Instant::now()));
            ctx.say(format!(
                "{d}… a second digit makes {d}0-{}, Enter keeps {d}",
                (usize::from(d) * 10 + 9).min(n)
            ));
        } else {
            acts.extend(self.digit(d));
        }
        acts
    }

    pub(super) fn toggle_notes_mode(&mut self, ctx: &mut Ctx) {
        self.notes_mode = !self.notes_mode;
        ctx.say(if self.notes_mode {
            "Pencil marks: digits switch notes on and off (p: back to digits)"
        } else {
            "Digits: digits fill the cell (p: pencil marks)"
        });
    }

    /// A button of the palette: the grid's buttons become moves, the others are the
    /// screen's.
    pub(super) fn press(&mut self, button: Button, ctx: &mut Ctx) -> Option<Act> {
        match button {
            Button::Digit(d) => self.digit(d),
            Button::Notes => {
                self.toggle_notes_mode(ctx);
                None
            }
            Button::Clear => Some(self.clear()),
            Button::Fill => Some(Act::Play(Move::FillNotes)),
            other => Some(Act::Press(other)),
        }
    }

    pub(super) fn step(&mut self, dr: isize, dc: isize) {
        let n = self.n as isize;
        let (r, c) = (self.cursor.0 as isize, self.cursor.1 as isize);
        self.cursor = (
            (r + dr).rem_euclid(n) as usize,
            (c + dc).rem_euclid(n) as usize,
        );
    }

    /// A key: what it asks, in order (a pending digit first), and whether it was the
    /// grid's (else the host has it).
    pub(super) fn key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> (Vec<Act>, Handled) {
        if !crate::tui::plain_key(key) {
            return (Vec::new(), Handled::No);
        }
        if let KeyCode::Char(c @ '0'..='9') = key.code {
            return (self.typed(c as u8 - b'0', ctx), Handled::Yes);
        }
        // Any other key first plays a lone pending digit; Enter and Space only do that.
        let mut acts: Vec<Act> = self.commit_pending().into_iter().collect();
        if !acts.is_empty() && matches!(key.code, KeyCode::Enter | KeyCode::Char(' ')) {
            return (acts, Handled::Yes);
        }
        let n = self.n;
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.step(0, -1),
            KeyCode::Right | KeyCode::Char('l') => self.step(0, 1),
            KeyCode::Up | KeyCode::Char('k') => self.step(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => self.step(1, 0),
            KeyCode::Home => self.cursor.1 = 0,
            KeyCode::End => self.cursor.1 = n - 1,
            KeyCode::Char('p') => self.toggle_notes_mode(ctx),
            KeyCode::Char('a') => acts.push(Act::Play(Move::FillNotes)),
            KeyCode::Char('t') => acts.push(Act::Press(Button::Hint)),
            KeyCode::Char('c') => acts.push(Act::Press(Button::Check)),
            KeyCode::Char('v') => acts.push(Act::Press(Button::Verify)),
            KeyCode::Delete | KeyCode::Backspace => acts.push(self.clear()),
            // The symbols 10-25 as the notation writes them (A-P) on the big grids.
            KeyCode::Char(c @ 'A'..='P') if n >= 10 => {
                acts.extend(self.digit(c as u8 - b'A' + 10));
            }
            _ => return (acts, Handled::No),
        }
        (acts, Handled::Yes)
    }

    /// A click on what the last draw put in `view`: a cell selects it, a button acts.
    pub(super) fn click(
        &mut self,
        view: &View,
        column: u16,
        row: u16,
        ctx: &mut Ctx,
    ) -> Option<Vec<Act>> {
        if let Some(cell) = view.cell_at(column, row) {
            let acts = self.commit_pending().into_iter().collect();
            self.cursor = cell;
            return Some(acts);
        }
        let button = view.button_at(column, row)?;
        let mut acts: Vec<Act> = self.commit_pending().into_iter().collect();
        acts.extend(self.press(button, ctx));
        Some(acts)
    }
}

impl SudokuScreen {
    /// Does what the editor asked, in order.
    pub(super) fn act(&mut self, acts: Vec<Act>, ctx: &mut Ctx) {
        for act in acts {
            match act {
                Act::Play(mv) => {
                    self.play(mv, ctx);
                }
                Act::Press(Button::Hint) => self.hint(ctx),
                Act::Press(Button::Check) => self.check(ctx),
                Act::Press(Button::Verify) => self.verify(ctx),
                Act::Press(Button::Undo) => self.undo(ctx),
                Act::Press(Button::NewGame) => self.new_game(ctx),
                // The editor turns the grid's own buttons into moves.
                Act::Press(_) => {}
            }
        }
    }

    pub(super) fn key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Handled {
        let (acts, handled) = self.editor.key(key, ctx);
        self.act(acts, ctx);
        handled
    }

    pub(super) fn click(&mut self, column: u16, row: u16, ctx: &mut Ctx) -> Handled {
        match self.editor.click(&self.view, column, row, ctx) {
            Some(acts) => {
                self.act(acts, ctx);
                Handled::Yes
            }
            None => Handled::No,
        }
    }
}
