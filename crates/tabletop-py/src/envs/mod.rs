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

use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::errors;
use crate::util::{self, item_seed};

mod battleship;
mod nardy;
mod reversi;
mod vector;

pub(crate) use battleship::{BATTLESHIP_CHANNELS, BattleshipState};
pub(crate) use nardy::{NARDY_ACTIONS, NARDY_OBS, NARDY_PASS, NardyCore, NardyState, nardy_rules};
pub(crate) use reversi::{REVERSI_ACTIONS, ReversiCore, ReversiState};
pub(crate) use vector::VectorEnv;

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
