//! What keys and clicks do: digits (two-key numbers on the big grids), clearing, the
//! pencil-mark mode, moving the selection, the panel's buttons.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};
use sudoku_core::{Digits, Move};

use super::{Button, SudokuScreen};
use crate::tui::{Ctx, GameScreen, Handled};

impl SudokuScreen {
    /// Writes `digit` in the selected cell, or toggles it among the notes in pencil mode.
    pub(super) fn digit(&mut self, digit: u8, ctx: &mut Ctx) {
        let (row, col) = self.cursor;
        if !(1..=25).contains(&digit) {
            return;
        }
        let mv = if self.notes_mode {
            Move::ToggleNotes {
                row,
                col,
                digits: Digits::single(digit),
            }
        } else {
            Move::Enter { row, col, digit }
        };
        self.play(mv, ctx);
    }

    pub(super) fn clear(&mut self, ctx: &mut Ctx) {
        let (row, col) = self.cursor;
        self.play(Move::Clear { row, col }, ctx);
    }

    /// Plays the first key of a two-key number typed alone.
    pub(super) fn commit_pending(&mut self, ctx: &mut Ctx) -> bool {
        match self.pending.take() {
            Some((first, _)) => {
                self.digit(first, ctx);
                true
            }
            None => false,
        }
    }

    /// A digit key: a digit, the first or second key of a number above 9 on 16×16 and
    /// 25×25 grids, or `0` to clear.
    pub(super) fn typed(&mut self, d: u8, ctx: &mut Ctx) {
        let n = self.side();
        if let Some((first, _)) = self.pending.take() {
            let two = first * 10 + d;
            if usize::from(two) <= n {
                self.digit(two, ctx);
                return;
            }
            self.digit(first, ctx);
        }
        if d == 0 {
            self.clear(ctx);
        } else if n >= 10 && usize::from(d) * 10 <= n {
            self.pending = Some((d, Instant::now()));
            ctx.say(format!(
                "{d}… a second digit makes {d}0-{}, Enter keeps {d}",
                (usize::from(d) * 10 + 9).min(n)
            ));
        } else {
            self.digit(d, ctx);
        }
    }

    pub(super) fn toggle_notes_mode(&mut self, ctx: &mut Ctx) {
        self.notes_mode = !self.notes_mode;
        ctx.say(if self.notes_mode {
            "Pencil marks: digits switch notes on and off (p: back to digits)"
        } else {
            "Digits: digits fill the cell (p: pencil marks)"
        });
    }

    pub(super) fn press(&mut self, button: Button, ctx: &mut Ctx) {
        match button {
            Button::Digit(d) => self.digit(d, ctx),
            Button::Notes => self.toggle_notes_mode(ctx),
            Button::Clear => self.clear(ctx),
            Button::Fill => {
                self.play(Move::FillNotes, ctx);
            }
            Button::Hint => self.hint(ctx),
            Button::Check => self.check(ctx),
            Button::Verify => self.verify(ctx),
            Button::Undo => self.undo(ctx),
            Button::NewGame => self.new_game(ctx),
        }
    }

    pub(super) fn step(&mut self, dr: isize, dc: isize) {
        let n = self.side() as isize;
        let (r, c) = (self.cursor.0 as isize, self.cursor.1 as isize);
        self.cursor = (
            (r + dr).rem_euclid(n) as usize,
            (c + dc).rem_euclid(n) as usize,
        );
    }

    pub(super) fn key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Handled {
        if !crate::tui::plain_key(key) {
            return Handled::No;
        }
        if let KeyCode::Char(c @ '0'..='9') = key.code {
            self.typed(c as u8 - b'0', ctx);
            return Handled::Yes;
        }
        // Any other key first plays a lone pending digit; Enter and Space only do that.
        if self.commit_pending(ctx) && matches!(key.code, KeyCode::Enter | KeyCode::Char(' ')) {
            return Handled::Yes;
        }
        let n = self.side();
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.step(0, -1),
            KeyCode::Right | KeyCode::Char('l') => self.step(0, 1),
            KeyCode::Up | KeyCode::Char('k') => self.step(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => self.step(1, 0),
            KeyCode::Home => self.cursor.1 = 0,
            KeyCode::End => self.cursor.1 = n - 1,
            KeyCode::Char('p') => self.toggle_notes_mode(ctx),
            KeyCode::Char('a') => {
                self.play(Move::FillNotes, ctx);
            }
            KeyCode::Char('t') => self.hint(ctx),
            KeyCode::Char('c') => self.check(ctx),
            KeyCode::Char('v') => self.verify(ctx),
            KeyCode::Delete | KeyCode::Backspace => self.clear(ctx),
            // The symbols 10-25 as the notation writes them (A-P) on the big grids.
            KeyCode::Char(c @ 'A'..='P') if n >= 10 => self.digit(c as u8 - b'A' + 10, ctx),
            _ => return Handled::No,
        }
        Handled::Yes
    }

    pub(super) fn click(&mut self, column: u16, row: u16, ctx: &mut Ctx) -> Handled {
        if let Some(cell) = self.view.cell_at(column, row) {
            self.commit_pending(ctx);
            self.cursor = cell;
            return Handled::Yes;
        }
        if let Some(button) = self.view.button_at(column, row) {
            self.commit_pending(ctx);
            self.press(button, ctx);
            return Handled::Yes;
        }
        Handled::No
    }
}
