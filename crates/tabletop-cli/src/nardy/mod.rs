//! `tabletop nardy`: Long Nardy in the terminal, and its tools (`moves`, `perft`,
//! `verify`).
//!
//! Holds no rules logic: it parses arguments and commands, calls `nardy-core` and renders.

mod ai;
mod rollout;
mod session;
pub(crate) mod verify;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use nardy_core::{
    BlockCheck, Dice, Game, HeadException, Opening, Position, Rules, Scoring, perft, perft_divide,
};
use serde::Serialize;

use tabletop_play::nardy::Nardy;
use tabletop_play::{Seat, Table};

use self::session::play;
#[cfg(feature = "server")]
pub(crate) use self::session::{board_text, dice_text};
use crate::common::{CliError, CliResult, JsonArg, SeedArg, load_file};
use crate::tui::nardy::{NardyScreen, Settings};

/// Arguments of `tabletop nardy`: a subcommand, or none to play (the play options may
/// follow the game name directly, as in `tabletop nardy --seed 11`).
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = false)]
pub struct NardyArgs {
    #[command(subcommand)]
    command: Option<NardyCommand>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    online: crate::online::ConnectArgs,
}

/// The rule flags shared by every nardy command; the defaults are the federation rules.
#[derive(Args, Debug, Clone, Copy)]
struct RuleArgs {
    /// Who starts and with which dice: `rolloff` (federation: the first mover plays the
    /// roll-off dice) or `reroll` (the first mover throws afresh).
    #[arg(long, global = true, value_enum, default_value = "rolloff")]
    opening: OpeningArg,
    /// Which first-turn doubles may take two checkers from the head.
    #[arg(long, global = true, value_enum, default_value = "strict")]
    head_exception: HeadArg,
    /// When the six-point block rule is checked.
    #[arg(long, global = true, value_enum, default_value = "every-step")]
    block_check: BlockArg,
    /// Scoring: `standard` (oin 1, mars 2) or `koks` (also koks 3).
    #[arg(long, global = true, value_enum, default_value = "standard")]
    scoring: ScoringArg,
    /// When the first mover finishes, the second gets one more turn; both finishing is a
    /// draw.
    #[arg(long, global = true)]
    last_roll_tie: bool,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum OpeningArg {
    Rolloff,
    Reroll,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum HeadArg {
    Strict,
    AnyBlockedDouble,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum BlockArg {
    EveryStep,
    EndOfTurn,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum ScoringArg {
    Standard,
    Koks,
}

impl RuleArgs {
    fn rules(self) -> Rules {
        Rules {
            opening: match self.opening {
                OpeningArg::Rolloff => Opening::RollOff,
                OpeningArg::Reroll => Opening::Reroll,
            },
            head_exception: match self.head_exception {
                HeadArg::Strict => HeadException::Strict,
                HeadArg::AnyBlockedDouble => HeadException::AnyBlockedDouble,
            },
            block_check: match self.block_check {
                BlockArg::EveryStep => BlockCheck::EveryStep,
                BlockArg::EndOfTurn => BlockCheck::EndOfTurn,
            },
            scoring: match self.scoring {
                ScoringArg::Standard => Scoring::Standard,
                ScoringArg::Koks => Scoring::WithKoks,
            },
            last_roll_tie: self.last_roll_tie,
        }
    }
}

#[derive(Subcommand, Debug)]
enum NardyCommand {
    /// Play a game in the terminal (the default: you as White against the bot).
    Play(PlayArgs),
    /// List every distinct legal turn of a position and a roll, sorted by the resulting
    /// position: `<steps><TAB><resulting position>`.
    Moves {
        /// The position, e.g. "24:15/12:15 w".
        position: String,
        /// The dice, e.g. 65 or 6-5.
        dice: String,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Count the positions reached after DEPTH turns over all 21 rolls (move-generator
    /// check); the last line is `perft DEPTH COUNT`, the time goes to stderr.
    Perft {
        /// Number of turns.
        depth: u32,
        /// Start from this position instead of the initial one.
        #[arg(long, value_name = "POSITION")]
        position: Option<String>,
        /// Also print the count of each first roll.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Check the dice of a game saved from a tabletop server (`download`): the server's
    /// revealed seed matches its commitment, the game seed comes from it and both
    /// players' seeds, and every roll is the one that seed gives. Fails if any check does.
    Verify {
        /// The save file.
        save: PathBuf,
        /// Also check that the commitment is this one (64 hex digits), the one the
        /// server published when the table was made.
        #[arg(long, value_name = "HEX")]
        commitment: Option<String>,
        #[command(flatten)]
        json: JsonArg,
    },
    #[command(flatten)]
    Ai(ai::AiCommand),
}

/// Who plays a side: `human`, `bot` (the default level, `strong`) or `bot:LEVEL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlayerArg {
    Human,
    Bot(nardy_core::ai::Level),
}

/// The level of `bot` without one: learned evaluation at 1 ply.
const DEFAULT_BOT_LEVEL: &str = "strong";

fn parse_player(text: &str) -> Result<PlayerArg, String> {
    let t = text.trim().to_ascii_lowercase();
    let level = match t.as_str() {
        "human" => return Ok(PlayerArg::Human),
        "bot" => DEFAULT_BOT_LEVEL,
        _ => t.strip_prefix("bot:").ok_or_else(|| {
            format!(
                "`{text}` is not a player: use `human`, `bot` or `bot:LEVEL` (1 to 6 or a name)"
            )
        })?,
    };
    level
        .parse()
        .map(PlayerArg::Bot)
        .map_err(|e: nardy_core::ai::ParseLevelError| e.to_string())
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// Who plays White: `human` (the default), `bot` (level `strong`) or `bot:LEVEL`
    /// (1 to 6 or random, beginner, greedy, learned, strong, expert).
    #[arg(long, value_parser = parse_player)]
    white: Option<PlayerArg>,
    /// Who plays Black: `bot` (the default, level `strong`), `human` or `bot:LEVEL`.
    #[arg(long, value_parser = parse_player)]
    black: Option<PlayerArg>,
    #[command(flatten)]
    seed: SeedArg,
    /// Continue a saved game.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
}

impl PlayArgs {
    /// These options, with `other`'s where these give none.
    fn or(self, other: PlayArgs) -> PlayArgs {
        PlayArgs {
            white: self.white.or(other.white),
            black: self.black.or(other.black),
            seed: SeedArg {
                seed: self.seed.seed.or(other.seed.seed),
            },
            load: self.load.or(other.load),
        }
    }

    /// Whether any play option was given.
    fn is_set(&self) -> bool {
        self.white.is_some()
            || self.black.is_some()
            || self.seed.seed.is_some()
            || self.load.is_some()
    }
}

/// Runs `tabletop nardy`.
pub fn run(args: NardyArgs, full_screen: bool) -> CliResult {
    let rules = args.rules.rules();
    if args.online.is_set() {
        if args.command.is_some() {
            return Err(CliError::usage(
                "--connect plays a game: give it after `tabletop nardy` alone",
            ));
        }
        return play_online(&args.online, &args.play, rules, full_screen);
    }
    let plays = matches!(args.command, None | Some(NardyCommand::Play(_)));
    if !plays && args.play.is_set() {
        return Err(CliError::usage(
            "--white, --black, --seed and --load are play options: give them after \
             `tabletop nardy` or `tabletop nardy play`, not with another command",
        ));
    }
    match args.command {
        None => play_in(args.play, rules, full_screen),
        Some(NardyCommand::Play(p)) => play_in(p.or(args.play), rules, full_screen),
        Some(NardyCommand::Moves {
            position,
            dice,
            json,
        }) => moves(&position, &dice, rules, json),
        Some(NardyCommand::Perft {
            depth,
            position,
            divide,
            json,
        }) => run_perft(depth, position.as_deref(), divide, rules, json),
        Some(NardyCommand::Verify {
            save,
            commitment,
            json,
        }) => verify::run(&save, commitment.as_deref(), json),
        Some(NardyCommand::Ai(command)) => ai::run(command, rules),
    }
}

/// Online play: you take White unless `--white` is a bot (then Black); the other side is
/// a server bot when its flag says `bot`, else the seat stays open for the invite.
#[cfg(feature = "server")]
fn play_online(
    online: &crate::online::ConnectArgs,
    args: &PlayArgs,
    rules: Rules,
    full_screen: bool,
) -> CliResult {
    use serde_json::json;
    if args.load.is_some() || args.seed.seed.is_some() {
        return Err(CliError::usage(
            "--load and --seed cannot go with --connect: the server starts and rolls the game",
        ));
    }
    let seat = |p: Option<PlayerArg>| match p {
        Some(PlayerArg::Bot(level)) => json!({"bot": level.get()}),
        _ => json!("open"),
    };
    let seats = match args.white {
        Some(PlayerArg::Bot(_)) => vec![seat(args.white), json!("me")],
        _ => vec![json!("me"), seat(args.black)],
    };
    let rules = serde_json::to_value(rules)?;
    if full_screen {
        let create = crate::online::remote::Create { seats, rules };
        let screen = crate::tui::nardy::online::OnlineNardy::start(online, create)?;
        return crate::tui::run(Box::new(screen));
    }
    crate::online::nardy(online, seats, rules)
}

#[cfg(not(feature = "server"))]
fn play_online(_: &crate::online::ConnectArgs, _: &PlayArgs, _: Rules, _: bool) -> CliResult {
    Err(crate::online::unavailable())
}

/// Plays a game full screen on a terminal, in line mode otherwise, with the same
/// settings (players, levels, seed, rules, a loaded save).
fn play_in(args: PlayArgs, rules: Rules, full_screen: bool) -> CliResult {
    if !full_screen {
        return play(args, rules);
    }
    let level = |p: PlayerArg| match p {
        PlayerArg::Human => None,
        PlayerArg::Bot(level) => Some(level),
    };
    let default_black = parse_player("bot").map_err(CliError::new)?;
    let mut settings = Settings::new(args.seed.seed());
    settings.rules = rules;
    settings.white = args.white.and_then(level);
    settings.black = level(args.black.unwrap_or(default_black));
    let screen = match &args.load {
        Some(path) => {
            let table = Table::<Nardy>::from_bytes(&load_file(path)?)
                .map_err(|e| CliError::new(e.to_string()).context(path.display()))?;
            NardyScreen::with_table(settings, table)
        }
        None => NardyScreen::new(settings),
    };
    crate::tui::run(Box::new(screen))
}

/// A table from a save (the shared table format, or the engine's own), with `players` in
/// its seats.
fn load_table(bytes: &[u8], players: [PlayerArg; 2]) -> Result<Table<Nardy>, String> {
    let mut table = Table::<Nardy>::from_bytes(bytes).map_err(|e| e.to_string())?;
    for (i, p) in players.into_iter().enumerate() {
        let seat = Seat(i as u8);
        let want = session::player(p);
        if table.players()[i] != want {
            table.set_player(seat, want).map_err(|e| e.to_string())?;
        }
    }
    Ok(table)
}

/// The engine game of a save in either format, at the start of the turn in progress.
pub(crate) fn decode_game(bytes: &[u8]) -> Result<Game, String> {
    Table::<Nardy>::from_bytes(bytes)
        .map(|t| t.game().game().clone())
        .map_err(|e| e.to_string())
}

fn parse_position(text: &str) -> CliResult<Position> {
    text.parse::<Position>()
        .map_err(|e| CliError::new(format!("bad position `{text}`: {e}")))
}

fn parse_dice(text: &str) -> CliResult<Dice> {
    text.parse::<Dice>()
        .map_err(|e| CliError::new(e.to_string()))
}

#[derive(Serialize)]
struct MoveLine {
    turn: String,
    position: String,
}

fn moves(position: &str, dice: &str, rules: Rules, json: JsonArg) -> CliResult {
    let position = parse_position(position)?;
    let dice = parse_dice(dice)?;
    if let Some(c) = position.finished() {
        return Err(CliError::new(format!(
            "the game is over: {c} has borne off all 15 checkers"
        )));
    }
    let mut lines: Vec<MoveLine> = position
        .legal_moves_with_results(dice, &rules)
        .into_iter()
        .map(|(t, p)| MoveLine {
            turn: t.to_string(),
            position: p.to_string(),
        })
        .collect();
    lines.sort_by(|a, b| a.position.cmp(&b.position));
    if json.json {
        return json.print(&lines);
    }
    for l in &lines {
        println!("{}\t{}", l.turn, l.position);
    }
    Ok(())
}

#[derive(Serialize)]
struct PerftReport {
    depth: u32,
    count: u64,
    seconds: f64,
    divide: Vec<(String, u64)>,
}

fn run_perft(
    depth: u32,
    position: Option<&str>,
    divide: bool,
    rules: Rules,
    json: JsonArg,
) -> CliResult {
    if depth > 8 {
        return Err(CliError::usage("perft depth is at most 8"));
    }
    let position = match position {
        Some(p) => parse_position(p)?,
        None => Position::start(),
    };
    if let Some(c) = position.finished() {
        return Err(CliError::new(format!(
            "the game is over: {c} has borne off all 15 checkers"
        )));
    }
    let t0 = Instant::now();
    let (count, per_roll) = if divide {
        let d = perft_divide(&position, depth, &rules);
        let total = d.iter().map(|(_, n)| n).sum();
        (total, d)
    } else {
        (perft(&position, depth, &rules), Vec::new())
    };
    let seconds = t0.elapsed().as_secs_f64();
    if json.json {
        eprintln!("time {seconds:.3} s");
        return json.print(&PerftReport {
            depth,
            count,
            seconds,
            divide: per_roll.iter().map(|(d, n)| (d.to_string(), *n)).collect(),
        });
    }
    for (d, n) in &per_roll {
        println!("{d} {n}");
    }
    eprintln!("time {seconds:.3} s");
    println!("perft {depth} {count}");
    Ok(())
}
