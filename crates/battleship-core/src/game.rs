//! Two fleets, turns, shots, the end of the game, saves and each player's view.

use alloc::vec::Vec;
use core::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use tabletop_common::{Format, LoadError};

use crate::coord::Coord;
use crate::fleet::{Fleet, Ship};
use crate::rules::Rules;
use crate::tracking::Tracking;

/// One of the two players. `First` shoots first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Player {
    /// The player who shoots first.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`.
    pub fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first player",
            Player::Second => "second player",
        })
    }
}

/// The result of a shot: miss, hit, sunk, or sunk and the game won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShotResult {
    /// Water: the turn passes.
    Miss,
    /// A ship is hit but still afloat.
    Hit,
    /// The last afloat cell of this ship was hit.
    Sunk(Ship),
    /// This ship was the last one: the shooter wins.
    GameOver(Ship),
}

impl ShotResult {
    /// Whether the shot hit a ship.
    pub fn is_hit(self) -> bool {
        !matches!(self, ShotResult::Miss)
    }

    /// The ship sunk by the shot, if any.
    pub fn sunk(self) -> Option<Ship> {
        match self {
            ShotResult::Sunk(s) | ShotResult::GameOver(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for ShotResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShotResult::Miss => f.write_str("miss"),
            ShotResult::Hit => f.write_str("hit"),
            ShotResult::Sunk(s) => write!(f, "sunk ({}-cell ship)", s.len()),
            ShotResult::GameOver(s) => {
                write!(f, "sunk ({}-cell ship), the whole fleet is sunk", s.len())
            }
        }
    }
}

/// Why a shot was refused (the game is unchanged and the turn is not lost).
///
/// Shooting water revealed around a sunk ship is not an error: the rules only forbid
/// shooting a cell twice, and such a shot is a sure miss. Frontends for people may refuse
/// it themselves ([`Tracking::mark`] says [`Mark::Water`](crate::Mark::Water)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The cell is not on the grid.
    #[error("{0} is not on the grid")]
    OffGrid(Coord),
    /// The shooter already shot at this cell.
    #[error("{0} was already shot at")]
    AlreadyShot(Coord),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// How a finished game ended: who sank the whole opposing fleet, and with how many shots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The player who sank the whole opposing fleet.
    pub winner: Player,
    /// The shots the winner fired, the last one included.
    pub shots: u32,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} wins in {} shots", self.winner, self.shots)
    }
}

/// The cells a player may shoot, without heap allocation.
pub type MoveList = ArrayVec<Coord, 100>;

/// The binary save format of a [`Game`]: magic `TTBS`, version 1. The body is the rules,
/// both fleets and the shots in order (the same body as before the shared format).
pub const SAVE_FORMAT: Format = Format::new(*b"TTBS", 1, "Battleship");

/// A game between two fleets: whose turn it is, every shot and its result.
///
/// A move of Battleship is a shot at a cell of the enemy grid, so the move type is
/// [`Coord`]: [`Game::legal_moves`] lists cells and [`Game::play`] takes one.
///
/// The `Game` is the referee: it knows both fleets. A player (a person's frontend or a bot)
/// should only be given its [`View`], which holds its own fleet and the results of its own
/// shots and has no way to reach the opponent's ships.
///
/// ```
/// use battleship_core::{Fleet, Game, Rules, ShotResult};
/// let rules = Rules::russian();
/// let ships = |list: &[&str]| list.iter().map(|s| s.parse().unwrap()).collect();
/// let a = Fleet::new(&rules, ships(&["a1 h 4", "a3 h 3", "e3 h 3", "a5 h 2", "d5 h 2",
///     "g5 h 2", "a7 h 1", "c7 h 1", "e7 h 1", "g7 h 1"])).unwrap();
/// let mut game = Game::new(rules, a.clone(), a).unwrap();
/// assert_eq!(game.play("j10".parse().unwrap()).unwrap(), ShotResult::Miss);
/// // the turn passed; a hit earns another shot under Russian rules
/// assert_eq!(game.play("a7".parse().unwrap()).unwrap().to_string(), "sunk (1-cell ship)");
/// assert_eq!(game.play("a1".parse().unwrap()).unwrap(), ShotResult::Hit);
/// // shots can be taken back and played again
/// assert_eq!(game.undo(), Some("a1".parse().unwrap()));
/// assert_eq!(game.redo(), Some("a1".parse().unwrap()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GameRepr", into = "GameRepr")]
pub struct Game {
    rules: Rules,
    fleets: [Fleet; 2],
    /// `tracking[p]`: what player `p` knows about the opponent's grid.
    tracking: [Tracking; 2],
    side_to_move: Player,
    winner: Option<Player>,
    history: Vec<(Player, Coord, ShotResult)>,
    /// Shots taken back by [`Game::undo`], the next one to replay last.
    undone: Vec<Coord>,
}

/// What a game is saved as: the rules, both fleets and the shots in order; loading replays
/// the shots, so a loaded game is always consistent. (Shots taken back are not saved.)
#[derive(Serialize, Deserialize)]
struct GameRepr {
    rules: Rules,
    fleets: [Fleet; 2],
    shots: Vec<Coord>,
}

impl TryFrom<GameRepr> for Game {
    type Error = LoadError;
    fn try_from(repr: GameRepr) -> Result<Game, LoadError> {
        let [a, b] = repr.fleets;
        let mut game = Game::new(repr.rules, a, b)
            .map_err(|e| LoadError::Illegal(alloc::format!("a fleet is invalid: {e}")))?;
        for (index, &cell) in repr.shots.iter().enumerate() {
            game.play(cell).map_err(|e| {
                LoadError::Illegal(alloc::format!("shot {} ({cell}): {e}", index + 1))
            })?;
        }
        Ok(game)
    }
}

impl From<Game> for GameRepr {
    fn from(g: Game) -> GameRepr {
        GameRepr {
            rules: g.rules,
            fleets: g.fleets,
            shots: g.history.iter().map(|&(_, c, _)| c).collect(),
        }
    }
}

impl Game {
    /// A new game between two fleets (both checked against `rules`); the first player
    /// shoots first.
    pub fn new(rules: Rules, first: Fleet, second: Fleet) -> Result<Game, crate::FleetError> {
        first.validate(&rules)?;
        second.validate(&rules)?;
        Ok(Game {
            tracking: [Tracking::new(rules.clone()), Tracking::new(rules.clone())],
            rules,
            fleets: [first, second],
            side_to_move: Player::First,
            winner: None,
            history: Vec::new(),
            undone: Vec::new(),
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whose turn it is (after the end: the winner).
    pub fn side_to_move(&self) -> Player {
        self.side_to_move
    }

    /// How the game ended: `None` while both fleets have a ship afloat.
    pub fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|winner| Outcome {
            winner,
            shots: self.tracking[winner.index()].shots_fired(),
        })
    }

    /// Whether one fleet is entirely sunk.
    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// Every shot so far: who shot, where, and the result.
    pub fn history(&self) -> &[(Player, Coord, ShotResult)] {
        &self.history
    }

    /// The referee's access to a fleet (to reveal it at the end, or to save the game).
    /// Never hand this to the other player: give players their [`View`].
    pub fn fleet(&self, player: Player) -> &Fleet {
        &self.fleets[player.index()]
    }

    /// What `player` sees: its own fleet, the opponent's shots at it, and its own shots.
    pub fn view(&self, player: Player) -> View<'_> {
        View {
            player,
            side_to_move: self.side_to_move,
            winner: self.winner,
            fleet: &self.fleets[player.index()],
            incoming: &self.tracking[player.other().index()],
            tracking: &self.tracking[player.index()],
        }
    }

    /// The cells the player to move may shoot: every cell it has not shot yet, water
    /// revealed around sunk ships included (empty once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.winner.is_none() {
            let t = &self.tracking[self.side_to_move.index()];
            for c in t.unshot().coords(self.rules.width()) {
                list.push(c);
            }
        }
        list
    }

    /// The player to move shoots at `cell`; an error leaves the game unchanged. Playing a
    /// shot forgets the shots taken back by [`Game::undo`].
    pub fn play(&mut self, cell: Coord) -> Result<ShotResult, PlayError> {
        let result = self.shoot(cell)?;
        self.undone.clear();
        Ok(result)
    }

    fn shoot(&mut self, cell: Coord) -> Result<ShotResult, PlayError> {
        if self.winner.is_some() {
            return Err(PlayError::GameOver);
        }
        if !cell.is_on(&self.rules) {
            return Err(PlayError::OffGrid(cell));
        }
        let me = self.side_to_move;
        let tracking = &self.tracking[me.index()];
        if !tracking.can_shoot(cell) {
            return Err(PlayError::AlreadyShot(cell));
        }
        let result = result_of(&self.fleets[me.other().index()], tracking, cell);
        self.tracking[me.index()].apply(cell, result);
        self.history.push((me, cell, result));
        match result {
            ShotResult::GameOver(_) => self.winner = Some(me),
            ShotResult::Miss => self.side_to_move = me.other(),
            _ if !self.rules.extra_shot_on_hit() => self.side_to_move = me.other(),
            _ => {}
        }
        Ok(result)
    }

    /// Takes back the last shot and returns it; `None` before the first shot. The game is
    /// rebuilt by replaying the shots before it.
    pub fn undo(&mut self) -> Option<Coord> {
        let (_, last, _) = self.history.pop()?;
        let shots: Vec<Coord> = self.history.iter().map(|&(_, c, _)| c).collect();
        let mut undone = core::mem::take(&mut self.undone);
        self.replay_from_start(&shots);
        undone.push(last);
        self.undone = undone;
        Some(last)
    }

    /// Plays again the last shot taken back by [`Game::undo`] and returns it; `None` when
    /// there is none.
    pub fn redo(&mut self) -> Option<Coord> {
        let cell = self.undone.pop()?;
        // the shot was legal when it was first played from this very state
        self.shoot(cell).ok()?;
        Some(cell)
    }

    /// Resets to the start and replays `shots`, each one legal from the state before it.
    fn replay_from_start(&mut self, shots: &[Coord]) {
        self.tracking = [
            Tracking::new(self.rules.clone()),
            Tracking::new(self.rules.clone()),
        ];
        self.side_to_move = Player::First;
        self.winner = None;
        self.history.clear();
        for &cell in shots {
            // every shot replayed was played legally from the same state before
            let _ = self.shoot(cell);
        }
    }

    /// The game as bytes in [`SAVE_FORMAT`]: the rules, both fleets and the shots.
    pub fn to_bytes(&self) -> Vec<u8> {
        SAVE_FORMAT.encode(&GameRepr {
            rules: self.rules.clone(),
            fleets: self.fleets.clone(),
            shots: self.history.iter().map(|&(_, c, _)| c).collect(),
        })
    }

    /// Reads a game written by [`Game::to_bytes`], replaying every shot through the rules;
    /// wrong, damaged, over-long, newer or impossible data is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
        let (_version, repr): (u16, GameRepr) = SAVE_FORMAT.decode(bytes)?;
        Game::try_from(repr)
    }
}

/// One player's view of a game: its own fleet, the opponent's shots at it, and its own
/// shots' results. It has no access to the opponent's ships.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct View<'a> {
    player: Player,
    side_to_move: Player,
    winner: Option<Player>,
    fleet: &'a Fleet,
    incoming: &'a Tracking,
    tracking: &'a Tracking,
}

impl<'a> View<'a> {
    /// Whose view this is.
    pub fn player(&self) -> Player {
        self.player
    }

    /// Whether it is this player's turn.
    pub fn my_turn(&self) -> bool {
        self.winner.is_none() && self.side_to_move == self.player
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The player's own fleet.
    pub fn fleet(&self) -> &'a Fleet {
        self.fleet
    }

    /// The opponent's shots at the player's own grid.
    pub fn incoming(&self) -> &'a Tracking {
        self.incoming
    }

    /// The results of the player's own shots at the opponent's grid.
    pub fn tracking(&self) -> &'a Tracking {
        self.tracking
    }
}

/// The result of a shot at `cell` (not shot yet) against `target`, given what the shooter
/// knows.
pub(crate) fn result_of(target: &Fleet, tracking: &Tracking, cell: Coord) -> ShotResult {
    let w = tracking.rules().width();
    let hits_after = tracking.hits().0 | (1u128 << cell.index(w));
    match target.ship_at(cell) {
        None => ShotResult::Miss,
        Some(ship) => {
            let m = ship.mask(w).0;
            if m & hits_after == m {
                let all = target.mask(w).0;
                if all & hits_after == all {
                    ShotResult::GameOver(*ship)
                } else {
                    ShotResult::Sunk(*ship)
                }
            } else {
                ShotResult::Hit
            }
        }
    }
}
