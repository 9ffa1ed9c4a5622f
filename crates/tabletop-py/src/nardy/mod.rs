//! `tabletop.nardy`: Long Nardy positions, dice, games, step-by-step turns, bots and hints
//! of `nardy-core`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use nardy_core::ai::{self, Resources};
use nardy_core::{BlockCheck, Color, Dice, HeadException, Move, Opening, Scoring};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};

use crate::errors;
use crate::util::{self, LevelArg};

mod bots;

use bots::{Bot, evaluate, hints, play_game, play_games};

/// The bear-off database and the network of levels 4 to 6, built once per process (about
/// a second) on first use and shared by every bot and hint.
pub(crate) fn resources() -> &'static Resources {
    static RESOURCES: OnceLock<Resources> = OnceLock::new();
    RESOURCES.get_or_init(Resources::new)
}

pub(crate) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_color(text: &str) -> PyResult<Color> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(errors::parse(format!(
            "unknown colour '{text}': use white (w) or black (b)"
        ))),
    }
}

/// Dice as Python gives them: `"65"`, `"6-5"` or `(6, 5)`.
#[derive(FromPyObject)]
pub(crate) enum DiceArg {
    /// Two numbers.
    Pair(u8, u8),
    /// The notation.
    Text(String),
}

impl DiceArg {
    pub(crate) fn get(&self) -> PyResult<Dice> {
        match self {
            DiceArg::Pair(a, b) => Dice::new(*a, *b).map_err(errors::parse),
            DiceArg::Text(t) => t.parse().map_err(errors::parse),
        }
    }
}

fn dice_tuple(d: Dice) -> (u8, u8) {
    d.into()
}

pub(crate) fn parse_level(level: &LevelArg) -> PyResult<ai::Level> {
    level.text().parse().map_err(errors::parse)
}

fn parse_move(text: &str) -> PyResult<Move> {
    text.parse().map_err(errors::parse)
}

/// The rule variants of Long Nardy; `Rules()` is the federation rule set.
#[pyclass(module = "tabletop.nardy", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Rules {
    pub(crate) inner: nardy_core::Rules,
}

#[pymethods]
impl Rules {
    /// `opening`: `"roll-off"` (the first mover plays the roll-off dice) or `"reroll"`;
    /// `head_exception`: `"strict"` (6-6, 4-4, 3-3 only) or `"any-blocked-double"`;
    /// `block_check`: `"every-step"` or `"end-of-turn"`; `scoring`: `"standard"` (oin 1,
    /// mars 2) or `"koks"` (koks 3 too); `last_roll_tie`: the second mover's last roll.
    #[new]
    #[pyo3(signature = (opening = "roll-off", head_exception = "strict", block_check = "every-step", scoring = "standard", last_roll_tie = false))]
    fn new(
        opening: &str,
        head_exception: &str,
        block_check: &str,
        scoring: &str,
        last_roll_tie: bool,
    ) -> PyResult<Self> {
        let bad = |what: &str, v: &str, allowed: &str| {
            errors::parse(format!("unknown {what} '{v}': use {allowed}"))
        };
        let opening = match opening {
            "roll-off" | "rolloff" => Opening::RollOff,
            "reroll" => Opening::Reroll,
            v => return Err(bad("opening", v, "roll-off or reroll")),
        };
        let head_exception = match head_exception {
            "strict" => HeadException::Strict,
            "any-blocked-double" => HeadException::AnyBlockedDouble,
            v => return Err(bad("head exception", v, "strict or any-blocked-double")),
        };
        let block_check = match block_check {
            "every-step" => BlockCheck::EveryStep,
            "end-of-turn" => BlockCheck::EndOfTurn,
            v => return Err(bad("block check", v, "every-step or end-of-turn")),
        };
        let scoring = match scoring {
            "standard" => Scoring::Standard,
            "koks" | "with-koks" => Scoring::WithKoks,
            v => return Err(bad("scoring", v, "standard or koks")),
        };
        Ok(Rules {
            inner: nardy_core::Rules {
                opening,
                head_exception,
                block_check,
                scoring,
                last_roll_tie,
            },
        })
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let r = &self.inner;
        format!(
            "nardy.Rules(opening='{}', head_exception='{}', block_check='{}', scoring='{}', last_roll_tie={})",
            match r.opening {
                Opening::RollOff => "roll-off",
                Opening::Reroll => "reroll",
            },
            match r.head_exception {
                HeadException::Strict => "strict",
                HeadException::AnyBlockedDouble => "any-blocked-double",
            },
            match r.block_check {
                BlockCheck::EveryStep => "every-step",
                BlockCheck::EndOfTurn => "end-of-turn",
            },
            match r.scoring {
                Scoring::Standard => "standard",
                Scoring::WithKoks => "koks",
            },
            if r.last_roll_tie { "True" } else { "False" }
        )
    }
}

fn rules_of(rules: Option<&Rules>) -> nardy_core::Rules {
    rules.map(|r| r.inner).unwrap_or_default()
}

/// A Long Nardy position: the 24 points, the checkers borne off and the side to move.
/// Immutable and hashable; `str()` is the notation (`"24:15/12:15 w"`), which
/// `Position(text)` reads.
#[pyclass(module = "tabletop.nardy", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub(crate) struct Position {
    pub(crate) inner: nardy_core::Position,
}

#[pymethods]
impl Position {
    /// The position written `text`, or the start position (White to move) when omitted.
    #[new]
    #[pyo3(signature = (text = None))]
    fn new(text: Option<&str>) -> PyResult<Self> {
        let inner = match text {
            None => nardy_core::Position::start(),
            Some(t) => t.parse().map_err(errors::parse)?,
        };
        Ok(Position { inner })
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.inner.side_to_move())
    }

    /// Every distinct legal turn with `dice` (`"65"` or `(6, 5)`), in notation; `["pass"]`
    /// when no checker can move.
    #[pyo3(signature = (dice, rules = None))]
    fn legal_moves(&self, dice: DiceArg, rules: Option<&Rules>) -> PyResult<Vec<String>> {
        let dice = dice.get()?;
        Ok(self
            .inner
            .legal_moves(dice, &rules_of(rules))
            .iter()
            .map(|m| m.to_string())
            .collect())
    }

    /// The position after playing `move` with `dice`; raises `IllegalMoveError` with the
    /// rules' reason when the turn is not legal.
    #[pyo3(signature = (dice, r#move, rules = None))]
    fn after(&self, dice: DiceArg, r#move: &str, rules: Option<&Rules>) -> PyResult<Position> {
        let dice = dice.get()?;
        let mv = parse_move(r#move)?;
        let mut p = self.inner;
        p.play(dice, &mv, &rules_of(rules))
            .map_err(errors::illegal)?;
        Ok(Position { inner: p })
    }

    /// The checkers of `color` on each absolute point 1 to 24 (index 0 is point 1).
    fn board(&self, color: &str) -> PyResult<Vec<u8>> {
        Ok(self.inner.board(parse_color(color)?).to_vec())
    }

    /// The checkers `color` has borne off.
    fn borne_off(&self, color: &str) -> PyResult<u8> {
        Ok(self.inner.borne_off(parse_color(color)?))
    }

    /// The pips `color` needs to bear off every checker.
    fn pip_count(&self, color: &str) -> PyResult<u32> {
        Ok(self.inner.pip_count(parse_color(color)?))
    }

    /// The side that has borne off all its checkers, if any.
    fn finished(&self) -> Option<&'static str> {
        self.inner.finished().map(color_name)
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("nardy.Position('{}')", self.inner)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.hash(&mut h);
        h.finish()
    }
}

/// How a game of Long Nardy ended.
#[pyclass(module = "tabletop.nardy", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) inner: nardy_core::Outcome,
}

#[pymethods]
impl Outcome {
    /// `"white"`, `"black"`, or `None` for a draw (last-roll tie).
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner.winner().map(color_name)
    }

    /// `"oin"`, `"mars"`, `"koks"`, or `None` for a draw.
    #[getter]
    fn kind(&self) -> Option<String> {
        match self.inner {
            nardy_core::Outcome::Win { kind, .. } => Some(kind.to_string()),
            nardy_core::Outcome::Draw => None,
        }
    }

    /// The winner's points: 1 oin, 2 mars, 3 koks, 0 for a draw.
    #[getter]
    fn points(&self) -> u8 {
        self.inner.points()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("nardy.Outcome('{}')", self.inner)
    }
}

/// A turn being played one step at a time (`nardy_core::TurnBuilder`): only steps that
/// can be completed to a legal full turn are offered or accepted.
#[pyclass(module = "tabletop.nardy")]
#[derive(Clone)]
pub(crate) struct TurnBuilder {
    pub(crate) inner: nardy_core::TurnBuilder,
}

#[pymethods]
impl TurnBuilder {
    /// The turn of `position`'s side to move with `dice`.
    #[new]
    #[pyo3(signature = (position, dice, rules = None))]
    fn new(position: &Position, dice: DiceArg, rules: Option<&Rules>) -> PyResult<Self> {
        Ok(TurnBuilder {
            inner: nardy_core::TurnBuilder::new(position.inner, dice.get()?, rules_of(rules)),
        })
    }

    /// Every legal next step (`"24/18"`, `"3/off"`), sorted.
    fn legal_steps(&self) -> Vec<String> {
        self.inner
            .legal_steps()
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// Plays one step; raises `IllegalMoveError` (with the reason) and changes nothing when
    /// it is not legal.
    fn play(&mut self, step: &str) -> PyResult<()> {
        let step = step.parse().map_err(errors::parse)?;
        self.inner.play(step).map_err(errors::illegal)
    }

    /// Takes back the last step of the turn.
    fn undo(&mut self) -> Option<String> {
        self.inner.undo().map(|s| s.to_string())
    }

    /// The steps played so far.
    fn played(&self) -> Vec<String> {
        self.inner.played().iter().map(|s| s.to_string()).collect()
    }

    /// The dice not yet played.
    fn remaining_dice(&self) -> Vec<u8> {
        self.inner.remaining_dice()
    }

    /// Whether the steps played form a legal full turn.
    fn is_complete(&self) -> bool {
        self.inner.is_complete()
    }

    /// The board after the steps played so far.
    fn position(&self) -> Position {
        Position {
            inner: self.inner.position(),
        }
    }

    /// The whole turn, once complete; raises `IllegalMoveError` before.
    fn finish(&self) -> PyResult<String> {
        Ok(self.inner.finish().map_err(errors::illegal)?.to_string())
    }

    fn __repr__(&self) -> String {
        format!(
            "nardy.TurnBuilder(start='{}', dice='{}', played={:?})",
            self.inner.start(),
            self.inner.dice(),
            self.played()
        )
    }
}

/// A game of Long Nardy: the roll-off, dice thrown from a seeded generator, the history
/// with `undo`/`redo` (the dice come back too), the outcome and binary saves.
#[pyclass(module = "tabletop.nardy", eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Game {
    pub(crate) inner: nardy_core::Game,
}

#[pymethods]
impl Game {
    /// A new game whose dice come from a ChaCha8 generator seeded with `seed`; from
    /// `position` (fresh dice) when given, else from the start after a roll-off.
    #[new]
    #[pyo3(signature = (seed = 0, rules = None, position = None))]
    fn new(seed: u64, rules: Option<&Rules>, position: Option<&Position>) -> PyResult<Self> {
        let rules = rules_of(rules);
        let inner = match position {
            None => nardy_core::Game::new(rules, seed),
            Some(p) => {
                nardy_core::Game::from_position(rules, p.inner, seed).map_err(errors::illegal)?
            }
        };
        Ok(Game { inner })
    }

    /// The rules in force.
    #[getter]
    fn rules(&self) -> Rules {
        Rules {
            inner: *self.inner.rules(),
        }
    }

    /// The current position.
    #[getter]
    fn position(&self) -> Position {
        Position {
            inner: *self.inner.position(),
        }
    }

    /// The dice the side to move plays, as `(high, low)`.
    #[getter]
    fn dice(&self) -> (u8, u8) {
        dice_tuple(self.inner.dice())
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.inner.side_to_move())
    }

    /// Every distinct legal turn with the current dice.
    fn legal_moves(&self) -> Vec<String> {
        self.inner
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// A step-by-step builder of the current turn.
    fn builder(&self) -> PyResult<TurnBuilder> {
        Ok(TurnBuilder {
            inner: self.inner.builder().map_err(errors::illegal)?,
        })
    }

    /// Plays a whole turn (`"24/18 18/13"`, `"pass"`) and throws the next dice; raises
    /// `IllegalMoveError` and changes nothing when the turn is not legal.
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        if self.inner.outcome().is_some() {
            return Err(errors::game_over("the game is over"));
        }
        let mv = parse_move(r#move)?;
        self.inner.play(&mv).map_err(errors::illegal)
    }

    /// Plays the turn a builder completed.
    fn play_builder(&mut self, builder: &TurnBuilder) -> PyResult<()> {
        self.inner
            .play_builder(&builder.inner)
            .map_err(errors::illegal)
    }

    /// Takes back the last turn (its dice come back) and returns it, or `None`.
    fn undo(&mut self) -> Option<String> {
        self.inner.undo().map(|m| m.to_string())
    }

    /// Plays again the last turn taken back, or returns `None`.
    fn redo(&mut self) -> Option<String> {
        self.inner.redo().map(|m| m.to_string())
    }

    /// The turns played: `(color, (high, low), move)` each.
    fn history(&self) -> Vec<(&'static str, (u8, u8), String)> {
        self.inner
            .history()
            .iter()
            .map(|t| (color_name(t.color), dice_tuple(t.dice), t.mv.to_string()))
            .collect()
    }

    /// The outcome once the game is over, else `None`.
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome().map(|o| Outcome { inner: o })
    }

    /// The game in Tabletop's binary save format (the dice generator included).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// A game read from `to_bytes()`'s output; raises `LoadError` on anything else.
    #[classmethod]
    fn from_bytes(_cls: &Bound<'_, PyType>, data: &[u8]) -> PyResult<Self> {
        let inner = nardy_core::Game::from_bytes(data).map_err(errors::load)?;
        Ok(Game { inner })
    }

    fn __repr__(&self) -> String {
        format!(
            "nardy.Game(position='{}', dice='{}', turns={})",
            self.inner.position(),
            self.inner.dice(),
            self.inner.history().len()
        )
    }
}

/// The number of distinct positions after `depth` turns from `position` over all 21
/// rolls (nardy-core's `perft`).
#[pyfunction]
#[pyo3(signature = (position, depth, rules = None))]
fn perft(py: Python<'_>, position: &Position, depth: u32, rules: Option<&Rules>) -> u64 {
    let rules = rules_of(rules);
    let pos = position.inner;
    py.detach(move || nardy_core::perft(&pos, depth, &rules))
}

util::game_copy_and_pickle!(Game);

util::position_copy_and_pickle!(Position);

pub(crate) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = util::submodule(py, "nardy")?;
    m.add_class::<Rules>()?;
    m.add_class::<Position>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<TurnBuilder>()?;
    m.add_class::<Game>()?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(hints, &m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, &m)?)?;
    m.add_function(wrap_pyfunction!(play_game, &m)?)?;
    m.add_function(wrap_pyfunction!(play_games, &m)?)?;
    m.add_function(wrap_pyfunction!(perft, &m)?)?;
    Ok(m)
}
