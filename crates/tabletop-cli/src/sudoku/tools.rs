//! The logic tools of `tabletop sudoku`: `hint`, `explain` and `rate`.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use sudoku_core::logic::{LogicSolver, Rating, Techniques, hint};
use sudoku_core::{Grid, SolveError, puzzle_lines};

use super::json::{Answer, HintJson, RatingJson, StepJson};
use super::{Input, answer_each};
use crate::common::{CliError, CliResult, JsonArg};

/// Arguments of `tabletop sudoku hint`.
#[derive(Args, Debug)]
pub(super) struct HintArgs {
    /// The puzzle line (givens only).
    puzzle: String,
    /// The grid now, givens and entries, in the same notation (default: the puzzle).
    #[arg(long, value_name = "GRID")]
    grid: Option<String>,
    #[command(flatten)]
    json: JsonArg,
}

/// Arguments of `tabletop sudoku explain`.
#[derive(Args, Debug)]
pub(super) struct ExplainArgs {
    /// The puzzle line.
    puzzle: String,
    #[command(flatten)]
    json: JsonArg,
}

/// Arguments of `tabletop sudoku rate`.
#[derive(Args, Debug)]
pub(super) struct RateArgs {
    /// Puzzle file, or `-` for standard input (the default).
    file: Option<PathBuf>,
    /// Instead of rating: solve each puzzle with the singles only, then with the basic
    /// techniques (the set of the `sudoku` crate's StrategySolver), and print the share
    /// solved by logic alone and the time per puzzle of one pass, reading included (the
    /// lines of `rsbench strat`).
    #[arg(long)]
    strat: bool,
    #[command(flatten)]
    json: JsonArg,
}

/// Why a puzzle has no logical solution to show.
fn not_proper(e: SolveError) -> CliError {
    CliError::new(match e {
        SolveError::NoSolution => "the puzzle has no solution",
        SolveError::MultipleSolutions => "the puzzle has more than one solution",
    })
}

/// `tabletop sudoku hint`: the next hint for a puzzle, or for a grid in progress.
pub(super) fn run_hint(args: HintArgs) -> CliResult {
    let puzzle: Grid = args.puzzle.parse()?;
    let current: Grid = match &args.grid {
        Some(g) => g.parse()?,
        None => puzzle.clone(),
    };
    for (i, (&p, &g)) in puzzle.cells().iter().zip(current.cells()).enumerate() {
        if p != 0 && p != g {
            let n = puzzle.size().side();
            return Err(CliError::new(format!(
                "--grid changes the given of r{}c{}",
                i / n + 1,
                i % n + 1
            )));
        }
    }
    let answer = hint(&puzzle, &current).map_err(|e| match e {
        sudoku_core::logic::HintError::Puzzle(e) => not_proper(e),
        other => CliError::new(other.to_string()),
    })?;
    if args.json.json {
        return args.json.print(&HintJson::new(puzzle.size(), &answer));
    }
    println!("{answer}");
    Ok(())
}

/// `tabletop sudoku explain`: the whole logical solution, one step a line.
pub(super) fn run_explain(args: ExplainArgs) -> CliResult {
    let puzzle: Grid = args.puzzle.parse()?;
    let path = LogicSolver::new().solve(&puzzle).map_err(not_proper)?;
    let rating = Rating::of_path(&path);
    if args.json.json {
        let steps: Vec<StepJson> = path
            .steps
            .iter()
            .map(|step| StepJson::new(puzzle.size(), step))
            .collect();
        return args.json.print(&serde_json::json!({
            "steps": steps,
            "solved": path.solved,
            "rating": RatingJson::from(rating),
            "grid": path.grid.to_string(),
        }));
    }
    let mut out = std::io::stdout().lock();
    for (i, step) in path.steps.iter().enumerate() {
        writeln!(out, "{:>3}. {step}", i + 1)?;
    }
    if path.solved {
        writeln!(out, "Solved in {} steps.", path.steps.len())?;
    } else {
        writeln!(out, "Stuck after {} steps.", path.steps.len())?;
    }
    writeln!(out, "Rating: {rating}")?;
    writeln!(out, "{}", path.grid)?;
    out.flush()?;
    Ok(())
}

/// `tabletop sudoku rate`: `LEVEL RATING HARDEST_TECHNIQUE` per puzzle line.
pub(super) fn run_rate(args: RateArgs) -> CliResult {
    if args.strat {
        return strat(args.file, args.json);
    }
    let solver = LogicSolver::new();
    answer_each(args.file, "rating", args.json, |grid| {
        match solver.solve(grid) {
            Ok(path) => {
                let rating = Rating::of_path(&path);
                Answer {
                    text: rating.to_string(),
                    result: "rated",
                    rating: Some(RatingJson::from(rating)),
                    ..Answer::default()
                }
            }
            Err(SolveError::NoSolution) => Answer::plain("unsolvable"),
            Err(SolveError::MultipleSolutions) => Answer::plain("multiple"),
        }
    })
}

/// `tabletop sudoku rate --strat`: logic-only solving with two technique sets, timed.
fn strat(file: Option<PathBuf>, json: JsonArg) -> CliResult {
    let input = Input::read(file.as_deref())?;
    for line in input.puzzles() {
        if let Err(e) = line.grid {
            return Err(CliError::new(format!("line {}: {e}", line.line)));
        }
    }
    let mut out = std::io::stdout().lock();
    for (name, set) in [
        ("singles only", Techniques::singles()),
        ("basic techniques", Techniques::basic()),
    ] {
        let solver = LogicSolver::with_techniques(set);
        let start = Instant::now();
        let (mut puzzles, mut solved) = (0usize, 0usize);
        for line in puzzle_lines(&input.text) {
            let grid = line.grid.expect("checked above");
            puzzles += 1;
            solved += usize::from(solver.solves(&grid));
        }
        let secs = start.elapsed().as_secs_f64();
        let n = puzzles.max(1) as f64;
        if json.json {
            let line = serde_json::json!({
                "input": input.name,
                "techniques": name,
                "puzzles": puzzles,
                "solved": solved,
                "puzzles_per_second": n / secs,
                "us_per_puzzle": secs * 1e6 / n,
            });
            writeln!(out, "{line}")?;
            continue;
        }
        writeln!(
            out,
            "{} [{name}]: {solved}/{puzzles} solved by logic ({:.1}%), {:.1} puzzles/s, {:.1} us/puzzle",
            input.name,
            100.0 * solved as f64 / n,
            n / secs,
            secs * 1e6 / n
        )?;
    }
    out.flush()?;
    Ok(())
}
