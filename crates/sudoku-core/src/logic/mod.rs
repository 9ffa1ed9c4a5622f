//! Human-style solving: techniques applied one [`Step`] at a time, hints and ratings.
//!
//! A [`Step`] is a value: the [`Technique`], the cells and candidates it uses, what it
//! places or eliminates and a sentence a player understands. [`LogicSolver`] applies the
//! simplest technique that makes progress, again and again ([`Technique::ALL`] is in
//! that order); [`hint`] gives the next step of a game (or names a wrong entry first);
//! [`rating`] turns the hardest step into a number and a [`Difficulty`].
//!
//! Every technique works on every size; the ones that assume a unique solution
//! (unique rectangles, BUG+1) are only sound on proper puzzles, which is what the solver
//! is for (it checks uniqueness first).
//!
//! ```
//! use sudoku_core::Grid;
//! use sudoku_core::logic::{LogicSolver, Technique};
//!
//! let puzzle: Grid =
//!     "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
//!         .parse()
//!         .unwrap();
//! let path = LogicSolver::new().solve(&puzzle).unwrap();
//! assert!(path.solved);
//! assert_eq!(path.grid, puzzle.solve_unique().unwrap());
//! assert!(path.steps.iter().all(|s| s.technique <= Technique::NakedSingle));
//! println!("{}", path.steps[0]); // e.g. "Hidden Single: In box 1, only r1c1 can hold 8."
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::fmt::Write as _;

use crate::candidates::{CellSet, Digits, Geometry, cell_name};
use crate::grid::{Grid, Size, Unit};
use crate::solve::SolveError;
use crate::{Candidates, symbol_char};

mod chains;
mod fish;
pub mod generate_level;
mod hint;
mod intersections;
pub mod rating;
mod single_digit;
mod singles;
mod singles9;
mod subsets;
mod uniqueness;
mod wings;

pub use hint::{Hint, HintError, hint, hint_with_marks};
pub use rating::{Difficulty, ParseDifficultyError, Rating, rate};

/// A solving technique. The order of the variants is the order the solver tries them:
/// simplest first, by [`Technique::difficulty`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a row, column or box.
    FullHouse,
    /// The only cell of a box that can hold a digit.
    HiddenSingleBox,
    /// The only cell of a row or column that can hold a digit.
    HiddenSingleLine,
    /// A cell with a single candidate.
    NakedSingle,
    /// A digit confined to one line inside a box: gone from the rest of the line.
    Pointing,
    /// A digit confined to one box inside a line: gone from the rest of the box.
    Claiming,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// A digit in two rows confined to two columns (or the reverse).
    XWing,
    /// Two digits of a unit confined to the same two cells.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// The three-line fish.
    Swordfish,
    /// Three digits of a unit confined to three cells.
    HiddenTriple,
    /// A bivalue pivot and two bivalue pincers.
    XYWing,
    /// A trivalue pivot and two bivalue pincers.
    XYZWing,
    /// Unique rectangle type 1: one corner has extra candidates.
    UniqueRectangle1,
    /// Unique rectangle type 2: two corners share one extra candidate.
    UniqueRectangle2,
    /// Unique rectangle type 4: a strong link on one rectangle digit in the roof.
    UniqueRectangle4,
    /// Unique rectangle type 3: the roof's extras form a naked subset with other cells.
    UniqueRectangle3,
    /// An X-wing with fins (sashimi included).
    FinnedXWing,
    /// Four cells of a unit with four candidates between them.
    NakedQuad,
    /// The four-line fish.
    Jellyfish,
    /// A swordfish with fins (sashimi included).
    FinnedSwordfish,
    /// Four digits of a unit confined to four cells.
    HiddenQuad,
    /// Two equal bivalue cells joined by a strong link on one of their digits.
    WWing,
    /// Bivalue universal grave + 1: every empty cell bivalue but one.
    BugPlusOne,
    /// A jellyfish with fins (sashimi included).
    FinnedJellyfish,
    /// Two-colouring the conjugate pairs of one digit.
    SimpleColouring,
    /// Two parallel strong links on one digit with one end in a common line.
    Skyscraper,
    /// A row and a column strong link on one digit joined in a box.
    TwoStringKite,
    /// A digit in a box confined to a cross, with a strong link.
    EmptyRectangle,
    /// An alternating chain of strong and weak links on one digit.
    XChain,
    /// A chain of bivalue cells.
    XYChain,
    /// An alternating inference chain over any strong and weak links.
    Aic,
    /// Two almost locked sets with a restricted common digit.
    AlsXz,
    /// Assuming a candidate, singles alone reach a contradiction.
    ForcingChain,
    /// Assuming a candidate, singles and the basic techniques reach a contradiction.
    ForcingNet,
    /// Assuming a candidate, the forcing net with forcing chains inside reaches a
    /// contradiction.
    NestedForcing,
    /// The last resort: assuming a candidate, an exhaustive search finds no solution.
    Trial,
}

impl Technique {
    /// Every technique in the solver's order (simplest first).
    pub const ALL: [Technique; 38] = [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XYWing,
        Technique::XYZWing,
        Technique::UniqueRectangle1,
        Technique::UniqueRectangle2,
        Technique::UniqueRectangle4,
        Technique::UniqueRectangle3,
        Technique::FinnedXWing,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::FinnedSwordfish,
        Technique::HiddenQuad,
        Technique::WWing,
        Technique::BugPlusOne,
        Technique::FinnedJellyfish,
        Technique::SimpleColouring,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::EmptyRectangle,
        Technique::XChain,
        Technique::XYChain,
        Technique::Aic,
        Technique::AlsXz,
        Technique::ForcingChain,
        Technique::ForcingNet,
        Technique::NestedForcing,
        Technique::Trial,
    ];

    /// The player-facing name.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "Full House",
            Technique::HiddenSingleBox => "Hidden Single",
            Technique::HiddenSingleLine => "Hidden Single",
            Technique::NakedSingle => "Naked Single",
            Technique::Pointing => "Pointing",
            Technique::Claiming => "Claiming",
            Technique::NakedPair => "Naked Pair",
            Technique::XWing => "X-Wing",
            Technique::HiddenPair => "Hidden Pair",
            Technique::NakedTriple => "Naked Triple",
            Technique::Swordfish => "Swordfish",
            Technique::HiddenTriple => "Hidden Triple",
            Technique::XYWing => "XY-Wing",
            Technique::XYZWing => "XYZ-Wing",
            Technique::UniqueRectangle1 => "Unique Rectangle Type 1",
            Technique::UniqueRectangle2 => "Unique Rectangle Type 2",
            Technique::UniqueRectangle4 => "Unique Rectangle Type 4",
            Technique::UniqueRectangle3 => "Unique Rectangle Type 3",
            Technique::FinnedXWing => "Finned X-Wing",
            Technique::NakedQuad => "Naked Quad",
            Technique::Jellyfish => "Jellyfish",
            Technique::FinnedSwordfish => "Finned Swordfish",
            Technique::HiddenQuad => "Hidden Quad",
            Technique::WWing => "W-Wing",
            Technique::BugPlusOne => "BUG+1",
            Technique::FinnedJellyfish => "Finned Jellyfish",
            Technique::SimpleColouring => "Simple Colouring",
            Technique::Skyscraper => "Skyscraper",
            Technique::TwoStringKite => "2-String Kite",
            Technique::EmptyRectangle => "Empty Rectangle",
            Technique::XChain => "X-Chain",
            Technique::XYChain => "XY-Chain",
            Technique::Aic => "Alternating Inference Chain",
            Technique::AlsXz => "ALS-XZ",
            Technique::ForcingChain => "Forcing Chain",
            Technique::ForcingNet => "Forcing Net",
            Technique::NestedForcing => "Nested Forcing Chain",
            Technique::Trial => "Trial and Error",
        }
    }

    /// The difficulty in tenths, on Sudoku Explainer's scale (10 = 1.0 … 119 = 11.9).
    ///
    /// Techniques Sudoku Explainer has keep its value (singles 1.0–2.3, locked candidates
    /// 2.6/2.8, subsets 3.0–5.4, fish 3.2/3.8/5.2, XY/XYZ-wing 4.2/4.4, unique rectangles
    /// 4.5–4.8, BUG 5.6, turbot fish 6.6 for skyscraper, kite and empty rectangle); the
    /// others sit next to their closest relative (finned fish just above the plain fish's
    /// neighbours, W-wing and ALS-XZ among the wings and chains). Chains rate 6.6–7.2
    /// without a length bonus, the forcing chain 8.0, the forcing net 9.0, the nested
    /// forcing chain 10.0 and trial and error 11.0.
    pub fn difficulty(self) -> u8 {
        match self {
            Technique::FullHouse => 10,
            Technique::HiddenSingleBox => 12,
            Technique::HiddenSingleLine => 15,
            Technique::NakedSingle => 23,
            Technique::Pointing => 26,
            Technique::Claiming => 28,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::XYWing => 42,
            Technique::XYZWing => 44,
            Technique::UniqueRectangle1 => 45,
            Technique::UniqueRectangle2 => 46,
            Technique::UniqueRectangle4 => 46,
            Technique::UniqueRectangle3 => 47,
            Technique::FinnedXWing => 48,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::FinnedSwordfish => 53,
            Technique::HiddenQuad => 54,
            Technique::WWing => 55,
            Technique::BugPlusOne => 56,
            Technique::FinnedJellyfish => 58,
            Technique::SimpleColouring => 62,
            Technique::Skyscraper => 66,
            Technique::TwoStringKite => 66,
            Technique::EmptyRectangle => 66,
            Technique::XChain => 67,
            Technique::XYChain => 68,
            Technique::Aic => 70,
            Technique::AlsXz => 72,
            Technique::ForcingChain => 80,
            Technique::ForcingNet => 90,
            Technique::NestedForcing => 100,
            Technique::Trial => 110,
        }
    }

    /// Whether the technique assumes the puzzle has a unique solution.
    pub fn assumes_uniqueness(self) -> bool {
        matches!(
            self,
            Technique::UniqueRectangle1
                | Technique::UniqueRectangle2
                | Technique::UniqueRectangle3
                | Technique::UniqueRectangle4
                | Technique::BugPlusOne
        )
    }

    fn bit(self) -> u64 {
        1 << (self as u8)
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of techniques, for a [`LogicSolver`] restricted to some of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Techniques(u64);

impl Techniques {
    /// No technique.
    pub const NONE: Techniques = Techniques(0);

    /// Every technique.
    pub fn all() -> Techniques {
        Technique::ALL
            .iter()
            .fold(Techniques::NONE, |s, &t| s.with(t))
    }

    /// Every technique up to `hardest` in the solver's order.
    pub fn up_to(hardest: Technique) -> Techniques {
        Technique::ALL
            .iter()
            .filter(|&&t| t <= hardest)
            .fold(Techniques::NONE, |s, &t| s.with(t))
    }

    /// The singles (full house, hidden and naked singles).
    pub fn singles() -> Techniques {
        Techniques::up_to(Technique::NakedSingle)
    }

    /// The basic techniques: singles, locked candidates (pointing and claiming), naked
    /// and hidden pairs, triples and quads, X-wing, swordfish, jellyfish, XY-wing and
    /// XYZ-wing. It is the set of the `sudoku` crate's `StrategySolver` with all fourteen of
    /// its strategies, for side-by-side comparisons.
    pub fn basic() -> Techniques {
        // Everything up to the hidden quad but the uniqueness and finned-fish techniques.
        [
            Technique::UniqueRectangle1,
            Technique::UniqueRectangle2,
            Technique::UniqueRectangle3,
            Technique::UniqueRectangle4,
            Technique::FinnedXWing,
            Technique::FinnedSwordfish,
        ]
        .iter()
        .fold(Techniques::up_to(Technique::HiddenQuad), |s, &t| {
            s.without(t)
        })
    }

    /// This set plus `t`.
    pub fn with(self, t: Technique) -> Techniques {
        Techniques(self.0 | t.bit())
    }

    /// This set without `t`.
    pub fn without(self, t: Technique) -> Techniques {
        Techniques(self.0 & !t.bit())
    }

    /// Whether `t` is in the set.
    pub fn contains(self, t: Technique) -> bool {
        self.0 & t.bit() != 0
    }
}

/// One deduction: what a technique found and what it changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// The cells of the pattern (row-major indices).
    pub cells: Vec<usize>,
    /// The candidates of the pattern, `(cell, digit)`.
    pub candidates: Vec<(usize, u8)>,
    /// The digits placed, `(cell, digit)`.
    pub placements: Vec<(usize, u8)>,
    /// The candidates removed, `(cell, digit)`.
    pub eliminations: Vec<(usize, u8)>,
    /// One sentence for a player, e.g. "In box 5, only r4c6 can hold 7."
    pub explanation: String,
}

impl Step {
    /// Whether the step changes `state`: its placements go to empty cells that have the
    /// digit as a candidate, its eliminations remove current candidates.
    pub fn applies_to(&self, state: &Candidates) -> bool {
        (!self.placements.is_empty() || !self.eliminations.is_empty())
            && self
                .placements
                .iter()
                .all(|&(c, d)| state.value(c).is_none() && state.has(c, d))
            && self.eliminations.iter().all(|&(c, d)| state.has(c, d))
    }

    /// Applies the placements and eliminations to `state`.
    pub fn apply(&self, state: &mut Candidates) {
        for &(c, d) in &self.eliminations {
            state.eliminate(c, d);
        }
        for &(c, d) in &self.placements {
            if state.value(c).is_none() {
                state.place(c, d);
            }
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.technique, self.explanation)
    }
}

/// A logical solve: the steps in order and where they lead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicalSolve {
    /// The steps, from the puzzle on; replay them with [`replay`].
    pub steps: Vec<Step>,
    /// Whether the steps fill the grid.
    pub solved: bool,
    /// The grid after the last step.
    pub grid: Grid,
}

impl LogicalSolve {
    /// The hardest technique used (the first of the hardest in the path), if any step.
    pub fn hardest(&self) -> Option<Technique> {
        self.steps.iter().map(|s| s.technique).max()
    }
}

/// A solve without its steps, from [`LogicSolver::outline_from`].
#[derive(Debug, Clone)]
pub struct Outline {
    /// Whether the grid got filled.
    pub solved: bool,
    /// The hardest technique used, if any step.
    pub hardest: Option<Technique>,
    /// The number of steps.
    pub steps: usize,
    /// The candidates where the solve ended.
    pub end: Candidates,
}

/// Why a path does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("step {index} ({technique}) does not apply to the position it is played on")]
pub struct ReplayError {
    /// 0-based index of the step.
    pub index: usize,
    /// Its technique.
    pub technique: Technique,
}

/// Replays `steps` from `puzzle`, checking that each one applies; the final candidates.
pub fn replay(puzzle: &Grid, steps: &[Step]) -> Result<Candidates, ReplayError> {
    let mut state = Candidates::new(puzzle);
    for (index, step) in steps.iter().enumerate() {
        if !step.applies_to(&state) {
            return Err(ReplayError {
                index,
                technique: step.technique,
            });
        }
        step.apply(&mut state);
    }
    Ok(state)
}

/// Applies the simplest technique that makes progress, until the grid is full.
///
/// ```
/// use sudoku_core::logic::{LogicSolver, Techniques};
/// let puzzle = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
///     .parse().unwrap();
/// let singles = LogicSolver::with_techniques(Techniques::singles()).solve(&puzzle).unwrap();
/// assert!(!singles.solved); // a hard puzzle: singles soon run dry
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogicSolver {
    techniques: Techniques,
}

impl Default for LogicSolver {
    fn default() -> LogicSolver {
        LogicSolver::new()
    }
}

impl LogicSolver {
    /// A solver with every technique (it completes every proper puzzle).
    pub fn new() -> LogicSolver {
        LogicSolver {
            techniques: Techniques::all(),
        }
    }

    /// A solver restricted to some techniques (it may get stuck).
    pub fn with_techniques(techniques: Techniques) -> LogicSolver {
        LogicSolver { techniques }
    }

    /// The simplest step that makes progress in `state`, if any.
    pub fn next_step(&self, state: &Candidates) -> Option<Step> {
        if state.is_solved() {
            return None;
        }
        Technique::ALL
            .iter()
            .filter(|&&t| self.techniques.contains(t))
            .find_map(|&t| find(t, state))
    }

    /// Solves a proper puzzle step by step. Steps stop early when the techniques run dry
    /// (only with a restricted set).
    ///
    /// # Errors
    /// When the puzzle has no solution or several (the uniqueness techniques would be
    /// unsound).
    pub fn solve(&self, puzzle: &Grid) -> Result<LogicalSolve, SolveError> {
        puzzle.solve_unique()?;
        Ok(self.solve_from(Candidates::new(puzzle)))
    }

    /// The same solve as [`LogicSolver::solve_from`] without building the steps (the
    /// singles are placed directly, in the same order): for ratings and generation.
    pub fn outline_from(&self, mut state: Candidates) -> Outline {
        let mut steps = 0;
        let mut hardest = None;
        loop {
            let (k, h) = singles::fill_singles(&mut state, self.techniques);
            steps += k;
            hardest = hardest.max(h);
            if state.is_solved() {
                break;
            }
            let next = Technique::ALL
                .iter()
                .filter(|&&t| t > Technique::NakedSingle && self.techniques.contains(t))
                .find_map(|&t| find(t, &state));
            match next {
                Some(s) => {
                    s.apply(&mut state);
                    steps += 1;
                    hardest = hardest.max(Some(s.technique));
                }
                None => break,
            }
        }
        Outline {
            solved: state.is_solved(),
            hardest,
            steps,
            end: state,
        }
    }

    /// The same solve as `outline_from(Candidates::new(puzzle))`. On 9×9 the singles are
    /// taken on fixed arrays first and the general candidates are built only when the solve
    /// goes past them (or at the end, for [`Outline::end`]).
    pub fn outline(&self, puzzle: &Grid) -> Outline {
        let (solved, hardest, steps, end) = self.outline_parts(puzzle, true);
        Outline {
            solved,
            hardest,
            steps,
            end: end.expect("the end state is built when asked for"),
        }
    }

    /// Whether the techniques alone fill `puzzle`: `outline(puzzle).solved`, without
    /// building the final candidates when the singles suffice.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.outline_parts(puzzle, false).0
    }

    /// Solved, hardest technique, step count and (when `need_end` or past the singles) the
    /// final candidates.
    fn outline_parts(
        &self,
        puzzle: &Grid,
        need_end: bool,
    ) -> (bool, Option<Technique>, usize, Option<Candidates>) {
        let Some(mut fast) = singles9::Singles9::new(puzzle) else {
            let o = self.outline_from(Candidates::new(puzzle));
            return (o.solved, o.hardest, o.steps, Some(o.end));
        };
        let (steps, hardest) = fast.fill(self.techniques);
        let beyond = self.techniques.0 & !Techniques::singles().0 != 0;
        if fast.is_solved() || !beyond {
            let end = need_end.then(|| fast.to_candidates());
            return (fast.is_solved(), hardest, steps, end);
        }
        // The general state of the grid reached is the one the general singles leave, so
        // the rest of the solve is the same.
        let o = self.outline_from(fast.to_candidates());
        (
            o.solved,
            hardest.max(o.hardest),
            steps + o.steps,
            Some(o.end),
        )
    }

    /// Applies steps to `state` until it is solved or no technique applies.
    pub fn solve_from(&self, mut state: Candidates) -> LogicalSolve {
        let mut steps = Vec::new();
        // Every step removes a candidate or fills a cell, so this ends.
        while let Some(step) = self.next_step(&state) {
            step.apply(&mut state);
            steps.push(step);
        }
        LogicalSolve {
            solved: state.is_solved(),
            grid: state.to_grid(),
            steps,
        }
    }
}

/// The first step of technique `t` in `state`.
pub fn find(t: Technique, state: &Candidates) -> Option<Step> {
    match t {
        Technique::FullHouse
        | Technique::HiddenSingleBox
        | Technique::HiddenSingleLine
        | Technique::NakedSingle => singles::single_step(state, t),
        Technique::Pointing => intersections::pointing(state),
        Technique::Claiming => intersections::claiming(state),
        Technique::NakedPair => subsets::naked(state, 2),
        Technique::NakedTriple => subsets::naked(state, 3),
        Technique::NakedQuad => subsets::naked(state, 4),
        Technique::HiddenPair => subsets::hidden(state, 2),
        Technique::HiddenTriple => subsets::hidden(state, 3),
        Technique::HiddenQuad => subsets::hidden(state, 4),
        Technique::XWing => fish::basic(state, 2),
        Technique::Swordfish => fish::basic(state, 3),
        Technique::Jellyfish => fish::basic(state, 4),
        Technique::FinnedXWing => fish::finned(state, 2),
        Technique::FinnedSwordfish => fish::finned(state, 3),
        Technique::FinnedJellyfish => fish::finned(state, 4),
        Technique::XYWing => wings::xy_wing(state),
        Technique::XYZWing => wings::xyz_wing(state),
        Technique::WWing => wings::w_wing(state),
        Technique::UniqueRectangle1 => uniqueness::rectangle(state, 1),
        Technique::UniqueRectangle2 => uniqueness::rectangle(state, 2),
        Technique::UniqueRectangle3 => uniqueness::rectangle(state, 3),
        Technique::UniqueRectangle4 => uniqueness::rectangle(state, 4),
        Technique::BugPlusOne => uniqueness::bug_plus_one(state),
        Technique::SimpleColouring => single_digit::simple_colouring(state),
        Technique::Skyscraper => single_digit::turbot(state, Technique::Skyscraper),
        Technique::TwoStringKite => single_digit::turbot(state, Technique::TwoStringKite),
        Technique::EmptyRectangle => single_digit::empty_rectangle(state),
        Technique::XChain => chains::chain(state, chains::Links::XChain),
        Technique::XYChain => chains::chain(state, chains::Links::XYChain),
        Technique::Aic => chains::chain(state, chains::Links::Aic),
        Technique::AlsXz => chains::als_xz(state),
        Technique::ForcingChain => chains::forcing(state, false),
        Technique::ForcingNet => chains::forcing(state, true),
        Technique::NestedForcing => chains::nested_forcing(state),
        Technique::Trial => chains::trial(state),
    }
}

// ---- helpers shared by the technique files ----

/// A unit index (rows `0..n`, columns `n..2n`, boxes `2n..3n`) as a [`Unit`].
pub(crate) fn unit_of(geo: &Geometry, u: usize) -> Unit {
    let n = geo.n;
    match u / n {
        0 => Unit::Row(u),
        1 => Unit::Column(u - n),
        _ => Unit::Box(u - 2 * n),
    }
}

/// "r1c2", "r1c2 and r3c4", "r1c2, r3c4 and r5c6".
pub(crate) fn cells_text(size: Size, cells: impl IntoIterator<Item = usize>) -> String {
    let cells: Vec<usize> = cells.into_iter().collect();
    let mut s = String::new();
    for (i, &c) in cells.iter().enumerate() {
        if i > 0 {
            s.push_str(if i + 1 == cells.len() { " and " } else { ", " });
        }
        let _ = write!(s, "{}", cell_name(size, c));
    }
    s
}

/// "2", "2 and 7", "2, 5 and 7".
pub(crate) fn digits_text(digits: Digits) -> String {
    let v: Vec<u8> = digits.iter().collect();
    let mut s = String::new();
    for (i, &d) in v.iter().enumerate() {
        if i > 0 {
            s.push_str(if i + 1 == v.len() { " and " } else { ", " });
        }
        s.push(symbol_char(d));
    }
    s
}

/// "5 from r1c2 and r3c4; 7 from r2c2", grouping the eliminations by digit.
pub(crate) fn eliminations_text(size: Size, elims: &[(usize, u8)]) -> String {
    let mut digits = Digits::EMPTY;
    for &(_, d) in elims {
        digits.insert(d);
    }
    let mut s = String::new();
    for (i, d) in digits.iter().enumerate() {
        if i > 0 {
            s.push_str("; ");
        }
        let _ = write!(
            s,
            "{} from {}",
            symbol_char(d),
            cells_text(
                size,
                elims.iter().filter(|&&(_, e)| e == d).map(|&(c, _)| c)
            )
        );
    }
    s
}

/// The eliminations of `digit` from `cells`.
pub(crate) fn elims_of(digit: u8, cells: &CellSet) -> Vec<(usize, u8)> {
    cells.iter().map(|c| (c, digit)).collect()
}

/// A step built from its parts; the explanation gets "so … is removed" appended by the
/// caller's text.
pub(crate) fn step(
    technique: Technique,
    cells: Vec<usize>,
    candidates: Vec<(usize, u8)>,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
    explanation: String,
) -> Step {
    Step {
        technique,
        cells,
        candidates,
        placements,
        eliminations,
        explanation,
    }
}
