//! `tabletop._tabletop.envs`: the game states behind `tabletop.envs`, one Rust object per
//! environment (and per batch of environments), so that an environment step costs one
//! call into Rust and observations and masks come back as NumPy arrays.
//!
//! Encodings (documented for users in the package README and `tabletop/envs`):
//!
//! - Reversi: action `8 * rank + file` (a1 = 0, h8 = 63), 64 = pass; observation
//!   `int8[8, 8, 2]`, plane 0 the observer's discs, plane 1 the opponent's.
//! - Long Nardy: action `6 * (q - 1) + (die - 1)` for a step of the checker on the
//!   mover's path coordinate `q` (24 = head, 1–6 = home) played with `die`, 144 = pass;
//!   observation `float32[57]` (see [`NARDY_OBS`]).
//! - Battleship: action = cell index `row * width + col`; observation
//!   `int8[height, width, 5]` of what the observer knows.
//! - Sudoku: action `9 * cell + digit - 1` (cell `9 * row + col`); observation
//!   `int8[9, 9]`, 0 for empty.

use battleship_core::ai::Bot as _;
use numpy::ndarray::{Array1, Array2, Array3, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::errors;
use crate::util::{self, LevelArg, item_seed};

// ---------------------------------------------------------------- Reversi

/// Reversi's action count: 64 squares and the pass.
pub(crate) const REVERSI_ACTIONS: usize = 65;

/// One Reversi game as an environment state.
#[derive(Clone)]
pub(crate) struct ReversiCore {
    pub(crate) pos: reversi_core::Position,
    pub(crate) plies: u32,
}

impl ReversiCore {
    fn new(first: reversi_core::Color) -> ReversiCore {
        ReversiCore {
            pos: reversi_core::Position::start_with(first),
            plies: 0,
        }
    }

    /// 0 for Black, 1 for White.
    fn to_move(&self) -> usize {
        match self.pos.side_to_move() {
            reversi_core::Color::Black => 0,
            reversi_core::Color::White => 1,
        }
    }

    fn obs_into(&self, observer: usize, out: &mut [i8]) {
        let color = if observer == 0 {
            reversi_core::Color::Black
        } else {
            reversi_core::Color::White
        };
        let mine = self.pos.discs(color);
        let theirs = self.pos.discs(color.other());
        for sq in 0..64 {
            out[2 * sq] = ((mine >> sq) & 1) as i8;
            out[2 * sq + 1] = ((theirs >> sq) & 1) as i8;
        }
    }

    fn mask_into(&self, out: &mut [i8]) {
        out.fill(0);
        if self.pos.is_over() {
            return;
        }
        let legal = self.pos.legal_squares().bits();
        if legal == 0 {
            out[64] = 1;
        } else {
            for (sq, m) in out.iter_mut().take(64).enumerate() {
                *m = ((legal >> sq) & 1) as i8;
            }
        }
    }

    /// Plays `action`; returns the rewards `[black, white]` when the game ended.
    fn step(&mut self, action: i64) -> PyResult<Option<[f32; 2]>> {
        if self.pos.is_over() {
            return Err(errors::game_over("the game is over: reset the environment"));
        }
        let mv = match action {
            0..=63 => reversi_core::Move::Place(reversi_core::Square::ALL[action as usize]),
            64 => reversi_core::Move::Pass,
            _ => {
                return Err(errors::illegal(format!(
                    "action {action} is outside the action space 0..{REVERSI_ACTIONS}"
                )));
            }
        };
        self.pos
            .play(mv)
            .map_err(|e| errors::illegal(format!("action {action} ({mv}): {e}")))?;
        self.plies += 1;
        Ok(self.pos.outcome().map(|o| {
            let d = o.disc_difference(reversi_core::Color::Black).signum() as f32;
            [d, -d]
        }))
    }
}

/// One Reversi game for `tabletop.envs.reversi_v0` (agents: 0 Black, 1 White).
#[pyclass(module = "tabletop.envs")]
#[derive(Clone)]
pub(crate) struct ReversiState {
    core: ReversiCore,
}

#[pymethods]
impl ReversiState {
    /// The start position, `first` (`"black"` or `"white"`) to move.
    #[new]
    #[pyo3(signature = (first = "black"))]
    fn new(first: &str) -> PyResult<Self> {
        Ok(ReversiState {
            core: ReversiCore::new(crate::reversi::parse_color(first)?),
        })
    }

    /// The agent to move: 0 Black, 1 White.
    #[getter]
    fn to_move(&self) -> usize {
        self.core.to_move()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.core.pos.is_over()
    }

    /// `int8[8, 8, 2]` for `observer` (0 Black, 1 White): its discs, the opponent's.
    fn observation<'py>(&self, py: Python<'py>, observer: usize) -> Bound<'py, PyArray3<i8>> {
        let mut v = vec![0i8; 128];
        self.core.obs_into(observer, &mut v);
        Array3::from_shape_vec((8, 8, 2), v)
            .expect("128 values")
            .into_pyarray(py)
    }

    /// `int8[65]`: 1 for the legal actions of the side to move.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut v = vec![0i8; REVERSI_ACTIONS];
        self.core.mask_into(&mut v);
        Array1::from_vec(v).into_pyarray(py)
    }

    /// The observation and the mask of `observer` in one call.
    fn observe<'py>(
        &self,
        py: Python<'py>,
        observer: usize,
    ) -> (Bound<'py, PyArray3<i8>>, Bound<'py, PyArray1<i8>>) {
        let mask = if observer == self.core.to_move() {
            self.action_mask(py)
        } else {
            Array1::from_vec(vec![0i8; REVERSI_ACTIONS]).into_pyarray(py)
        };
        (self.observation(py, observer), mask)
    }

    /// Plays `action`; returns `None`, or the final rewards `(black, white)` (+1 win, -1
    /// loss, 0 draw). Raises `IllegalMoveError` for an action outside the mask.
    fn step(&mut self, action: i64) -> PyResult<Option<(f32, f32)>> {
        Ok(self.core.step(action)?.map(|[a, b]| (a, b)))
    }

    /// The position (for rendering and tests).
    fn position(&self) -> crate::reversi::Position {
        crate::reversi::Position {
            inner: self.core.pos,
        }
    }

    /// The move a bot of `level` plays here, as an action.
    #[pyo3(signature = (level, seed = 0))]
    fn bot_action(&self, level: LevelArg, seed: u64) -> PyResult<i64> {
        let level = crate::reversi::parse_level(&level)?;
        let mut bot = level.bot(&reversi_core::Rules::default());
        let mut rng = util::rng(seed);
        match bot.choose_move(&self.core.pos, &mut rng) {
            Some(reversi_core::Move::Place(sq)) => Ok(i64::from(sq.index())),
            Some(reversi_core::Move::Pass) => Ok(64),
            None => Err(errors::game_over("the game is over")),
        }
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }
}

// ---------------------------------------------------------------- Long Nardy

/// Long Nardy's action count: 24 path points × 6 dice, and the pass.
pub(crate) const NARDY_ACTIONS: usize = 145;
/// The pass action.
pub(crate) const NARDY_PASS: usize = 144;
/// The length of a Long Nardy observation: 24 + 24 points, 2 borne-off counts, 6 dice
/// counts, whether the observer is to move.
pub(crate) const NARDY_OBS: usize = 57;

/// One Long Nardy game as an environment state: the game (dice from its seeded
/// generator) and the turn being built step by step.
#[derive(Clone)]
pub(crate) struct NardyCore {
    pub(crate) game: nardy_core::Game,
    builder: Option<nardy_core::TurnBuilder>,
    /// The legal actions of the side to move with their steps (`None`: the pass).
    legal: Vec<(u16, Option<nardy_core::Step>)>,
}

fn nardy_color(i: usize) -> nardy_core::Color {
    if i == 0 {
        nardy_core::Color::White
    } else {
        nardy_core::Color::Black
    }
}

impl NardyCore {
    fn new(rules: nardy_core::Rules, seed: u64) -> NardyCore {
        let mut core = NardyCore {
            game: nardy_core::Game::new(rules, seed),
            builder: None,
            legal: Vec::new(),
        };
        core.start_turn();
        core
    }

    fn start_turn(&mut self) {
        self.builder = self.game.builder().ok();
        self.refresh();
    }

    fn refresh(&mut self) {
        self.legal.clear();
        let Some(b) = &self.builder else { return };
        if self.game.outcome().is_some() {
            return;
        }
        let steps = b.legal_steps();
        if steps.is_empty() {
            self.legal.push((NARDY_PASS as u16, None));
            return;
        }
        let mover = self.game.side_to_move();
        let remaining = b.remaining_dice();
        for s in steps {
            let q = nardy_core::path_coordinate(mover, s.from());
            let die = match s.to() {
                Some(t) => q - nardy_core::path_coordinate(mover, t),
                None => {
                    if remaining.contains(&q) {
                        q
                    } else {
                        remaining
                            .iter()
                            .copied()
                            .filter(|&d| d > q)
                            .min()
                            .unwrap_or(q)
                    }
                }
            };
            let action = 6 * (u16::from(q) - 1) + u16::from(die) - 1;
            self.legal.push((action, Some(s)));
        }
    }

    fn to_move(&self) -> usize {
        self.game.side_to_move().index()
    }

    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    fn obs_into(&self, observer: usize, out: &mut [f32]) {
        out.fill(0.0);
        let me = nardy_color(observer);
        let pos = match &self.builder {
            Some(b) if !self.is_over() => b.position(),
            _ => *self.game.position(),
        };
        for point in 1..=24u8 {
            if let Some((c, n)) = pos.owner(point) {
                let q = nardy_core::path_coordinate(me, point) as usize;
                let base = if c == me { 0 } else { 24 };
                out[base + q - 1] = f32::from(n);
            }
        }
        out[48] = f32::from(pos.borne_off(me));
        out[49] = f32::from(pos.borne_off(me.other()));
        if let Some(b) = &self.builder
            && !self.is_over()
        {
            for d in b.remaining_dice() {
                out[50 + usize::from(d) - 1] += 1.0;
            }
        }
        out[56] = if !self.is_over() && self.to_move() == observer {
            1.0
        } else {
            0.0
        };
    }

    fn mask_into(&self, out: &mut [i8]) {
        out.fill(0);
        for &(a, _) in &self.legal {
            out[usize::from(a)] = 1;
        }
    }

    /// Plays one step (or the pass); returns the rewards `[white, black]` when the game
    /// ended.
    fn step(&mut self, action: i64) -> PyResult<Option<[f32; 2]>> {
        if self.is_over() {
            return Err(errors::game_over("the game is over: reset the environment"));
        }
        if !(0..NARDY_ACTIONS as i64).contains(&action) {
            return Err(errors::illegal(format!(
                "action {action} is outside the action space 0..{NARDY_ACTIONS}"
            )));
        }
        let Some(&(_, step)) = self.legal.iter().find(|(a, _)| i64::from(*a) == action) else {
            return Err(errors::illegal(format!(
                "action {action} ({}) is not legal here: legal actions are {:?}",
                describe_nardy_action(action as usize),
                self.legal.iter().map(|(a, _)| *a).collect::<Vec<_>>()
            )));
        };
        let builder = self
            .builder
            .as_mut()
            .ok_or_else(|| errors::game_over("the game is over"))?;
        if let Some(step) = step {
            builder.play(step).map_err(errors::illegal)?;
        }
        if builder.is_complete() {
            let b = builder.clone();
            self.game.play_builder(&b).map_err(errors::illegal)?;
            if let Some(o) = self.game.outcome() {
                self.builder = None;
                self.legal.clear();
                let p = f32::from(o.points());
                return Ok(Some(match o.winner() {
                    Some(nardy_core::Color::White) => [p, -p],
                    Some(nardy_core::Color::Black) => [-p, p],
                    None => [0.0, 0.0],
                }));
            }
            self.start_turn();
        } else {
            self.refresh();
        }
        Ok(None)
    }
}

fn describe_nardy_action(action: usize) -> String {
    if action == NARDY_PASS {
        "pass".into()
    } else {
        format!("point {} with a {}", action / 6 + 1, action % 6 + 1)
    }
}

fn nardy_rules(rules: Option<&crate::nardy::Rules>) -> nardy_core::Rules {
    rules.map(|r| r.inner).unwrap_or_default()
}

/// One Long Nardy game for `tabletop.envs.long_nardy_v0` (agents: 0 White, 1 Black).
#[pyclass(module = "tabletop.envs")]
#[derive(Clone)]
pub(crate) struct NardyState {
    core: NardyCore,
}

#[pymethods]
impl NardyState {
    /// A new game whose dice come from `seed`.
    #[new]
    #[pyo3(signature = (seed = 0, rules = None))]
    fn new(seed: u64, rules: Option<&crate::nardy::Rules>) -> Self {
        NardyState {
            core: NardyCore::new(nardy_rules(rules), seed),
        }
    }

    /// The agent to move: 0 White, 1 Black.
    #[getter]
    fn to_move(&self) -> usize {
        self.core.to_move()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.core.is_over()
    }

    /// `float32[57]` for `observer` (0 White, 1 Black).
    fn observation<'py>(&self, py: Python<'py>, observer: usize) -> Bound<'py, PyArray1<f32>> {
        let mut v = vec![0f32; NARDY_OBS];
        self.core.obs_into(observer, &mut v);
        Array1::from_vec(v).into_pyarray(py)
    }

    /// `int8[145]`: 1 for the legal actions of the side to move.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut v = vec![0i8; NARDY_ACTIONS];
        self.core.mask_into(&mut v);
        Array1::from_vec(v).into_pyarray(py)
    }

    /// The observation and the mask of `observer` (all zeros when it is not to move).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        observer: usize,
    ) -> (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>) {
        let mut m = vec![0i8; NARDY_ACTIONS];
        if observer == self.core.to_move() {
            self.core.mask_into(&mut m);
        }
        (
            self.observation(py, observer),
            Array1::from_vec(m).into_pyarray(py),
        )
    }

    /// The legal actions, sorted.
    fn legal_actions(&self) -> Vec<u16> {
        let mut v: Vec<u16> = self.core.legal.iter().map(|(a, _)| *a).collect();
        v.sort_unstable();
        v
    }

    /// Plays `action`; returns `None`, or the final rewards `(white, black)`: the points
    /// won (1 oin, 2 mars, 3 koks) for the winner, minus them for the loser, 0 each for a
    /// draw. Raises `IllegalMoveError` for an action outside the mask.
    fn step(&mut self, action: i64) -> PyResult<Option<(f32, f32)>> {
        Ok(self.core.step(action)?.map(|[a, b]| (a, b)))
    }

    /// The dice of the turn being played, `(high, low)`.
    #[getter]
    fn dice(&self) -> (u8, u8) {
        self.core.game.dice().into()
    }

    /// The dice still to play this turn.
    fn remaining_dice(&self) -> Vec<u8> {
        self.core
            .builder
            .as_ref()
            .map(|b| b.remaining_dice())
            .unwrap_or_default()
    }

    /// The board with the steps played so far this turn.
    fn position(&self) -> crate::nardy::Position {
        let inner = match &self.core.builder {
            Some(b) if !self.core.is_over() => b.position(),
            _ => *self.core.game.position(),
        };
        crate::nardy::Position { inner }
    }

    /// The game (whole turns played so far).
    fn game(&self) -> crate::nardy::Game {
        crate::nardy::Game {
            inner: self.core.game.clone(),
        }
    }

    /// The outcome once over.
    fn outcome(&self) -> Option<crate::nardy::Outcome> {
        self.core
            .game
            .outcome()
            .map(|o| crate::nardy::Outcome { inner: o })
    }

    /// The whole turn a bot of `level` plays now, as the list of actions that play it
    /// (one per step; `[144]` for a pass). Only at the start of a turn.
    #[pyo3(signature = (level, seed = 0))]
    fn bot_actions(&self, py: Python<'_>, level: LevelArg, seed: u64) -> PyResult<Vec<u16>> {
        let level = crate::nardy::parse_level(&level)?;
        if self.core.is_over() {
            return Err(errors::game_over("the game is over"));
        }
        let rules = *self.core.game.rules();
        let pos = *self.core.game.position();
        let dice = self.core.game.dice();
        let res = py.detach(crate::nardy::resources);
        let mut bot = level.bot_with(&rules, res);
        let mut rng = util::rng(seed);
        let mv = bot
            .choose_move(&pos, dice, &mut rng)
            .ok_or_else(|| errors::game_over("the game is over"))?;
        let mut sim = self.core.clone();
        let mut out = Vec::new();
        if mv.is_pass() {
            return Ok(vec![NARDY_PASS as u16]);
        }
        for s in mv.steps() {
            let Some(&(a, _)) = sim.legal.iter().find(|(_, st)| *st == Some(*s)) else {
                return Err(errors::illegal(format!(
                    "the bot's step {s} is not offered"
                )));
            };
            out.push(a);
            sim.step(i64::from(a))?;
        }
        Ok(out)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }
}

// ---------------------------------------------------------------- Battleship

/// Channels of a Battleship observation.
pub(crate) const BATTLESHIP_CHANNELS: usize = 5;

/// One Battleship game as an environment state: two uniform random fleets from the seed.
#[derive(Clone)]
pub(crate) struct BattleshipCore {
    pub(crate) game: battleship_core::Game,
}

impl BattleshipCore {
    fn new(rules: battleship_core::Rules, seed: u64) -> PyResult<BattleshipCore> {
        let fleets = battleship_core::UniformFleets::new(&rules);
        if fleets.is_empty() {
            return Err(errors::parse("no fleet fits these rules"));
        }
        let a = fleets.sample_seeded(item_seed(seed, 0));
        let b = fleets.sample_seeded(item_seed(seed, 1));
        let game = battleship_core::Game::new(rules, a, b).map_err(errors::parse)?;
        Ok(BattleshipCore { game })
    }

    fn cells(&self) -> usize {
        self.game.rules().cells()
    }

    fn to_move(&self) -> usize {
        self.game.side_to_move().index()
    }

    fn player(i: usize) -> battleship_core::Player {
        if i == 0 {
            battleship_core::Player::First
        } else {
            battleship_core::Player::Second
        }
    }

    fn obs_into(&self, observer: usize, out: &mut [i8]) {
        out.fill(0);
        let w = self.game.rules().width();
        let view = self.game.view(Self::player(observer));
        let tracking = view.tracking();
        let incoming = view.incoming();
        let fleet = view.fleet().mask(w);
        for i in 0..self.cells() {
            let c = battleship_core::Coord::from_index(i, w);
            let o = &mut out[BATTLESHIP_CHANNELS * i..BATTLESHIP_CHANNELS * (i + 1)];
            match tracking.mark(c) {
                battleship_core::Mark::Miss | battleship_core::Mark::Water => o[0] = 1,
                battleship_core::Mark::Hit => o[1] = 1,
                battleship_core::Mark::Sunk => o[2] = 1,
                battleship_core::Mark::Unknown => {}
            }
            if (fleet.0 >> i) & 1 == 1 {
                o[3] = 1;
            }
            if (incoming.shots().0 >> i) & 1 == 1 {
                o[4] = 1;
            }
        }
    }

    fn mask_into(&self, out: &mut [i8]) {
        out.fill(0);
        if self.game.is_over() {
            return;
        }
        let w = self.game.rules().width();
        for c in self.game.legal_moves() {
            out[c.index(w)] = 1;
        }
    }

    fn step(&mut self, action: i64) -> PyResult<Option<[f32; 2]>> {
        if self.game.is_over() {
            return Err(errors::game_over("the game is over: reset the environment"));
        }
        let n = self.cells();
        if !(0..n as i64).contains(&action) {
            return Err(errors::illegal(format!(
                "action {action} is outside the action space 0..{n}"
            )));
        }
        let c = battleship_core::Coord::from_index(action as usize, self.game.rules().width());
        self.game
            .play(c)
            .map_err(|e| errors::illegal(format!("action {action} ({c}): {e}")))?;
        Ok(self.game.outcome().map(|o| {
            if o.winner.index() == 0 {
                [1.0, -1.0]
            } else {
                [-1.0, 1.0]
            }
        }))
    }
}

/// One Battleship game for `tabletop.envs.battleship_v0` (agents: 0 first, 1 second).
#[pyclass(module = "tabletop.envs")]
#[derive(Clone)]
pub(crate) struct BattleshipState {
    core: BattleshipCore,
}

#[pymethods]
impl BattleshipState {
    /// A game between two uniform random fleets drawn from `seed` under `rules`.
    #[new]
    #[pyo3(signature = (seed = 0, rules = None))]
    fn new(seed: u64, rules: Option<&crate::battleship::Rules>) -> PyResult<Self> {
        let rules = rules
            .map(|r| r.inner.clone())
            .unwrap_or_else(battleship_core::Rules::russian);
        Ok(BattleshipState {
            core: BattleshipCore::new(rules, seed)?,
        })
    }

    /// `(height, width)`.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        let r = self.core.game.rules();
        (usize::from(r.height()), usize::from(r.width()))
    }

    /// The agent to shoot: 0 or 1.
    #[getter]
    fn to_move(&self) -> usize {
        self.core.to_move()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.core.game.is_over()
    }

    /// `int8[height, width, 5]`: what `observer` knows (see the README's table).
    fn observation<'py>(&self, py: Python<'py>, observer: usize) -> Bound<'py, PyArray3<i8>> {
        let (h, w) = self.shape();
        let mut v = vec![0i8; h * w * BATTLESHIP_CHANNELS];
        self.core.obs_into(observer, &mut v);
        Array3::from_shape_vec((h, w, BATTLESHIP_CHANNELS), v)
            .expect("shape")
            .into_pyarray(py)
    }

    /// `int8[height * width]`: the cells the side to move may shoot.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut v = vec![0i8; self.core.cells()];
        self.core.mask_into(&mut v);
        Array1::from_vec(v).into_pyarray(py)
    }

    /// The observation and the mask of `observer` (zeros when it is not to shoot).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        observer: usize,
    ) -> (Bound<'py, PyArray3<i8>>, Bound<'py, PyArray1<i8>>) {
        let mask = if observer == self.core.to_move() && !self.core.game.is_over() {
            self.action_mask(py)
        } else {
            Array1::from_vec(vec![0i8; self.core.cells()]).into_pyarray(py)
        };
        (self.observation(py, observer), mask)
    }

    /// Shoots at cell `action`; returns `None` or the final rewards `(first, second)`.
    fn step(&mut self, action: i64) -> PyResult<Option<(f32, f32)>> {
        Ok(self.core.step(action)?.map(|[a, b]| (a, b)))
    }

    /// The cell a shooter of `level` picks for the side to move, from that side's own
    /// knowledge only.
    #[pyo3(signature = (level, seed = 0))]
    fn bot_action(&self, level: LevelArg, seed: u64) -> PyResult<i64> {
        let level = crate::battleship::parse_level(&level)?;
        let rules = self.core.game.rules().clone();
        let mut shooter = level.shooter(&rules);
        let view = self.core.game.view(self.core.game.side_to_move());
        let mut rng = util::rng(seed);
        shooter
            .choose_move(view.tracking(), &mut rng)
            .map(|c| c.index(rules.width()) as i64)
            .ok_or_else(|| errors::game_over("the game is over"))
    }

    /// The game (both fleets: the referee's view).
    fn game(&self) -> crate::battleship::Game {
        crate::battleship::Game {
            inner: self.core.game.clone(),
        }
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }
}

// ---------------------------------------------------------------- Vectorised

/// Many games of one kind stepped in one call.
enum Batch {
    Reversi(Vec<ReversiCore>),
    Nardy(Vec<NardyCore>, nardy_core::Rules),
}

/// A batch of `num_envs` games stepped together: `step(actions)` plays one action in every
/// game (each by its side to move) and returns NumPy arrays. A finished game is reset at
/// once (its next episode's seed is derived from `(seed, env, episode)`), and the arrays
/// then show the new game; `done` and `rewards` report the one that ended.
#[pyclass(module = "tabletop.envs")]
pub(crate) struct VectorEnv {
    batch: Batch,
    seed: u64,
    episodes: Vec<u64>,
    /// The generator of `random_actions`, seeded from `seed`.
    rng: ChaCha8Rng,
}

impl VectorEnv {
    fn len(&self) -> usize {
        match &self.batch {
            Batch::Reversi(v) => v.len(),
            Batch::Nardy(v, _) => v.len(),
        }
    }

    fn obs_len(&self) -> usize {
        match &self.batch {
            Batch::Reversi(_) => 128,
            Batch::Nardy(..) => NARDY_OBS,
        }
    }

    fn n_actions(&self) -> usize {
        match &self.batch {
            Batch::Reversi(_) => REVERSI_ACTIONS,
            Batch::Nardy(..) => NARDY_ACTIONS,
        }
    }

    fn reset_one(&mut self, i: usize) {
        self.episodes[i] += 1;
        let s = item_seed(item_seed(self.seed, i as u64), self.episodes[i]);
        match &mut self.batch {
            Batch::Reversi(v) => v[i] = ReversiCore::new(reversi_core::Color::Black),
            Batch::Nardy(v, rules) => v[i] = NardyCore::new(*rules, s),
        }
    }

    fn arrays<'py>(&self, py: Python<'py>) -> (Bound<'py, PyAny>, Bound<'py, PyArray2<i8>>) {
        let n = self.len();
        let a = self.n_actions();
        let mut mask = vec![0i8; n * a];
        let obs: Bound<'py, PyAny> = match &self.batch {
            Batch::Reversi(v) => {
                let mut o = vec![0i8; n * 128];
                for (i, g) in v.iter().enumerate() {
                    g.obs_into(g.to_move(), &mut o[i * 128..(i + 1) * 128]);
                    g.mask_into(&mut mask[i * a..(i + 1) * a]);
                }
                Array4::from_shape_vec((n, 8, 8, 2), o)
                    .expect("shape")
                    .into_pyarray(py)
                    .into_any()
            }
            Batch::Nardy(v, _) => {
                let l = self.obs_len();
                let mut o = vec![0f32; n * l];
                for (i, g) in v.iter().enumerate() {
                    g.obs_into(g.to_move(), &mut o[i * l..(i + 1) * l]);
                    g.mask_into(&mut mask[i * a..(i + 1) * a]);
                }
                Array2::from_shape_vec((n, l), o)
                    .expect("shape")
                    .into_pyarray(py)
                    .into_any()
            }
        };
        let mask = Array2::from_shape_vec((n, a), mask)
            .expect("shape")
            .into_pyarray(py);
        (obs, mask)
    }
}

type StepArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i8>>,
);

#[pymethods]
impl VectorEnv {
    /// `game`: `"reversi"` or `"long_nardy"`; `num_envs` games, seeded from `seed`.
    #[new]
    #[pyo3(signature = (game, num_envs, seed = 0, rules = None))]
    fn new(
        game: &str,
        num_envs: usize,
        seed: u64,
        rules: Option<&crate::nardy::Rules>,
    ) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(errors::parse("num_envs must be at least 1"));
        }
        let batch = match game {
            "reversi" => {
                Batch::Reversi(vec![ReversiCore::new(reversi_core::Color::Black); num_envs])
            }
            "long_nardy" | "nardy" => {
                let r = nardy_rules(rules);
                Batch::Nardy(
                    (0..num_envs)
                        .map(|i| NardyCore::new(r, item_seed(item_seed(seed, i as u64), 0)))
                        .collect(),
                    r,
                )
            }
            g => {
                return Err(errors::parse(format!(
                    "unknown game '{g}': use reversi or long_nardy"
                )));
            }
        };
        Ok(VectorEnv {
            batch,
            seed,
            episodes: vec![0; num_envs],
            rng: ChaCha8Rng::seed_from_u64(item_seed(seed, u64::MAX)),
        })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.len()
    }

    /// The number of actions of each game.
    #[getter]
    fn num_actions(&self) -> usize {
        self.n_actions()
    }

    /// `(observations, masks)` of every game for its side to move.
    fn observe<'py>(&self, py: Python<'py>) -> (Bound<'py, PyAny>, Bound<'py, PyArray2<i8>>) {
        self.arrays(py)
    }

    /// A uniformly random legal action for every game, from the batch's own generator
    /// (seeded from `seed`, so a run of `step(random_actions())` is reproducible): the
    /// random policy without a round trip through NumPy.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        use rand::RngExt;
        let rng = &mut self.rng;
        let v: Vec<i64> = match &self.batch {
            Batch::Reversi(v) => v
                .iter()
                .map(|g| {
                    let legal = g.pos.legal_squares().bits();
                    if legal == 0 {
                        64
                    } else {
                        let k = rng.random_range(0..legal.count_ones());
                        let mut m = legal;
                        for _ in 0..k {
                            m &= m - 1;
                        }
                        i64::from(m.trailing_zeros())
                    }
                })
                .collect(),
            Batch::Nardy(v, _) => v
                .iter()
                .map(|g| {
                    if g.legal.is_empty() {
                        NARDY_PASS as i64
                    } else {
                        i64::from(g.legal[rng.random_range(0..g.legal.len())].0)
                    }
                })
                .collect(),
        };
        Array1::from_vec(v).into_pyarray(py)
    }

    /// The agent to move in each game (0 first player, 1 second).
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let v: Vec<i8> = match &self.batch {
            Batch::Reversi(v) => v.iter().map(|g| g.to_move() as i8).collect(),
            Batch::Nardy(v, _) => v.iter().map(|g| g.to_move() as i8).collect(),
        };
        Array1::from_vec(v).into_pyarray(py)
    }

    /// Plays `actions[i]` in game `i` for its side to move; returns `(observations,
    /// masks, rewards[num_envs, 2], done[num_envs], to_move[num_envs])`. Raises
    /// `IllegalMoveError` naming the game if an action is not legal; the games before it
    /// have then been stepped.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = actions.as_slice()?;
        let n = self.len();
        if actions.len() != n {
            return Err(errors::illegal(format!(
                "expected {n} actions, got {}",
                actions.len()
            )));
        }
        let mut rewards = vec![0f32; 2 * n];
        let mut done = vec![false; n];
        let mut ended = Vec::new();
        {
            let result: PyResult<()> = py.detach(|| {
                for (i, &a) in actions.iter().enumerate() {
                    let r = match &mut self.batch {
                        Batch::Reversi(v) => v[i].step(a),
                        Batch::Nardy(v, _) => v[i].step(a),
                    };
                    match r {
                        Ok(Some([x, y])) => {
                            rewards[2 * i] = x;
                            rewards[2 * i + 1] = y;
                            done[i] = true;
                            ended.push(i);
                        }
                        Ok(None) => {}
                        Err(e) => {
                            return Err(errors::illegal(format!("game {i}: {e}")));
                        }
                    }
                }
                Ok(())
            });
            for &i in &ended {
                self.reset_one(i);
            }
            result?;
        }
        let (obs, mask) = self.arrays(py);
        let to_move = self.to_move(py);
        Ok((
            obs,
            mask,
            Array2::from_shape_vec((n, 2), rewards)
                .expect("shape")
                .into_pyarray(py),
            Array1::from_vec(done).into_pyarray(py),
            to_move,
        ))
    }
}

/// Plays `count` random playouts of `game` in Rust (uniform over legal actions, the
/// generator seeded from `seed`) and returns the number of steps: the speed of the
/// environment core without Python in the loop.
#[pyfunction]
#[pyo3(signature = (game, count, seed = 0))]
fn random_playouts(py: Python<'_>, game: &str, count: u64, seed: u64) -> PyResult<u64> {
    use rand::RngExt;
    let game = game.to_string();
    py.detach(move || {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut steps = 0u64;
        let mut mask = [0i8; NARDY_ACTIONS];
        for i in 0..count {
            match game.as_str() {
                "reversi" => {
                    let mut g = ReversiCore::new(reversi_core::Color::Black);
                    while !g.pos.is_over() {
                        g.mask_into(&mut mask[..REVERSI_ACTIONS]);
                        let legal: Vec<usize> =
                            (0..REVERSI_ACTIONS).filter(|&a| mask[a] == 1).collect();
                        let a = legal[rng.random_range(0..legal.len())];
                        g.step(a as i64)?;
                        steps += 1;
                    }
                }
                "long_nardy" | "nardy" => {
                    let mut g = NardyCore::new(nardy_core::Rules::default(), item_seed(seed, i));
                    while !g.is_over() {
                        let k = rng.random_range(0..g.legal.len());
                        let a = g.legal[k].0;
                        g.step(i64::from(a))?;
                        steps += 1;
                    }
                }
                g => return Err(errors::parse(format!("unknown game '{g}'"))),
            }
        }
        Ok(steps)
    })
}

pub(crate) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = util::submodule(py, "envs")?;
    m.add_class::<ReversiState>()?;
    m.add_class::<NardyState>()?;
    m.add_class::<BattleshipState>()?;
    m.add_class::<VectorEnv>()?;
    m.add_function(wrap_pyfunction!(random_playouts, &m)?)?;
    m.add("REVERSI_ACTIONS", REVERSI_ACTIONS)?;
    m.add("NARDY_ACTIONS", NARDY_ACTIONS)?;
    m.add("NARDY_PASS", NARDY_PASS)?;
    m.add("NARDY_OBS", NARDY_OBS)?;
    m.add("BATTLESHIP_CHANNELS", BATTLESHIP_CHANNELS)?;
    Ok(m)
}
