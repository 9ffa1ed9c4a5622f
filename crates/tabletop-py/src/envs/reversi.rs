//! Reversi as an environment state: `ReversiCore` (the game, masks, observations) and
//! the `ReversiState` class of `tabletop.envs.reversi_v0`.

use numpy::ndarray::{Array1, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::prelude::*;

use crate::errors;
use crate::util::{self, LevelArg};

/// Reversi's action count: 64 squares and the pass.
pub(crate) const REVERSI_ACTIONS: usize = 65;

/// One Reversi game as an environment state.
#[derive(Clone)]
pub(crate) struct ReversiCore {
    pub(crate) pos: reversi_core::Position,
    pub(crate) plies: u32,
}

impl ReversiCore {
    pub(crate) fn new(first: reversi_core::Color) -> ReversiCore {
        ReversiCore {
            pos: reversi_core::Position::start_with(first),
            plies: 0,
        }
    }

    /// 0 for Black, 1 for White.
    pub(crate) fn to_move(&self) -> usize {
        match self.pos.side_to_move() {
            reversi_core::Color::Black => 0,
            reversi_core::Color::White => 1,
        }
    }

    pub(crate) fn obs_into(&self, observer: usize, out: &mut [i8]) {
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

    pub(crate) fn mask_into(&self, out: &mut [i8]) {
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
    pub(crate) fn step(&mut self, action: i64) -> PyResult<Option<[f32; 2]>> {
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
