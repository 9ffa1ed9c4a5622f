//! `tabletop battleship play`: you against the computer, on the shared session loop.
//!
//! A game starts with your fleet placed at random (or by hand with `--place manual`),
//! then you shoot by coordinate while the computer answers from its own view only.

use battleship_core::ai::{Bot, Level, PlacementStrategy};
use battleship_core::{
    Coord, Fleet, Game, Mark, Orientation, ParseShipError, Placement, Player, Rules, Ship,
    ShotResult, UniformFleets,
};
use rand_chacha::ChaCha8Rng;
use tabletop_play::battleship::{Battleship, Input, new_table};
use tabletop_play::{Action, Table, Viewer};

use super::{
    COMPUTER, Loaded, YOU, computer_places, computer_shot, draw, load_save, save_with_draft,
    shot_of,
};
use crate::common::{CliError, CliResult, Painter, Session};

/// One game against the computer and the settings for the next one.
///
/// The game is a table: you in seat 0, the computer (`Player::Bot(level)`) in seat 1.
/// Your hand placement under way is this screen's own until `done` places the whole
/// fleet on the table.
pub(super) struct BattleshipSession {
    table: Table<Battleship>,
    /// Your ships so far, while you place them by hand (the table has no fleet of yours
    /// yet); `None` once the battle is on.
    placing: Option<Placement>,
    level: Level,
    bot: Box<dyn Bot>,
    rng: ChaCha8Rng,
    sampler: UniformFleets,
    /// Whether new games start with a hand placement.
    manual: bool,
    /// How the computer places its fleet.
    placement: PlacementStrategy,
}

const PLACE_HELP: &str = "placement commands:
  place CELL h|v LEN   put a ship with its bow (top/left cell) at CELL, e.g. place a1 h 4
  remove CELL          take away the ship covering CELL
  rotate CELL          turn the ship covering CELL about its bow
  where LEN h|v        mark (+) the cells where such a ship's bow can go
  auto                 a uniformly random fleet
  clear                remove every ship
  show                 draw your grid
  done                 start the battle";

const PLAY_HELP: &str = "battle commands:
  CELL        shoot, e.g. e5 (Russian letters а…к work too)
  show        draw both grids
legend: # ship, X hit, o miss, ~ known water, . unknown";

impl BattleshipSession {
    /// A new game under `rules` against `level`; your fleet placed at random unless
    /// `manual`.
    pub(super) fn new(
        rules: Rules,
        level: Level,
        rng: ChaCha8Rng,
        manual: bool,
        placement: PlacementStrategy,
    ) -> CliResult<BattleshipSession> {
        let sampler = UniformFleets::new(&rules);
        let mut s = BattleshipSession {
            table: new_table(rules.clone(), super::players(level)),
            placing: None,
            bot: level.bot(&rules),
            level,
            rng,
            sampler,
            manual,
            placement,
        };
        s.start(rules)?;
        Ok(s)
    }

    /// Starts a game under `rules`: a placement, or straight to the battle.
    fn start(&mut self, rules: Rules) -> CliResult {
        self.bot.new_game();
        self.table = new_table(rules.clone(), super::players(self.level));
        if self.manual {
            self.placing = Some(Placement::new(rules));
            return Ok(());
        }
        self.placing = None;
        let mine = self.sampler.sample(&mut self.rng);
        self.begin_battle(mine)
    }

    /// Your fleet goes on the table, the computer places its own and the battle begins.
    fn begin_battle(&mut self, mine: Fleet) -> CliResult {
        self.table.apply(YOU, Action::Play(Input::Place(mine)))?;
        self.placing = None;
        computer_places(
            &mut self.table,
            self.placement,
            &self.sampler,
            &mut self.rng,
        )
    }

    fn rules(&self) -> &Rules {
        self.table.game().rules()
    }

    /// The battle, once both fleets are out.
    fn game(&self) -> Option<&Game> {
        self.table.game().game()
    }

    /// A session continuing a save (a table's, or an old `TTBC` file); `level` and `rng`
    /// serve when the save has no computer or no generator of its own.
    pub(super) fn from_save(
        bytes: &[u8],
        level: Level,
        rng: ChaCha8Rng,
        manual: bool,
        placement: PlacementStrategy,
    ) -> CliResult<BattleshipSession> {
        let loaded = load_save(bytes, level)?;
        let rules = loaded.table.game().rules().clone();
        let mut s = BattleshipSession {
            table: new_table(rules.clone(), super::players(loaded.level)),
            placing: None,
            bot: loaded.level.bot(&rules),
            level: loaded.level,
            rng,
            sampler: UniformFleets::new(&rules),
            manual,
            placement,
        };
        s.restore(loaded)?;
        Ok(s)
    }

    /// Replaces the game, the computer and (from an old save) the generator with a
    /// save's.
    fn restore(&mut self, loaded: Loaded) -> CliResult {
        let rules = loaded.table.game().rules().clone();
        if &rules != self.rules() {
            self.sampler = UniformFleets::new(&rules);
        }
        self.level = loaded.level;
        self.bot = loaded.level.bot(&rules);
        if let Some(rng) = loaded.rng {
            self.rng = rng;
        }
        self.table = loaded.table;
        self.placing = loaded.placing;
        if self.placing.is_none() {
            // a table where only you had placed: the computer places now
            computer_places(
                &mut self.table,
                self.placement,
                &self.sampler,
                &mut self.rng,
            )?;
        }
        Ok(())
    }

    fn placing_command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        let Some(p) = &mut self.placing else {
            return Ok(String::new());
        };
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("").to_lowercase();
        let rest: Vec<&str> = words.collect();
        match cmd.as_str() {
            "show" => Ok(show_placement(p, &[], painter)),
            "auto" => {
                *p = Placement::from_fleet(p.rules().clone(), &self.sampler.sample(&mut self.rng));
                Ok(show_placement(p, &[], painter))
            }
            "clear" => {
                p.clear();
                Ok(show_placement(p, &[], painter))
            }
            "place" | "put" => {
                let ship = parse_ship(&rest.join(" "), p.rules())?;
                p.place(ship)
                    .map_err(|e| CliError::new(format!("cannot place {ship}: {e}")))?;
                Ok(show_placement(p, &[], painter))
            }
            "remove" => {
                let cell: Coord = rest.join("").parse()?;
                let ship = p
                    .remove(cell)
                    .ok_or_else(|| CliError::new(format!("no ship at {cell}")))?;
                Ok(format!(
                    "removed {ship}\n{}",
                    show_placement(p, &[], painter)
                ))
            }
            "rotate" => {
                let cell: Coord = rest.join("").parse()?;
                match p.rotate(cell) {
                    Ok(Some(ship)) => Ok(format!(
                        "turned to {ship}\n{}",
                        show_placement(p, &[], painter)
                    )),
                    Ok(None) => Err(CliError::new(format!("no ship at {cell}"))),
                    Err(e) => Err(CliError::new(format!("cannot turn it: {e}"))),
                }
            }
            "where" => {
                let [len, o] = rest[..] else {
                    return Err(CliError::new("usage: where LEN h|v"));
                };
                let len: u8 = len
                    .parse()
                    .map_err(|_| CliError::new(format!("'{len}' is not a ship length")))?;
                check_length(len, &len.to_string(), p.rules())?;
                let orientation: Orientation = o.parse()?;
                let bows = p.bow_cells(len, orientation);
                if bows.is_empty() {
                    return Ok(format!("a {len}-cell ship {orientation} fits nowhere"));
                }
                Ok(format!(
                    "bows of a {len}-cell ship {orientation} (+):\n{}",
                    show_placement(p, &bows, painter)
                ))
            }
            "done" | "ready" => {
                let fleet = p
                    .finish()
                    .map_err(|e| CliError::new(format!("the fleet is not ready: {e}")))?;
                self.begin_battle(fleet)?;
                Ok(self.show(painter))
            }
            _ => Err(CliError::new(format!(
                "unknown command '{cmd}' (type help for commands)"
            ))),
        }
    }

    fn battle_command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        let Some(game) = self.game() else {
            return Ok(String::new());
        };
        let cmd = line.split_whitespace().next().unwrap_or("").to_lowercase();
        if matches!(cmd.as_str(), "show" | "board") {
            return Ok(board(game, painter));
        }
        if game.is_over() {
            return Err(CliError::new(
                "the game is over: y starts a new one, n leaves",
            ));
        }
        let cell: Coord = match line.parse() {
            Ok(c) => c,
            Err(_) if !line.chars().any(|c| c.is_ascii_digit()) => {
                return Err(CliError::new(format!(
                    "unknown command '{cmd}' (type help for commands)"
                )));
            }
            Err(e) => return Err(CliError::new(format!("{e} (type help for commands)"))),
        };
        // The rules allow shooting water revealed around a sunk ship, but it is a sure
        // miss that loses the turn: a person is told instead.
        if game.view(Player::First).tracking().mark(cell) == Mark::Water {
            return Err(CliError::new(format!(
                "{cell} is known water (next to a sunk ship): shoot elsewhere"
            )));
        }
        let events = self.table.apply(YOU, Action::Play(Input::Shoot(cell)))?;
        let Some((_, cell, result)) = shot_of(&events) else {
            return Ok(String::new());
        };
        let mut out = format!("you shoot {cell}: {result}");
        let Some(game) = self.game() else {
            return Ok(out);
        };
        if !game.is_over() && game.side_to_move() == Player::First {
            out.push('\n');
            out.push_str(&board(game, painter));
        }
        Ok(out)
    }
}

/// A ship typed as `a1 h 4`, of a length the rules have: the engine's parser knows only
/// the longest length it allows, the rules know theirs.
pub(crate) fn parse_ship(text: &str, rules: &Rules) -> CliResult<Ship> {
    match text.parse::<Ship>() {
        Ok(ship) => {
            check_length(ship.len(), &ship.len().to_string(), rules)?;
            Ok(ship)
        }
        Err(ParseShipError::Length(len)) => Err(length_error(&len, rules)),
        Err(e) => Err(e.into()),
    }
}

/// Refuses a length (typed as `typed`) that no ship of `rules` has.
fn check_length(len: u8, typed: &str, rules: &Rules) -> CliResult {
    if rules.fleet().contains(&len) {
        Ok(())
    } else {
        Err(length_error(typed, rules))
    }
}

/// `'7' is not a ship length of these rules: ships are 4, 3, 2 or 1 cells long`.
fn length_error(typed: &str, rules: &Rules) -> CliError {
    let mut lens: Vec<u8> = rules.fleet().to_vec();
    lens.sort_unstable_by(|a, b| b.cmp(a));
    lens.dedup();
    let names: Vec<String> = lens.iter().map(u8::to_string).collect();
    let list = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    };
    CliError::new(format!(
        "'{typed}' is not a ship length of these rules: ships are {list} cells long"
    ))
}

/// Your fleet and the enemy waters side by side, and the enemy ships afloat.
fn board(game: &Game, painter: Painter) -> String {
    let view = game.view(Player::First);
    let rules = game.rules();
    let left = draw::fleet(rules, view.fleet(), Some(view.incoming()), painter);
    let right = draw::target(rules, view.tracking(), painter);
    let afloat: Vec<String> = view.tracking().afloat().iter().map(u8::to_string).collect();
    format!(
        "{}enemy ships afloat: {}",
        draw::side_by_side(("your fleet", "enemy waters"), &left, &right, rules),
        afloat.join(" ")
    )
}

/// Your grid during placement, `marked` cells drawn `+`, and what is left to place.
pub(crate) fn show_placement(p: &Placement, marked: &[Coord], painter: Painter) -> String {
    let mut out = draw::placement(p, marked, painter).join("\n");
    let missing: Vec<String> = p.missing().iter().map(u8::to_string).collect();
    if missing.is_empty() {
        out.push_str("\nall ships placed: type done to start");
    } else {
        out.push_str(&format!("\nstill to place: {}", missing.join(" ")));
    }
    out
}

impl Session for BattleshipSession {
    fn help(&self) -> String {
        match self.placing {
            Some(_) => PLACE_HELP.to_owned(),
            None => PLAY_HELP.to_owned(),
        }
    }

    fn prompt(&self) -> String {
        match self.placing {
            Some(_) => "place> ".to_owned(),
            None => "shoot> ".to_owned(),
        }
    }

    fn show(&self, painter: Painter) -> String {
        if let Some(p) = &self.placing {
            return format!(
                "Place your fleet ({}). Type help for commands.\n{}",
                p.rules(),
                show_placement(p, &[], painter)
            );
        }
        match self.game() {
            None => String::new(),
            Some(game) => format!(
                "Battleship ({}) against the {} shooter. Type a cell to shoot, help for commands.\n{}",
                game.rules(),
                self.level.name(),
                board(game, painter)
            ),
        }
    }

    /// The computer shoots while it is its turn.
    fn advance(&mut self, painter: Painter) -> CliResult<String> {
        let mut out = Vec::new();
        while let Some((seat, _)) = self.table.bot_to_act() {
            let Some(cell) = computer_shot(self.table.game(), self.bot.as_mut(), &mut self.rng)
            else {
                break;
            };
            let events = self.table.apply(seat, Action::Play(Input::Shoot(cell)))?;
            let Some((_, cell, result)) = shot_of(&events) else {
                break;
            };
            out.push(format!("computer shoots {cell}: {result}"));
            if let ShotResult::GameOver(_) = result {
                break;
            }
        }
        if out.is_empty() {
            return Ok(String::new());
        }
        if let Some(game) = self.game().filter(|g| !g.is_over()) {
            out.push(board(game, painter));
        }
        Ok(out.join("\n"))
    }

    fn command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        match self.placing {
            Some(_) => self.placing_command(line, painter),
            None => self.battle_command(line, painter),
        }
    }

    /// The table; during a hand placement, with the ships placed so far as your draft.
    fn save(&self) -> CliResult<Vec<u8>> {
        Ok(save_with_draft(&self.table, self.placing.as_ref()))
    }

    fn load(&mut self, bytes: &[u8]) -> CliResult {
        let loaded = load_save(bytes, self.level)?;
        self.restore(loaded)
    }

    fn game_over(&self, painter: Painter) -> Option<String> {
        let game = self.game()?;
        let outcome = game.outcome()?;
        let rules = game.rules();
        let mine = game.view(Player::First);
        let left = draw::fleet(rules, mine.fleet(), Some(mine.incoming()), painter);
        // the end reveals the enemy fleet to your seat's view, with your shots on it
        let view = self.table.view(Viewer::Seat(YOU));
        let enemy = view.state.fleets[COMPUTER.index()].as_ref()?;
        let right = draw::fleet(rules, enemy, Some(mine.tracking()), painter);
        let result = match outcome.winner {
            Player::First => format!("You win in {} shots!", outcome.shots),
            Player::Second => format!("The computer wins in {} shots.", outcome.shots),
        };
        let ships: Vec<String> = enemy.ships().iter().map(Ship::to_string).collect();
        Some(format!(
            "{}the enemy fleet: {}\n{result}",
            draw::side_by_side(("your fleet", "enemy fleet"), &left, &right, rules),
            ships.join(", ")
        ))
    }

    fn new_game(&mut self) {
        let rules = self.rules().clone();
        if let Err(err) = self.start(rules) {
            err.print();
        }
    }
}
