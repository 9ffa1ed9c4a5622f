//! The bots of `tabletop.nardy`: the `Bot` class, ranked hints, the evaluation and
//! bot-against-bot games.

use nardy_core::ai::{self};
use pyo3::prelude::*;

use crate::errors;
use crate::util::{self, LevelArg};

use super::{DiceArg, Game, Position, Rules, parse_level, resources, rules_of};

/// A computer player of a level from 1 (`"random"`) to 6 (`"expert"`).
#[pyclass(module = "tabletop.nardy", unsendable)]
pub(crate) struct Bot {
    level: ai::Level,
    bot: Box<dyn ai::Bot>,
}

#[pymethods]
impl Bot {
    /// A fresh bot of `level` (number or name) under `rules`.
    #[new]
    #[pyo3(signature = (level = LevelArg::Number(5), rules = None))]
    fn new(py: Python<'_>, level: LevelArg, rules: Option<&Rules>) -> PyResult<Self> {
        let level = parse_level(&level)?;
        let rules = rules_of(rules);
        let res = py.detach(resources);
        Ok(Bot {
            level,
            bot: level.bot_with(&rules, res),
        })
    }

    /// The level's number.
    #[getter]
    fn level(&self) -> u8 {
        self.level.get()
    }

    /// The level's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.level.name()
    }

    /// The turn this bot plays in `position` with `dice` (`"pass"` when forced), or `None`
    /// when the game is over; `seed` breaks ties.
    #[pyo3(signature = (position, dice, seed = 0))]
    fn choose_move(
        &mut self,
        position: &Position,
        dice: DiceArg,
        seed: u64,
    ) -> PyResult<Option<String>> {
        let dice = dice.get()?;
        let mut rng = util::rng(seed);
        Ok(self
            .bot
            .choose_move(&position.inner, dice, &mut rng)
            .map(|m| m.to_string()))
    }

    /// Forgets per-game state before a new game.
    fn new_game(&mut self) {
        self.bot.new_game();
    }

    fn __repr__(&self) -> String {
        format!("nardy.Bot({}, '{}')", self.level.get(), self.level.name())
    }
}

/// Every legal turn of `position` with `dice`, ranked by the search of `level` (as the
/// command line's `tabletop nardy hint`), best first: a list of dicts with `turn`,
/// `equity`, `loss` (equity given up against the best), `plies`, `win`, `win_mars`,
/// `lose_mars` (probabilities for the side to move).
#[pyfunction]
#[pyo3(signature = (position, dice, level = LevelArg::Name("expert".into()), rules = None))]
pub(super) fn hints(
    py: Python<'_>,
    position: &Position,
    dice: DiceArg,
    level: LevelArg,
    rules: Option<&Rules>,
) -> PyResult<Vec<Py<PyAny>>> {
    let dice = dice.get()?;
    let level = parse_level(&level)?;
    let rules = rules_of(rules);
    let pos = position.inner;
    if ai_game_over(&pos, &rules) {
        return Err(errors::game_over("the game is over"));
    }
    let ranked = py.detach(move || level.search(&rules, resources()).rank(&pos, dice));
    ranked
        .into_iter()
        .map(|r| {
            let d = pyo3::types::PyDict::new(py);
            d.set_item("turn", r.mv.to_string())?;
            d.set_item("equity", r.equity)?;
            d.set_item("loss", r.loss)?;
            d.set_item("plies", r.plies)?;
            d.set_item("win", r.probabilities.win)?;
            d.set_item("win_mars", r.probabilities.win_mars)?;
            d.set_item("lose_mars", r.probabilities.lose_mars)?;
            Ok(d.into_any().unbind())
        })
        .collect()
}

fn ai_game_over(pos: &nardy_core::Position, rules: &nardy_core::Rules) -> bool {
    let mover = pos.side_to_move();
    pos.borne_off(mover) == nardy_core::CHECKERS
        || (pos.borne_off(mover.other()) == nardy_core::CHECKERS && !rules.last_roll_tie)
}

/// The probabilities and equity of `position` for its side to move, searched `plies`
/// deep (0 to 2) with the learned evaluation: a dict with `win`, `win_mars`, `win_koks`,
/// `lose_mars`, `lose_koks`, `equity`.
#[pyfunction]
#[pyo3(signature = (position, plies = 1, rules = None))]
pub(super) fn evaluate(
    py: Python<'_>,
    position: &Position,
    plies: u8,
    rules: Option<&Rules>,
) -> PyResult<Py<PyAny>> {
    if plies > 2 {
        return Err(errors::parse("plies must be 0, 1 or 2"));
    }
    let rules = rules_of(rules);
    let pos = position.inner;
    let p = py.detach(move || {
        let level = ai::Level::new(4 + plies).unwrap_or(ai::Level::MAX);
        level
            .search(&rules, resources())
            .value_of_position(&pos, plies)
    });
    let d = pyo3::types::PyDict::new(py);
    d.set_item("win", p.win)?;
    d.set_item("win_mars", p.win_mars)?;
    d.set_item("win_koks", p.win_koks)?;
    d.set_item("lose_mars", p.lose_mars)?;
    d.set_item("lose_koks", p.lose_koks)?;
    d.set_item("equity", p.equity(&rules))?;
    Ok(d.into_any().unbind())
}

/// One game between bots of levels `white` and `black`: exactly `nardy_core::ai::play_game`
/// with `seed` (the dice from the game's generator, the bots' tie-breaks from the same
/// seed), the function `tabletop nardy arena` plays (its pair `i` uses `seed + i`).
#[pyfunction]
#[pyo3(signature = (white, black, seed, rules = None))]
pub(super) fn play_game(
    py: Python<'_>,
    white: LevelArg,
    black: LevelArg,
    seed: u64,
    rules: Option<&Rules>,
) -> PyResult<Game> {
    let (white, black) = (parse_level(&white)?, parse_level(&black)?);
    let rules = rules_of(rules);
    let inner = py.detach(move || {
        let res = resources();
        let mut w = white.bot_with(&rules, res);
        let mut b = black.bot_with(&rules, res);
        ai::play_game(&rules, seed, w.as_mut(), b.as_mut())
    });
    Ok(Game { inner })
}

/// Plays `count` games between bots of levels `white` and `black`, each a pure function of
/// its seed: game `i` is `nardy_core::ai::play_game` with seed `item_seed(seed, i)` (its
/// dice and the bots' tie-breaks). `threads` games run at once with the GIL released; the
/// result does not depend on it. Returns the finished `Game`s (history, outcome, saves).
#[pyfunction]
#[pyo3(signature = (white, black, count, seed = 0, rules = None, threads = 1))]
pub(super) fn play_games(
    py: Python<'_>,
    white: LevelArg,
    black: LevelArg,
    count: usize,
    seed: u64,
    rules: Option<&Rules>,
    threads: usize,
) -> PyResult<Vec<Game>> {
    let (white, black) = (parse_level(&white)?, parse_level(&black)?);
    let rules = rules_of(rules);
    let games = py.detach(move || {
        let res = resources();
        let threads = threads.clamp(1, count.max(1));
        let mut out: Vec<Option<nardy_core::Game>> = vec![None; count];
        std::thread::scope(|s| {
            for (t, chunk) in out.chunks_mut(count.div_ceil(threads).max(1)).enumerate() {
                let start = t * count.div_ceil(threads).max(1);
                s.spawn(move || {
                    let mut w = white.bot_with(&rules, res);
                    let mut b = black.bot_with(&rules, res);
                    for (k, slot) in chunk.iter_mut().enumerate() {
                        let s = util::item_seed(seed, (start + k) as u64);
                        *slot = Some(ai::play_game(&rules, s, w.as_mut(), b.as_mut()));
                    }
                });
            }
        });
        out
    });
    Ok(games
        .into_iter()
        .flatten()
        .map(|inner| Game { inner })
        .collect())
}
