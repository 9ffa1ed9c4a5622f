//! `tabletop sudoku`: Sudoku tools: solve, count, generate, bench, show.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use sudoku_core::{
    GenerateOptions, Grid, Size, SolveError, Solver, Symmetry, generate, is_comment,
};

use crate::common::{CliError, CliResult, JsonArg, Progress, SeedArg, open_input};

/// Arguments of `tabletop sudoku`.
#[derive(Args, Debug)]
pub struct SudokuArgs {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve puzzles, one per line: prints the solution when it is unique, else
    /// `unsolvable` or `multiple`.
    Solve {
        /// Puzzle file, or `-` for standard input (the default).
        file: Option<PathBuf>,
        /// Print a solution even when there are several.
        #[arg(long)]
        any: bool,
        /// Give up on a puzzle after N branching nodes and print `aborted` (for
        /// untrusted input: some contradictory sparse grids need a very long search).
        #[arg(long, value_name = "N")]
        max_nodes: Option<u64>,
    },
    /// Count the solutions of puzzles, one per line, up to a limit.
    Count {
        /// Puzzle file, or `-` for standard input (the default).
        file: Option<PathBuf>,
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 2, value_name = "N")]
        limit: usize,
        /// Give up on a puzzle after N branching nodes and print `aborted`.
        #[arg(long, value_name = "N")]
        max_nodes: Option<u64>,
    },
    /// Generate proper puzzles (exactly one solution), one per line.
    Generate {
        /// How many puzzles.
        #[arg(long, default_value_t = 1, value_name = "N")]
        count: usize,
        #[command(flatten)]
        seed: SeedArg,
        /// Grid side: 4, 6, 9, 16 or 25.
        #[arg(long, default_value_t = 9, value_name = "N")]
        size: usize,
        /// Symmetry of the clue pattern.
        #[arg(long, value_enum, default_value_t = SymmetryArg::None)]
        symmetry: SymmetryArg,
        /// Make every puzzle minimal: no given can be removed.
        #[arg(long)]
        minimal: bool,
        /// Aim for at most this many clues.
        #[arg(long, value_name = "K")]
        clues: Option<usize>,
    },
    /// Time the solver on a puzzle file (parsing excluded).
    Bench {
        /// Puzzle file, or `-` for standard input.
        file: PathBuf,
        /// `count2`: count up to two solutions (proves uniqueness); `first`: stop at the
        /// first solution.
        #[arg(long, value_enum, default_value_t = BenchMode::Count2)]
        mode: BenchMode,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Draw a puzzle given in the line format, with any conflicts.
    Show {
        /// The puzzle line.
        puzzle: String,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SymmetryArg {
    None,
    Rotate180,
    Rotate90,
    Mirror,
    Diagonal,
}

impl From<SymmetryArg> for Symmetry {
    fn from(s: SymmetryArg) -> Symmetry {
        match s {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Rotate180 => Symmetry::Rotate180,
            SymmetryArg::Rotate90 => Symmetry::Rotate90,
            SymmetryArg::Mirror => Symmetry::Mirror,
            SymmetryArg::Diagonal => Symmetry::Diagonal,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum BenchMode {
    Count2,
    First,
}

/// Runs `tabletop sudoku`.
pub fn run(args: SudokuArgs) -> CliResult {
    match args.command {
        Command::Solve {
            file,
            any,
            max_nodes,
        } => {
            let solver = solver(max_nodes);
            for_each_line(file, |grid| match solver.solve_unique(grid) {
                Err(_) => "aborted".to_owned(),
                Ok(Ok(solution)) => solution.to_string(),
                Ok(Err(SolveError::NoSolution)) => "unsolvable".to_owned(),
                Ok(Err(SolveError::MultipleSolutions)) if any => match solver.solve_one(grid) {
                    Ok(Some(s)) => s.to_string(),
                    Ok(None) => "unsolvable".to_owned(),
                    Err(_) => "aborted".to_owned(),
                },
                Ok(Err(SolveError::MultipleSolutions)) => "multiple".to_owned(),
            })
        }
        Command::Count {
            file,
            limit,
            max_nodes,
        } => {
            let solver = solver(max_nodes);
            for_each_line(file, |grid| match solver.count(grid, limit) {
                Ok(n) => n.to_string(),
                Err(_) => "aborted".to_owned(),
            })
        }
        Command::Generate {
            count,
            seed,
            size,
            symmetry,
            minimal,
            clues,
        } => {
            let size = Size::from_side(size)
                .ok_or_else(|| CliError::usage(format!("--size {size}: use 4, 6, 9, 16 or 25")))?;
            let options = GenerateOptions {
                size,
                symmetry: symmetry.into(),
                minimal,
                clues,
                ..GenerateOptions::default()
            };
            let mut rng = seed.rng();
            let mut out = std::io::stdout().lock();
            let mut progress = Progress::new("generating", count as u64);
            for _ in 0..count {
                let puzzle = generate::puzzle(&options, &mut rng);
                writeln!(out, "{puzzle}")?;
                progress.advance(1);
            }
            progress.finish();
            Ok(())
        }
        Command::Bench { file, mode, json } => bench(file, mode, json),
        Command::Show { puzzle } => {
            let grid: Grid = puzzle.parse()?;
            let mut out = std::io::stdout().lock();
            write!(out, "{}", grid.pretty())?;
            let conflicts = grid.conflicts();
            for c in &conflicts {
                writeln!(out, "conflict: {c}")?;
            }
            writeln!(
                out,
                "{} clues, {}",
                grid.clue_count(),
                if conflicts.is_empty() {
                    "no conflicts"
                } else {
                    "conflicting givens"
                }
            )?;
            Ok(())
        }
    }
}

/// The solver, with a node limit when asked.
fn solver(max_nodes: Option<u64>) -> Solver {
    match max_nodes {
        Some(n) => Solver::new().node_limit(n),
        None => Solver::new(),
    }
}

/// Applies `answer` to every puzzle line of the input, printing one line per puzzle; a
/// malformed line prints `error: …` and makes the command fail at the end.
fn for_each_line(file: Option<PathBuf>, mut answer: impl FnMut(&Grid) -> String) -> CliResult {
    let input = open_input(file.as_deref())?;
    let mut out = std::io::stdout().lock();
    let mut bad = 0usize;
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| CliError::new(format!("cannot read input: {e}")))?;
        if is_comment(&line) {
            continue;
        }
        match line.parse::<Grid>() {
            Ok(grid) => writeln!(out, "{}", answer(&grid))?,
            Err(e) => {
                bad += 1;
                writeln!(out, "error: line {}: {e}", i + 1)?;
            }
        }
    }
    out.flush()?;
    if bad > 0 {
        return Err(CliError::new(format!(
            "{bad} malformed line{}",
            if bad == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

#[derive(serde::Serialize)]
struct BenchReport {
    puzzles: usize,
    seconds: f64,
    puzzles_per_second: f64,
    unique: usize,
    multiple: usize,
    unsolvable: usize,
}

fn bench(file: PathBuf, mode: BenchMode, json: JsonArg) -> CliResult {
    let input = open_input(Some(&file))?;
    let mut puzzles = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| CliError::new(format!("cannot read input: {e}")))?;
        if is_comment(&line) {
            continue;
        }
        let grid: Grid = line
            .parse()
            .map_err(|e| CliError::new(format!("{}: line {}: {e}", file.display(), i + 1)))?;
        puzzles.push(grid);
    }
    if puzzles.is_empty() {
        return Err(CliError::new(format!("{}: no puzzles", file.display())));
    }
    let limit = match mode {
        BenchMode::Count2 => 2,
        BenchMode::First => 1,
    };
    let mut counts = [0usize; 3];
    let start = Instant::now();
    for grid in &puzzles {
        counts[grid.count_solutions(limit)] += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    let report = BenchReport {
        puzzles: puzzles.len(),
        seconds,
        puzzles_per_second: puzzles.len() as f64 / seconds.max(1e-9),
        unsolvable: counts[0],
        unique: if limit == 2 { counts[1] } else { 0 },
        multiple: counts[2],
    };
    if json.json {
        return json.print(&report);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "puzzles: {}", report.puzzles)?;
    writeln!(out, "seconds: {:.6}", report.seconds)?;
    writeln!(out, "puzzles/s: {:.0}", report.puzzles_per_second)?;
    match mode {
        BenchMode::Count2 => writeln!(
            out,
            "unique: {}, multiple: {}, unsolvable: {}",
            report.unique, report.multiple, report.unsolvable
        )?,
        BenchMode::First => writeln!(
            out,
            "solved: {}, unsolvable: {}",
            counts[1], report.unsolvable
        )?,
    }
    Ok(())
}
