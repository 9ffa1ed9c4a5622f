//! `tabletop nardy play`: one game in the terminal on the shared session loop.

use std::cell::{Cell, OnceCell};

use nardy_core::ai::{Bot, Level, Resources};
use nardy_core::{Color, Dice, Game, Move, Position, Rules, Step, TurnBuilder};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{PlayArgs, PlayerArg, parse_player};
use crate::common::{
    CliError, CliResult, Console, Painter, Session, Style, load_file, run_session,
};

const HELP: &str = "\
commands:
  24/18 18/13   play a whole turn (steps in the order played; 24/18(2), 24/21/20, 3/off work)
  24/18         play one step at a time; the turn ends when every playable die is used
  moves         list the legal turns (and the legal next steps of a turn in progress)
  from 24       legal destinations of the checker on point 24
  undo          take back the last step of this turn, or else your last turn (and the
                bot's reply); the dice stay what they were
  board         draw the board again
  hint          the best turns for the dice, with their equities (level strong)
  rules         show the rules in force";

/// Above this many legal turns, `moves` groups them by their first step.
const PLAIN_LIST_MAX: usize = 8;

/// One game in the terminal, driven by the shared session loop.
struct NardySession {
    rules: Rules,
    seed: u64,
    games: u64,
    game: Game,
    /// The turn of a person in progress, step by step.
    builder: Option<TurnBuilder>,
    players: [PlayerArg; 2],
    /// The bot of each side (a random one for a person's side, never asked).
    bots: [Box<dyn Bot>; 2],
    /// The bear-off database and the network, shared by the bots and `hint`; built on
    /// first use (about a second), so a game between people starts at once.
    resources: OnceCell<Resources>,
    bot_rng: ChaCha8Rng,
    /// Whether the board last printed is the current position.
    board_shown: Cell<bool>,
}

/// Plays a game in the terminal with `args` under `rules` (a loaded game keeps its own).
pub(super) fn play(args: PlayArgs, rules: Rules) -> CliResult {
    let white = args.white.unwrap_or(PlayerArg::Human);
    let black = args
        .black
        .unwrap_or_else(|| parse_player("bot").expect("the default level exists"));
    let seed = args.seed.seed();
    let mut console = Console::stdin();
    let game = match &args.load {
        Some(path) => {
            let bytes = load_file(path)?;
            Game::from_bytes(&bytes)
                .map_err(|e| CliError::new(e.to_string()).context(path.display()))?
        }
        None => Game::new(rules, seed),
    };
    if args.load.is_some() {
        println!("Loaded a game of {} turns.", game.history().len());
    }
    let resources = OnceCell::new();
    let players = [white, black];
    let mut session = NardySession {
        rules: *game.rules(),
        seed,
        games: 0,
        bots: make_bots(&players, game.rules(), &resources),
        resources,
        game,
        builder: None,
        players,
        bot_rng: ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15),
        board_shown: Cell::new(false),
    };
    run_session(&mut console, &mut session)
}

/// One bot per side: the side's level, or a placeholder for a person.
fn make_bots(
    players: &[PlayerArg; 2],
    rules: &Rules,
    resources: &OnceCell<Resources>,
) -> [Box<dyn Bot>; 2] {
    players.map(|p| match p {
        PlayerArg::Bot(level) if level.needs_resources() => {
            level.bot_with(rules, resources.get_or_init(Resources::new))
        }
        PlayerArg::Bot(level) => level.bot(rules),
        PlayerArg::Human => Level::MIN.bot(rules),
    })
}

fn dice_text(d: Dice) -> String {
    format!("{}-{}", d.high(), d.low())
}

/// Collects output lines.
fn push_line(out: &mut String, line: impl AsRef<str>) {
    out.push_str(line.as_ref());
    out.push('\n');
}

impl Session for NardySession {
    fn help(&self) -> String {
        HELP.into()
    }

    fn prompt(&self) -> String {
        format!(
            "{} {}> ",
            self.game.side_to_move(),
            dice_text(self.game.dice())
        )
    }

    fn show(&self, painter: Painter) -> String {
        let mut out = String::new();
        if self.game.history().is_empty()
            && let Some(r) = self.game.roll_off()
        {
            for &(w, b) in &r.throws[..r.throws.len() - 1] {
                push_line(
                    &mut out,
                    format!("Roll-off: White {w}, Black {b}: a tie, thrown again."),
                );
            }
            let (w, b) = r.decisive();
            push_line(
                &mut out,
                format!(
                    "Roll-off: White {w}, Black {b}: {} moves first.",
                    r.winner()
                ),
            );
        }
        out.push_str(&self.board(painter));
        out
    }

    fn advance(&mut self, painter: Painter) -> CliResult<String> {
        let mut out = String::new();
        while self.game.outcome().is_none() && self.builder.is_none() {
            if !self.board_shown.get() {
                out.push_str(&self.board(painter));
            }
            let color = self.game.side_to_move();
            let dice = dice_text(self.game.dice());
            if self.game.must_pass() {
                push_line(
                    &mut out,
                    format!("{color} rolls {dice} and has no legal move: pass."),
                );
                self.play_turn(&Move::pass())?;
            } else if matches!(self.players[color.index()], PlayerArg::Bot(_)) {
                let Some(mv) = self.bots[color.index()].choose_move(
                    self.game.position(),
                    self.game.dice(),
                    &mut self.bot_rng,
                ) else {
                    break;
                };
                push_line(
                    &mut out,
                    format!("{color} (bot) rolls {dice} and plays {mv}."),
                );
                self.play_turn(&mv)?;
            } else {
                self.builder = Some(self.game.builder()?);
            }
        }
        Ok(out)
    }

    fn command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "rules" => Ok(self.game.rules().to_string()),
            "board" => Ok(self.board(painter)),
            "moves" => Ok(self.list_moves()),
            "hint" => Ok(self.hint()),
            "from" => match rest.parse::<u8>() {
                Ok(p) if (1..=24).contains(&p) => self.destinations(p),
                _ => Err(CliError::new(format!(
                    "`{rest}` is not a point: try `from 24`"
                ))),
            },
            "undo" => self.undo(painter),
            _ if line.starts_with(|c: char| c.is_ascii_digit())
                || word.eq_ignore_ascii_case("pass") =>
            {
                self.play_steps(line)
            }
            _ => Err(CliError::new(format!(
                "unknown command `{word}`; type `help`"
            ))),
        }
    }

    fn save(&self) -> CliResult<Vec<u8>> {
        if let Some(b) = &self.builder
            && !b.played().is_empty()
        {
            return Err(CliError::new(format!(
                "a save holds whole turns: finish this turn or take back its {} step(s) \
                 with `undo`, then save",
                b.played().len()
            )));
        }
        Ok(self.game.to_bytes())
    }

    fn load(&mut self, bytes: &[u8]) -> CliResult {
        let game = Game::from_bytes(bytes).map_err(|e| CliError::new(e.to_string()))?;
        self.rules = *game.rules();
        self.bots = make_bots(&self.players, game.rules(), &self.resources);
        self.game = game;
        self.builder = None;
        Ok(())
    }

    fn game_over(&self, painter: Painter) -> Option<String> {
        let outcome = self.game.outcome()?;
        let mut out = String::new();
        if !self.board_shown.get() {
            out.push_str(&self.board(painter));
        }
        push_line(&mut out, format!("{outcome}."));
        Some(out)
    }

    fn new_game(&mut self) {
        self.games += 1;
        self.game = Game::new(self.rules, self.seed.wrapping_add(self.games));
        self.builder = None;
        for bot in &mut self.bots {
            bot.new_game();
        }
    }
}

impl NardySession {
    /// Plays a whole turn and notes that the board on screen is old.
    fn play_turn(&mut self, mv: &Move) -> CliResult {
        self.game.play(mv)?;
        self.builder = None;
        self.board_shown.set(false);
        Ok(())
    }

    fn is_human(&self, color: Color) -> bool {
        self.players[color.index()] == PlayerArg::Human
    }

    /// The five best turns for the side to move with the dice thrown, by the strong
    /// level's search, with their equities and what each gives up against the best.
    fn hint(&self) -> String {
        let Some(level) = Level::new(5) else {
            return String::new();
        };
        let mut search = level.search(&self.rules, self.resources.get_or_init(Resources::new));
        let ranked = search.rank(self.game.position(), self.game.dice());
        let mut out = String::new();
        for (i, r) in ranked.iter().take(5).enumerate() {
            let loss = if i == 0 {
                String::new()
            } else {
                format!(" ({:+.3})", -r.loss)
            };
            push_line(
                &mut out,
                format!(
                    "{:>2}. {:<24} equity {:+.3}{loss}, win {:.1}%",
                    i + 1,
                    r.mv.to_string(),
                    r.equity,
                    100.0 * r.probabilities.win
                ),
            );
        }
        if ranked.len() > 5 {
            push_line(&mut out, format!("({} legal turns in all)", ranked.len()));
        }
        out.trim_end().to_string()
    }

    /// Takes back the last step of the turn in progress; with none, the whole turns back to
    /// the previous turn of a person (the bot's reply and forced passes with it).
    fn undo(&mut self, painter: Painter) -> CliResult<String> {
        if let Some(b) = self.builder.as_mut()
            && let Some(step) = b.undo()
        {
            let mut out = format!("Took back {step}.\n");
            out.push_str(&self.progress());
            return Ok(out);
        }
        let mut undone = Vec::new();
        while let Some(mv) = self.game.undo() {
            undone.push((self.game.side_to_move(), mv));
            if self.is_human(self.game.side_to_move()) && !self.game.must_pass() {
                break;
            }
        }
        let reached = undone
            .last()
            .is_some_and(|(c, _)| self.is_human(*c) && !self.game.must_pass());
        if !reached {
            while self.game.redo().is_some() {}
            return Err(CliError::new("nothing to undo"));
        }
        self.builder = None;
        self.board_shown.set(false);
        let mut out = String::new();
        for (color, mv) in undone.iter().rev() {
            push_line(&mut out, format!("Took back {color}'s turn {mv}."));
        }
        out.push_str(&self.board(painter));
        Ok(out)
    }

    fn play_steps(&mut self, text: &str) -> CliResult<String> {
        let mv: Move = text
            .parse()
            .map_err(|e: nardy_core::ParseMoveError| CliError::new(e.to_string()))?;
        let Some(b) = self.builder.as_mut() else {
            return Err(CliError::new("it is not your turn"));
        };
        if mv.is_pass() {
            if b.is_complete() && b.played().is_empty() {
                self.play_turn(&Move::pass())?;
                return Ok(String::new());
            }
            return Err(CliError::new("you cannot pass: a legal move exists"));
        }
        b.play_all(mv.steps())
            .map_err(|e| CliError::new(format!("illegal: {e}")))?;
        if !b.is_complete() {
            return Ok(self.progress());
        }
        let done = b.finish()?;
        let color = b.start().side_to_move();
        let builder = b.clone();
        self.game.play_builder(&builder)?;
        self.builder = None;
        self.board_shown.set(false);
        Ok(format!("{color} played {done}."))
    }

    fn progress(&self) -> String {
        let Some(b) = &self.builder else {
            return String::new();
        };
        let played: Vec<String> = b.played().iter().map(|s| s.to_string()).collect();
        let remaining: Vec<String> = b.remaining_dice().iter().map(|d| d.to_string()).collect();
        format!(
            "Played so far: {}; dice left: {}.\nBoard now: {}",
            if played.is_empty() {
                "nothing".into()
            } else {
                played.join(" ")
            },
            remaining.join(" "),
            b.position()
        )
    }

    fn list_moves(&self) -> String {
        let Some(b) = &self.builder else {
            return String::new();
        };
        let mut out = String::new();
        if !b.played().is_empty() {
            let steps: Vec<String> = b.legal_steps().iter().map(|s| s.to_string()).collect();
            push_line(&mut out, format!("Legal next steps: {}", steps.join(" ")));
            push_line(&mut out, "(`undo` to go back; whole turns from the roll:)");
        }
        let mut turns = b.start().legal_moves_with_results(b.dice(), b.rules());
        turns.sort_by_key(|(_, p)| p.to_string());
        push_line(&mut out, format!("{} legal turn(s):", turns.len()));
        if turns.len() <= PLAIN_LIST_MAX {
            for (t, p) in turns {
                push_line(&mut out, format!("  {t}\t{p}"));
            }
        } else {
            let moves: Vec<Move> = turns.into_iter().map(|(t, _)| t).collect();
            out.push_str(&grouped_moves(&moves));
        }
        out
    }

    fn destinations(&self, point: u8) -> CliResult<String> {
        let Some(b) = &self.builder else {
            return Err(CliError::new("it is not your turn"));
        };
        let pos = b.position();
        if pos.count(pos.side_to_move(), point) == 0 {
            return Err(CliError::new(format!(
                "you have no checker on point {point}"
            )));
        }
        let d = b.destinations(point);
        if d.is_empty() {
            return Ok(format!("The checker on {point} has no legal move now."));
        }
        let names: Vec<String> = d
            .iter()
            .map(|&p| if p == 0 { "off".into() } else { p.to_string() })
            .collect();
        Ok(format!("From {point}: {}", names.join(" ")))
    }

    fn cell(&self, painter: Painter, pos: &Position, point: u8) -> String {
        match pos.owner(point) {
            None => format!("{:>4}", "."),
            Some((c, n)) => {
                let text = format!(
                    "{:>4}",
                    format!("{}{n}", if c == Color::White { 'W' } else { 'B' })
                );
                painter.paint(
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

    /// The board, the pip counts and whose turn it is; marks the board as shown.
    fn board(&self, painter: Painter) -> String {
        self.board_shown.set(true);
        let pos = match &self.builder {
            Some(b) => b.position(),
            None => *self.game.position(),
        };
        let num = |p: u8| painter.paint(&format!("{p:>4}"), Style::Dim);
        let with_bar = |p: u8, bar: u8, text: String| {
            if p == bar { format!("  |{text}") } else { text }
        };
        let top: String = (13..=24u8).map(|p| with_bar(p, 19, num(p))).collect();
        let bottom: String = (1..=12u8).rev().map(|p| with_bar(p, 6, num(p))).collect();
        let row = |points: &mut dyn Iterator<Item = u8>, bar: u8| -> String {
            points
                .map(|p| with_bar(p, bar, self.cell(painter, &pos, p)))
                .collect()
        };
        let mut out = String::from("\n");
        push_line(&mut out, top);
        push_line(&mut out, row(&mut (13..=24u8), 19));
        push_line(&mut out, row(&mut (1..=12u8).rev(), 6));
        push_line(&mut out, bottom);
        push_line(
            &mut out,
            format!(
                "White (W, home 1-6): {} off, {} pips   Black (B, home 13-18): {} off, {} pips",
                pos.borne_off(Color::White),
                pos.pip_count(Color::White),
                pos.borne_off(Color::Black),
                pos.pip_count(Color::Black)
            ),
        );
        push_line(&mut out, format!("Position: {pos}"));
        if self.game.outcome().is_none() {
            let c = pos.side_to_move();
            let who = match self.players[c.index()] {
                PlayerArg::Human => "",
                PlayerArg::Bot(_) => " (bot)",
            };
            push_line(
                &mut out,
                format!("{c}{who} to move, dice {}", dice_text(self.game.dice())),
            );
        }
        out
    }
}

/// Legal turns grouped by their first step, the rest of each turn after it, several to a
/// line: `24/21: 24/21 21/18 21/18 | 21/18 18/15 15/12`. Every turn is listed.
fn grouped_moves(moves: &[Move]) -> String {
    const WIDTH: usize = 88;
    let mut groups: Vec<(Step, Vec<String>)> = Vec::new();
    for mv in moves {
        let Some((first, rest)) = mv.steps().split_first() else {
            continue;
        };
        let rest: Vec<String> = rest.iter().map(Step::to_string).collect();
        let rest = if rest.is_empty() {
            "(alone)".to_owned()
        } else {
            rest.join(" ")
        };
        match groups.iter_mut().find(|(s, _)| s == first) {
            Some((_, list)) => list.push(rest),
            None => groups.push((*first, vec![rest])),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.0));
    let mut out = String::new();
    for (first, rests) in groups {
        let head = format!("  {first} ({}):", rests.len());
        let indent = " ".repeat(head.len());
        let mut line = head;
        for (items, rest) in rests.into_iter().enumerate() {
            let sep = if items == 0 { " " } else { " | " };
            if items > 0 && line.len() + sep.len() + rest.len() > WIDTH {
                push_line(&mut out, &line);
                line = format!("{indent} {rest}");
            } else {
                line.push_str(sep);
                line.push_str(&rest);
            }
        }
        push_line(&mut out, line);
    }
    out
}
