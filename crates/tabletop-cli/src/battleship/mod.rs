//! `tabletop battleship`: Battleship in the terminal and its tools.
//!
//! - `play` (the default): you against the computer, both grids side by side;
//! - `sim`: how many shots a shooter needs to sink whole fleets;
//! - `place`: uniformly random fleets;
//! - `count-fleets`: the exact number of valid fleets.

use std::path::PathBuf;
use std::time::Instant;

use battleship_core::ai::{Bot, Level, PlacementStrategy, shots_to_sink};
use battleship_core::{Coord, Placement, Rules, Ship, ShotResult, UniformFleets, count_fleets};
use clap::{Args, Subcommand, ValueEnum};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use tabletop_play::battleship::{Battleship, Event, Input, bot_shot};
use tabletop_play::{Action, EventKind, Events, Player, Seat, Table};

use crate::common::{
    CliError, CliResult, Console, JsonArg, Painter, Progress, SeedArg, at_least_one, load_file,
    run_parallel, run_session,
};

pub(crate) mod draw;
pub(crate) mod legacy;
mod session;

use session::BattleshipSession;
#[cfg(feature = "server")]
pub(crate) use session::{parse_ship, show_placement};

// ------------------------------------- what line mode and the full screen share

/// You: the table's seat 0, the engine's first player, who shoots first.
pub(crate) const YOU: Seat = Seat(0);
/// The computer: seat 1.
pub(crate) const COMPUTER: Seat = Seat(1);

/// The seats of a game against the computer of `level`.
pub(crate) fn players(level: Level) -> [Player; 2] {
    [Player::Human, Player::Bot(level.get())]
}

/// A save of either kind (the table's `TTPL`, an engine save, or the old `TTBC` files of
/// [`legacy`]), as what a game goes on from.
pub(crate) struct Loaded {
    /// You in seat 0, the computer in seat 1.
    pub(crate) table: Table<Battleship>,
    /// The computer's level.
    pub(crate) level: Level,
    /// The saved generator: old saves only (a table save has none; the game goes on with
    /// its own).
    pub(crate) rng: Option<ChaCha8Rng>,
    /// Your placement under way, when you have not placed your fleet on the table yet,
    /// with the ships placed so far.
    pub(crate) placing: Option<Placement>,
}

/// Reads a save; a table without a computer in seat 1 (an engine save) gets one of
/// `level`.
pub(crate) fn load_save(bytes: &[u8], level: Level) -> CliResult<Loaded> {
    if legacy::is_legacy(bytes) {
        let old = legacy::decode(bytes)?;
        return Ok(Loaded {
            table: old.table,
            level: old.level,
            rng: Some(old.rng),
            placing: old.placing,
        });
    }
    let mut table = Table::<Battleship>::from_bytes(bytes)?;
    let level = match table.players().get(COMPUTER.index()) {
        Some(Player::Bot(n)) => {
            Level::new(*n).ok_or_else(|| CliError::new("the save file is corrupt or truncated"))?
        }
        _ => {
            table.set_player(COMPUTER, Player::Bot(level.get()))?;
            level
        }
    };
    if table.players().first() != Some(&Player::Human) {
        table.set_player(YOU, Player::Human)?;
    }
    // your placement under way, with the ships of your draft if the save kept one
    let placing = table.game().placement(YOU);
    Ok(Loaded {
        table,
        level,
        rng: None,
        placing,
    })
}

/// The save of `table` with your hand placement under way (`placing`) kept at the table
/// as your draft ([`Input::Arrange`]), so that loading it gives back the ships placed so
/// far.
pub(crate) fn save_with_draft(table: &Table<Battleship>, placing: Option<&Placement>) -> Vec<u8> {
    let Some(placing) = placing else {
        return table.to_bytes();
    };
    if table.game().placement(YOU).as_ref() == Some(placing) {
        return table.to_bytes();
    }
    let mut copy = table.clone();
    // A placement holds only ships the rules allow, so the table takes it as a draft
    // whenever you have not placed your fleet (the only time there is a placement).
    match copy.apply(YOU, Action::Play(Input::Arrange(placing.ships().to_vec()))) {
        Ok(_) => copy.to_bytes(),
        Err(_) => table.to_bytes(),
    }
}

/// The computer places its fleet with `strategy`, unless it has.
pub(crate) fn computer_places(
    table: &mut Table<Battleship>,
    strategy: PlacementStrategy,
    sampler: &UniformFleets,
    rng: &mut ChaCha8Rng,
) -> CliResult {
    if table.game().placed(COMPUTER) {
        return Ok(());
    }
    let fleet = strategy.place(table.game().rules(), sampler, rng);
    table.apply(COMPUTER, Action::Play(Input::Place(fleet)))?;
    Ok(())
}

/// The cell the computer shoots: its bot's choice from its own tracking, or should the
/// rules refuse that cell, the first legal one (`None` outside the battle).
pub(crate) fn computer_shot(
    state: &Battleship,
    bot: &mut dyn Bot,
    rng: &mut ChaCha8Rng,
) -> Option<Coord> {
    let game = state.game()?;
    let chosen = match bot_shot(state, bot, rng) {
        Some(Action::Play(Input::Shoot(cell))) => Some(cell),
        _ => None,
    };
    let legal = game.legal_moves();
    chosen
        .filter(|c| legal.contains(c))
        .or_else(|| legal.first().copied())
}

/// The shot among the events of one action.
pub(crate) fn shot_of(events: &Events<Battleship>) -> Option<(Seat, Coord, ShotResult)> {
    events.iter().find_map(|e| match e.kind {
        EventKind::Game(Event::Shot { seat, cell, result }) => Some((seat, cell, result)),
        _ => None,
    })
}

/// Arguments of `tabletop battleship`: a subcommand, or none to play Russian rules against
/// the strongest computer shooter.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BattleshipArgs {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    online: crate::online::ConnectArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play against the computer: place your fleet, then shoot by coordinate (e5).
    Play(PlayArgs),
    /// Let a shooter sink N seeded fleets and report the shots it needed.
    Sim(SimArgs),
    /// Draw uniformly random fleets.
    Place(PlaceArgs),
    /// The exact number of valid fleets.
    CountFleets(CountArgs),
}

/// A rule set on the command line.
#[derive(Clone, Copy, Debug, Default, ValueEnum, PartialEq, Eq)]
enum RulesArg {
    /// 10×10, ships 4 3 3 2 2 2 1 1 1 1, no touching, a hit shoots again.
    #[default]
    Russian,
    /// 10×10, ships 5 4 3 3 2, ships may touch, turns alternate.
    Classic,
}

impl RulesArg {
    fn rules(self) -> Rules {
        match self {
            RulesArg::Russian => Rules::russian(),
            RulesArg::Classic => Rules::classic(),
        }
    }
}

/// How you place your fleet.
#[derive(Clone, Copy, Debug, Default, ValueEnum, PartialEq, Eq)]
enum PlaceMode {
    /// A uniformly random fleet.
    #[default]
    Auto,
    /// Place ships one by one (`place a1 h 4`, `remove a1`, `where 3 h`, `auto`, `done`).
    Manual,
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse::<Level>().map_err(|e| e.to_string())
}

fn parse_placement(s: &str) -> Result<PlacementStrategy, String> {
    s.parse::<PlacementStrategy>().map_err(|e| e.to_string())
}

/// Arguments of `tabletop battleship play`.
#[derive(Args, Debug)]
struct PlayArgs {
    #[command(flatten)]
    seed: SeedArg,
    /// The computer's shooter: 1-5 or random, hunt, density, posterior, lookahead (best).
    #[arg(long, value_name = "LEVEL", default_value = "best", value_parser = parse_level)]
    bot: Level,
    /// How you place your fleet.
    #[arg(long, value_enum, default_value = "auto")]
    place: PlaceMode,
    /// The rule set.
    #[arg(long, value_enum, default_value = "russian")]
    rules: RulesArg,
    /// How the computer places its fleet: uniform or border.
    #[arg(long, value_name = "NAME", default_value = "uniform", value_parser = parse_placement)]
    placement: PlacementStrategy,
    /// Continue a game saved with the `save` command.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
}

/// Arguments of `tabletop battleship sim`.
#[derive(Args, Debug)]
struct SimArgs {
    /// The shooter: 1-5 or random, hunt, density, posterior, lookahead (best, the strongest).
    #[arg(long, value_name = "NAME", value_parser = parse_level)]
    shooter: Level,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    #[command(flatten)]
    seed: SeedArg,
    /// The rule set.
    #[arg(long, value_enum, default_value = "russian")]
    rules: RulesArg,
    /// How the target fleets are placed: uniform or border.
    #[arg(long, value_name = "NAME", default_value = "uniform", value_parser = parse_placement)]
    placement: PlacementStrategy,
    /// Games played at the same time (each game has its own seed and shooter, so the
    /// results do not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_one())]
    threads: usize,
    #[command(flatten)]
    json: JsonArg,
}

/// Arguments of `tabletop battleship place`.
#[derive(Args, Debug)]
struct PlaceArgs {
    /// Number of fleets.
    #[arg(long, value_name = "N", default_value_t = 1)]
    count: u32,
    #[command(flatten)]
    seed: SeedArg,
    /// Each fleet as exactly 10 lines of 10 characters (`#` ship, `.` water), fleets
    /// separated by one blank line.
    #[arg(long)]
    plain: bool,
    /// The rule set.
    #[arg(long, value_enum, default_value = "russian")]
    rules: RulesArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Arguments of `tabletop battleship count-fleets`.
#[derive(Args, Debug)]
struct CountArgs {
    /// The rule set.
    #[arg(long, value_enum, default_value = "russian")]
    rules: RulesArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Online play against another person (seat 0 shoots first; the other seat is open for
/// the invite), full screen on a terminal, else in line mode. `--rules` chooses the rule
/// set; the fleets are placed at the start.
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
    let rules = serde_json::to_value(args.rules.rules())?;
    let seats = vec![json!("me"), json!("open")];
    if full_screen {
        let create = crate::online::remote::Create { seats, rules };
        let screen = crate::tui::battleship::online::OnlineBattleship::start(online, create)?;
        return crate::tui::run(Box::new(screen));
    }
    crate::online::battleship(online, seats, rules)
}

#[cfg(not(feature = "server"))]
fn play_online(_: &crate::online::ConnectArgs, _: &PlayArgs, _: bool) -> CliResult {
    Err(crate::online::unavailable())
}

/// Runs `tabletop battleship`.
pub fn run(args: BattleshipArgs, full_screen: bool) -> CliResult {
    if args.online.is_set() {
        return play_online(&args.online, &args.play, full_screen);
    }
    match args.command {
        None if full_screen => play_full_screen(args.play),
        Some(Command::Play(a)) if full_screen => play_full_screen(a),
        None => play(args.play),
        Some(Command::Play(a)) => play(a),
        Some(Command::Sim(a)) => sim(a),
        Some(Command::Place(a)) => place(a),
        Some(Command::CountFleets(a)) => count(a),
    }
}

fn count(args: CountArgs) -> CliResult {
    let rules = args.rules.rules();
    let n = count_fleets(&rules);
    if args.json.json {
        return args.json.print(&serde_json::json!({
            "rules": format!("{:?}", args.rules).to_lowercase(),
            "fleets": n.to_string(),
        }));
    }
    println!("{n}");
    Ok(())
}

fn place(args: PlaceArgs) -> CliResult {
    let rules = args.rules.rules();
    let sampler = UniformFleets::new(&rules);
    let mut rng = args.seed.rng();
    let mut out = String::new();
    for k in 0..args.count {
        let fleet = sampler.sample(&mut rng);
        if args.json.json {
            let ships: Vec<String> = fleet.ships().iter().map(Ship::to_string).collect();
            let grid: Vec<String> = fleet.to_plain(&rules).lines().map(str::to_owned).collect();
            let line = serde_json::json!({ "ships": ships, "grid": grid });
            out.push_str(&format!("{line}\n"));
        } else if args.plain {
            if k > 0 {
                out.push('\n');
            }
            out.push_str(&fleet.to_plain(&rules));
        } else {
            if k > 0 {
                out.push('\n');
            }
            let grid = draw::fleet(&rules, &fleet, None, Painter::plain());
            for line in grid {
                out.push_str(&line);
                out.push('\n');
            }
            let ships: Vec<String> = fleet.ships().iter().map(Ship::to_string).collect();
            out.push_str(&format!("ships: {}\n", ships.join(", ")));
        }
    }
    print!("{out}");
    Ok(())
}

/// Summary statistics of shot counts.
#[derive(Debug, Serialize)]
struct SimStats {
    games: usize,
    mean: f64,
    median: f64,
    p90: u32,
    max: u32,
}

fn stats(mut shots: Vec<u32>) -> SimStats {
    shots.sort_unstable();
    let n = shots.len();
    let mean = shots.iter().map(|&s| f64::from(s)).sum::<f64>() / n.max(1) as f64;
    let median = if n == 0 {
        0.0
    } else if n % 2 == 1 {
        f64::from(shots[n / 2])
    } else {
        (f64::from(shots[n / 2 - 1]) + f64::from(shots[n / 2])) / 2.0
    };
    let p90 = if n == 0 {
        0
    } else {
        shots[(n * 9).div_ceil(10).max(1) - 1]
    };
    SimStats {
        games: n,
        mean,
        median,
        p90,
        max: shots.last().copied().unwrap_or(0),
    }
}

fn sim(args: SimArgs) -> CliResult {
    let rules = args.rules.rules();
    let sampler = UniformFleets::new(&rules);
    let seed = args.seed.seed();
    let mut progress = Progress::new(
        format!("sim {}", args.shooter.name()),
        u64::from(args.games),
    );
    let start = Instant::now();
    let threads = args.threads.min(args.games as usize);
    let (shooter, placement) = (args.shooter, args.placement);
    // each game has its own seed and shooter, so a game can be replayed alone and the
    // threads do not change the results
    let shots = run_parallel(
        args.games as usize,
        threads,
        &mut progress,
        1,
        || (),
        |(), g| {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let fleet = placement.place(&rules, &sampler, &mut rng);
            let mut bot = shooter.shooter(&rules);
            shots_to_sink(&mut bot, &rules, &fleet, &mut rng)
        },
    );
    let elapsed = start.elapsed().as_secs_f64();
    let s = stats(shots);
    if args.json.json {
        return args.json.print(&serde_json::json!({
            "shooter": args.shooter.name(),
            "placement": args.placement.name(),
            "seed": seed,
            "games": s.games,
            "mean": s.mean,
            "median": s.median,
            "p90": s.p90,
            "max": s.max,
            "seconds": elapsed,
            "threads": threads,
        }));
    }
    println!(
        "shooter {} placement {} rules {} seed {seed}: {:.1} games/s ({threads} thread{})",
        args.shooter.name(),
        args.placement,
        format!("{:?}", args.rules).to_lowercase(),
        s.games as f64 / elapsed.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    println!(
        "games {} mean {:.2} median {} p90 {} max {}",
        s.games, s.mean, s.median, s.p90, s.max
    );
    Ok(())
}

/// `play` on a terminal: the full-screen screen with the same settings (a `--load`ed
/// game replaces the rules and the level by the save's).
fn play_full_screen(args: PlayArgs) -> CliResult {
    use crate::tui::battleship::{BattleshipScreen, Settings};
    let settings = Settings {
        classic: args.rules == RulesArg::Classic,
        level: args.bot,
        placement: args.placement,
        random_fleet: args.place == PlaceMode::Auto,
    };
    let screen = match &args.load {
        Some(path) => {
            let bytes = load_file(path)?;
            BattleshipScreen::from_save(settings, &bytes).map_err(|e| e.context(path.display()))?
        }
        None => BattleshipScreen::new(settings, args.seed.rng()),
    };
    crate::tui::run(Box::new(screen))
}

fn play(args: PlayArgs) -> CliResult {
    let mut console = Console::stdin();
    let manual = args.place == PlaceMode::Manual;
    let mut session = match &args.load {
        Some(path) => {
            let bytes = load_file(path)?;
            let session = BattleshipSession::from_save(
                &bytes,
                args.bot,
                args.seed.rng(),
                manual,
                args.placement,
            )
            .map_err(|e| e.context(path.display()))?;
            println!("loaded {}", path.display());
            session
        }
        None => BattleshipSession::new(
            args.rules.rules(),
            args.bot,
            args.seed.rng(),
            manual,
            args.placement,
        )?,
    };
    run_session(&mut console, &mut session)
}
