//! The Reversi AI tools `solve` and `bestmove`, plus the scored hints used by `play`.

use std::io::BufRead;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use reversi_core::ai::{self, Bot, DISC, Engine, Level, Limits, ScoredMove, Searcher, Solver};
use reversi_core::{Move, Position, Square};
use serde::Serialize;

use crate::common::{CliError, CliResult, JsonArg, Progress, SeedArg, open_input};

/// Arguments of `tabletop reversi solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The position as an OBF board string (64 squares then X or O), e.g.
    /// "---------------------------OX------XO--------------------------- X".
    #[arg(
        value_name = "OBF",
        required_unless_present = "file",
        conflicts_with = "file",
        allow_hyphen_values = true
    )]
    board: Option<String>,
    /// Solve every position of an OBF file (one per line, `-` for stdin); annotations
    /// like `; F5:+6;` are checked. Positions are numbered from 1, or from A in a file
    /// named NAME-A-B.obf, as the FFO suites are (`fforum-20-39.obf`: #20 to #39).
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Refuse positions with more empty squares than this: each extra empty square
    /// multiplies the solving time (24 empties take seconds, 30 can take an hour).
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_MAX_EMPTIES,
        value_parser = clap::value_parser!(u32).range(0..=60)
    )]
    max_empties: u32,
    #[command(flatten)]
    json: JsonArg,
}

/// The most empty squares `solve` takes on by default.
const DEFAULT_MAX_EMPTIES: u32 = 28;

/// Refuses a position the solver would not finish in reasonable time.
fn check_empties(pos: &Position, max: u32) -> CliResult {
    let empties = pos.empty_count();
    if empties <= max {
        return Ok(());
    }
    Err(CliError::new(format!(
        "{empties} empty squares is too many to solve exactly in reasonable time (the limit is {max}): \
         use `tabletop reversi bestmove` for a searched move, or raise the limit with --max-empties"
    )))
}

/// Arguments of `tabletop reversi bestmove`.
#[derive(Args, Debug)]
pub struct BestmoveArgs {
    /// The position as an OBF board string.
    #[arg(value_name = "OBF", allow_hyphen_values = true)]
    board: String,
    /// Search like the bot of this level (1-10) [default: 10].
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "time_ms"])]
    level: Option<String>,
    /// Search this many plies deep (1-60); solved exactly within that many empty squares.
    #[arg(long, value_name = "D", conflicts_with = "time_ms")]
    depth: Option<u32>,
    /// Search for about this many milliseconds.
    #[arg(long, value_name = "T")]
    time_ms: Option<u64>,
    /// Count --time-ms in CPU time of the searching thread rather than wall time, so a
    /// busy machine does not shorten the search (Linux only).
    #[arg(long)]
    cpu_time: bool,
    /// Multi-ProbCut's margin in hundredths of a deviation; 0 turns it off.
    #[arg(long, value_name = "T")]
    probcut: Option<i32>,
    /// Search with these pattern weights (a file written by `tabletop reversi train`)
    /// instead of the shipped ones.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
    /// Search with this Multi-ProbCut table (a file written by `tabletop reversi probcut`)
    /// instead of the shipped one.
    #[arg(long, value_name = "FILE")]
    probcut_table: Option<std::path::PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

fn parse_board(text: &str) -> CliResult<Position> {
    text.parse::<Position>()
        .map_err(|e| CliError::new(format!("bad board string: {e}")))
}

fn square_name(sq: Option<u8>) -> String {
    match sq {
        Some(i) => Square::ALL[usize::from(i) & 63].to_string(),
        None => "pass".to_owned(),
    }
}

/// An exact score in discs for display, always signed like the FFO annotations and the
/// engine's `ScoredMove`: `+6`, `-2`, `+0`.
fn signed(score: i32) -> String {
    format!("{score:+}")
}

#[derive(Serialize)]
struct SolveLine {
    index: usize,
    best: String,
    score: i32,
    nodes: u64,
    seconds: f64,
    expected: Option<i32>,
    matches: Option<bool>,
}

/// The expected scores of an annotated OBF line: `(square, score)` pairs.
fn annotations(line: &str) -> Vec<(String, i32)> {
    let Some((_, rest)) = line.split_once(';') else {
        return Vec::new();
    };
    rest.split(';')
        .filter_map(|part| {
            let (sq, score) = part.trim().split_once(':')?;
            let score = score.trim().trim_start_matches('+').parse::<i32>().ok()?;
            Some((sq.trim().to_ascii_lowercase(), score))
        })
        .collect()
}

/// The number of a file's first position when its name gives its range, as the FFO
/// suites do: `fforum-20-39.obf` holds FFO #20 to #39.
fn first_number(path: &std::path::Path) -> Option<usize> {
    let stem = path.file_stem()?.to_str()?;
    let mut parts = stem.rsplitn(3, '-');
    let last: usize = parts.next()?.parse().ok()?;
    let first: usize = parts.next()?.parse().ok()?;
    parts.next()?;
    (first <= last).then_some(first)
}

/// Runs `tabletop reversi solve`.
pub fn solve(args: SolveArgs) -> CliResult {
    let mut solver = Solver::new();
    if let Some(board) = &args.board {
        let pos = parse_board(board)?;
        check_empties(&pos, args.max_empties)?;
        let start = Instant::now();
        let s = solver.solve(pos.player(), pos.opponent());
        let seconds = start.elapsed().as_secs_f64();
        let best = if pos.is_over() {
            "none".to_owned()
        } else {
            square_name(s.best)
        };
        if args.json.json {
            return args.json.print(&SolveLine {
                index: 1,
                best,
                score: s.score,
                nodes: s.nodes,
                seconds,
                expected: None,
                matches: None,
            });
        }
        println!("best {best} score {}", signed(s.score));
        eprintln!("{} nodes in {seconds:.3} s", s.nodes);
        return Ok(());
    }
    let path = args.file.as_deref();
    // Every position is read and checked before the first is solved, so a file with one
    // position out of reach fails at once rather than after the others.
    let mut positions = Vec::new();
    for (n, line) in open_input(path)?.lines().enumerate() {
        let line = line.map_err(|e| CliError::new(format!("cannot read the file: {e}")))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') || text.starts_with('%') {
            continue;
        }
        let context = |e: CliError| e.context(format!("line {}", n + 1));
        let pos = parse_board(text).map_err(context)?;
        check_empties(&pos, args.max_empties).map_err(context)?;
        positions.push((pos, text.to_owned()));
    }
    let first = path.and_then(first_number).unwrap_or(1);
    let (mut count, mut nodes, mut mismatches, mut checked) = (0usize, 0u64, 0usize, 0usize);
    let mut seconds = 0.0;
    // A suite can take an hour (FFO #40-59): the bar says how far it is on a terminal.
    let mut progress = Progress::new("solving", positions.len() as u64);
    for (pos, text) in &positions {
        let start = Instant::now();
        let s = solver.solve(pos.player(), pos.opponent());
        let took = start.elapsed().as_secs_f64();
        count += 1;
        seconds += took;
        nodes += s.nodes;
        let expected = annotations(text);
        let (expected_score, matches) = match expected.iter().map(|e| e.1).max() {
            Some(best) => {
                let best_move = square_name(s.best);
                let move_ok = s.best.is_none()
                    || expected
                        .iter()
                        .any(|(sq, sc)| *sc == best && *sq == best_move);
                let ok = best == s.score && move_ok;
                checked += 1;
                if !ok {
                    mismatches += 1;
                }
                (Some(best), Some(ok))
            }
            None => (None, None),
        };
        let line = SolveLine {
            index: first + count - 1,
            best: square_name(s.best),
            score: s.score,
            nodes: s.nodes,
            seconds: took,
            expected: expected_score,
            matches,
        };
        if args.json.json {
            args.json.print(&line)?;
        } else {
            let check = match (line.expected, line.matches) {
                (Some(_), Some(true)) => " ok".to_owned(),
                (Some(e), _) => format!(" MISMATCH (expected {})", signed(e)),
                _ => String::new(),
            };
            println!(
                "#{} best {} score {} nodes {} time {took:.3} s{check}",
                line.index,
                line.best,
                signed(line.score),
                line.nodes
            );
        }
        progress.advance(1);
    }
    progress.finish();
    let rate = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    if args.json.json {
        #[derive(Serialize)]
        struct Total {
            positions: usize,
            seconds: f64,
            nodes: u64,
            nodes_per_second: f64,
            checked: usize,
            mismatches: usize,
        }
        args.json.print(&Total {
            positions: count,
            seconds,
            nodes,
            nodes_per_second: rate,
            checked,
            mismatches,
        })?;
    } else {
        let check = if checked > 0 {
            format!(", {} of {checked} scores right", checked - mismatches)
        } else {
            String::new()
        };
        println!(
            "total positions {count} seconds {seconds:.3} nodes {nodes} nodes/s {rate:.0}{check}"
        );
    }
    if mismatches > 0 {
        return Err(CliError::new(format!(
            "{mismatches} position(s) did not match their annotated score"
        )));
    }
    Ok(())
}

#[derive(Serialize)]
struct BestmoveOutput {
    best: String,
    score: f64,
    exact: bool,
    depth: u32,
    nodes: u64,
    seconds: f64,
}

/// Reads a Multi-ProbCut table file written by `tabletop reversi probcut` (`None` for
/// no file: the shipped table).
pub fn load_probcut(path: Option<&std::path::Path>) -> CliResult<Option<ai::probcut::Table>> {
    let Some(path) = path else {
        return Ok(None);
    };
    ai::probcut::parse(&crate::common::load_file(path)?)
        .map(Some)
        .ok_or_else(|| CliError::new(format!("{}: not a probcut table", path.display())))
}

/// Runs `tabletop reversi bestmove`.
pub fn bestmove(args: BestmoveArgs) -> CliResult {
    let pos = parse_board(&args.board)?;
    let mut rng = args.seed.rng();
    let eval = match &args.weights {
        Some(path) => ai::Evaluator::with_patterns(
            ai::pattern::PatternWeights::from_bytes(&crate::common::load_file(path)?)
                .map_err(|e| CliError::new(format!("{}: {e}", path.display())))?,
        ),
        None => ai::Evaluator::default(),
    };
    if args.cpu_time && args.time_ms.is_none() {
        return Err(CliError::usage(
            "--cpu-time needs a time limit: add --time-ms",
        ));
    }
    let mut engine = if let Some(ms) = args.time_ms {
        if ms == 0 {
            return Err(CliError::usage("--time-ms must be at least 1"));
        }
        let exact = Level::MAX.limits().exact_empties;
        let clock = if args.cpu_time {
            thread_cpu_clock().ok_or_else(|| {
                CliError::new("--cpu-time: this system does not report a thread's CPU time")
            })?
        } else {
            super::wall_clock()
        };
        Engine::on_clock(ms, exact, clock, eval)
    } else if let Some(depth) = args.depth {
        if !(1..=60).contains(&depth) {
            return Err(CliError::usage("--depth must be from 1 to 60"));
        }
        Engine::with_evaluator(Limits::depth(depth, depth), eval)
    } else {
        let level = match &args.level {
            Some(text) => text
                .parse::<Level>()
                .map_err(|e| CliError::usage(e.to_string()))?,
            None => Level::MAX,
        };
        Engine::with_level_evaluator(level, eval)
    };
    if let Some(cuts) = load_probcut(args.probcut_table.as_deref())? {
        engine.searcher_mut().set_probcut_table(cuts);
    }
    if let Some(t) = args.probcut {
        if !(0..=1000).contains(&t) {
            return Err(CliError::usage("--probcut must be from 0 to 1000"));
        }
        engine.searcher_mut().set_probcut((t > 0).then_some(t));
    }
    let start = Instant::now();
    let mv = engine.choose_move(&pos, &mut rng);
    let seconds = start.elapsed().as_secs_f64();
    let Some(mv) = mv else {
        return Err(CliError::new("the game is over: there is no move to play"));
    };
    let (score, exact, depth, nodes) = match engine.last_search() {
        Some(r) => (r.score, r.exact, r.depth, r.nodes),
        None => (0, false, 0, 0),
    };
    let Move::Place(square) = mv else {
        println!("best pass");
        return Ok(());
    };
    if args.json.json {
        return args.json.print(&BestmoveOutput {
            best: mv.to_string(),
            score: f64::from(score) / f64::from(DISC),
            exact,
            depth,
            nodes,
            seconds,
        });
    }
    let how = if exact {
        "exact".to_owned()
    } else {
        format!("depth {depth}")
    };
    let scored = ScoredMove {
        square,
        score,
        exact,
    };
    println!("best {mv} score {}", scored.score_text());
    eprintln!("{how}, {nodes} nodes in {seconds:.3} s");
    Ok(())
}

/// The CPU time of the calling thread as a clock (Linux `/proc/thread-self/schedstat`, in
/// nanoseconds), `None` where the system does not report it.
fn thread_cpu_clock() -> Option<ai::Clock> {
    fn read() -> Option<u64> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        text.split_whitespace().next()?.parse::<u64>().ok()
    }
    read()?;
    Some(ai::Clock::new(|| read().map_or(u64::MAX, |ns| ns / 1000)))
}

/// Every legal move with its score, best first, as display lines: exact scores when the
/// position is within reach of the solver.
pub fn hint_lines(position: &Position) -> Vec<String> {
    let mut searcher = Searcher::new();
    let limits = Limits::depth(6, 14);
    ai::hints(&mut searcher, position, &limits)
        .into_iter()
        .map(|m| {
            let kind = if m.exact { "exact" } else { "estimate" };
            format!("{m} ({kind})")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_are_read() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; A4:-22;";
        let a = annotations(line);
        assert_eq!(a[0], ("g8".to_owned(), 18));
        assert_eq!(a[2], ("a4".to_owned(), -22));
        assert!(annotations("---- X").is_empty());
    }

    #[test]
    fn suite_files_give_their_first_number() {
        let first = |name: &str| first_number(std::path::Path::new(name));
        assert_eq!(first("data/reversi/fforum-20-39.obf"), Some(20));
        assert_eq!(first("fforum-1-19.obf"), Some(1));
        assert_eq!(first("mine.obf"), None);
        assert_eq!(first("20-39.obf"), None);
        assert_eq!(first("set-39-20.obf"), None);
    }

    #[test]
    fn scores_display() {
        assert_eq!(signed(6), "+6");
        assert_eq!(signed(0), "+0");
        assert_eq!(signed(-4), "-4");
    }
}
