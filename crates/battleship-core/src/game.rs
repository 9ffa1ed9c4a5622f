//! Two fleets, turns, shots, outcomes and each player's view.

use alloc::vec::Vec;
use core::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::coord::{Cells, Coord, Geometry};
use crate::fleet::{Fleet, FleetError, Ship};
use crate::rules::Rules;

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

/// The result of a shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Water: the turn passes.
    Miss,
    /// A ship is hit but still afloat.
    Hit,
    /// The last afloat cell of this ship was hit.
    Sunk(Ship),
    /// This ship was the last one: the shooter wins.
    GameOver(Ship),
}

impl Outcome {
    /// Whether the shot hit a ship.
    pub fn is_hit(self) -> bool {
        !matches!(self, Outcome::Miss)
    }

    /// The ship sunk by the shot, if any.
    pub fn sunk(self) -> Option<Ship> {
        match self {
            Outcome::Sunk(s) | Outcome::GameOver(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Miss => f.write_str("miss"),
            Outcome::Hit => f.write_str("hit"),
            Outcome::Sunk(s) => write!(f, "sunk ({}-cell ship)", s.len()),
            Outcome::GameOver(s) => {
                write!(f, "sunk ({}-cell ship), the whole fleet is sunk", s.len())
            }
        }
    }
}

/// Why a shot was refused (the game is unchanged and the turn is not lost).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShotError {
    /// The cell is not on the grid.
    #[error("{0} is not on the grid")]
    OffGrid(Coord),
    /// The shooter already shot at this cell.
    #[error("{0} was already shot at")]
    AlreadyShot(Coord),
    /// It is the other player's turn.
    #[error("it is the {0}'s turn")]
    NotYourTurn(Player),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// What a cell of the opponent's grid is known to be, from one player's shots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mark {
    /// Not shot and not known.
    Unknown,
    /// Shot: water.
    Miss,
    /// Not shot, but known to be water (around a sunk ship).
    Water,
    /// Shot: a ship still afloat.
    Hit,
    /// Shot: part of a sunk ship.
    Sunk,
}

/// Why a shot's result cannot be recorded in a [`Tracking`] (the tracking is unchanged).
///
/// These are the facts a single result can contradict on its own; a tracking may still
/// admit no consistent fleet at all (the bots then fall back to simpler guesses).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The cell is not on the grid.
    #[error("{0} is not on the grid")]
    OffGrid(Coord),
    /// The cell was already shot at.
    #[error("{0} was already shot at")]
    AlreadyShot(Coord),
    /// The whole fleet is already sunk.
    #[error("the whole fleet is already sunk")]
    Finished,
    /// A hit on a cell known to be water, or one that would make ships touch where the
    /// rules forbid it.
    #[error("{0} cannot hold a ship: it is next to a sunk ship")]
    KnownWater(Coord),
    /// The sunk ship does not lie wholly on the grid.
    #[error("the sunk ship at {0} does not fit on the grid")]
    ShipOffGrid(Coord),
    /// The sunk ship does not cover the cell shot.
    #[error("the sunk ship at {ship} does not cover the cell shot, {cell}")]
    NotOnShip {
        /// The bow of the ship.
        ship: Coord,
        /// The cell shot.
        cell: Coord,
    },
    /// A cell of the sunk ship other than the one shot is not a hit on a ship afloat.
    #[error("the sunk ship's cell {0} was not hit before")]
    NotHit(Coord),
    /// No ship of this length is afloat.
    #[error("no {0}-cell ship is afloat")]
    NotAfloat(u8),
    /// The end was announced while ships are afloat, or not announced for the last ship.
    #[error("{0}")]
    WrongEnd(&'static str),
}

/// What one player knows about the opponent's grid: the results of its own shots, and
/// nothing else. Bots decide from this alone.
///
/// A [`Game`] keeps one per player. To use a bot against an opponent the engine does not
/// referee (a person with a paper grid, a remote program), build one with
/// [`Tracking::new`] and [`Tracking::record`] each announced result:
///
/// ```
/// use battleship_core::ai::{Bot, Level};
/// use battleship_core::{Orientation, Outcome, Rules, Ship, Tracking};
/// use rand::SeedableRng;
/// let rules = Rules::russian();
/// let mut t = Tracking::new(rules.clone());
/// t.record("e5".parse().unwrap(), Outcome::Miss).unwrap();
/// let a1 = "a1".parse().unwrap();
/// t.record(a1, Outcome::Sunk(Ship::new(a1, Orientation::Horizontal, 1))).unwrap();
/// // b2 touches the sunk ship: it cannot be a hit
/// assert!(t.record("b2".parse().unwrap(), Outcome::Hit).is_err());
/// let mut bot = Level::BEST.shooter(&rules);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let next = bot.choose(&t, &mut rng).unwrap();
/// assert!(t.can_shoot(next));
/// ```
///
/// Deserialising checks the same facts (hits among the shots, sunk ships on the grid,
/// wholly hit, of lengths in the fleet, no hit next to a sunk ship when ships may not
/// touch), so a stored tracking cannot smuggle in an impossible state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "TrackingRepr", into = "TrackingRepr")]
pub struct Tracking {
    rules: Rules,
    shots: Cells,
    hits: Cells,
    revealed: Cells,
    sunk: Vec<Ship>,
}

impl Tracking {
    /// Nothing known yet.
    pub fn new(rules: Rules) -> Tracking {
        Tracking {
            rules,
            shots: Cells::EMPTY,
            hits: Cells::EMPTY,
            revealed: Cells::EMPTY,
            sunk: Vec::new(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Cells shot at.
    pub fn shots(&self) -> Cells {
        self.shots
    }

    /// Cells shot at that hit a ship (afloat or sunk).
    pub fn hits(&self) -> Cells {
        self.hits
    }

    /// Hits on ships still afloat.
    pub fn open_hits(&self) -> Cells {
        let w = self.rules.width();
        let sunk = self.sunk.iter().fold(Cells::EMPTY, |m, s| m | s.mask(w));
        Cells(self.hits.0 & !sunk.0)
    }

    /// Cells known to be water: misses and the cells revealed around sunk ships.
    pub fn water(&self) -> Cells {
        Cells((self.shots.0 & !self.hits.0) | self.revealed.0)
    }

    /// Cells that may still be shot (neither shot nor known water).
    pub fn unknown(&self) -> Cells {
        let all = Geometry::of(&self.rules).all;
        Cells(all & !self.shots.0 & !self.revealed.0)
    }

    /// The sunk ships, in the order they were sunk.
    pub fn sunk(&self) -> &[Ship] {
        &self.sunk
    }

    /// The lengths of the ships still afloat, longest first.
    pub fn afloat(&self) -> Vec<u8> {
        let mut left: Vec<u8> = self.rules.fleet().to_vec();
        for s in &self.sunk {
            if let Some(k) = left.iter().position(|&l| l == s.len()) {
                left.remove(k);
            }
        }
        left
    }

    /// Number of shots fired.
    pub fn shots_fired(&self) -> u32 {
        self.shots.len()
    }

    /// What is known about `cell`.
    pub fn mark(&self, cell: Coord) -> Mark {
        let i = cell.index(self.rules.width());
        if !cell.is_on(&self.rules) || !self.shots.has(i) {
            if cell.is_on(&self.rules) && self.revealed.has(i) {
                return Mark::Water;
            }
            return Mark::Unknown;
        }
        if !self.hits.has(i) {
            Mark::Miss
        } else if self.sunk.iter().any(|s| s.covers(cell)) {
            Mark::Sunk
        } else {
            Mark::Hit
        }
    }

    /// Whether the cell may be shot: on the grid and not shot before. (Water revealed
    /// around a sunk ship may still be shot, as the rules only forbid shooting a cell
    /// twice; it is a sure miss.)
    pub fn can_shoot(&self, cell: Coord) -> bool {
        cell.is_on(&self.rules) && !self.shots.has(cell.index(self.rules.width()))
    }

    /// Cells not shot yet (the cells that may be shot).
    pub fn unshot(&self) -> Cells {
        let all = Geometry::of(&self.rules).all;
        Cells(all & !self.shots.0)
    }

    /// Records the announced result of a shot at `cell`, after checking that it does not
    /// contradict what is known (see [`RecordError`]); on an error nothing changes.
    pub fn record(&mut self, cell: Coord, outcome: Outcome) -> Result<(), RecordError> {
        self.check(cell, outcome)?;
        self.apply(cell, outcome);
        Ok(())
    }

    fn check(&self, cell: Coord, outcome: Outcome) -> Result<(), RecordError> {
        let w = self.rules.width();
        if !cell.is_on(&self.rules) {
            return Err(RecordError::OffGrid(cell));
        }
        if self.shots.has(cell.index(w)) {
            return Err(RecordError::AlreadyShot(cell));
        }
        let afloat = self.afloat();
        if afloat.is_empty() {
            return Err(RecordError::Finished);
        }
        if !outcome.is_hit() {
            return Ok(());
        }
        if self.forbidden().has(cell.index(w)) {
            return Err(RecordError::KnownWater(cell));
        }
        let Some(ship) = outcome.sunk() else {
            return Ok(());
        };
        if !ship.fits(&self.rules) {
            return Err(RecordError::ShipOffGrid(ship.bow()));
        }
        if !ship.covers(cell) {
            return Err(RecordError::NotOnShip {
                ship: ship.bow(),
                cell,
            });
        }
        let open = self.open_hits();
        if let Some(c) = ship.cells().find(|&c| c != cell && !open.has(c.index(w))) {
            return Err(RecordError::NotHit(c));
        }
        if !afloat.contains(&ship.len()) {
            return Err(RecordError::NotAfloat(ship.len()));
        }
        if !self.rules.ships_may_touch() {
            // another ship's hit next to the sunk one would make them touch
            let geo = Geometry::of(&self.rules);
            let m = ship.mask(w).0;
            let next_to = open.0 & !m & geo.dilate(m);
            if next_to != 0 {
                let i = next_to.trailing_zeros() as usize;
                return Err(RecordError::KnownWater(Coord::from_index(i, w)));
            }
        }
        match (outcome, afloat.len()) {
            (Outcome::GameOver(_), n) if n > 1 => Err(RecordError::WrongEnd(
                "'game over' announced while other ships are afloat",
            )),
            (Outcome::Sunk(_), 1) => Err(RecordError::WrongEnd(
                "the last ship afloat was sunk, so the game is over",
            )),
            _ => Ok(()),
        }
    }

    /// Cells that cannot hold a ship afloat: known water, and (when ships may not touch)
    /// every cell next to a sunk ship.
    pub(crate) fn forbidden(&self) -> Cells {
        let mut m = self.water().0;
        if !self.rules.ships_may_touch() {
            let geo = Geometry::of(&self.rules);
            let w = self.rules.width();
            for s in &self.sunk {
                let cells = s.mask(w).0;
                m |= geo.dilate(cells) & !cells;
            }
        }
        Cells(m)
    }

    /// Records a result known to be consistent (the referee's own).
    pub(crate) fn apply(&mut self, cell: Coord, outcome: Outcome) {
        let w = self.rules.width();
        let i = cell.index(w);
        self.shots.insert(i);
        // a shot at revealed water is a miss: the cell is now known by the shot
        self.revealed.0 &= !(1u128 << i);
        if outcome.is_hit() {
            self.hits.insert(i);
        }
        if let Some(ship) = outcome.sunk() {
            self.sunk.push(ship);
            if self.rules.reveal_around_sunk() {
                let geo = Geometry::of(&self.rules);
                let m = ship.mask(w).0;
                self.revealed.0 |= geo.dilate(m) & !m & !self.shots.0;
            }
        }
    }
}

/// What a [`Tracking`] is stored as: the rules, the cells shot (each with whether it was
/// a hit) and the sunk ships in the order they were sunk. Loading replays them through
/// [`Tracking::record`].
#[derive(Serialize, Deserialize)]
struct TrackingRepr {
    rules: Rules,
    shots: Vec<(Coord, bool)>,
    sunk: Vec<Ship>,
}

impl From<Tracking> for TrackingRepr {
    fn from(t: Tracking) -> TrackingRepr {
        let w = t.rules.width();
        let shots = t
            .shots
            .indices()
            .map(|i| (Coord::from_index(i, w), t.hits.has(i)))
            .collect();
        TrackingRepr {
            rules: t.rules,
            shots,
            sunk: t.sunk,
        }
    }
}

impl TryFrom<TrackingRepr> for Tracking {
    type Error = RecordError;
    fn try_from(r: TrackingRepr) -> Result<Tracking, RecordError> {
        // Misses and hits first (as plain hits), then each sunk ship in order: its cells
        // must all be hits by then, and sinking it marks its surroundings.
        let mut t = Tracking::new(r.rules);
        let mut hits = Vec::new();
        for &(cell, hit) in &r.shots {
            if hit {
                hits.push(cell);
            } else {
                t.record(cell, Outcome::Miss)?;
            }
        }
        let sinking: Vec<Coord> = r
            .sunk
            .iter()
            .map(|s| s.cells().next().unwrap_or(s.bow()))
            .collect();
        for &cell in &hits {
            if !sinking.contains(&cell) {
                t.record(cell, Outcome::Hit)?;
            }
        }
        let last = r.sunk.len();
        for (k, (&ship, &cell)) in r.sunk.iter().zip(&sinking).enumerate() {
            if !hits.contains(&cell) {
                return Err(RecordError::NotHit(cell));
            }
            let end = k + 1 == last && t.afloat().len() == 1;
            let outcome = if end {
                Outcome::GameOver(ship)
            } else {
                Outcome::Sunk(ship)
            };
            // (recording a sinking refuses a hit afloat next to the ship, and every hit was
            // recorded before the first sinking, so no such hit is left afterwards)
            t.record(cell, outcome)?;
        }
        Ok(t)
    }
}

/// The cells a player may shoot, without heap allocation.
pub type MoveList = ArrayVec<Coord, 100>;

/// A game between two fleets: whose turn it is, every shot and its outcome.
///
/// The `Game` is the referee: it knows both fleets. A player (a person's frontend or a bot)
/// should only be given its [`View`], which holds its own fleet and the results of its own
/// shots and has no way to reach the opponent's ships.
///
/// ```
/// use battleship_core::{Fleet, Game, Outcome, Rules};
/// let rules = Rules::russian();
/// let ships = |list: &[&str]| list.iter().map(|s| s.parse().unwrap()).collect();
/// let a = Fleet::new(&rules, ships(&["a1 h 4", "a3 h 3", "e3 h 3", "a5 h 2", "d5 h 2",
///     "g5 h 2", "a7 h 1", "c7 h 1", "e7 h 1", "g7 h 1"])).unwrap();
/// let mut game = Game::new(rules, a.clone(), a).unwrap();
/// assert_eq!(game.shoot("j10".parse().unwrap()).unwrap(), Outcome::Miss);
/// // the turn passed; a hit earns another shot under Russian rules
/// assert_eq!(game.shoot("a7".parse().unwrap()).unwrap().to_string(), "sunk (1-cell ship)");
/// assert_eq!(game.shoot("a1".parse().unwrap()).unwrap(), Outcome::Hit);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GameRepr", into = "GameRepr")]
pub struct Game {
    rules: Rules,
    fleets: [Fleet; 2],
    /// `tracking[p]`: what player `p` knows about the opponent's grid.
    tracking: [Tracking; 2],
    to_move: Player,
    winner: Option<Player>,
    history: Vec<(Player, Coord, Outcome)>,
}

/// What a game is saved as: the rules, both fleets and the shots in order; loading replays
/// the shots, so a loaded game is always consistent.
#[derive(Serialize, Deserialize)]
struct GameRepr {
    rules: Rules,
    fleets: [Fleet; 2],
    shots: Vec<Coord>,
}

/// Why saved game data could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The data does not start with the Battleship save header.
    #[error("not a Battleship save (bad header)")]
    BadMagic,
    /// The save was written by a newer version of the engine.
    #[error("save format version {0} is newer than this program understands")]
    NewerVersion(u16),
    /// The data is truncated or corrupt.
    #[error("the save is corrupt or truncated")]
    Corrupt,
    /// A fleet in the save breaks the rules.
    #[error("a fleet in the save is invalid: {0}")]
    Fleet(FleetError),
    /// A shot in the save cannot be replayed.
    #[error("shot {index} in the save cannot be played: {error}")]
    Shot {
        /// Index of the shot.
        index: usize,
        /// Why it failed.
        error: ShotError,
    },
}

impl TryFrom<GameRepr> for Game {
    type Error = LoadError;
    fn try_from(repr: GameRepr) -> Result<Game, LoadError> {
        let [a, b] = repr.fleets;
        let mut game = Game::new(repr.rules, a, b).map_err(LoadError::Fleet)?;
        for (index, &cell) in repr.shots.iter().enumerate() {
            game.shoot(cell)
                .map_err(|error| LoadError::Shot { index, error })?;
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

/// The magic bytes that start a binary save.
pub const SAVE_MAGIC: [u8; 4] = *b"TTBS";
/// The current binary save format version.
pub const SAVE_VERSION: u16 = 1;

impl Game {
    /// A new game between two fleets (both checked against `rules`); the first player
    /// shoots first.
    pub fn new(rules: Rules, first: Fleet, second: Fleet) -> Result<Game, FleetError> {
        first.validate(&rules)?;
        second.validate(&rules)?;
        Ok(Game {
            tracking: [Tracking::new(rules.clone()), Tracking::new(rules.clone())],
            rules,
            fleets: [first, second],
            to_move: Player::First,
            winner: None,
            history: Vec::new(),
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whose turn it is (after the end: the winner).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// Whether one fleet is entirely sunk.
    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// Every shot so far: who shot, where, and the outcome.
    pub fn history(&self) -> &[(Player, Coord, Outcome)] {
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
            to_move: self.to_move,
            winner: self.winner,
            fleet: &self.fleets[player.index()],
            incoming: &self.tracking[player.other().index()],
            tracking: &self.tracking[player.index()],
        }
    }

    /// The cells the player to move may shoot: every cell it has not shot yet (empty once
    /// the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.winner.is_none() {
            let t = &self.tracking[self.to_move.index()];
            for c in t.unshot().coords(self.rules.width()) {
                list.push(c);
            }
        }
        list
    }

    /// `player` shoots at `cell`; an error leaves the game unchanged.
    pub fn shoot_as(&mut self, player: Player, cell: Coord) -> Result<Outcome, ShotError> {
        if self.winner.is_some() {
            return Err(ShotError::GameOver);
        }
        if player != self.to_move {
            return Err(ShotError::NotYourTurn(self.to_move));
        }
        self.shoot(cell)
    }

    /// The workspace's common name for [`Game::shoot`]: the player to move shoots at
    /// `cell`.
    pub fn play(&mut self, cell: Coord) -> Result<Outcome, ShotError> {
        self.shoot(cell)
    }

    /// The player to move shoots at `cell`; an error leaves the game unchanged.
    pub fn shoot(&mut self, cell: Coord) -> Result<Outcome, ShotError> {
        if self.winner.is_some() {
            return Err(ShotError::GameOver);
        }
        if !cell.is_on(&self.rules) {
            return Err(ShotError::OffGrid(cell));
        }
        let me = self.to_move;
        let tracking = &self.tracking[me.index()];
        if !tracking.can_shoot(cell) {
            return Err(ShotError::AlreadyShot(cell));
        }
        let outcome = outcome_of(&self.fleets[me.other().index()], tracking, cell);
        self.tracking[me.index()].apply(cell, outcome);
        self.history.push((me, cell, outcome));
        match outcome {
            Outcome::GameOver(_) => self.winner = Some(me),
            Outcome::Miss => self.to_move = me.other(),
            _ if !self.rules.extra_shot_on_hit() => self.to_move = me.other(),
            _ => {}
        }
        Ok(outcome)
    }

    /// The game as bytes: `TTBS`, the format version (little-endian `u16`), then postcard.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&SAVE_MAGIC);
        out.extend_from_slice(&SAVE_VERSION.to_le_bytes());
        let body = postcard::to_allocvec(self).unwrap_or_default();
        out.extend_from_slice(&body);
        out
    }

    /// Reads a game written by [`Game::to_bytes`]; corrupt, truncated or newer data is an
    /// error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
        if bytes.len() < 6 || bytes[..4] != SAVE_MAGIC {
            return Err(LoadError::BadMagic);
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if version > SAVE_VERSION {
            return Err(LoadError::NewerVersion(version));
        }
        if version == 0 {
            return Err(LoadError::Corrupt);
        }
        let repr: GameRepr = postcard::from_bytes(&bytes[6..]).map_err(|_| LoadError::Corrupt)?;
        Game::try_from(repr)
    }
}

/// One player's view of a game: its own fleet, the opponent's shots at it, and its own
/// shots' results. It has no access to the opponent's ships.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct View<'a> {
    player: Player,
    to_move: Player,
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
        self.winner.is_none() && self.to_move == self.player
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

/// The outcome of a shot at `cell` (not shot yet) against `target`, given what the shooter
/// knows.
pub(crate) fn outcome_of(target: &Fleet, tracking: &Tracking, cell: Coord) -> Outcome {
    let w = tracking.rules().width();
    let hits_after = tracking.hits().0 | (1u128 << cell.index(w));
    match target.ship_at(cell) {
        None => Outcome::Miss,
        Some(ship) => {
            let m = ship.mask(w).0;
            if m & hits_after == m {
                let all = target.mask(w).0;
                if all & hits_after == all {
                    Outcome::GameOver(*ship)
                } else {
                    Outcome::Sunk(*ship)
                }
            } else {
                Outcome::Hit
            }
        }
    }
}
