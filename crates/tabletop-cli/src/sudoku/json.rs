//! The `--json` shapes of the sudoku tools (documented in docs/json.md): the batch tools
//! print one object per puzzle line, the others one object.

use serde::Serialize;
use sudoku_core::logic::{Hint, Rating, Step};
use sudoku_core::{Size, cell_name};

/// A digit placed or ruled out in a cell.
#[derive(Serialize)]
pub(super) struct CellDigit {
    cell: String,
    digit: u8,
}

fn cell_digits(size: Size, pairs: &[(usize, u8)]) -> Vec<CellDigit> {
    pairs
        .iter()
        .map(|&(cell, digit)| CellDigit {
            cell: cell_name(size, cell).to_string(),
            digit,
        })
        .collect()
}

/// One logical step.
#[derive(Serialize)]
pub(super) struct StepJson {
    technique: &'static str,
    explanation: String,
    placements: Vec<CellDigit>,
    eliminations: Vec<CellDigit>,
}

impl StepJson {
    pub(super) fn new(size: Size, step: &Step) -> StepJson {
        StepJson {
            technique: step.technique.name(),
            explanation: step.explanation.clone(),
            placements: cell_digits(size, &step.placements),
            eliminations: cell_digits(size, &step.eliminations),
        }
    }
}

/// A rating: `{"level": "medium", "rating": 2.8, "hardest": "Claiming", "steps": 41}`.
#[derive(Serialize)]
pub(super) struct RatingJson {
    level: &'static str,
    rating: f64,
    hardest: Option<&'static str>,
    steps: usize,
}

impl From<Rating> for RatingJson {
    fn from(r: Rating) -> RatingJson {
        RatingJson {
            level: r.difficulty.name(),
            rating: f64::from(r.tenths) / 10.0,
            hardest: r.hardest.map(|t| t.name()),
            steps: r.steps,
        }
    }
}

/// A hint: what kind, its sentence, and the step or the cell it is about.
#[derive(Serialize)]
pub(super) struct HintJson {
    kind: &'static str,
    text: String,
    cell: Option<String>,
    step: Option<StepJson>,
}

impl HintJson {
    pub(super) fn new(size: Size, hint: &Hint) -> HintJson {
        let (kind, cell, step) = match hint {
            Hint::WrongEntry { cell, .. } => ("wrong_entry", Some(*cell), None),
            Hint::WrongMarks { cell, .. } => ("wrong_marks", Some(*cell), None),
            Hint::Step(step) => ("step", None, Some(StepJson::new(size, step))),
            Hint::Solved => ("solved", None, None),
        };
        HintJson {
            kind,
            text: hint.to_string(),
            cell: cell.map(|c| cell_name(size, c).to_string()),
            step,
        }
    }
}

/// What a batch tool found for one puzzle line: `result` names the case, the other
/// fields are present when they apply.
#[derive(Serialize, Default)]
pub(super) struct Answer {
    /// The text line the tool prints without `--json`.
    #[serde(skip)]
    pub text: String,
    pub result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<usize>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingJson>,
}

/// One line of a batch tool's output: its line number in the input, and the answer or
/// the error of a malformed line.
#[derive(Serialize)]
pub(super) struct LineJson<'a> {
    pub line: usize,
    #[serde(flatten)]
    pub answer: Option<&'a Answer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
