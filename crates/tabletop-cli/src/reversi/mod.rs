//! `tabletop reversi`: Reversi / Othello in the terminal and its tools.
//!
//! - `play`: line-based play between people and/or bots (the default subcommand, with the
//!   computer as White);
//! - `perft DEPTH [--board OBF] [--divide]`: count move paths;
//! - `replay RECORD [--first black|white]`: the final position of a game record;
//! - `show OBF`: draw a board with its legal moves;
//! - `solve`, `bestmove` (in `tools`), `arena`, `train` and `probcut`: the AI tools.

mod arena;
mod session;
mod tools;
mod train;

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use reversi_core::ai::Level;
use reversi_core::{Color, Game, Position, Record, Rules, Square, perft, perft_divide};
use tabletop_play::Table;
use tabletop_play::reversi::Reversi;

use crate::common::{CliError, CliResult, JsonArg, Painter, SeedArg, Style, load_file};
use session::play;

/// Arguments of `tabletop reversi`: a subcommand, or none to play against the computer
/// (the options of `play` are accepted; White defaults to the computer).
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ReversiArgs {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    online: crate::online::ConnectArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in the terminal: people and/or the computer, one command per line.
    Play(PlayArgs),
    /// Count the leaves of the game tree DEPTH plies deep (a pass is a ply; finished
    /// games count nothing, as in Edax).
    Perft(PerftArgs),
    /// Replay a game record like f5d6c3d3c4 and print the final board string (and the
    /// result if the game is over).
    Replay(ReplayArgs),
    /// Draw a board given as an OBF string, with its legal moves.
    Show(ShowArgs),
    /// Solve a position exactly (final disc difference with perfect play, empties to the
    /// winner), or every position of an OBF file.
    Solve(tools::SolveArgs),
    /// The computer's best move for a position, by level, depth or time.
    Bestmove(tools::BestmoveArgs),
    /// Play bots against each other from varied openings, colours swapped.
    Arena(arena::ArenaArgs),
    /// Rebuild the evaluation's pattern weights from seeded self-play games (the shipped
    /// file is `crates/reversi-core/src/ai/patterns.bin`).
    Train(train::TrainArgs),
    /// Fit the Multi-ProbCut table to pairs of shallow and deep searches of seeded
    /// positions (the shipped file is `crates/reversi-core/src/ai/probcut.bin`).
    Probcut(train::ProbcutArgs),
}

/// Who plays a colour: a person or the computer at some level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Human,
    Bot(Level),
}

/// The level of `bot` without `:LEVEL`.
const DEFAULT_BOT_LEVEL: Level = Level::ALL[6];

impl Player {
    /// The table's player for this one.
    fn seat(self) -> tabletop_play::Player {
        match self {
            Player::Human => tabletop_play::Player::Human,
            Player::Bot(level) => tabletop_play::Player::Bot(level.get()),
        }
    }
}

impl FromStr for Player {
    type Err = String;

    fn from_str(s: &str) -> Result<Player, String> {
        let s = s.trim().to_ascii_lowercase();
        if s == "human" {
            return Ok(Player::Human);
        }
        if s == "bot" {
            return Ok(Player::Bot(DEFAULT_BOT_LEVEL));
        }
        if let Some(level) = s.strip_prefix("bot:") {
            return level
                .parse::<Level>()
                .map(Player::Bot)
                .map_err(|e| e.to_string());
        }
        Err(format!(
            "'{s}' is not a player: use human, bot or bot:LEVEL"
        ))
    }
}

/// A colour on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ColorArg {
    Black,
    White,
}

impl From<ColorArg> for Color {
    fn from(c: ColorArg) -> Color {
        match c {
            ColorArg::Black => Color::Black,
            ColorArg::White => Color::White,
        }
    }
}

/// Arguments of `tabletop reversi play`.
#[derive(Args, Debug)]
struct PlayArgs {
    /// Who plays Black (X): human, bot or bot:LEVEL (1-10 or a level name).
    #[arg(long, value_name = "PLAYER", default_value = "human")]
    black: Player,
    /// Who plays White (O): human, bot or bot:LEVEL (1-10 or a level name) [default: bot, level
    /// strong, as in every game: you play against the computer].
    #[arg(long, value_name = "PLAYER")]
    white: Option<Player>,
    /// The colour that moves first (standard Othello: black).
    #[arg(long, value_enum, value_name = "COLOR")]
    first: Option<ColorArg>,
    /// Continue a game saved with the `save` command.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
}

/// Arguments of `tabletop reversi perft`.
#[derive(Args, Debug)]
struct PerftArgs {
    /// The number of plies.
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: u32,
    /// Start from this OBF board string instead of the start position.
    #[arg(long, value_name = "OBF", allow_hyphen_values = true)]
    board: Option<String>,
    /// Print the count below each first move too.
    #[arg(long)]
    divide: bool,
    #[command(flatten)]
    json: JsonArg,
}

/// Arguments of `tabletop reversi replay`.
#[derive(Args, Debug)]
struct ReplayArgs {
    /// The moves, concatenated (f5d6c3d3c4); passes are inferred.
    #[arg(value_name = "RECORD", allow_hyphen_values = true)]
    record: String,
    /// The colour that moves first (standard Othello: black).
    #[arg(long, value_enum, value_name = "COLOR", default_value = "black")]
    first: ColorArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Arguments of `tabletop reversi show`.
#[derive(Args, Debug)]
struct ShowArgs {
    /// The board: 64 characters X, O, - from a1 to h8, a space, X or O to move.
    #[arg(value_name = "OBF", allow_hyphen_values = true)]
    board: String,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `tabletop reversi`.
pub fn run(args: ReversiArgs, full_screen: bool) -> CliResult {
    if args.online.is_set() {
        return play_online(&args.online, &args.play, full_screen);
    }
    match args.command {
        // A person (Black) against the computer (White) unless --white says otherwise: the
        // same default as every game, with or without `play`, full screen or not.
        None if full_screen => play_full_screen(args.play, Player::Bot(DEFAULT_BOT_LEVEL)),
        Some(Command::Play(args)) if full_screen => {
            play_full_screen(args, Player::Bot(DEFAULT_BOT_LEVEL))
        }
        None => play(args.play, Player::Bot(DEFAULT_BOT_LEVEL)),
        Some(Command::Play(args)) => play(args, Player::Bot(DEFAULT_BOT_LEVEL)),
        Some(Command::Perft(args)) => run_perft(args),
        Some(Command::Replay(args)) => replay(args),
        Some(Command::Show(args)) => show(args),
        Some(Command::Solve(args)) => tools::solve(args),
        Some(Command::Bestmove(args)) => tools::bestmove(args),
        Some(Command::Arena(args)) => arena::arena(args),
        Some(Command::Train(args)) => train::train(args),
        Some(Command::Probcut(args)) => train::probcut(args),
    }
}

/// Online play: you take Black unless `--black` is a bot (then White); the other colour
/// is a server bot when its flag says `bot`, else the seat stays open for the invite.
#[cfg(feature = "server")]
fn play_online(
    online: &crate::online::ConnectArgs,
    args: &PlayArgs,
    full_screen: bool,
) -> CliResult {
    use serde_json::json;
    if args.load.is_some() {
        return Err(CliError::usage(
            "--load cannot go with --connect: a server game starts from the start",
        ));
    }
    let seat = |p: Option<Player>| match p {
        Some(Player::Bot(level)) => json!({"bot": level.get()}),
        _ => json!("open"),
    };
    let seats = match args.black {
        Player::Bot(_) => vec![seat(Some(args.black)), json!("me")],
        Player::Human => vec![json!("me"), seat(args.white)],
    };
    let rules = Rules::with_first(args.first.map_or(Color::Black, Color::from));
    let rules = serde_json::to_value(rules)?;
    if full_screen {
        let create = crate::online::remote::Create { seats, rules };
        let screen = crate::tui::reversi::online::OnlineReversi::start(online, create)?;
        return crate::tui::run(Box::new(screen));
    }
    crate::online::reversi(online, seats, rules)
}

#[cfg(not(feature = "server"))]
fn play_online(_: &crate::online::ConnectArgs, _: &PlayArgs, _: bool) -> CliResult {
    Err(crate::online::unavailable())
}

/// A clock for bots that play on time: microseconds since the first call.
pub fn wall_clock() -> reversi_core::ai::Clock {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let origin = *ORIGIN.get_or_init(Instant::now);
    reversi_core::ai::Clock::new(move || {
        u64::try_from(origin.elapsed().as_micros()).unwrap_or(u64::MAX)
    })
}

/// Draws `position` with coordinates; legal moves are marked `*`.
pub(crate) fn draw(position: &Position, painter: Painter) -> String {
    let paint = |text: &str, style: Style| painter.paint(text, style);
    let legal = position.legal_squares();
    let files = paint("  a b c d e f g h", Style::Dim);
    let mut out = format!("{files}\n");
    for rank in 0..8u8 {
        let label = paint(&(rank + 1).to_string(), Style::Dim);
        out.push_str(&label);
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let cell = match position.piece_at(sq) {
                Some(Color::Black) => paint("X", Style::Red),
                Some(Color::White) => paint("O", Style::Blue),
                None if legal.contains(sq) => paint("*", Style::Green),
                None => paint(".", Style::Dim),
            };
            out.push(' ');
            out.push_str(&cell);
        }
        out.push(' ');
        out.push_str(&label);
        out.push('\n');
    }
    out.push_str(&files);
    out
}

/// `Black (X) 12  White (O) 9`.
pub(crate) fn score_line(position: &Position) -> String {
    format!(
        "Black (X) {}  White (O) {}",
        position.count(Color::Black),
        position.count(Color::White)
    )
}

fn move_names(position: &Position) -> String {
    position
        .legal_squares()
        .iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board, the score and whose turn it is (or the result).
pub(crate) fn describe(position: &Position, painter: Painter) -> String {
    let mut out = draw(position, painter);
    out.push('\n');
    out.push_str(&score_line(position));
    out.push('\n');
    match position.outcome() {
        Some(result) => out.push_str(&format!("Game over: {result}")),
        None => {
            let side = position.side_to_move();
            if position.must_pass() {
                out.push_str(&format!("{side} ({}) has no legal move", side.letter()));
            } else {
                out.push_str(&format!(
                    "{side} ({}) to move: {}",
                    side.letter(),
                    move_names(position)
                ));
            }
        }
    }
    out
}

/// Reads a binary save.
fn load_game(path: &std::path::Path) -> CliResult<Game> {
    let bytes = load_file(path)?;
    decode_game(&bytes).map_err(|e| CliError::new(format!("{}: {e}", path.display())))
}

/// The engine game of a save: a table's (`TTPL`) or the engine's own (as saved, before
/// any forced pass a table would play).
pub(crate) fn decode_game(bytes: &[u8]) -> Result<Game, String> {
    if !bytes.starts_with(&tabletop_play::SAVE_FORMAT.magic()) {
        return Game::from_bytes(bytes).map_err(|e| e.to_string());
    }
    Table::<Reversi>::from_bytes(bytes)
        .map(|t| t.game().game().clone())
        .map_err(|e| e.to_string())
}

fn parse_board(text: &str) -> CliResult<Position> {
    text.parse::<Position>()
        .map_err(|e| CliError::new(format!("bad board string: {e}")))
}

fn run_perft(args: PerftArgs) -> CliResult {
    let position = match &args.board {
        Some(text) => parse_board(text)?,
        None => Position::start(),
    };
    let started = Instant::now();
    let cpu_started = cpu_seconds();
    let parts = if args.divide {
        perft_divide(&position, args.depth)
    } else {
        Vec::new()
    };
    let nodes = if args.divide {
        parts.iter().map(|(_, n)| n).sum()
    } else {
        perft(&position, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{}",
        perft_timing(nodes, seconds, cpu_started.zip(cpu_seconds()))
    );
    if args.json.json {
        let divide: Vec<(String, u64)> = parts.iter().map(|(m, n)| (m.to_string(), *n)).collect();
        return args.json.print(&serde_json::json!({
            "depth": args.depth,
            "count": nodes,
            "seconds": seconds,
            "divide": divide,
        }));
    }
    for (mv, n) in &parts {
        println!("{mv} {n}");
    }
    println!("perft {} {nodes}", args.depth);
    Ok(())
}

/// Below this many seconds a leaves-per-second rate mostly measures the clock, so none is
/// printed.
const MIN_RATE_SECONDS: f64 = 0.05;

/// `N leaves in S s (R M leaves/s), CPU C s (R M leaves/s)`: the rates only when the time
/// they divide by is at least [`MIN_RATE_SECONDS`]. `cpu` is the CPU clock before and
/// after, where the system gives it.
fn perft_timing(nodes: u64, seconds: f64, cpu: Option<(f64, f64)>) -> String {
    let with_rate = |s: f64| {
        if s >= MIN_RATE_SECONDS {
            format!("{s:.3} s ({:.1} M leaves/s)", nodes as f64 / s / 1e6)
        } else {
            format!("{s:.3} s")
        }
    };
    let mut timing = format!("{nodes} leaves in {}", with_rate(seconds));
    // On a loaded machine the wall clock overstates the work: show the CPU time too.
    if let Some((a, b)) = cpu {
        timing.push_str(&format!(", CPU {}", with_rate(b - a)));
    }
    timing
}

/// CPU time used by this process so far, where the system tells it (Linux
/// `/proc/self/schedstat`, in nanoseconds); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanos as f64 / 1e9)
}

fn replay(args: ReplayArgs) -> CliResult {
    let record: Record = args
        .record
        .parse()
        .map_err(|e| CliError::new(format!("bad record: {e}")))?;
    let game = Game::from_record(Rules::with_first(args.first.into()), &record)?;
    if args.json.json {
        return args.json.print(&position_json(game.position()));
    }
    println!("{}", game.position());
    if let Some(result) = game.outcome() {
        println!("{result}");
    }
    Ok(())
}

fn show(args: ShowArgs) -> CliResult {
    let position = parse_board(&args.board)?;
    if args.json.json {
        return args.json.print(&position_json(&position));
    }
    println!("{}", describe(&position, Painter::stdout()));
    Ok(())
}

/// The `--json` of `replay` and `show`: the board string, the discs, whose turn it is
/// and its legal moves, or the result.
fn position_json(position: &Position) -> serde_json::Value {
    let over = position.outcome();
    let legal: Vec<String> = position
        .legal_squares()
        .iter()
        .map(|sq| sq.to_string())
        .collect();
    serde_json::json!({
        "board": position.to_string(),
        "black": position.count(Color::Black),
        "white": position.count(Color::White),
        "to_move": (over.is_none()).then(|| color_name(position.side_to_move())),
        "legal_moves": legal,
        "over": over.is_some(),
        "result": over.map(|result| result.to_string()),
    })
}

/// `black` or `white`.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The game full screen, with the same players, rules and save as `play`.
fn play_full_screen(args: PlayArgs, default_white: Player) -> CliResult {
    use crate::tui::reversi::{ReversiScreen, Side};
    let game = match &args.load {
        Some(_) if args.first.is_some() => {
            return Err(CliError::usage(
                "--first cannot go with --load: the save holds its own rules",
            ));
        }
        Some(path) => load_game(path)?,
        None => Game::new(Rules::with_first(
            args.first.map_or(Color::Black, Color::from),
        )),
    };
    let side = |p: Player| match p {
        Player::Human => Side::Human,
        Player::Bot(level) => Side::Bot(level),
    };
    let players = [side(args.black), side(args.white.unwrap_or(default_white))];
    let screen = ReversiScreen::with_game(game, players, args.seed.seed());
    crate::tui::run(Box::new(screen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_rates_only_for_times_that_mean_something() {
        assert_eq!(
            perft_timing(8200, 0.001, Some((1.0, 1.0))),
            "8200 leaves in 0.001 s, CPU 0.000 s"
        );
        assert_eq!(
            perft_timing(3_000_000, 0.5, Some((1.0, 1.25))),
            "3000000 leaves in 0.500 s (6.0 M leaves/s), CPU 0.250 s (12.0 M leaves/s)"
        );
        assert_eq!(perft_timing(10, 0.0, None), "10 leaves in 0.000 s");
    }
}
