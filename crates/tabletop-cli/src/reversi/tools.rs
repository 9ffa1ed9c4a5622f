//! The Reversi AI tools: `solve`, `bestmove` and `arena`, plus the computer player and
//! the scored hints used by `play`.

use std::io::BufRead;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use clap::Args;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reversi_core::ai::{self, Bot, DISC, Engine, Level, Limits, ScoredMove, Searcher, Solver};
use reversi_core::{Color, Move, Position, Square};
use serde::Serialize;

use crate::common::{CliError, CliResult, JsonArg, Progress, SeedArg, open_input, run_parallel};

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
    /// like `; F5:+6;` are checked.
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
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Arguments of `tabletop reversi train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Number of self-play games to learn from.
    #[arg(long, value_name = "N", default_value_t = 60_000)]
    games: usize,
    /// Midgame depth of the self-play bots.
    #[arg(long, value_name = "PLIES", default_value_t = 2)]
    depth: u32,
    /// The self-play bots solve exactly from this many empty squares.
    #[arg(long, value_name = "EMPTIES", default_value_t = 10)]
    exact: u32,
    /// Percentage of random moves in the self-play games.
    #[arg(long, value_name = "PERCENT", default_value_t = 5)]
    random: u32,
    /// Passes of gradient descent over the positions.
    #[arg(long, value_name = "N", default_value_t = 8)]
    epochs: usize,
    /// Initial learning rate.
    #[arg(long, value_name = "RATE", default_value_t = 0.003)]
    rate: f32,
    /// Where to write the weights file.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    seed: SeedArg,
}

/// Runs `tabletop reversi train`: self-play games, least-squares fit, weights file.
pub fn train(args: TrainArgs) -> CliResult {
    if args.games == 0 || args.epochs == 0 || args.random > 100 {
        return Err(CliError::usage(
            "--games and --epochs must be at least 1 and --random at most 100",
        ));
    }
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return Err(CliError::usage("--rate must be a positive number"));
    }
    let seed = args.seed.seed();
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples = Vec::new();
    let chunk = 1000;
    let mut progress = Progress::new("self-play", args.games as u64);
    let mut left = args.games;
    while left > 0 {
        let n = left.min(chunk);
        samples.extend(ai::pattern::self_play(
            &mut rng,
            n,
            args.depth,
            args.exact,
            args.random,
        ));
        left -= n;
        progress.advance(n as u64);
    }
    progress.finish();
    eprintln!(
        "{} games, {} positions in {:.1} s",
        args.games,
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    let mut trainer = ai::pattern::Trainer::new();
    let mut order_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7EA1_7EA1);
    for (epoch, error) in trainer
        .train(&samples, args.epochs, args.rate, &mut order_rng)
        .iter()
        .enumerate()
    {
        eprintln!("epoch {}: rms error {:.2} discs", epoch + 1, error.sqrt());
    }
    let bytes = trainer.finish().to_bytes();
    crate::common::save_file(&args.out, &bytes)?;
    println!(
        "wrote {} ({} bytes) in {:.1} s",
        args.out.display(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Arguments of `tabletop reversi arena`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The first player: bot:N (level 1-10), search:DEPTH:EMPTIES, either optionally
    /// followed by :hand (the hand-tuned evaluation).
    #[arg(long, value_name = "PLAYER")]
    black: ArenaPlayer,
    /// The second player, like the first.
    #[arg(long, value_name = "PLAYER")]
    white: ArenaPlayer,
    /// Number of games, played in pairs from the same opening with colours swapped
    /// (rounded up to an even number).
    #[arg(long, value_name = "G", default_value_t = 20)]
    games: u32,
    /// Random plies of each opening before the bots take over.
    #[arg(long, value_name = "PLIES", default_value_t = 6)]
    opening_plies: u32,
    /// Pairs of games played at the same time (each thread has its own bots); the
    /// results do not depend on it.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

/// A player of the arena: `bot:N` (a level), or `search:D:E` (a midgame search of `D`
/// plies, exact from `E` empty squares, no noise); either followed by `:hand` to use the
/// hand-tuned evaluation instead of the trained one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaPlayer {
    budget: Budget,
    hand: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Budget {
    Level(Level),
    Search(u32, u32),
}

impl ArenaPlayer {
    fn engine(self) -> Engine {
        let eval = if self.hand {
            ai::Evaluator::hand_tuned()
        } else {
            ai::Evaluator::trained()
        };
        match self.budget {
            Budget::Level(level) => Engine::with_level_evaluator(level, eval),
            Budget::Search(depth, exact) => {
                Engine::with_evaluator(Limits::depth(depth, exact), eval)
            }
        }
    }
}

impl FromStr for ArenaPlayer {
    type Err = String;

    fn from_str(s: &str) -> Result<ArenaPlayer, String> {
        let bad = || {
            format!(
                "'{s}' is not an arena player: use bot:N (N from 1 to 10) or search:DEPTH:EMPTIES, optionally followed by :hand"
            )
        };
        let (rest, hand) = match s.strip_suffix(":hand") {
            Some(rest) => (rest, true),
            None => (s, false),
        };
        let budget = if let Some(level) = rest.strip_prefix("bot:") {
            Budget::Level(level.parse::<Level>().map_err(|e| e.to_string())?)
        } else if let Some(search) = rest.strip_prefix("search:") {
            let (depth, exact) = search.split_once(':').ok_or_else(bad)?;
            let depth: u32 = depth.parse().map_err(|_| bad())?;
            let exact: u32 = exact.parse().map_err(|_| bad())?;
            if !(1..=30).contains(&depth) || exact > 30 {
                return Err(format!(
                    "'{s}': the search depth goes from 1 to 30 plies and the exact solve from 0 to 30 empty squares"
                ));
            }
            Budget::Search(depth, exact)
        } else {
            return Err(bad());
        };
        Ok(ArenaPlayer { budget, hand })
    }
}

impl std::fmt::Display for ArenaPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.budget {
            Budget::Level(level) => write!(f, "bot:{level}")?,
            Budget::Search(depth, exact) => write!(f, "search:{depth}:{exact}")?,
        }
        if self.hand {
            write!(f, ":hand")?;
        }
        Ok(())
    }
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

/// A score in discs for display: `+6`, `-2`, `0`.
fn signed(score: i32) -> String {
    if score > 0 {
        format!("+{score}")
    } else {
        score.to_string()
    }
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
    let (mut count, mut nodes, mut mismatches, mut checked) = (0usize, 0u64, 0usize, 0usize);
    let mut seconds = 0.0;
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
            index: count,
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
    }
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

/// Runs `tabletop reversi bestmove`.
pub fn bestmove(args: BestmoveArgs) -> CliResult {
    let pos = parse_board(&args.board)?;
    let mut rng = args.seed.rng();
    let (mut engine, deadline) = if let Some(ms) = args.time_ms {
        if ms == 0 {
            return Err(CliError::usage("--time-ms must be at least 1"));
        }
        let limits = Limits::depth(60, 16);
        (
            Engine::with_limits(limits),
            Some(Instant::now() + Duration::from_millis(ms)),
        )
    } else if let Some(depth) = args.depth {
        if !(1..=60).contains(&depth) {
            return Err(CliError::usage("--depth must be from 1 to 60"));
        }
        (Engine::with_limits(Limits::depth(depth, depth)), None)
    } else {
        let level = match &args.level {
            Some(text) => text
                .parse::<Level>()
                .map_err(|e| CliError::usage(e.to_string()))?,
            None => Level::MAX,
        };
        (Engine::new(level), None)
    };
    let start = Instant::now();
    let mut stop = || deadline.is_some_and(|d| Instant::now() >= d);
    let mv = engine.choose_move_with_stop(&pos, &mut rng, &mut stop);
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

/// The outcome of one arena game from the first player's view.
struct GameOutcome {
    first_discs: u32,
    second_discs: u32,
}

/// A random opening of `plies` moves (stopping early at a dead end).
fn opening(rng: &mut ChaCha8Rng, plies: u32) -> Position {
    let mut pos = Position::start();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_over() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        if pos.play(mv).is_err() {
            break;
        }
    }
    pos
}

fn play_out(
    mut pos: Position,
    first: &mut Engine,
    second: &mut Engine,
    first_color: Color,
    rng: &mut dyn Rng,
) -> CliResult<GameOutcome> {
    first.new_game();
    second.new_game();
    loop {
        let bot = if pos.side_to_move() == first_color {
            &mut *first
        } else {
            &mut *second
        };
        let Some(mv) = bot.choose_move(&pos, rng) else {
            break;
        };
        pos.play(mv)
            .map_err(|e| CliError::new(format!("internal error: a bot played {mv}: {e}")))?;
    }
    Ok(GameOutcome {
        first_discs: pos.count(first_color),
        second_discs: pos.count(first_color.other()),
    })
}

/// The two games of a pair from `pos`, the first player taking Black, then White.
fn play_pair(
    pos: Position,
    first: &mut Engine,
    second: &mut Engine,
    rng: &mut dyn Rng,
) -> CliResult<[GameOutcome; 2]> {
    Ok([
        play_out(pos, first, second, Color::Black, rng)?,
        play_out(pos, first, second, Color::White, rng)?,
    ])
}

#[derive(Serialize)]
struct ArenaSummary {
    first: String,
    second: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    first_discs: u32,
    second_discs: u32,
    score: f64,
    ci95: f64,
    seconds: f64,
}

/// Runs `tabletop reversi arena`.
pub fn arena(args: ArenaArgs) -> CliResult {
    if args.games == 0 {
        return Err(CliError::usage("--games must be at least 1"));
    }
    if args.threads == 0 {
        return Err(CliError::usage("--threads must be at least 1"));
    }
    let pairs = args.games.div_ceil(2);
    let games = pairs * 2;
    let seed = args.seed.seed();
    // The openings come from one generator, in order; each pair then has its own
    // tie-breaking generator, so the games do not depend on how they are spread over
    // threads.
    let mut openings = ChaCha8Rng::seed_from_u64(seed);
    let starts: Vec<Position> = (0..pairs)
        .map(|_| opening(&mut openings, args.opening_plies))
        .collect();
    let mut progress = Progress::new(
        format!("{} vs {}", args.black, args.white),
        u64::from(games),
    );
    let start = Instant::now();
    // Each thread has its own pair of bots (reset before every game); each pair of games
    // has its own tie-breaking generator, so the results do not depend on the threads.
    let results = run_parallel(
        starts.len(),
        args.threads,
        &mut progress,
        2,
        || (args.black.engine(), args.white.engine()),
        |(first, second), pair| {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seed ^ 0x5DEE_CE66_D1CE_5EED ^ (pair as u64) << 32);
            play_pair(starts[pair], first, second, &mut rng)
        },
    )
    .into_iter()
    .collect::<CliResult<Vec<[GameOutcome; 2]>>>()?;
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let (mut first_discs, mut second_discs) = (0u32, 0u32);
    let mut scores: Vec<f64> = Vec::with_capacity(games as usize);
    for out in results.into_iter().flatten() {
        first_discs += out.first_discs;
        second_discs += out.second_discs;
        let s = match out.first_discs.cmp(&out.second_discs) {
            std::cmp::Ordering::Greater => {
                wins += 1;
                1.0
            }
            std::cmp::Ordering::Equal => {
                draws += 1;
                0.5
            }
            std::cmp::Ordering::Less => {
                losses += 1;
                0.0
            }
        };
        scores.push(s);
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    let ci95 = 1.96 * (var / n).sqrt();
    let seconds = start.elapsed().as_secs_f64();
    let summary = ArenaSummary {
        first: args.black.to_string(),
        second: args.white.to_string(),
        games,
        wins,
        draws,
        losses,
        first_discs,
        second_discs,
        score: mean,
        ci95,
        seconds,
    };
    if args.json.json {
        return args.json.print(&summary);
    }
    println!(
        "{} vs {}: {games} games ({pairs} openings of {} random plies, colours swapped), seed {seed}",
        summary.first, summary.second, args.opening_plies
    );
    println!(
        "{}: wins {wins} draws {draws} losses {losses}, discs {first_discs}-{second_discs}",
        summary.first
    );
    println!(
        "score {:.1}% ± {:.1}% (95% confidence), {seconds:.1} s",
        mean * 100.0,
        ci95 * 100.0
    );
    Ok(())
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
    fn arena_players_parse() {
        assert_eq!("bot:3".parse::<ArenaPlayer>().unwrap().to_string(), "bot:3");
        assert!("bot:11".parse::<ArenaPlayer>().is_err());
        assert!("human".parse::<ArenaPlayer>().is_err());
        for ok in ["bot:10:hand", "search:12:20", "search:4:0:hand"] {
            assert_eq!(ok.parse::<ArenaPlayer>().unwrap().to_string(), ok);
        }
        for bad in [
            "search:12",
            "search:0:10",
            "search:5:31",
            "search:x:1",
            "bot:3:hard",
            ":hand",
        ] {
            assert!(bad.parse::<ArenaPlayer>().is_err(), "{bad}");
        }
    }

    #[test]
    fn scores_display() {
        assert_eq!(signed(6), "+6");
        assert_eq!(signed(0), "0");
        assert_eq!(signed(-4), "-4");
    }
}
