//! `tabletop nardy`: Long Nardy in the terminal, and its tools (`moves`, `perft`).
//!
//! Holds no rules logic: it parses arguments and commands, calls `nardy-core` and renders.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use nardy_core::ai::{Bot, Level};
use nardy_core::{
    BlockCheck, Color, Dice, Game, HeadException, Move, Opening, Outcome, PlayError, Position,
    Rules, Scoring, TurnBuilder, WinKind, perft, perft_divide,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

#[path = "nardy_ai.rs"]
mod nardy_ai;

use crate::common::{CliError, CliResult, Console, JsonArg, SeedArg, Style, load_file, save_file};

/// Arguments of `tabletop nardy`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = false)]
pub struct NardyArgs {
    #[command(subcommand)]
    command: Option<NardyCommand>,
    #[command(flatten)]
    rules: RuleArgs,
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
    #[command(flatten)]
    Ai(nardy_ai::AiCommand),
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum PlayerArg {
    Human,
    Bot,
}

#[derive(Args, Debug, Default)]
struct PlayArgs {
    /// Who plays White.
    #[arg(long, value_enum)]
    white: Option<PlayerArg>,
    /// Who plays Black.
    #[arg(long, value_enum)]
    black: Option<PlayerArg>,
    #[command(flatten)]
    seed: SeedArg,
    /// Continue a saved game.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
}

/// Runs `tabletop nardy`.
pub fn run(args: NardyArgs) -> CliResult {
    let rules = args.rules.rules();
    match args.command {
        None => play(PlayArgs::default(), rules),
        Some(NardyCommand::Play(p)) => play(p, rules),
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
        Some(NardyCommand::Ai(command)) => nardy_ai::run(command, rules),
    }
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

// ---------------------------------------------------------------------------------------
// Interactive play.

const HELP: &str = "\
commands:
  24/18 18/13   play a whole turn (steps in the order played; 24/18(2), 24/21/20, 3/off work)
  24/18         play one step at a time; the turn ends when every playable die is used
  moves         list the legal turns (and the legal next steps of a turn in progress)
  from 24       legal destinations of the checker on point 24
  undo          take back the last step of this turn
  board         draw the board again
  save FILE     save the game (steps of an unfinished turn are not saved)
  load FILE     load a saved game
  rules         show the rules in force
  help          this text
  quit          leave the game";

struct Session {
    console: Console,
    game: Game,
    builder: Option<TurnBuilder>,
    players: [PlayerArg; 2],
    bot: Box<dyn Bot>,
    bot_rng: ChaCha8Rng,
}

fn play(args: PlayArgs, rules: Rules) -> CliResult {
    let white = args.white.unwrap_or(PlayerArg::Human);
    let black = args.black.unwrap_or(PlayerArg::Bot);
    let seed = args.seed.seed();
    let console = Console::stdin();
    let game = match &args.load {
        Some(path) => {
            let bytes = load_file(path)?;
            Game::from_bytes(&bytes)
                .map_err(|e| CliError::new(e.to_string()).context(path.display()))?
        }
        None => Game::new(rules, seed),
    };
    let bot = Level::MIN.bot(game.rules());
    let mut s = Session {
        console,
        game,
        builder: None,
        players: [white, black],
        bot,
        bot_rng: ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15),
    };
    if args.load.is_some() {
        println!("Loaded a game of {} turns.", s.game.history().len());
    } else {
        s.announce_roll_off();
    }
    s.run()
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn dice_text(d: Dice) -> String {
    format!("{}-{}", d.high(), d.low())
}

impl Session {
    fn announce_roll_off(&self) {
        let Some(r) = self.game.roll_off() else {
            return;
        };
        for &(w, b) in &r.throws[..r.throws.len() - 1] {
            println!("Roll-off: White {w}, Black {b}: a tie, thrown again.");
        }
        let (w, b) = r.decisive();
        println!(
            "Roll-off: White {w}, Black {b}: {} moves first.",
            side_name(r.winner())
        );
    }

    fn run(&mut self) -> CliResult {
        loop {
            if let Some(outcome) = self.game.outcome() {
                self.draw_board();
                self.announce_outcome(outcome);
                return Ok(());
            }
            let color = self.game.position().side_to_move();
            let is_new_turn = self.builder.is_none();
            if is_new_turn {
                self.draw_board();
                if self.game.must_pass() {
                    println!(
                        "{} rolls {} and has no legal move: pass.",
                        side_name(color),
                        dice_text(self.game.dice())
                    );
                    self.game.play(&Move::pass())?;
                    continue;
                }
                if self.players[color.index()] == PlayerArg::Bot {
                    let Some(turn) = self.bot.choose_move(
                        self.game.position(),
                        self.game.dice(),
                        &mut self.bot_rng,
                    ) else {
                        continue;
                    };
                    println!(
                        "{} (bot) rolls {} and plays {turn}.",
                        side_name(color),
                        dice_text(self.game.dice())
                    );
                    self.game.play(&turn)?;
                    continue;
                }
                self.builder = Some(self.game.builder()?);
            }
            let prompt = format!("{} {}> ", side_name(color), dice_text(self.game.dice()));
            let Some(line) = self.console.read_command(&prompt)? else {
                return Ok(());
            };
            if !self.command(&line)? {
                return Ok(());
            }
        }
    }

    /// Runs one command; `false` ends the session.
    fn command(&mut self, line: &str) -> CliResult<bool> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => {
                println!("Bye.");
                return Ok(false);
            }
            "help" | "?" => println!("{HELP}"),
            "rules" => println!("{}", self.game.rules()),
            "board" => self.draw_board(),
            "moves" => self.list_moves(),
            "from" => match rest.parse::<u8>() {
                Ok(p) if (1..=24).contains(&p) => self.show_destinations(p),
                _ => self.error(&format!("`{rest}` is not a point: try `from 24`")),
            },
            "undo" => {
                let b = self.builder.as_mut().expect("a human turn is in progress");
                match b.undo() {
                    Some(step) => {
                        println!("Took back {step}.");
                        self.show_progress();
                    }
                    None => self.error("nothing to undo in this turn"),
                }
            }
            "save" => {
                if rest.is_empty() {
                    self.error("save needs a file name: `save game.nardy`");
                } else {
                    match save_file(std::path::Path::new(rest), &self.game.to_bytes()) {
                        Ok(()) => println!("Saved to {rest}."),
                        Err(e) => self.error(e.message()),
                    }
                }
            }
            "load" => {
                if rest.is_empty() {
                    self.error("load needs a file name: `load game.nardy`");
                } else {
                    match load_file(std::path::Path::new(rest)).and_then(|b| {
                        Game::from_bytes(&b).map_err(|e| CliError::new(format!("{rest}: {e}")))
                    }) {
                        Ok(g) => {
                            self.game = g;
                            self.builder = None;
                            println!("Loaded {rest}.");
                        }
                        Err(e) => self.error(e.message()),
                    }
                }
            }
            _ if line.starts_with(|c: char| c.is_ascii_digit())
                || word.eq_ignore_ascii_case("pass") =>
            {
                self.play_steps(line)?
            }
            _ => self.error(&format!("unknown command `{word}`; type `help`")),
        }
        Ok(true)
    }

    fn error(&self, message: &str) {
        println!(
            "{}",
            self.console.paint(&format!("error: {message}"), Style::Red)
        );
    }

    fn play_steps(&mut self, text: &str) -> CliResult {
        let turn: Move = match text.parse() {
            Ok(t) => t,
            Err(e) => {
                self.error(&e.to_string());
                return Ok(());
            }
        };
        let b = self.builder.as_mut().expect("a human turn is in progress");
        if turn.is_pass() {
            if b.is_complete() && b.played().is_empty() {
                self.game.play(&Move::pass())?;
                self.builder = None;
            } else {
                self.error("you cannot pass: a legal move exists");
            }
            return Ok(());
        }
        if let Err(e) = b.play_all(turn.steps()) {
            self.error(&format!("illegal: {e}"));
            return Ok(());
        }
        if b.is_complete() {
            let done = b.finish()?;
            match self.game.play_builder(b) {
                Ok(()) => println!("{} played {done}.", side_name(b.start().side_to_move())),
                Err(PlayError::GameOver) => {}
                Err(e) => self.error(&e.to_string()),
            }
            self.builder = None;
        } else {
            self.show_progress();
        }
        Ok(())
    }

    fn show_progress(&self) {
        let b = self.builder.as_ref().expect("a human turn is in progress");
        let played: Vec<String> = b.played().iter().map(|s| s.to_string()).collect();
        let remaining: Vec<String> = b.remaining_dice().iter().map(|d| d.to_string()).collect();
        println!(
            "Played so far: {}; dice left: {}.",
            if played.is_empty() {
                "nothing".into()
            } else {
                played.join(" ")
            },
            remaining.join(" ")
        );
        println!("Board now: {}", b.position());
    }

    fn list_moves(&self) {
        let Some(b) = &self.builder else { return };
        if !b.played().is_empty() {
            let steps: Vec<String> = b.legal_steps().iter().map(|s| s.to_string()).collect();
            println!("Legal next steps: {}", steps.join(" "));
            println!("(`undo` to go back; whole turns from the roll:)");
        }
        let mut turns = b.start().legal_moves_with_results(b.dice(), b.rules());
        turns.sort_by_key(|(_, p)| p.to_string());
        println!("{} legal turn(s):", turns.len());
        for (t, p) in turns {
            println!("  {t}\t{p}");
        }
    }

    fn show_destinations(&self, point: u8) {
        let Some(b) = &self.builder else { return };
        let pos = b.position();
        if pos.count(pos.side_to_move(), point) == 0 {
            self.error(&format!("you have no checker on point {point}"));
            return;
        }
        let d = b.destinations(point);
        if d.is_empty() {
            println!("The checker on {point} has no legal move now.");
        } else {
            let names: Vec<String> = d
                .iter()
                .map(|&p| if p == 0 { "off".into() } else { p.to_string() })
                .collect();
            println!("From {point}: {}", names.join(" "));
        }
    }

    fn announce_outcome(&self, outcome: Outcome) {
        match outcome {
            Outcome::Draw => println!("Both sides finished: the game is a draw."),
            Outcome::Win { winner, kind } => {
                let name = match kind {
                    WinKind::Oin => "oin",
                    WinKind::Mars => "mars",
                    WinKind::Koks => "koks",
                };
                println!(
                    "{} wins: {name}, {} point{}.",
                    side_name(winner),
                    kind.points(),
                    if kind.points() == 1 { "" } else { "s" }
                );
            }
        }
    }

    fn cell(&self, pos: &Position, point: u8) -> String {
        match pos.owner(point) {
            None => format!("{:>4}", "."),
            Some((c, n)) => {
                let text = format!(
                    "{:>4}",
                    format!("{}{n}", if c == Color::White { 'W' } else { 'B' })
                );
                self.console.paint(
                    &text,
                    if c == Color::White {
                        Style::Yellow
                    } else {
                        Style::Cyan
                    },
                )
            }
        }
    }

    fn draw_board(&self) {
        let pos = match &self.builder {
            Some(b) => b.position(),
            None => *self.game.position(),
        };
        let num = |p: u8| self.console.paint(&format!("{p:>4}"), Style::Dim);
        let top: String = (13..=24u8)
            .map(|p| {
                if p == 19 {
                    format!("  |{}", num(p))
                } else {
                    num(p)
                }
            })
            .collect();
        let bottom: String = (1..=12u8)
            .rev()
            .map(|p| {
                if p == 6 {
                    format!("  |{}", num(p))
                } else {
                    num(p)
                }
            })
            .collect();
        let row = |points: &mut dyn Iterator<Item = u8>, bar: u8| -> String {
            points
                .map(|p| {
                    if p == bar {
                        format!("  |{}", self.cell(&pos, p))
                    } else {
                        self.cell(&pos, p)
                    }
                })
                .collect()
        };
        println!();
        println!("{top}");
        println!("{}", row(&mut (13..=24u8), 19));
        println!("{}", row(&mut (1..=12u8).rev(), 6));
        println!("{bottom}");
        println!(
            "White (W, home 1-6): {} off, {} pips   Black (B, home 13-18): {} off, {} pips",
            pos.borne_off(Color::White),
            pos.pip_count(Color::White),
            pos.borne_off(Color::Black),
            pos.pip_count(Color::Black)
        );
        println!("Position: {pos}");
        if self.game.outcome().is_none() {
            let c = pos.side_to_move();
            let who = match self.players[c.index()] {
                PlayerArg::Human => "",
                PlayerArg::Bot => " (bot)",
            };
            println!(
                "{}{who} to move, dice {}",
                side_name(c),
                dice_text(self.game.dice())
            );
        }
    }
}
