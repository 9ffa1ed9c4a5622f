//! What a load-test player does at each game: a random legal action read from its view.
//! The player decides no rule: reversi and nardy views list the legal moves; a
//! battleship fleet comes from the engine's sampler and shots go to cells not yet shot;
//! a sudoku player enters the digits of the solution it works out itself.

use std::sync::{Arc, Mutex};

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::games::GameKind;

/// What a player keeps between its moves.
#[derive(Default)]
pub struct Memory {
    solution: Option<sudoku_core::Grid>,
}

/// The fleet sampler of `rules`, made once for the whole load test: making one takes
/// about 0.2 s of CPU, which every battleship player making its own would spend on the
/// load generator's threads, delaying every other player.
fn fleets(rules: &battleship_core::Rules) -> Arc<battleship_core::UniformFleets> {
    static MADE: Mutex<Vec<(battleship_core::Rules, Arc<battleship_core::UniformFleets>)>> =
        Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, fleets)) = made.iter().find(|(r, _)| r == rules) {
        return fleets.clone();
    }
    let fleets = Arc::new(battleship_core::UniformFleets::new(rules));
    made.push((rules.clone(), fleets.clone()));
    fleets
}

/// The games played in turn by the pairs: pair `k` plays `ROTATION[k % 4]`.
pub const ROTATION: [GameKind; 4] = [
    GameKind::Reversi,
    GameKind::Nardy,
    GameKind::Battleship,
    GameKind::Sudoku,
];

fn pick(rng: &mut ChaCha8Rng, items: &[Value]) -> Option<Value> {
    (!items.is_empty()).then(|| items[rng.random_range(0..items.len())].clone())
}

/// Whether `seat` may act in `view` (the table's view as the protocol sends it).
pub fn may_act(game: GameKind, seat: u64, view: &Value) -> bool {
    if !view["ending"].is_null() {
        return false;
    }
    if game == GameKind::Battleship && view["state"]["placed"][seat as usize] == false {
        return true;
    }
    view["to_act"].as_u64() == Some(seat)
}

/// A random legal action for `seat`, or `None` when the view offers none.
pub fn choose(
    game: GameKind,
    seat: u64,
    view: &Value,
    memory: &mut Memory,
    rng: &mut ChaCha8Rng,
) -> Option<Value> {
    let state = &view["state"];
    let play = match game {
        GameKind::Reversi => pick(rng, state["legal"].as_array()?)?,
        GameKind::Nardy => json!({"step": pick(rng, state["legal_steps"].as_array()?)?}),
        GameKind::Battleship => battleship(seat, state, rng)?,
        GameKind::Sudoku => sudoku(state, memory, rng)?,
    };
    Some(json!({"play": play}))
}

fn battleship(seat: u64, state: &Value, rng: &mut ChaCha8Rng) -> Option<Value> {
    let rules: battleship_core::Rules = serde_json::from_value(state["rules"].clone()).ok()?;
    if state["placed"][seat as usize] == false {
        let fleet = fleets(&rules).sample(rng);
        return Some(json!({"place": fleet}));
    }
    let shot: Vec<&Value> = state["shots"]
        .as_array()?
        .iter()
        .filter(|s| s[0] == seat)
        .map(|s| &s[1])
        .collect();
    let free: Vec<Value> = (0..rules.height())
        .flat_map(|r| (0..rules.width()).filter_map(move |c| battleship_core::Coord::new(c, r)))
        .map(|c| json!(c))
        .filter(|c| !shot.contains(&c))
        .collect();
    Some(json!({"shoot": pick(rng, &free)?}))
}

fn sudoku(state: &Value, memory: &mut Memory, rng: &mut ChaCha8Rng) -> Option<Value> {
    if memory.solution.is_none() {
        let puzzle: sudoku_core::Grid = serde_json::from_value(state["puzzle"].clone()).ok()?;
        let game = sudoku_core::Game::new(puzzle).ok()?;
        memory.solution = Some(game.solution().clone());
    }
    let solution = memory.solution.as_ref()?;
    let grid: sudoku_core::Grid = serde_json::from_value(state["grid"].clone()).ok()?;
    let side = grid.size().side();
    let empty: Vec<(usize, usize)> = (0..side)
        .flat_map(|row| (0..side).map(move |col| (row, col)))
        .filter(|&(row, col)| grid.get(row, col).is_none())
        .collect();
    let &(row, col) = empty.get(rng.random_range(0..empty.len().max(1)))?;
    let digit = solution.get(row, col)?;
    Some(json!({"move": sudoku_core::Move::Enter { row, col, digit }}))
}
