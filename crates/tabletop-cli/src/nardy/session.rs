//! `tabletop nardy play`: one game in the terminal on the shared session loop.

use std::cell::{Cell, OnceCell};

use nardy_core::ai::{Bot, Level, Resources};
use nardy_core::{Color, Dice, Move, Position, Rules, Step};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop_play::nardy::{self, Event, Input, Nardy, color_of, seat_of};
use tabletop_play::{Action, EventKind, Events, Player, Refusal, Seat, Table};

use super::{PlayArgs, PlayerArg, load_table, parse_player};
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

/// One game in the terminal: a view of a `tabletop_play` table, driven by the shared
/// session loop.
struct NardySession {
    rules: Rules,
    seed: u64,
    games: u64,
    table: Table<Nardy>,
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
    let players = [white, black];
    let table = match &args.load {
        Some(path) => {
            let bytes = load_file(path)?;
            let table = load_table(&bytes, players)
                .map_err(|e| CliError::new(e).context(path.display()))?;
            println!(
                "Loaded a game of {} turns.",
                table.game().game().history().len()
            );
            table
        }
        None => nardy::new_table(rules, seed, players.map(player)),
    };
    let resources = OnceCell::new();
    let rules = *table.game().game().rules();
    let mut session = NardySession {
        rules,
        seed,
        games: 0,
        bots: make_bots(&players, &rules, &resources),
        resources,
        table,
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

/// The table's player for a command-line player.
pub(super) fn player(p: PlayerArg) -> Player {
    match p {
        PlayerArg::Human => Player::Human,
        PlayerArg::Bot(level) => Player::Bot(level.get()),
    }
}

pub(crate) fn dice_text(d: Dice) -> String {
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
            self.game().side_to_move(),
            dice_text(self.game().dice())
        )
    }

    fn show(&self, painter: Painter) -> String {
        let mut out = String::new();
        if self.game().history().is_empty()
            && let Some(r) = self.game().roll_off()
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
        while let Some((seat, _)) = self.table.bot_to_act() {
            if !self.board_shown.get() {
                out.push_str(&self.board(painter));
            }
            let Some(action) = nardy::bot_action(
                self.table.game(),
                self.bots[seat.index()].as_mut(),
                &mut self.bot_rng,
            ) else {
                break;
            };
            let events = self.table.apply(seat, action)?;
            out.push_str(&self.narrate(&events, painter));
        }
        if !self.board_shown.get() && self.table.ending().is_none() {
            out.push_str(&self.board(painter));
        }
        Ok(out)
    }

    fn command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "rules" => Ok(self.game().rules().to_string()),
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
                self.play_steps(line, painter)
            }
            _ => Err(CliError::new(format!(
                "unknown command `{word}`; type `help`"
            ))),
        }
    }

    fn save(&self) -> CliResult<Vec<u8>> {
        Ok(self.table.to_bytes())
    }

    fn load(&mut self, bytes: &[u8]) -> CliResult {
        let table = load_table(bytes, self.players).map_err(CliError::new)?;
        self.rules = *table.game().game().rules();
        self.bots = make_bots(&self.players, &self.rules, &self.resources);
        self.table = table;
        self.board_shown.set(false);
        Ok(())
    }

    fn game_over(&self, painter: Painter) -> Option<String> {
        let ending = self.table.ending()?;
        let mut out = String::new();
        if !self.board_shown.get() {
            out.push_str(&self.board(painter));
        }
        push_line(&mut out, format!("{}.", ending.score));
        Some(out)
    }

    fn new_game(&mut self) {
        self.games += 1;
        self.table = nardy::new_table(
            self.rules,
            self.seed.wrapping_add(self.games),
            self.players.map(player),
        );
        self.board_shown.set(false);
        for bot in &mut self.bots {
            bot.new_game();
        }
    }
}

impl NardySession {
    /// The engine game at the start of the turn in progress.
    fn game(&self) -> &nardy_core::Game {
        self.table.game().game()
    }

    /// The seat of the person who types: the seat to act, else the first person's seat.
    fn person_seat(&self) -> Seat {
        match self.table.to_act() {
            Some(seat) if self.is_human(color_of(seat)) => seat,
            _ => seat_of(if self.is_human(Color::White) {
                Color::White
            } else {
                Color::Black
            }),
        }
    }

    /// The lines that tell what the table did: bots' turns, forced passes, finished turns.
    fn narrate(&self, events: &Events<Nardy>, painter: Painter) -> String {
        let mut out = String::new();
        for event in events {
            let EventKind::Game(Event::Turn {
                seat,
                dice,
                mv,
                forced,
            }) = &event.kind
            else {
                continue;
            };
            let color = color_of(*seat);
            let text = dice_text(*dice);
            if *forced {
                if !self.board_shown.get() {
                    // The board as it stood before the pass: the same checkers, the passer
                    // to move with its dice.
                    let pos = self.game().position().with_side_to_move(color);
                    out.push_str(&self.board_of(painter, pos, Some((color, *dice))));
                }
                push_line(
                    &mut out,
                    format!("{color} rolls {text} and has no legal move: pass."),
                );
            } else if self.is_human(color) {
                push_line(&mut out, format!("{color} played {mv}."));
            } else {
                push_line(
                    &mut out,
                    format!("{color} (bot) rolls {text} and plays {mv}."),
                );
            }
            self.board_shown.set(false);
        }
        out
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
        let ranked = search.rank(self.game().position(), self.game().dice());
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

    /// Takes back the last step of the turn in progress; with none, the whole turns back
    /// to the previous turn of a person (the table's undo).
    fn undo(&mut self, painter: Painter) -> CliResult<String> {
        let events = self
            .table
            .apply(self.person_seat(), Action::Undo)
            .map_err(|e| CliError::new(e.to_string()))?;
        let mut out = String::new();
        let mut turns = Vec::new();
        for event in &events {
            match &event.kind {
                EventKind::Game(Event::StepTakenBack { step, .. }) => {
                    out.push_str(&format!("Took back {step}.\n"));
                    out.push_str(&self.progress());
                    return Ok(out);
                }
                EventKind::Game(Event::TurnTakenBack { seat, mv }) => turns.push((*seat, mv)),
                _ => {}
            }
        }
        for (seat, mv) in turns.iter().rev() {
            push_line(
                &mut out,
                format!("Took back {}'s turn {mv}.", color_of(*seat)),
            );
        }
        out.push_str(&self.board(painter));
        Ok(out)
    }

    fn play_steps(&mut self, text: &str, painter: Painter) -> CliResult<String> {
        let mv: Move = text
            .parse()
            .map_err(|e: nardy_core::ParseMoveError| CliError::new(e.to_string()))?;
        let Some(seat) = self.table.to_act().filter(|s| self.is_human(color_of(*s))) else {
            return Err(CliError::new("it is not your turn"));
        };
        if mv.is_pass() {
            return Err(CliError::new("you cannot pass: a legal move exists"));
        }
        // The steps go in one by one on a copy, so a refused step leaves the turn as it was.
        let mut table = self.table.clone();
        let mut events = Vec::new();
        for step in mv.steps() {
            let applied = table
                .apply(seat, Action::Play(Input::Step(*step)))
                .map_err(|e| match e {
                    Refusal::Illegal(why) => CliError::new(format!("illegal: {why}")),
                    other => CliError::new(other.to_string()),
                })?;
            events.extend(applied);
        }
        self.table = table;
        if self.table.game().played().is_empty() {
            Ok(self.narrate(&events, painter).trim_end().to_string())
        } else {
            Ok(self.progress())
        }
    }

    fn progress(&self) -> String {
        let Some(b) = self.table.game().builder() else {
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
        let Some(b) = self.table.game().builder() else {
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
        let Some(b) = self.table.game().builder() else {
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

    /// The board of the table now; marks the board as shown.
    fn board(&self, painter: Painter) -> String {
        let to_move = self
            .table
            .to_act()
            .map(|s| (color_of(s), self.game().dice()));
        self.board_of(painter, self.table.game().position(), to_move)
    }

    /// The board of `pos`, the pip counts and who is to move with which dice; marks the
    /// board as shown.
    fn board_of(&self, painter: Painter, pos: Position, to_move: Option<(Color, Dice)>) -> String {
        self.board_shown.set(true);
        let to_move = to_move.map(|(c, dice)| {
            let who = match self.players[c.index()] {
                PlayerArg::Human => "",
                PlayerArg::Bot(_) => " (bot)",
            };
            (c, who, dice)
        });
        board_text(painter, pos, to_move)
    }
}

/// A point's checkers, `W3` or `B15` in the side's colour, `.` when empty.
fn cell(painter: Painter, pos: &Position, point: u8) -> String {
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

/// The board of `pos`, the pip counts and who is to move (`who` follows the colour, as
/// ` (bot)`) with which dice. Line mode and online play draw with it.
pub(crate) fn board_text(
    painter: Painter,
    pos: Position,
    to_move: Option<(Color, &str, Dice)>,
) -> String {
    let num = |p: u8| painter.paint(&format!("{p:>4}"), Style::Dim);
    let with_bar = |p: u8, bar: u8, text: String| {
        if p == bar { format!("  |{text}") } else { text }
    };
    let top: String = (13..=24u8).map(|p| with_bar(p, 19, num(p))).collect();
    let bottom: String = (1..=12u8).rev().map(|p| with_bar(p, 6, num(p))).collect();
    let row = |points: &mut dyn Iterator<Item = u8>, bar: u8| -> String {
        points
            .map(|p| with_bar(p, bar, cell(painter, &pos, p)))
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
    if let Some((c, who, dice)) = to_move {
        push_line(
            &mut out,
            format!("{c}{who} to move, dice {}", dice_text(dice)),
        );
    }
    out
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
