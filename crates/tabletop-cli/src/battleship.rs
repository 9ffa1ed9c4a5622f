//! `tabletop battleship`: Battleship in the terminal and its tools.
//!
//! - `play` (the default): you against the computer, both grids side by side;
//! - `sim`: how many shots a shooter needs to sink whole fleets;
//! - `place`: uniformly random fleets;
//! - `count-fleets`: the exact number of valid fleets.

use std::path::PathBuf;
use std::time::Instant;

use battleship_core::ai::{Bot, Level, PlacementStrategy, shots_to_sink};
use battleship_core::{
    Coord, Fleet, Game, Mark, Placement, Player, Rules, Ship, ShotResult, UniformFleets,
    count_fleets,
};
use clap::{Args, Subcommand, ValueEnum};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::common::{
    CliError, CliResult, Console, JsonArg, Painter, Progress, SeedArg, Style, load_file, save_file,
    visible_width,
};

/// Arguments of `tabletop battleship`: a subcommand, or none to play Russian rules against
/// the strongest computer shooter.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BattleshipArgs {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
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
    Auto,
    /// Place ships one by one (`place a1 h 4`, `remove a1`, `auto`, `done`).
    #[default]
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
    /// The computer's shooter: random, hunt, density, posterior or best.
    #[arg(long, value_name = "LEVEL", default_value = "best", value_parser = parse_level)]
    bot: Level,
    /// How you place your fleet.
    #[arg(long, value_enum, default_value = "manual")]
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
    /// The shooter: random, hunt, density, posterior, lookahead, or best (the strongest).
    #[arg(long, value_name = "NAME", value_parser = parse_level)]
    shooter: Level,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 1000)]
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
    #[arg(long, value_name = "N", default_value_t = 1)]
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

/// Runs `tabletop battleship`.
pub fn run(args: BattleshipArgs) -> CliResult {
    match args.command {
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
        if args.plain {
            if k > 0 {
                out.push('\n');
            }
            out.push_str(&fleet.to_plain(&rules));
        } else {
            if k > 0 {
                out.push('\n');
            }
            let grid = render_own(&rules, &fleet, None, Painter::plain());
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
    if args.games == 0 {
        return Err(CliError::usage("--games must be at least 1"));
    }
    if args.threads == 0 {
        return Err(CliError::usage("--threads must be at least 1"));
    }
    let rules = args.rules.rules();
    let sampler = UniformFleets::new(&rules);
    let seed = args.seed.seed();
    let mut progress = Progress::new(
        format!("sim {}", args.shooter.name()),
        u64::from(args.games),
    );
    let start = Instant::now();
    let mut shots = vec![0u32; args.games as usize];
    let next = std::sync::atomic::AtomicU32::new(0);
    let (sender, receiver) = std::sync::mpsc::channel::<(usize, u32)>();
    let threads = args.threads.min(args.games as usize);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, rules, sampler) = (&next, &rules, &sampler);
            let (games, shooter, placement) = (args.games, args.shooter, args.placement);
            scope.spawn(move || {
                loop {
                    let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    // each game has its own seed and shooter, so a game can be replayed
                    // alone and the threads do not change the results
                    let mut rng = ChaCha8Rng::seed_from_u64(
                        seed ^ u64::from(g).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    let fleet = placement.place(rules, sampler, &mut rng);
                    let mut bot = shooter.shooter(rules);
                    let n = shots_to_sink(&mut bot, rules, &fleet, &mut rng);
                    if sender.send((g as usize, n)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (g, n) in receiver {
            shots[g] = n;
            progress.advance(1);
        }
    });
    progress.finish();
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

// ---------------------------------------------------------------- rendering

const LETTERS: &str = "abcdefghij";

fn header(rules: &Rules) -> String {
    let mut s = String::from("   ");
    for c in LETTERS.chars().take(usize::from(rules.width())) {
        s.push(' ');
        s.push(c);
    }
    s
}

/// The grid with its coordinates, each cell drawn as `cell` says.
fn render_grid(
    rules: &Rules,
    painter: Painter,
    cell: impl Fn(Coord) -> (&'static str, Style),
) -> Vec<String> {
    let mut lines = vec![header(rules)];
    for r in 0..rules.height() {
        let mut line = format!("{:>2} ", r + 1);
        for c in 0..rules.width() {
            let Some(coord) = Coord::new(c, r) else {
                continue;
            };
            let (ch, style) = cell(coord);
            line.push(' ');
            line.push_str(&painter.paint(ch, style));
        }
        lines.push(line);
    }
    lines
}

/// Your grid: `#` ship, `X` hit ship, `o` miss, `.` water.
fn render_own(
    rules: &Rules,
    fleet: &Fleet,
    incoming: Option<&battleship_core::Tracking>,
    painter: Painter,
) -> Vec<String> {
    render_grid(rules, painter, |cell| {
        let ship = fleet.ship_at(cell).is_some();
        let mark = incoming.map_or(Mark::Unknown, |t| t.mark(cell));
        match (ship, mark) {
            (true, Mark::Hit | Mark::Sunk) => ("X", Style::Red),
            (true, _) => ("#", Style::Bold),
            (false, Mark::Miss) => ("o", Style::Blue),
            _ => (".", Style::Dim),
        }
    })
}

/// The opponent's grid as you know it: `.` unknown, `o` miss, `~` known water, `X` hit,
/// `#` sunk.
fn render_target(rules: &Rules, t: &battleship_core::Tracking, console: &Console) -> Vec<String> {
    render_grid(rules, console.painter(), |cell| match t.mark(cell) {
        Mark::Unknown => (".", Style::Dim),
        Mark::Miss => ("o", Style::Blue),
        Mark::Water => ("~", Style::Blue),
        Mark::Hit => ("X", Style::Red),
        Mark::Sunk => ("#", Style::Red),
    })
}

fn side_by_side(left: &[String], right: &[String], rules: &Rules) -> String {
    let width = 3 + 2 * usize::from(rules.width());
    let mut out = format!("{:<width$}      {}\n", "your fleet", "enemy waters");
    for (l, r) in left.iter().zip(right) {
        // pad by visible width (colour codes are invisible)
        let visible = visible_width(l);
        out.push_str(l);
        out.push_str(&" ".repeat(width.saturating_sub(visible) + 6));
        out.push_str(r);
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------- play

/// What `save` writes: the engine's save plus the session around it.
#[derive(Serialize, Deserialize)]
struct SaveFile {
    game: Vec<u8>,
    /// The computer's level, counted from 0 (`Level::get() - 1`): the encoding of the
    /// level enum the first saves were written with.
    bot: u32,
    rng: ChaCha8Rng,
}

const CLI_MAGIC: &[u8; 4] = b"TTBC";
const CLI_VERSION: u16 = 1;

fn encode_save(game: &Game, bot: Level, rng: &ChaCha8Rng) -> CliResult<Vec<u8>> {
    let body = postcard::to_allocvec(&SaveFile {
        game: game.to_bytes(),
        bot: u32::from(bot.get() - 1),
        rng: rng.clone(),
    })
    .map_err(|e| CliError::new(format!("cannot encode the game: {e}")))?;
    let mut out = CLI_MAGIC.to_vec();
    out.extend_from_slice(&CLI_VERSION.to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

fn decode_save(bytes: &[u8]) -> CliResult<(Game, Level, ChaCha8Rng)> {
    if bytes.len() < 6 || &bytes[..4] != CLI_MAGIC {
        return Err(CliError::new("not a Battleship save file"));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version > CLI_VERSION {
        return Err(CliError::new(format!(
            "save file version {version} is newer than this program understands"
        )));
    }
    let corrupt = || CliError::new("the save file is corrupt or truncated");
    let save: SaveFile = match postcard::take_from_bytes(&bytes[6..]) {
        Ok((save, [])) => save,
        _ => return Err(corrupt()),
    };
    let level = u8::try_from(save.bot)
        .ok()
        .and_then(|n| Level::new(n.checked_add(1)?))
        .ok_or_else(corrupt)?;
    let game = Game::from_bytes(&save.game)?;
    Ok((game, level, save.rng))
}

const PLACE_HELP: &str = "placement commands:
  place CELL h|v LEN   put a ship with its bow (top/left cell) at CELL, e.g. place a1 h 4
  remove CELL          take away the ship covering CELL
  rotate CELL          turn the ship covering CELL about its bow
  where LEN h|v        the cells where such a ship's bow can go
  auto                 a uniformly random fleet
  clear                remove every ship
  show                 draw your grid
  done                 start the battle
  quit                 leave";

const PLAY_HELP: &str = "battle commands:
  CELL        shoot, e.g. e5 (Russian letters а…к work too)
  show        draw both grids
  save FILE   save the game
  quit        leave
legend: # ship, X hit, o miss, ~ known water, . unknown";

fn play(args: PlayArgs) -> CliResult {
    let mut console = Console::stdin();
    let (mut game, level, mut rng) = match &args.load {
        Some(path) => {
            let bytes = load_file(path)?;
            let loaded = decode_save(&bytes).map_err(|e| e.context(path.display()))?;
            println!("loaded {}", path.display());
            loaded
        }
        None => {
            let rules = args.rules.rules();
            let mut rng = args.seed.rng();
            let sampler = UniformFleets::new(&rules);
            let mine = match args.place {
                PlaceMode::Auto => sampler.sample(&mut rng),
                PlaceMode::Manual => {
                    match manual_placement(&mut console, &rules, &sampler, &mut rng)? {
                        Some(f) => f,
                        None => return Ok(()),
                    }
                }
            };
            let theirs = args.placement.place(&rules, &sampler, &mut rng);
            let game = Game::new(rules, mine, theirs)?;
            (game, args.bot, rng)
        }
    };
    let mut bot = level.bot(game.rules());
    println!(
        "Battleship ({}) against the {} shooter. Type a cell to shoot, help for commands.",
        game.rules(),
        level.name()
    );
    bot_turns(&mut game, bot.as_mut(), &mut rng);
    print_board(&game, &console);
    while !game.is_over() {
        let Some(line) = console.read_command("shoot> ")? else {
            return Ok(());
        };
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("").to_lowercase();
        match cmd.as_str() {
            "quit" | "exit" => return Ok(()),
            "help" | "?" => println!("{PLAY_HELP}"),
            "show" | "board" => print_board(&game, &console),
            "save" => {
                let Some(path) = words.next() else {
                    eprintln!("error: save needs a file name");
                    continue;
                };
                let bytes = encode_save(&game, level, &rng)?;
                match save_file(path.as_ref(), &bytes) {
                    Ok(()) => println!("saved to {path}"),
                    Err(e) => eprintln!("error: {e}"),
                }
            }
            _ => {
                let cell: Coord = match line.parse() {
                    Ok(c) => c,
                    Err(_) if !line.chars().any(|c| c.is_ascii_digit()) => {
                        eprintln!("error: unknown command '{cmd}' (type help for commands)");
                        continue;
                    }
                    Err(e) => {
                        eprintln!("error: {e} (type help for commands)");
                        continue;
                    }
                };
                match game.play(cell) {
                    Ok(outcome) => {
                        println!("you shoot {cell}: {outcome}");
                        if game.is_over() {
                            break;
                        }
                        if game.side_to_move() == Player::Second {
                            bot_turns(&mut game, bot.as_mut(), &mut rng);
                        }
                        print_board(&game, &console);
                    }
                    Err(e) => eprintln!("error: {e}"),
                }
            }
        }
    }
    print_board(&game, &console);
    match game.outcome().map(|o| o.winner) {
        Some(Player::First) => println!(
            "You win in {} shots!",
            game.view(Player::First).tracking().shots_fired()
        ),
        _ => {
            println!("The computer wins.");
            let ships: Vec<String> = game
                .fleet(Player::Second)
                .ships()
                .iter()
                .map(Ship::to_string)
                .collect();
            println!("its fleet was: {}", ships.join(", "));
        }
    }
    Ok(())
}

/// The computer shoots while it is its turn.
fn bot_turns(game: &mut Game, bot: &mut dyn Bot, rng: &mut ChaCha8Rng) {
    while !game.is_over() && game.side_to_move() == Player::Second {
        let view = game.view(Player::Second);
        let Some(cell) = bot.choose_move(view.tracking(), rng) else {
            return;
        };
        match game.play(cell) {
            Ok(o) => {
                println!("computer shoots {cell}: {o}");
                if let ShotResult::GameOver(_) = o {
                    return;
                }
            }
            Err(_) => {
                // never expected: fall back to the first legal cell
                let Some(&c) = game.legal_moves().first() else {
                    return;
                };
                if let Ok(o) = game.play(c) {
                    println!("computer shoots {c}: {o}");
                }
            }
        }
    }
}

fn print_board(game: &Game, console: &Console) {
    let view = game.view(Player::First);
    let rules = game.rules();
    let left = render_own(
        rules,
        view.fleet(),
        Some(view.incoming()),
        console.painter(),
    );
    let right = render_target(rules, view.tracking(), console);
    print!("{}", side_by_side(&left, &right, rules));
    let afloat: Vec<String> = view.tracking().afloat().iter().map(u8::to_string).collect();
    println!("enemy ships afloat: {}", afloat.join(" "));
}

fn manual_placement(
    console: &mut Console,
    rules: &Rules,
    sampler: &UniformFleets,
    rng: &mut ChaCha8Rng,
) -> CliResult<Option<Fleet>> {
    let mut p = Placement::new(rules.clone());
    println!("Place your fleet ({}). Type help for commands.", rules);
    show_placement(&p, console);
    loop {
        let Some(line) = console.read_command("place> ")? else {
            return Ok(None);
        };
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("").to_lowercase();
        let rest: Vec<&str> = words.collect();
        match cmd.as_str() {
            "quit" | "exit" => return Ok(None),
            "help" | "?" => println!("{PLACE_HELP}"),
            "show" => show_placement(&p, console),
            "auto" => {
                p = Placement::from_fleet(rules.clone(), &sampler.sample(rng));
                show_placement(&p, console);
            }
            "clear" => {
                p.clear();
                show_placement(&p, console);
            }
            "place" | "put" => match rest.join(" ").parse::<Ship>() {
                Ok(ship) => match p.place(ship) {
                    Ok(()) => show_placement(&p, console),
                    Err(e) => eprintln!("error: cannot place {ship}: {e}"),
                },
                Err(e) => eprintln!("error: {e}"),
            },
            "remove" | "rotate" => {
                let cell: Coord = match rest.join("").parse() {
                    Ok(c) => c,
                    Err(e) => {
                        eprintln!("error: {e}");
                        continue;
                    }
                };
                if cmd == "remove" {
                    match p.remove(cell) {
                        Some(s) => {
                            println!("removed {s}");
                            show_placement(&p, console);
                        }
                        None => eprintln!("error: no ship at {cell}"),
                    }
                } else {
                    match p.rotate(cell) {
                        Ok(Some(s)) => {
                            println!("turned to {s}");
                            show_placement(&p, console);
                        }
                        Ok(None) => eprintln!("error: no ship at {cell}"),
                        Err(e) => eprintln!("error: cannot turn it: {e}"),
                    }
                }
            }
            "where" => {
                let (len, o) = match rest.as_slice() {
                    [len, o] => (len.parse::<u8>().ok(), o.to_lowercase()),
                    _ => (None, String::new()),
                };
                let orientation = match o.as_str() {
                    "h" => Some(battleship_core::Orientation::Horizontal),
                    "v" => Some(battleship_core::Orientation::Vertical),
                    _ => None,
                };
                match (len, orientation) {
                    (Some(len), Some(orientation)) => {
                        let cells: Vec<String> = p
                            .bow_cells(len, orientation)
                            .iter()
                            .map(Coord::to_string)
                            .collect();
                        if cells.is_empty() {
                            println!("nowhere");
                        } else {
                            println!("{}", cells.join(" "));
                        }
                    }
                    _ => eprintln!("error: usage: where LEN h|v"),
                }
            }
            "done" | "ready" => match p.finish() {
                Ok(f) => return Ok(Some(f)),
                Err(e) => eprintln!("error: the fleet is not ready: {e}"),
            },
            _ => eprintln!("error: unknown command '{cmd}' (type help)"),
        }
    }
}

fn show_placement(p: &Placement, console: &Console) {
    let rules = p.rules();
    let mut lines = vec![header(rules)];
    for r in 0..rules.height() {
        let mut line = format!("{:>2} ", r + 1);
        for c in 0..rules.width() {
            let Some(cell) = Coord::new(c, r) else {
                continue;
            };
            let ship = p.ships().iter().any(|s| s.covers(cell));
            line.push(' ');
            line.push_str(&if ship {
                console.paint("#", Style::Bold)
            } else {
                console.paint(".", Style::Dim)
            });
        }
        lines.push(line);
    }
    for l in lines {
        println!("{l}");
    }
    let missing: Vec<String> = p.missing().iter().map(u8::to_string).collect();
    if missing.is_empty() {
        println!("all ships placed: type done to start");
    } else {
        println!("still to place: {}", missing.join(" "));
    }
}
