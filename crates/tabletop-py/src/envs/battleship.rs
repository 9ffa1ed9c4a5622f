//! Battleship as an environment state: `BattleshipCore` (two seeded fleets, masks,
//! observations) and the `BattleshipState` class of `tabletop.envs.battleship_v0`.

use battleship_core::ai::Bot as _;
use numpy::ndarray::{Array1, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::prelude::*;

use crate::errors;
use crate::util::{self, LevelArg, item_seed};

/// Channels of a Battleship observation.
pub(crate) const BATTLESHIP_CHANNELS: usize = 5;

/// One Battleship game as an environment state: two uniform random fleets from the seed.
#[derive(Clone)]
pub(crate) struct BattleshipCore {
    pub(crate) game: battleship_core::Game,
}

impl BattleshipCore {
    pub(crate) fn new(rules: battleship_core::Rules, seed: u64) -> PyResult<BattleshipCore> {
        let fleets = battleship_core::UniformFleets::new(&rules);
        if fleets.is_empty() {
            return Err(errors::parse("no fleet fits these rules"));
        }
        let a = fleets.sample_seeded(item_seed(seed, 0));
        let b = fleets.sample_seeded(item_seed(seed, 1));
        let game = battleship_core::Game::new(rules, a, b).map_err(errors::parse)?;
        Ok(BattleshipCore { game })
    }

    pub(crate) fn cells(&self) -> usize {
        self.game.rules().cells()
    }

    pub(crate) fn to_move(&self) -> usize {
        self.game.side_to_move().index()
    }

    pub(crate) fn player(i: usize) -> battleship_core::Player {
        if i == 0 {
            battleship_core::Player::First
        } else {
            battleship_core::Player::Second
        }
    }

    pub(crate) fn obs_into(&self, observer: usize, out: &mut [i8]) {
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

    pub(crate) fn mask_into(&self, out: &mut [i8]) {
        out.fill(0);
        if self.game.is_over() {
            return;
        }
        let w = self.game.rules().width();
        for c in self.game.legal_moves() {
            out[c.index(w)] = 1;
        }
    }

    pub(crate) fn step(&mut self, action: i64) -> PyResult<Option<[f32; 2]>> {
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
