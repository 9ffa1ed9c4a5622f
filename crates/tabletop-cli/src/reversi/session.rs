//! `tabletop reversi play` in line mode: an interactive game at a `tabletop_play` table,
//! a session of typed commands (the full screen is `tui::reversi`).

use rand_chacha::ChaCha8Rng;
use reversi_core::{Color, Game, Move, Position, Rules, SquareSet};
use tabletop_play::reversi::{self, Reversi};
use tabletop_play::{Action, EventKind, Events, Refusal, Seat, Table};

use super::{PlayArgs, Player, decode_game, describe, load_game, move_names, tools, wall_clock};
use crate::common::{CliError, CliResult, Console, Painter, Session, run_session};

const PLAY_HELP: &str = "\
Commands:
  f5            play a disc on a square (column a-h, row 1-8)
  hint          list the legal moves with their scores
  undo / redo   take back or replay your last move
  board         show the board again";

/// An interactive game: a view of a `tabletop_play` table, driven by [`run_session`].
struct ReversiSession {
    table: Table<Reversi>,
    /// Who plays Black and White, in [`Color`] order.
    players: [Player; 2],
    rng: ChaCha8Rng,
    /// Forced passes the table played when it took over a loaded game, to announce.
    passes: Vec<String>,
}

impl ReversiSession {
    /// A session around `game` with `players`.
    fn new(game: Game, players: [Player; 2], rng: ChaCha8Rng) -> ReversiSession {
        let mut session = ReversiSession {
            table: Table::new(Reversi::new(Game::default()), &[]),
            players,
            rng,
            passes: Vec::new(),
        };
        session.set_game(game);
        session
    }

    /// Plays `game` from now on; the forced passes the table plays at once are announced
    /// by the next [`Session::advance`].
    fn set_game(&mut self, game: Game) {
        let known = game.moves().len();
        self.table = Table::new(Reversi::new(game), &self.players.map(Player::seat));
        let positions = self.game().positions();
        self.passes = (known + 1..positions.len())
            .map(|i| {
                let next = positions[i].side_to_move();
                format!(
                    "{} has no legal move and passes. {next} ({}) to move: {}",
                    next.other(),
                    next.letter(),
                    move_names(&positions[i])
                )
            })
            .collect();
    }

    fn game(&self) -> &Game {
        self.table.game().game()
    }

    fn player(&self, color: Color) -> Player {
        self.players[color as usize]
    }

    fn has_human(&self) -> bool {
        self.players.contains(&Player::Human)
    }

    /// The board after a move, or nothing once the game is over: then
    /// [`Session::game_over`] shows the final position.
    fn after_move(position: &Position, painter: Painter) -> String {
        if position.is_over() {
            String::new()
        } else {
            format!("\n{}", describe(position, painter))
        }
    }

    /// One line (with the board after it) for each move the table played: the move asked
    /// for, then the forced passes.
    fn narrate(&self, events: &Events<Reversi>, painter: Painter) -> Vec<String> {
        let moved: Vec<(Seat, Move, SquareSet)> = events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Game(reversi::Event::Moved { seat, mv, flipped }) => {
                    Some((seat, mv, flipped))
                }
                _ => None,
            })
            .collect();
        let positions = self.game().positions();
        let first = positions.len() - moved.len();
        let mut lines = Vec::new();
        for (i, (seat, mv, flipped)) in moved.into_iter().enumerate() {
            let side = reversi::color_of(seat);
            let after = &positions[first + i];
            let next = after.side_to_move();
            lines.push(match mv {
                Move::Pass => format!(
                    "{side} has no legal move and passes. {next} ({}) to move: {}",
                    next.letter(),
                    move_names(after)
                ),
                _ if self.player(side) == Player::Human => {
                    let n = flipped.len();
                    let discs = if n == 1 { "disc" } else { "discs" };
                    format!(
                        "{side} plays {mv}, flipping {n} {discs}.{}",
                        Self::after_move(after, painter)
                    )
                }
                _ => format!("{side} plays {mv}.{}", Self::after_move(after, painter)),
            });
        }
        lines
    }

    fn hint(&self) -> CliResult<String> {
        let pos = self.game().position();
        if pos.is_over() {
            return Err(CliError::new("the game is over: there is no move to hint"));
        }
        let mut out = format!("Legal moves: {}", move_names(pos));
        for line in tools::hint_lines(pos) {
            out.push_str(&format!("\n  {line}"));
        }
        Ok(out)
    }

    /// The seat of the person who types: the one to move, else the first person's.
    fn person_seat(&self) -> Seat {
        match self.table.to_act() {
            Some(seat) if self.player(reversi::color_of(seat)) == Player::Human => seat,
            _ if self.player(Color::Black) == Player::Human => reversi::seat_of(Color::Black),
            _ => reversi::seat_of(Color::White),
        }
    }

    /// Undo or redo through the table's one policy: back to a person's move.
    fn undo_redo(&mut self, action: Action<Move>, painter: Painter) -> CliResult<String> {
        self.table
            .apply(self.person_seat(), action)
            .map_err(|e| CliError::new(e.to_string()))?;
        Ok(describe(self.game().position(), painter))
    }

    fn play_typed_move(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        let mv: Move = line.parse().map_err(|_| {
            CliError::new(format!(
                "unknown command '{line}': type a move like f5, or help"
            ))
        })?;
        let side = self.game().side_to_move();
        if self.player(side) != Player::Human && !self.game().is_over() {
            return Err(CliError::new("it is the computer's turn"));
        }
        let events = self
            .table
            .apply(reversi::seat_of(side), Action::Play(mv))
            .map_err(|e| match e {
                Refusal::Illegal(why) => CliError::new(format!("illegal move {mv}: {why}")),
                other => CliError::new(format!("illegal move {mv}: {other}")),
            })?;
        Ok(self.narrate(&events, painter).join("\n"))
    }
}

impl Session for ReversiSession {
    fn help(&self) -> String {
        PLAY_HELP.to_owned()
    }

    fn prompt(&self) -> String {
        let side = self.game().side_to_move();
        format!("{side} ({})> ", side.letter())
    }

    fn show(&self, painter: Painter) -> String {
        let mut out = describe(self.game().position(), painter);
        if self.has_human() && !self.game().is_over() {
            out.push_str("\nType a move like f5, or help.");
        }
        out
    }

    /// Plays the computer's moves until a person is to move or the game is over (the
    /// table plays forced passes). Each move is printed as it is played (a game between
    /// strong bots takes a while), so the returned text is empty.
    fn advance(&mut self, painter: Painter) -> CliResult<String> {
        for line in self.passes.drain(..) {
            println!("{line}");
        }
        while let Some((seat, _)) = self.table.bot_to_act() {
            let Player::Bot(level) = self.player(reversi::color_of(seat)) else {
                break;
            };
            let mut bot = level.bot_on_clock(&self.game().rules(), wall_clock());
            let Some(action) = reversi::bot_action(self.table.game(), bot.as_mut(), &mut self.rng)
            else {
                break;
            };
            let events = self.table.apply(seat, action)?;
            for line in self.narrate(&events, painter) {
                println!("{line}");
            }
        }
        Ok(String::new())
    }

    fn command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        match line.to_ascii_lowercase().as_str() {
            "board" => Ok(describe(self.game().position(), painter)),
            "hint" => self.hint(),
            "undo" => self.undo_redo(Action::Undo, painter),
            "redo" => self.undo_redo(Action::Redo, painter),
            _ => self.play_typed_move(line, painter),
        }
    }

    fn save(&self) -> CliResult<Vec<u8>> {
        Ok(self.table.to_bytes())
    }

    fn load(&mut self, bytes: &[u8]) -> CliResult {
        let game = decode_game(bytes).map_err(CliError::new)?;
        self.set_game(game);
        Ok(())
    }

    fn game_over(&self, painter: Painter) -> Option<String> {
        self.game()
            .is_over()
            .then(|| describe(self.game().position(), painter))
    }

    fn new_game(&mut self) {
        self.set_game(Game::new(self.game().rules()));
    }
}

/// The interactive game; `default_white` plays White unless `--white` says.
pub(super) fn play(args: PlayArgs, default_white: Player) -> CliResult {
    let game = match &args.load {
        Some(path) => {
            if args.first.is_some() {
                return Err(CliError::usage(
                    "--first cannot go with --load: the save holds its own rules",
                ));
            }
            load_game(path)?
        }
        None => Game::new(Rules::with_first(
            args.first.map_or(Color::Black, Color::from),
        )),
    };
    let players = [args.black, args.white.unwrap_or(default_white)];
    let mut session = ReversiSession::new(game, players, args.seed.rng());
    run_session(&mut Console::stdin(), &mut session)
}
