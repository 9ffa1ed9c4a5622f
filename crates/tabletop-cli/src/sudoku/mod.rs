//! `tabletop sudoku`: play a puzzle (the default), and the tools: hint, explain, rate,
//! solve, count, generate, bench, show.
//!
//! Holds no rules logic: it parses arguments and commands, calls `sudoku-core` and renders.

mod json;
mod play;
#[cfg(feature = "server")]
pub(crate) use play::draw_cells;
pub(crate) mod start;
pub(crate) mod text;
mod tools;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use sudoku_core::logic::Difficulty;
use sudoku_core::{
    GenerateOptions, Grid, PuzzleLine, SolveError, Solver, Symmetry, generate, puzzle_lines,
};

use self::json::{Answer, LineJson};
use self::start::{PlayArgs, level_of, level_puzzle, size_arg};
use crate::common::{CliError, CliResult, JsonArg, Progress, SeedArg, open_input};

/// Arguments of `tabletop sudoku`: a subcommand, or none to play a puzzle (the play
/// options may follow the game name directly, as in `tabletop sudoku --difficulty hard`).
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = false)]
pub struct SudokuArgs {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    online: crate::online::ConnectArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a puzzle in the terminal, one command per line (the default: a medium 9x9
    /// puzzle).
    Play(PlayArgs),
    /// The next hint for a puzzle: the simplest logical step, or the first wrong entry of
    /// a grid in progress (`--grid`).
    Hint(tools::HintArgs),
    /// The whole logical solution of a puzzle, step by step, and its rating.
    Explain(tools::ExplainArgs),
    /// Rate puzzles, one per line: `LEVEL RATING HARDEST_TECHNIQUE` (e.g.
    /// `medium 2.8 Claiming`), or `unsolvable` / `multiple`.
    Rate(tools::RateArgs),
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
        #[command(flatten)]
        json: JsonArg,
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
        #[command(flatten)]
        json: JsonArg,
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
        /// Symmetry of the clue pattern: none, rotate180, rotate90, mirror or diagonal.
        #[arg(long, default_value_t = Symmetry::None, value_name = "NAME")]
        symmetry: Symmetry,
        /// Make every puzzle minimal: no given can be removed.
        #[arg(long)]
        minimal: bool,
        /// Aim for at most this many clues.
        #[arg(long, value_name = "K")]
        clues: Option<usize>,
        /// Only puzzles of this level: easy, medium, hard, expert or extreme (by their
        /// logical rating, see `rate`).
        #[arg(long, value_name = "LEVEL", conflicts_with_all = ["minimal", "clues"])]
        difficulty: Option<Difficulty>,
        #[command(flatten)]
        json: JsonArg,
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
        #[command(flatten)]
        json: JsonArg,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum BenchMode {
    Count2,
    First,
}

/// Online play: a puzzle of the server, alone at the table (others may watch it with
/// --table); full screen on a terminal, else in line mode.
#[cfg(feature = "server")]
fn play_online(online: &crate::online::ConnectArgs, size: usize, full_screen: bool) -> CliResult {
    let rules = serde_json::json!({ "size": size });
    if full_screen {
        let create = crate::online::remote::Create {
            seats: vec![serde_json::json!("me")],
            rules,
        };
        let screen = crate::tui::sudoku::online::OnlineSudoku::start(online, create)?;
        return crate::tui::run(Box::new(screen));
    }
    crate::online::sudoku(online, rules)
}

#[cfg(not(feature = "server"))]
fn play_online(_: &crate::online::ConnectArgs, _: usize, _: bool) -> CliResult {
    Err(crate::online::unavailable())
}

/// Runs `tabletop sudoku`.
pub fn run(args: SudokuArgs, full_screen: bool) -> CliResult {
    if args.online.is_set() {
        if args.command.is_some() || args.play.is_set_beyond_size() {
            return Err(CliError::usage(
                "--connect plays a puzzle the server makes: only --size (4, 6 or 9) goes with it",
            ));
        }
        return play_online(&args.online, args.play.side().unwrap_or(9), full_screen);
    }
    let plays = matches!(args.command, None | Some(Command::Play(_)));
    if !plays && args.play.is_set() {
        return Err(CliError::usage(
            "--difficulty, --size, --seed and --load are play options here: give them after \
             `tabletop sudoku` or `tabletop sudoku play`, or after the other command's name",
        ));
    }
    // Playing opens full screen on a terminal (not with --plain), else the line mode.
    let play = |p| {
        if full_screen {
            play_full_screen(p)
        } else {
            play::play(p)
        }
    };
    let Some(command) = args.command else {
        return play(args.play);
    };
    match command {
        Command::Play(p) => play(p.or(args.play)),
        Command::Hint(a) => tools::run_hint(a),
        Command::Explain(a) => tools::run_explain(a),
        Command::Rate(a) => tools::run_rate(a),
        Command::Solve {
            file,
            any,
            max_nodes,
            json,
        } => {
            let solver = solver(max_nodes);
            answer_each(file, "solving", json, |grid| {
                match solver.solve_unique(grid) {
                    Err(_) => Answer::plain("aborted"),
                    Ok(Ok(solution)) => Answer::solved("unique", &solution),
                    Ok(Err(SolveError::NoSolution)) => Answer::plain("unsolvable"),
                    Ok(Err(SolveError::MultipleSolutions)) if any => match solver.solve_one(grid) {
                        Ok(Some(s)) => Answer::solved("multiple", &s),
                        Ok(None) => Answer::plain("unsolvable"),
                        Err(_) => Answer::plain("aborted"),
                    },
                    Ok(Err(SolveError::MultipleSolutions)) => Answer::plain("multiple"),
                }
            })
        }
        Command::Count {
            file,
            limit,
            max_nodes,
            json,
        } => {
            let solver = solver(max_nodes);
            answer_each(file, "counting", json, |grid| {
                match solver.count(grid, limit) {
                    Ok(n) => Answer {
                        text: n.to_string(),
                        result: "counted",
                        solutions: Some(n),
                        ..Answer::default()
                    },
                    Err(_) => Answer::plain("aborted"),
                }
            })
        }
        Command::Generate {
            count,
            seed,
            size,
            symmetry,
            minimal,
            clues,
            difficulty,
            json,
        } => {
            let size = size_arg(size)?;
            let options = GenerateOptions {
                size,
                symmetry,
                minimal,
                clues,
                ..GenerateOptions::default()
            };
            let mut rng = seed.rng();
            let mut out = std::io::stdout().lock();
            let mut progress = Progress::new("generating", count as u64);
            // Puzzles above the clue target, and the fewest clues reached.
            let (mut missed, mut fewest) = (0usize, usize::MAX);
            for _ in 0..count {
                let puzzle = match difficulty {
                    Some(level) => level_puzzle(level, &options, &mut rng)?,
                    None => generate::puzzle(&options, &mut rng),
                };
                if json.json {
                    let line = serde_json::json!({
                        "puzzle": puzzle.to_string(),
                        "clues": puzzle.clue_count(),
                    });
                    writeln!(out, "{line}")?;
                } else {
                    writeln!(out, "{puzzle}")?;
                }
                if clues.is_some_and(|k| puzzle.clue_count() > k) {
                    missed += 1;
                    fewest = fewest.min(puzzle.clue_count());
                }
                progress.advance(1);
            }
            progress.finish();
            out.flush()?;
            if let (Some(k), true) = (clues, missed > 0) {
                eprintln!(
                    "warning: --clues {k} could not be reached for {missed} of {count} puzzle{}: \
                     the fewest clues reached was {fewest} (best of {} grids each)",
                    if count == 1 { "" } else { "s" },
                    options.attempts.max(1)
                );
            }
            Ok(())
        }
        Command::Bench { file, mode, json } => bench(file, mode, json),
        Command::Show { puzzle, json } => {
            let grid: Grid = puzzle.parse()?;
            if json.json {
                let conflicts: Vec<String> =
                    grid.conflicts().iter().map(ToString::to_string).collect();
                return json.print(&serde_json::json!({
                    "puzzle": grid.to_string(),
                    "size": grid.size().side(),
                    "clues": grid.clue_count(),
                    "conflicts": conflicts,
                }));
            }
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

/// Plays a puzzle full screen with `args` (the same settings as the line mode): the
/// screen is a view of the table `--load` read or of a new puzzle's.
fn play_full_screen(args: PlayArgs) -> CliResult {
    let start = start::start(args)?;
    let level = (!start.loaded).then(|| level_of(start.difficulty, start.options.size));
    let screen = crate::tui::sudoku::SudokuScreen::from_table(
        start.table,
        level,
        crate::tui::sudoku::Settings {
            difficulty: start.difficulty,
            size: start.options.size,
            symmetry: start.options.symmetry,
        },
        start.rng,
    );
    crate::tui::run(Box::new(screen))
}

/// The solver, with a node limit when asked.
fn solver(max_nodes: Option<u64>) -> Solver {
    match max_nodes {
        Some(n) => Solver::new().node_limit(n),
        None => Solver::new(),
    }
}

/// A whole text input and the name error messages give it.
struct Input {
    name: String,
    text: String,
}

impl Input {
    /// Reads the named file, or stdin for `None` or `-`. Text that is not UTF-8 (a binary
    /// file) is an error naming the file and the line.
    fn read(file: Option<&Path>) -> CliResult<Input> {
        let name = match file {
            Some(p) if p.as_os_str() != "-" => p.display().to_string(),
            _ => "standard input".to_owned(),
        };
        let mut bytes = Vec::new();
        open_input(file)?
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::new(format!("cannot read {name}: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
            CliError::new(format!(
                "{name}: line {line}: not UTF-8 text (a binary file?)"
            ))
        })?;
        Ok(Input { name, text })
    }

    /// The puzzle lines (comments and blank lines skipped).
    fn puzzles(&self) -> Vec<PuzzleLine> {
        puzzle_lines(&self.text).collect()
    }
}

impl Answer {
    /// An answer that is only its result, e.g. `unsolvable`.
    fn plain(result: &'static str) -> Answer {
        Answer {
            text: result.to_owned(),
            result,
            ..Answer::default()
        }
    }

    /// An answer with a solution grid.
    fn solved(result: &'static str, solution: &Grid) -> Answer {
        Answer {
            text: solution.to_string(),
            result,
            solution: Some(solution.to_string()),
            ..Answer::default()
        }
    }
}

/// Applies `answer` to every puzzle line of the input, printing one line per puzzle (text,
/// or one JSON object with `--json`), with a progress bar labelled `label` on a terminal;
/// a malformed line prints `error: …` and makes the command fail at the end.
fn answer_each(
    file: Option<PathBuf>,
    label: &str,
    json: JsonArg,
    mut answer: impl FnMut(&Grid) -> Answer,
) -> CliResult {
    let lines = Input::read(file.as_deref())?.puzzles();
    let mut progress = Progress::new(label, lines.len() as u64);
    let mut out = std::io::stdout().lock();
    let mut bad = 0usize;
    for line in &lines {
        let (answer, error) = match &line.grid {
            Ok(grid) => (Some(answer(grid)), None),
            Err(e) => {
                bad += 1;
                (None, Some(e.to_string()))
            }
        };
        if json.json {
            let object = LineJson {
                line: line.line,
                answer: answer.as_ref(),
                error,
            };
            writeln!(out, "{}", serde_json::to_string(&object)?)?;
        } else if let Some(answer) = answer {
            writeln!(out, "{}", answer.text)?;
        } else if let Some(e) = error {
            writeln!(out, "error: line {}: {e}", line.line)?;
        }
        progress.advance(1);
    }
    progress.finish();
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
    let input = Input::read(Some(&file))?;
    let puzzles = input
        .puzzles()
        .into_iter()
        .map(|l| {
            l.grid
                .map_err(|e| CliError::new(format!("{}: line {}: {e}", input.name, l.line)))
        })
        .collect::<CliResult<Vec<Grid>>>()?;
    if puzzles.is_empty() {
        return Err(CliError::new(format!("{}: no puzzles", input.name)));
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
