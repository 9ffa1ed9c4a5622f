//! `VectorEnv`: many games of one kind stepped in one call, with NumPy arrays in and out.

use numpy::ndarray::{Array1, Array2, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{
    NARDY_ACTIONS, NARDY_OBS, NARDY_PASS, NardyCore, REVERSI_ACTIONS, ReversiCore, nardy_rules,
};
use crate::errors;
use crate::util::item_seed;

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
