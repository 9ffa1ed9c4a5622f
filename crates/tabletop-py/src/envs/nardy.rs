//! Long Nardy as an environment state: `NardyCore` (the game and the turn built step by
//! step, masks, observations) and the `NardyState` class of `tabletop.envs.long_nardy_v0`.

use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

use crate::errors;
use crate::util::{self, LevelArg};

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
    pub(crate) builder: Option<nardy_core::TurnBuilder>,
    /// The legal actions of the side to move with their steps (`None`: the pass).
    pub(crate) legal: Vec<(u16, Option<nardy_core::Step>)>,
}

fn nardy_color(i: usize) -> nardy_core::Color {
    if i == 0 {
        nardy_core::Color::White
    } else {
        nardy_core::Color::Black
    }
}

impl NardyCore {
    pub(crate) fn new(rules: nardy_core::Rules, seed: u64) -> NardyCore {
        let mut core = NardyCore {
            game: nardy_core::Game::new(rules, seed),
            builder: None,
            legal: Vec::new(),
        };
        core.start_turn();
        core
    }

    pub(crate) fn start_turn(&mut self) {
        self.builder = self.game.builder().ok();
        self.refresh();
    }

    pub(crate) fn refresh(&mut self) {
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

    pub(crate) fn to_move(&self) -> usize {
        self.game.side_to_move().index()
    }

    pub(crate) fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    pub(crate) fn obs_into(&self, observer: usize, out: &mut [f32]) {
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

    pub(crate) fn mask_into(&self, out: &mut [i8]) {
        out.fill(0);
        for &(a, _) in &self.legal {
            out[usize::from(a)] = 1;
        }
    }

    /// Plays one step (or the pass); returns the rewards `[white, black]` when the game
    /// ended.
    pub(crate) fn step(&mut self, action: i64) -> PyResult<Option<[f32; 2]>> {
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

pub(crate) fn nardy_rules(rules: Option<&crate::nardy::Rules>) -> nardy_core::Rules {
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
