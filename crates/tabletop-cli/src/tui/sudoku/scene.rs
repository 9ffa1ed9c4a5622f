//! What the sudoku screen draws, whoever keeps the game: a [`Scene`] holds the givens,
//! the entries and the notes, the editor's cursor and mode, the marks of a hint or a
//! check, the palette's action buttons and the words under them. The local screen makes
//! it from its table ([`SudokuScreen::scene`]), the online screen from the server's view.

use ratatui::style::Style;
use sudoku_core::logic::Hint;
use sudoku_core::{Digits, Grid};

use super::input::Editor;
use super::{Button, SudokuScreen};
use crate::tui::Theme;

/// How a line or a button of the panel is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tone {
    /// The terminal's own colours.
    Plain,
    Normal,
    Dim,
    Accent,
    Good,
    Bad,
    Selected,
}

impl Tone {
    pub(super) fn style(self, theme: &Theme) -> Style {
        match self {
            Tone::Plain => Style::default(),
            Tone::Normal => theme.normal,
            Tone::Dim => theme.dim,
            Tone::Accent => theme.accent,
            Tone::Good => theme.good,
            Tone::Bad => theme.bad,
            Tone::Selected => theme.selected,
        }
    }
}

/// Everything the grid and the panel show: see the module documentation.
pub(super) struct Scene<'a> {
    /// The puzzle: its digits are the givens.
    pub(super) puzzle: &'a Grid,
    /// The givens and the entries.
    pub(super) grid: &'a Grid,
    /// The pencil marks of each cell, row by row.
    pub(super) notes: Vec<Digits>,
    /// The selected cell, the mode, a half-typed number.
    pub(super) editor: &'a Editor,
    /// The hint on show, whose cells are marked.
    pub(super) hint: Option<&'a Hint>,
    /// Entries marked wrong (by a check or verify).
    pub(super) wrong: &'a [(usize, usize)],
    /// The game is over: the borders turn to the good colour.
    pub(super) over: bool,
    /// The buttons under the digits, in order.
    pub(super) buttons: Vec<(&'static str, Button, Tone)>,
    /// The words under the buttons.
    pub(super) message: Vec<(String, Tone)>,
}

impl Scene<'_> {
    /// The side of the grid.
    pub(super) fn side(&self) -> usize {
        self.grid.size().side()
    }

    /// The pencil marks of a cell.
    pub(super) fn notes(&self, row: usize, col: usize) -> Digits {
        let n = self.side();
        self.notes
            .get(row * n + col)
            .copied()
            .unwrap_or(Digits::EMPTY)
    }

    /// Whether a cell holds a given.
    pub(super) fn is_given(&self, row: usize, col: usize) -> bool {
        self.puzzle.get(row, col).is_some()
    }
}

/// The action buttons of a game under way, the pencil-mark button lit in that mode:
/// `[notes] [clear] [fill]` and then `more`.
pub(super) fn edit_buttons(
    notes_mode: bool,
    more: &[(&'static str, Button)],
) -> Vec<(&'static str, Button, Tone)> {
    let notes = if notes_mode {
        Tone::Selected
    } else {
        Tone::Normal
    };
    let mut buttons = vec![
        ("[notes]", Button::Notes, notes),
        ("[clear]", Button::Clear, Tone::Normal),
        ("[fill]", Button::Fill, Tone::Normal),
    ];
    buttons.extend(more.iter().map(|&(label, b)| (label, b, Tone::Normal)));
    buttons
}

impl SudokuScreen {
    /// What the local screen shows now.
    pub(super) fn scene(&self) -> Scene<'_> {
        let game = self.game();
        let n = self.side();
        let solved = self.solved_text();
        let buttons = if solved.is_some() {
            vec![
                ("[new game]", Button::NewGame, Tone::Good),
                ("[undo]", Button::Undo, Tone::Normal),
            ]
        } else {
            edit_buttons(
                self.editor.notes_mode,
                &[
                    ("[hint]", Button::Hint),
                    ("[check]", Button::Check),
                    ("[verify]", Button::Verify),
                    ("[undo]", Button::Undo),
                ],
            )
        };
        Scene {
            puzzle: game.puzzle(),
            grid: game.grid(),
            notes: (0..n * n).map(|i| game.notes(i / n, i % n)).collect(),
            editor: &self.editor,
            hint: self.hint.as_ref(),
            wrong: self.report.as_ref().map_or(&[], |r| &r.wrong),
            over: game.outcome().is_some(),
            buttons,
            message: self.message(solved),
        }
    }

    /// The end, the hint, the report, or a reminder of the keys.
    fn message(&self, solved: Option<String>) -> Vec<(String, Tone)> {
        let mut lines = Vec::new();
        if let Some(text) = solved {
            lines.push((text, Tone::Good));
            lines.push(("n or [new game]: another puzzle".to_owned(), Tone::Dim));
        } else if let Some(hint) = &self.hint {
            match hint {
                Hint::Step(step) => {
                    let head = format!("Hint: {}", step.technique.name());
                    lines.push((head, Tone::Accent));
                    lines.push((step.explanation.clone(), Tone::Plain));
                }
                other => {
                    lines.push(("Hint".to_owned(), Tone::Accent));
                    lines.push((other.to_string(), Tone::Plain));
                }
            }
            lines.push(("t again plays it".to_owned(), Tone::Dim));
        } else if let Some(report) = &self.report {
            let tone = if report.wrong.is_empty() {
                Tone::Normal
            } else {
                Tone::Bad
            };
            lines.push((report.title.to_owned(), Tone::Accent));
            lines.push((report.text.clone(), tone));
        } else {
            lines.push(("t hint · c check · v verify".to_owned(), Tone::Dim));
            lines.push(("a pencil in all · ? keys".to_owned(), Tone::Dim));
        }
        lines
    }
}
