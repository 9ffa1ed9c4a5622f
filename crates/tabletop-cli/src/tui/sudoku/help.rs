//! The help the engine gives: the next hint (from the player's notes when they keep them
//! all) and playing it, checking the entries so far and verifying the grid.

use sudoku_core::logic::{Hint, hint_with_marks};
use sudoku_core::{Candidates, Digits, Move};

use super::{Report, SudokuScreen};
use crate::sudoku::text::{check_text, plural, verify_text};
use crate::tui::Ctx;

impl SudokuScreen {
    /// Whether the player keeps pencil marks: every empty cell has some.
    pub(super) fn keeps_notes(&self) -> bool {
        let n = self.side();
        let mut empty = (0..n * n).filter(|&i| self.game().grid().cells()[i] == 0);
        let mut any = false;
        let all = empty.all(|i| {
            any = true;
            !self.game().notes(i / n, i % n).is_empty()
        });
        any && all
    }

    /// The notes of every cell, row by row.
    pub(super) fn marks(&self) -> Vec<Digits> {
        let n = self.side();
        (0..n * n)
            .map(|i| self.game().notes(i / n, i % n))
            .collect()
    }

    /// `t`: the engine's next hint (from the player's notes when they keep them all), or,
    /// with a hint on show, plays it.
    pub(super) fn hint(&mut self, ctx: &mut Ctx) {
        if let Some(hint) = self.hint.take() {
            self.apply_hint(hint, ctx);
            return;
        }
        let result = if self.keeps_notes() {
            hint_with_marks(self.game().puzzle(), self.game().grid(), &self.marks())
        } else {
            self.game().hint()
        };
        match result {
            Ok(Hint::Solved) => ctx.say("The grid is solved."),
            Ok(hint) => {
                let what = match &hint {
                    Hint::Step(step) => step.technique.name().to_owned(),
                    Hint::WrongEntry { .. } => "a wrong entry".to_owned(),
                    Hint::WrongMarks { .. } => "wrong pencil marks".to_owned(),
                    Hint::Solved => String::new(),
                };
                ctx.say(format!("Hint: {what} (t plays it)"));
                self.hint = Some(hint);
            }
            Err(e) => ctx.say(format!("No hint: {e}")),
        }
    }

    /// Plays a hint: clears a wrong entry, corrects wrong notes, places the step's digits
    /// or removes its eliminated candidates from the notes (pencilling in every candidate
    /// first when the player keeps no notes).
    pub(super) fn apply_hint(&mut self, hint: Hint, ctx: &mut Ctx) {
        let n = self.side();
        let at = |cell: usize| (cell / n, cell % n);
        let mut moves = Vec::new();
        match hint {
            Hint::WrongEntry { cell, .. } => {
                let (row, col) = at(cell);
                moves.push(Move::Clear { row, col });
            }
            Hint::WrongMarks { cell, .. } => {
                let (row, col) = at(cell);
                let digits = Candidates::new(self.game().grid()).candidates(cell);
                moves.push(Move::SetNotes { row, col, digits });
            }
            Hint::Step(step) if !step.placements.is_empty() => {
                for &(cell, digit) in &step.placements {
                    let (row, col) = at(cell);
                    moves.push(Move::Enter { row, col, digit });
                }
            }
            Hint::Step(step) => {
                if !self.keeps_notes() && !self.play(Move::FillNotes, ctx) {
                    return;
                }
                let mut cells: Vec<usize> = step.eliminations.iter().map(|e| e.0).collect();
                cells.dedup();
                for cell in cells {
                    let (row, col) = at(cell);
                    let mut digits = Digits::EMPTY;
                    for &(_, d) in step.eliminations.iter().filter(|e| e.0 == cell) {
                        digits.insert(d);
                    }
                    let digits = digits & self.game().notes(row, col);
                    if !digits.is_empty() {
                        moves.push(Move::ToggleNotes { row, col, digits });
                    }
                }
            }
            Hint::Solved => return,
        }
        if let Some((row, col)) = moves.first().and_then(Move::cell) {
            self.editor.cursor = (row, col);
        }
        let count = moves.len();
        for mv in moves {
            if !self.play(mv, ctx) {
                return;
            }
        }
        if self.game().outcome().is_none() {
            ctx.say(format!(
                "Played the hint ({}; u takes back one at a time)",
                plural(count.max(1), "move")
            ));
        }
    }

    /// `c`: are the entries so far right, how many solutions are left.
    pub(super) fn check(&mut self, ctx: &mut Ctx) {
        let check = self.game().check();
        let text = check_text(self.game(), &check);
        ctx.say(text.clone());
        self.hint = None;
        self.report = Some(Report {
            title: "Check",
            text,
            wrong: check.wrong,
        });
    }

    /// `v`: is the grid complete and correct.
    pub(super) fn verify(&mut self, ctx: &mut Ctx) {
        let wrong = match self.game().verify() {
            sudoku_core::Verdict::Wrong(wrong) => wrong,
            _ => Vec::new(),
        };
        let text = verify_text(self.game());
        ctx.say(text.clone());
        self.hint = None;
        self.report = Some(Report {
            title: "Verify",
            text,
            wrong,
        });
    }
}
