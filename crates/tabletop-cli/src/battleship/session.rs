//! `tabletop battleship play`: you against the computer, on the shared session loop.
//!
//! A game starts with your fleet placed at random (or by hand with `--place manual`),
//! then you shoot by coordinate while the computer answers from its own view only.

use battleship_core::ai::{Bot, Level, PlacementStrategy};
use battleship_core::{
    Coord, Fleet, Game, Mark, Orientation, Placement, Player, Rules, Ship, ShotResult,
    UniformFleets,
};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::draw;
use crate::common::{CliError, CliResult, Painter, Session};

/// Where the game is: placing your fleet, or the battle.
enum Phase {
    /// Your ships so far (the computer places its fleet when you are done).
    Placing(Placement),
    /// Both fleets are out.
    Battle(Box<Game>),
}

/// One game against the computer and the settings for the next one.
pub(super) struct BattleshipSession {
    phase: Phase,
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
            phase: Phase::Placing(Placement::new(rules.clone())),
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
        if self.manual {
            self.phase = Phase::Placing(Placement::new(rules));
            return Ok(());
        }
        let mine = self.sampler.sample(&mut self.rng);
        self.begin_battle(rules, mine)
    }

    /// The computer places its fleet against `mine` and the battle begins.
    fn begin_battle(&mut self, rules: Rules, mine: Fleet) -> CliResult {
        let theirs = self.placement.place(&rules, &self.sampler, &mut self.rng);
        self.phase = Phase::Battle(Box::new(Game::new(rules, mine, theirs)?));
        Ok(())
    }

    fn rules(&self) -> &Rules {
        match &self.phase {
            Phase::Placing(p) => p.rules(),
            Phase::Battle(g) => g.rules(),
        }
    }

    /// A session continuing a save written by `save`.
    pub(super) fn from_save(
        bytes: &[u8],
        manual: bool,
        placement: PlacementStrategy,
    ) -> CliResult<BattleshipSession> {
        let saved = decode_save(bytes)?;
        let rules = saved.state.rules().clone();
        let mut s = BattleshipSession {
            phase: Phase::Placing(Placement::new(rules.clone())),
            bot: saved.level.bot(&rules),
            level: saved.level,
            rng: saved.rng.clone(),
            sampler: UniformFleets::new(&rules),
            manual,
            placement,
        };
        s.restore(saved);
        Ok(s)
    }

    /// Replaces the game, the computer and the generator with a save's.
    fn restore(&mut self, saved: Saved) {
        if saved.state.rules() != self.rules() {
            self.sampler = UniformFleets::new(saved.state.rules());
        }
        self.level = saved.level;
        self.bot = saved.level.bot(saved.state.rules());
        self.rng = saved.rng;
        self.phase = match saved.state {
            SavedState::Placing(placement) => Phase::Placing(placement),
            SavedState::Battle(game) => Phase::Battle(game),
        };
    }

    fn placing_command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        let Phase::Placing(p) = &mut self.phase else {
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
                let ship: Ship = rest.join(" ").parse()?;
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
                let rules = p.rules().clone();
                self.begin_battle(rules, fleet)?;
                Ok(self.show(painter))
            }
            _ => Err(CliError::new(format!(
                "unknown command '{cmd}' (type help for commands)"
            ))),
        }
    }

    fn battle_command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        let Phase::Battle(game) = &mut self.phase else {
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
        let result = game.play(cell)?;
        let mut out = format!("you shoot {cell}: {result}");
        if !game.is_over() && game.side_to_move() == Player::First {
            out.push('\n');
            out.push_str(&board(game, painter));
        }
        Ok(out)
    }
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
fn show_placement(p: &Placement, marked: &[Coord], painter: Painter) -> String {
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
        match self.phase {
            Phase::Placing(_) => PLACE_HELP.to_owned(),
            Phase::Battle(_) => PLAY_HELP.to_owned(),
        }
    }

    fn prompt(&self) -> String {
        match self.phase {
            Phase::Placing(_) => "place> ".to_owned(),
            Phase::Battle(_) => "shoot> ".to_owned(),
        }
    }

    fn show(&self, painter: Painter) -> String {
        match &self.phase {
            Phase::Placing(p) => format!(
                "Place your fleet ({}). Type help for commands.\n{}",
                p.rules(),
                show_placement(p, &[], painter)
            ),
            Phase::Battle(game) => format!(
                "Battleship ({}) against the {} shooter. Type a cell to shoot, help for commands.\n{}",
                game.rules(),
                self.level.name(),
                board(game, painter)
            ),
        }
    }

    /// The computer shoots while it is its turn.
    fn advance(&mut self, painter: Painter) -> CliResult<String> {
        let Phase::Battle(game) = &mut self.phase else {
            return Ok(String::new());
        };
        let mut out = Vec::new();
        while !game.is_over() && game.side_to_move() == Player::Second {
            let tracking = game.view(Player::Second).tracking();
            let Some(cell) = self.bot.choose_move(tracking, &mut self.rng) else {
                break;
            };
            // a bot shoots a legal cell; should it not, the first legal one is shot
            let shot = match game.play(cell) {
                Ok(result) => Some((cell, result)),
                Err(_) => game
                    .legal_moves()
                    .first()
                    .copied()
                    .and_then(|c| game.play(c).ok().map(|r| (c, r))),
            };
            let Some((cell, result)) = shot else {
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
        if !game.is_over() {
            out.push(board(game, painter));
        }
        Ok(out.join("\n"))
    }

    fn command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        match self.phase {
            Phase::Placing(_) => self.placing_command(line, painter),
            Phase::Battle(_) => self.battle_command(line, painter),
        }
    }

    fn save(&self) -> CliResult<Vec<u8>> {
        let state = match &self.phase {
            Phase::Placing(p) => SavedStateRepr::Placing {
                rules: p.rules().clone(),
                ships: p.ships().to_vec(),
            },
            Phase::Battle(game) => SavedStateRepr::Battle(game.to_bytes()),
        };
        encode_save(state, self.level, &self.rng)
    }

    fn load(&mut self, bytes: &[u8]) -> CliResult {
        self.restore(decode_save(bytes)?);
        Ok(())
    }

    fn game_over(&self, painter: Painter) -> Option<String> {
        let Phase::Battle(game) = &self.phase else {
            return None;
        };
        let outcome = game.outcome()?;
        let rules = game.rules();
        let mine = game.view(Player::First);
        let left = draw::fleet(rules, mine.fleet(), Some(mine.incoming()), painter);
        // the end reveals the enemy fleet, with your shots on it
        let right = draw::fleet(
            rules,
            game.fleet(Player::Second),
            Some(mine.tracking()),
            painter,
        );
        let result = match outcome.winner {
            Player::First => format!("You win in {} shots!", outcome.shots),
            Player::Second => format!("The computer wins in {} shots.", outcome.shots),
        };
        let ships: Vec<String> = game
            .fleet(Player::Second)
            .ships()
            .iter()
            .map(Ship::to_string)
            .collect();
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

// ---------------------------------------------------------------- save files

const CLI_MAGIC: &[u8; 4] = b"TTBC";
/// Version 1: a battle (the engine's save, the level counted from 0, the generator).
/// Version 2: a battle or a placement under way, the level as its number.
const CLI_VERSION: u16 = 2;

/// What version 1 wrote: the engine's save plus the session around it.
#[derive(Deserialize)]
struct SaveFileV1 {
    game: Vec<u8>,
    /// The computer's level, counted from 0 (`Level::get() - 1`).
    bot: u32,
    rng: ChaCha8Rng,
}

/// What version 2 writes.
#[derive(Serialize, Deserialize)]
struct SaveFileV2 {
    state: SavedStateRepr,
    bot: Level,
    rng: ChaCha8Rng,
}

/// The game in a version 2 save.
#[derive(Serialize, Deserialize)]
enum SavedStateRepr {
    /// The engine's save of the battle.
    Battle(Vec<u8>),
    /// The ships placed so far.
    Placing { rules: Rules, ships: Vec<Ship> },
}

/// A save, checked (also read by the full-screen screen, which shares the format).
pub(crate) struct Saved {
    pub(crate) state: SavedState,
    pub(crate) level: Level,
    pub(crate) rng: ChaCha8Rng,
}

/// The game in a save: a placement under way, or the battle.
pub(crate) enum SavedState {
    Placing(Placement),
    Battle(Box<Game>),
}

impl SavedState {
    pub(crate) fn rules(&self) -> &Rules {
        match self {
            SavedState::Placing(p) => p.rules(),
            SavedState::Battle(g) => g.rules(),
        }
    }
}

/// A save of `state` with the computer's level and the generator (the full-screen screen
/// writes the same files as line mode).
pub(crate) fn encode_state(state: &SavedState, bot: Level, rng: &ChaCha8Rng) -> CliResult<Vec<u8>> {
    let repr = match state {
        SavedState::Placing(p) => SavedStateRepr::Placing {
            rules: p.rules().clone(),
            ships: p.ships().to_vec(),
        },
        SavedState::Battle(game) => SavedStateRepr::Battle(game.to_bytes()),
    };
    encode_save(repr, bot, rng)
}

fn encode_save(state: SavedStateRepr, bot: Level, rng: &ChaCha8Rng) -> CliResult<Vec<u8>> {
    let body = postcard::to_allocvec(&SaveFileV2 {
        state,
        bot,
        rng: rng.clone(),
    })
    .map_err(|e| CliError::new(format!("cannot encode the game: {e}")))?;
    let mut out = CLI_MAGIC.to_vec();
    out.extend_from_slice(&CLI_VERSION.to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

/// A postcard body that must use every byte.
fn strict<T: serde::de::DeserializeOwned>(body: &[u8]) -> CliResult<T> {
    match postcard::take_from_bytes(body) {
        Ok((value, [])) => Ok(value),
        _ => Err(CliError::new("the save file is corrupt or truncated")),
    }
}

pub(crate) fn decode_save(bytes: &[u8]) -> CliResult<Saved> {
    if bytes.len() < 6 || &bytes[..4] != CLI_MAGIC {
        return Err(CliError::new("not a Battleship save file"));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    let body = &bytes[6..];
    match version {
        1 => {
            let save: SaveFileV1 = strict(body)?;
            let level = u8::try_from(save.bot)
                .ok()
                .and_then(|n| Level::new(n.checked_add(1)?))
                .ok_or_else(|| CliError::new("the save file is corrupt or truncated"))?;
            Ok(Saved {
                state: SavedState::Battle(Box::new(Game::from_bytes(&save.game)?)),
                level,
                rng: save.rng,
            })
        }
        2 => {
            let save: SaveFileV2 = strict(body)?;
            let state = match save.state {
                SavedStateRepr::Battle(game) => {
                    SavedState::Battle(Box::new(Game::from_bytes(&game)?))
                }
                SavedStateRepr::Placing { rules, ships } => {
                    let mut placement = Placement::new(rules);
                    for ship in ships {
                        placement.place(ship).map_err(|e| {
                            CliError::new(format!("the save holds an impossible placement: {e}"))
                        })?;
                    }
                    SavedState::Placing(placement)
                }
            };
            Ok(Saved {
                state,
                level: save.bot,
                rng: save.rng,
            })
        }
        0 => Err(CliError::new("the save file is corrupt or truncated")),
        _ => Err(CliError::new(format!(
            "save file version {version} is newer than this program understands"
        ))),
    }
}
