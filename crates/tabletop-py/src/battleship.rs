//! `tabletop.battleship`: rules, fleets (uniform random ones too), games with hidden
//! views, shooters of every level and simulations of `battleship-core`.

use battleship_core::ai::{self, Bot as _};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};

use crate::errors;
use crate::util::{self, LevelArg, item_seed};

pub(crate) fn parse_level(level: &LevelArg) -> PyResult<ai::Level> {
    level.text().parse().map_err(errors::parse)
}

fn player_index(p: battleship_core::Player) -> usize {
    p.index()
}

/// The rules: the grid, the fleet and the variant switches. `Rules()` is the Russian
/// game (10×10, ships 4, 3, 3, 2, 2, 2, 1, 1, 1, 1 that may not touch, another shot after
/// a hit); `Rules("classic")` the classic one; `Rules.custom(width, height, fleet)` any.
#[pyclass(module = "tabletop.battleship", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub(crate) struct Rules {
    pub(crate) inner: battleship_core::Rules,
}

#[pymethods]
impl Rules {
    /// `"russian"` or `"classic"`.
    #[new]
    #[pyo3(signature = (variant = "russian"))]
    fn new(variant: &str) -> PyResult<Self> {
        let inner = match variant {
            "russian" => battleship_core::Rules::russian(),
            "classic" => battleship_core::Rules::classic(),
            v => {
                return Err(errors::parse(format!(
                    "unknown variant '{v}': use russian or classic"
                )));
            }
        };
        Ok(Rules { inner })
    }

    /// A custom grid and fleet (ship lengths), with the Russian switches unless given.
    #[classmethod]
    #[pyo3(signature = (width, height, fleet, ships_may_touch = None, extra_shot_on_hit = None, reveal_around_sunk = None))]
    fn custom(
        _cls: &Bound<'_, PyType>,
        width: u8,
        height: u8,
        fleet: Vec<u8>,
        ships_may_touch: Option<bool>,
        extra_shot_on_hit: Option<bool>,
        reveal_around_sunk: Option<bool>,
    ) -> PyResult<Self> {
        let mut r = battleship_core::Rules::custom(width, height, &fleet).map_err(errors::parse)?;
        if let Some(v) = ships_may_touch {
            r = r.with_ships_may_touch(v);
        }
        if let Some(v) = extra_shot_on_hit {
            r = r.with_extra_shot_on_hit(v);
        }
        if let Some(v) = reveal_around_sunk {
            r = r.with_reveal_around_sunk(v);
        }
        Ok(Rules { inner: r })
    }

    /// Grid width.
    #[getter]
    fn width(&self) -> u8 {
        self.inner.width()
    }

    /// Grid height.
    #[getter]
    fn height(&self) -> u8 {
        self.inner.height()
    }

    /// The ship lengths.
    #[getter]
    fn fleet(&self) -> Vec<u8> {
        self.inner.fleet().to_vec()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "battleship.Rules.custom({}, {}, {:?}, ships_may_touch={}, extra_shot_on_hit={}, reveal_around_sunk={})",
            self.inner.width(),
            self.inner.height(),
            self.inner.fleet(),
            py_bool(self.inner.ships_may_touch()),
            py_bool(self.inner.extra_shot_on_hit()),
            py_bool(self.inner.reveal_around_sunk())
        )
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn rules_of(rules: Option<&Rules>) -> battleship_core::Rules {
    rules
        .map(|r| r.inner.clone())
        .unwrap_or_else(battleship_core::Rules::russian)
}

/// A fleet: ships as `"a1 h 4"` (bow, orientation, length), validated against the rules.
#[pyclass(module = "tabletop.battleship", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub(crate) struct Fleet {
    pub(crate) inner: battleship_core::Fleet,
    rules: battleship_core::Rules,
}

#[pymethods]
impl Fleet {
    /// The fleet of `ships` (`["a1 h 4", …]`); raises `IllegalMoveError` naming the problem
    /// when it breaks the rules.
    #[new]
    #[pyo3(signature = (ships, rules = None))]
    fn new(ships: Vec<String>, rules: Option<&Rules>) -> PyResult<Self> {
        let rules = rules_of(rules);
        let ships = ships
            .iter()
            .map(|s| s.parse::<battleship_core::Ship>().map_err(errors::parse))
            .collect::<PyResult<Vec<_>>>()?;
        let inner = battleship_core::Fleet::new(&rules, ships).map_err(errors::illegal)?;
        Ok(Fleet { inner, rules })
    }

    /// An exactly uniform random fleet drawn with `seed`.
    #[classmethod]
    #[pyo3(signature = (seed, rules = None))]
    fn random(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        seed: u64,
        rules: Option<&Rules>,
    ) -> PyResult<Self> {
        let rules = rules_of(rules);
        let r = rules.clone();
        let inner = py.detach(move || {
            let u = battleship_core::UniformFleets::new(&r);
            (!u.is_empty()).then(|| u.sample_seeded(seed))
        });
        let inner = inner.ok_or_else(|| errors::parse("no fleet fits these rules"))?;
        Ok(Fleet { inner, rules })
    }

    /// The ships in notation.
    fn ships(&self) -> Vec<String> {
        self.inner.ships().iter().map(|s| s.to_string()).collect()
    }

    /// The grid drawn as text.
    fn __str__(&self) -> String {
        self.inner.to_plain(&self.rules)
    }

    fn __repr__(&self) -> String {
        format!("battleship.Fleet({:?})", self.ships())
    }
}

/// `count` uniform random fleets: fleet `i` is `Fleet.random(item_seed(seed, i))`, so a
/// batch is a pure function of `(seed, count)`.
#[pyfunction]
#[pyo3(signature = (count, seed = 0, rules = None))]
fn uniform_fleets(
    py: Python<'_>,
    count: usize,
    seed: u64,
    rules: Option<&Rules>,
) -> PyResult<Vec<Fleet>> {
    let rules = rules_of(rules);
    let r = rules.clone();
    let fleets = py.detach(move || {
        let u = battleship_core::UniformFleets::new(&r);
        (!u.is_empty()).then(|| {
            (0..count as u64)
                .map(|i| u.sample_seeded(item_seed(seed, i)))
                .collect::<Vec<_>>()
        })
    });
    let fleets = fleets.ok_or_else(|| errors::parse("no fleet fits these rules"))?;
    Ok(fleets
        .into_iter()
        .map(|inner| Fleet {
            inner,
            rules: rules.clone(),
        })
        .collect())
}

/// A game between two fleets; players are 0 (first) and 1 (second).
#[pyclass(module = "tabletop.battleship", eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Game {
    pub(crate) inner: battleship_core::Game,
}

#[pymethods]
impl Game {
    /// A game between `first` and `second` (both `Fleet`s under the same rules).
    #[new]
    fn new(first: &Fleet, second: &Fleet) -> PyResult<Self> {
        let inner = battleship_core::Game::new(
            first.rules.clone(),
            first.inner.clone(),
            second.inner.clone(),
        )
        .map_err(errors::illegal)?;
        Ok(Game { inner })
    }

    /// The player to shoot: 0 or 1.
    #[getter]
    fn side_to_move(&self) -> usize {
        player_index(self.inner.side_to_move())
    }

    /// The cells the side to move may shoot (`"e5"`).
    fn legal_moves(&self) -> Vec<String> {
        self.inner
            .legal_moves()
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    /// Shoots at `cell` (`"e5"`); returns `"miss"`, `"hit"`, `"sunk (…)"` or the end.
    fn play(&mut self, cell: &str) -> PyResult<String> {
        let c: battleship_core::Coord = cell.parse().map_err(errors::parse)?;
        if self.inner.is_over() {
            return Err(errors::game_over("the game is over"));
        }
        Ok(self.inner.play(c).map_err(errors::illegal)?.to_string())
    }

    /// Takes back the last shot.
    fn undo(&mut self) -> Option<String> {
        self.inner.undo().map(|c| c.to_string())
    }

    /// Plays again the last shot taken back.
    fn redo(&mut self) -> Option<String> {
        self.inner.redo().map(|c| c.to_string())
    }

    /// Whether a fleet is sunk.
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// `(winner, shots)` once over, else `None`.
    fn outcome(&self) -> Option<(usize, u32)> {
        self.inner
            .outcome()
            .map(|o| (player_index(o.winner), o.shots))
    }

    /// The shots so far: `(player, cell, result)`.
    fn history(&self) -> Vec<(usize, String, String)> {
        self.inner
            .history()
            .iter()
            .map(|(p, c, r)| (player_index(*p), c.to_string(), r.to_string()))
            .collect()
    }

    /// What `player` knows of the enemy grid: a list of rows of `"."` unknown, `"o"`
    /// miss, `"~"` water deduced, `"x"` hit, `"#"` sunk.
    fn tracking(&self, player: usize) -> Vec<String> {
        let p = if player == 0 {
            battleship_core::Player::First
        } else {
            battleship_core::Player::Second
        };
        let view = self.inner.view(p);
        let t = view.tracking();
        let r = self.inner.rules();
        (0..r.height())
            .map(|row| {
                (0..r.width())
                    .map(|col| {
                        let c = battleship_core::Coord::from_index(
                            usize::from(row) * usize::from(r.width()) + usize::from(col),
                            r.width(),
                        );
                        match t.mark(c) {
                            battleship_core::Mark::Unknown => '.',
                            battleship_core::Mark::Miss => 'o',
                            battleship_core::Mark::Water => '~',
                            battleship_core::Mark::Hit => 'x',
                            battleship_core::Mark::Sunk => '#',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The game in Tabletop's binary save format.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// A game read from `to_bytes()`'s output; raises `LoadError` on anything else.
    #[classmethod]
    fn from_bytes(_cls: &Bound<'_, PyType>, data: &[u8]) -> PyResult<Self> {
        Ok(Game {
            inner: battleship_core::Game::from_bytes(data).map_err(errors::load)?,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "battleship.Game(shots={}, side_to_move={})",
            self.inner.history().len(),
            self.side_to_move()
        )
    }
}

/// A shooter of level 1 (`"random"`) to 5 (`"lookahead"`, also `"best"`). It decides from
/// the shooting side's own knowledge only.
#[pyclass(module = "tabletop.battleship")]
pub(crate) struct Shooter {
    inner: ai::Shooter,
}

#[pymethods]
impl Shooter {
    /// A fresh shooter of `level` for games under `rules`.
    #[new]
    #[pyo3(signature = (level = LevelArg::Number(5), rules = None))]
    fn new(level: LevelArg, rules: Option<&Rules>) -> PyResult<Self> {
        let level = parse_level(&level)?;
        Ok(Shooter {
            inner: level.shooter(&rules_of(rules)),
        })
    }

    /// The level's number.
    #[getter]
    fn level(&self) -> u8 {
        self.inner.level().get()
    }

    /// The level's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.level().name()
    }

    /// The cell this shooter picks for `game`'s side to move, from that side's view only.
    #[pyo3(signature = (game, seed = 0))]
    fn choose_move(&mut self, game: &Game, seed: u64) -> Option<String> {
        let view = game.inner.view(game.inner.side_to_move());
        let mut rng = util::rng(seed);
        self.inner
            .choose_move(view.tracking(), &mut rng)
            .map(|c| c.to_string())
    }

    /// Forgets the last game.
    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn __repr__(&self) -> String {
        format!(
            "battleship.Shooter({}, '{}')",
            self.inner.level().get(),
            self.inner.level().name()
        )
    }
}

/// Lets a shooter of `level` sink `count` uniform random fleets alone (fleet `i` from
/// `item_seed(seed, i)`, the shooter's choices from the same seed) and returns the shots
/// each needed: the measure of `tabletop battleship sim`.
#[pyfunction]
#[pyo3(signature = (level, count, seed = 0, rules = None))]
fn simulate(
    py: Python<'_>,
    level: LevelArg,
    count: usize,
    seed: u64,
    rules: Option<&Rules>,
) -> PyResult<Vec<u32>> {
    let level = parse_level(&level)?;
    let rules = rules_of(rules);
    let shots = py.detach(move || {
        let u = battleship_core::UniformFleets::new(&rules);
        if u.is_empty() {
            return None;
        }
        let mut shooter = level.shooter(&rules);
        Some(
            (0..count as u64)
                .map(|i| {
                    let s = item_seed(seed, i);
                    let fleet = u.sample_seeded(s);
                    shooter.new_game();
                    let mut rng = util::rng(s ^ 0x5EED);
                    ai::shots_to_sink(&mut shooter, &rules, &fleet, &mut rng)
                })
                .collect::<Vec<_>>(),
        )
    });
    shots.ok_or_else(|| errors::parse("no fleet fits these rules"))
}

util::game_copy_and_pickle!(Game);

pub(crate) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = util::submodule(py, "battleship")?;
    m.add_class::<Rules>()?;
    m.add_class::<Fleet>()?;
    m.add_class::<Game>()?;
    m.add_class::<Shooter>()?;
    m.add_function(wrap_pyfunction!(uniform_fleets, &m)?)?;
    m.add_function(wrap_pyfunction!(simulate, &m)?)?;
    Ok(m)
}
