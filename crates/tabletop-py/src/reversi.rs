//! `tabletop.reversi`: positions, games, bots, hints and perft of `reversi-core`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};
use reversi_core::ai::{self, Limits, Searcher};
use reversi_core::{Color, Move, Rules};

use crate::errors;
use crate::util::{self, LevelArg};

pub(crate) fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

pub(crate) fn parse_color(text: &str) -> PyResult<Color> {
    text.parse::<Color>().map_err(errors::parse)
}

pub(crate) fn parse_move(text: &str) -> PyResult<Move> {
    text.parse::<Move>().map_err(errors::parse)
}

/// A Reversi position: the 64 squares and the side to move. Immutable and hashable;
/// `str()` gives its notation (the OBF board string), which `Position(text)` reads.
#[pyclass(module = "tabletop.reversi", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub(crate) struct Position {
    pub(crate) inner: reversi_core::Position,
}

#[pymethods]
impl Position {
    /// The position written `text` (an OBF board string such as
    /// `"---------------------------OX------XO--------------------------- X"`), or the start
    /// position when `text` is omitted.
    #[new]
    #[pyo3(signature = (text = None))]
    fn new(text: Option<&str>) -> PyResult<Self> {
        let inner = match text {
            None => reversi_core::Position::start(),
            Some(t) => t.parse().map_err(errors::parse)?,
        };
        Ok(Position { inner })
    }

    /// The start position with `first` (`"black"` or `"white"`) to move.
    #[classmethod]
    #[pyo3(signature = (first = "black"))]
    fn start(_cls: &Bound<'_, PyType>, first: &str) -> PyResult<Self> {
        Ok(Position {
            inner: reversi_core::Position::start_with(parse_color(first)?),
        })
    }

    /// `"black"` or `"white"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.inner.side_to_move())
    }

    /// The legal moves in notation (`"f5"`, or `["pass"]` when the side must pass; empty
    /// once the game is over).
    fn legal_moves(&self) -> Vec<String> {
        self.inner
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: &str) -> PyResult<bool> {
        Ok(self.inner.is_legal(parse_move(r#move)?))
    }

    /// The position after `move`; raises `IllegalMoveError` (with the rules' reason) when it
    /// is not legal.
    fn after(&self, r#move: &str) -> PyResult<Position> {
        let mv = parse_move(r#move)?;
        let inner = self.inner.after(mv).map_err(errors::illegal)?;
        Ok(Position { inner })
    }

    /// Whether neither side can move.
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The final disc counts once the game is over, else `None`.
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome().map(|o| Outcome { inner: o })
    }

    /// The number of discs of `color`.
    fn count(&self, color: &str) -> PyResult<u32> {
        Ok(self.inner.count(parse_color(color)?))
    }

    /// The 64 squares from a1 to h8 (a1, b1, … h1, a2, …): 0 empty, 1 black, 2 white.
    fn board(&self) -> Vec<u8> {
        reversi_core::Square::ALL
            .iter()
            .map(|&sq| match self.inner.piece_at(sq) {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            })
            .collect()
    }

    /// The black and white bitboards (bit `i` is square `i`, a1 = 0, h8 = 63).
    fn bitboards(&self) -> (u64, u64) {
        (self.inner.black(), self.inner.white())
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("reversi.Position('{}')", self.inner)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.hash(&mut h);
        h.finish()
    }
}

/// How a finished Reversi game ended: the final disc counts.
#[pyclass(module = "tabletop.reversi", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Outcome {
    inner: reversi_core::Outcome,
}

#[pymethods]
impl Outcome {
    /// Black's discs at the end.
    #[getter]
    fn black(&self) -> u8 {
        self.inner.black
    }

    /// White's discs at the end.
    #[getter]
    fn white(&self) -> u8 {
        self.inner.white
    }

    /// `"black"`, `"white"`, or `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner.winner().map(color_name)
    }

    /// The final score of `color` with the empty squares given to the winner.
    fn score(&self, color: &str) -> PyResult<i32> {
        Ok(self.inner.score(parse_color(color)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "reversi.Outcome(black={}, white={}, winner={})",
            self.inner.black,
            self.inner.white,
            self.inner
                .winner()
                .map_or("None".to_string(), |c| format!("'{}'", color_name(c)))
        )
    }
}

/// A game of Reversi: a position with its history, `undo`/`redo` and binary saves.
#[pyclass(module = "tabletop.reversi", eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Game {
    pub(crate) inner: reversi_core::Game,
}

#[pymethods]
impl Game {
    /// A new game from the start position with `first` to move, or from `position`.
    #[new]
    #[pyo3(signature = (first = "black", position = None))]
    fn new(first: &str, position: Option<&Position>) -> PyResult<Self> {
        let rules = Rules::with_first(parse_color(first)?);
        let inner = match position {
            None => reversi_core::Game::new(rules),
            Some(p) => reversi_core::Game::from_position(rules, p.inner),
        };
        Ok(Game { inner })
    }

    /// The game replayed from a move record such as `"f5d6c3"` (passes inferred).
    #[classmethod]
    #[pyo3(signature = (record, first = "black"))]
    fn from_record(_cls: &Bound<'_, PyType>, record: &str, first: &str) -> PyResult<Self> {
        let rules = Rules::with_first(parse_color(first)?);
        let record: reversi_core::Record = record.parse().map_err(errors::parse)?;
        let inner = reversi_core::Game::from_record(rules, &record).map_err(errors::illegal)?;
        Ok(Game { inner })
    }

    /// The current position.
    #[getter]
    fn position(&self) -> Position {
        Position {
            inner: *self.inner.position(),
        }
    }

    /// `"black"` or `"white"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.inner.side_to_move())
    }

    /// The legal moves in notation.
    fn legal_moves(&self) -> Vec<String> {
        self.inner
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// Plays `move` (`"f5"` or `"pass"`) and returns the squares it flipped; raises
    /// `IllegalMoveError` and leaves the game unchanged when the move is not legal.
    fn play(&mut self, r#move: &str) -> PyResult<Vec<String>> {
        let mv = parse_move(r#move)?;
        if self.inner.is_over() {
            return Err(errors::game_over("the game is over"));
        }
        let flipped = self.inner.play(mv).map_err(errors::illegal)?;
        Ok(flipped.iter().map(|s| s.to_string()).collect())
    }

    /// Takes back the last move and returns it, or `None` at the start.
    fn undo(&mut self) -> Option<String> {
        self.inner.undo().map(|m| m.to_string())
    }

    /// Plays again the last move taken back, or returns `None`.
    fn redo(&mut self) -> Option<String> {
        self.inner.redo().map(|m| m.to_string())
    }

    /// The moves played, in notation.
    fn moves(&self) -> Vec<String> {
        self.inner.moves().iter().map(|m| m.to_string()).collect()
    }

    /// The move record (`"f5d6c3"`, passes left out).
    #[getter]
    fn record(&self) -> String {
        self.inner.record().to_string()
    }

    /// Whether neither side can move.
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The outcome once the game is over, else `None`.
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome().map(|o| Outcome { inner: o })
    }

    /// The game in Tabletop's binary save format.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// A game read from `to_bytes()`'s output; raises `LoadError` on anything else.
    #[classmethod]
    fn from_bytes(_cls: &Bound<'_, PyType>, data: &[u8]) -> PyResult<Self> {
        let inner = reversi_core::Game::from_bytes(data).map_err(errors::load)?;
        Ok(Game { inner })
    }

    fn __repr__(&self) -> String {
        format!(
            "reversi.Game(record='{}', position='{}')",
            self.inner.record(),
            self.inner.position()
        )
    }
}

pub(crate) fn parse_level(level: &LevelArg) -> PyResult<ai::Level> {
    level.text().parse().map_err(errors::parse)
}

/// A computer player of a level from 1 (`"random"`) to 10 (`"max"`), by number or name.
#[pyclass(module = "tabletop.reversi", unsendable)]
pub(crate) struct Bot {
    level: ai::Level,
    bot: Box<dyn ai::Bot>,
}

#[pymethods]
impl Bot {
    /// A fresh bot of `level` (a number or a name such as `"expert"`).
    #[new]
    #[pyo3(signature = (level = LevelArg::Number(5)))]
    fn new(level: LevelArg) -> PyResult<Self> {
        let level = parse_level(&level)?;
        Ok(Bot {
            level,
            bot: level.bot(&Rules::default()),
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

    /// The move this bot plays in `position` (`"pass"` when forced), or `None` once the
    /// game is over; `seed` breaks ties and drives weak levels' mistakes.
    #[pyo3(signature = (position, seed = 0))]
    fn choose_move(&mut self, position: &Position, seed: u64) -> Option<String> {
        let mut rng = util::rng(seed);
        self.bot
            .choose_move(&position.inner, &mut rng)
            .map(|m| m.to_string())
    }

    /// Forgets per-game state (tables) before a new game.
    fn new_game(&mut self) {
        self.bot.new_game();
    }

    fn __repr__(&self) -> String {
        format!("reversi.Bot({}, '{}')", self.level.get(), self.level.name())
    }
}

/// Every legal move of `position` with its score, best first, as
/// `(move, score, exact)`: `score` in discs from the mover's view, exact (the final disc
/// difference with perfect play) when at most `exact_empties` squares are empty, else the
/// search's estimate at `depth` plies. The defaults are the command line's `hint`.
#[pyfunction]
#[pyo3(signature = (position, depth = 6, exact_empties = 14))]
fn hints(
    py: Python<'_>,
    position: &Position,
    depth: u32,
    exact_empties: u32,
) -> Vec<(String, f64, bool)> {
    let pos = position.inner;
    let scored = py.detach(move || {
        let mut searcher = Searcher::new();
        ai::hints(
            &mut searcher,
            &pos,
            &Limits::depth(depth.max(1), exact_empties),
        )
    });
    scored
        .into_iter()
        .map(|m| {
            (
                m.square.to_string(),
                f64::from(m.score) / f64::from(ai::DISC),
                m.exact,
            )
        })
        .collect()
}

/// The number of move sequences of `depth` plies from `position` (passes count as plies).
#[pyfunction]
fn perft(py: Python<'_>, position: &Position, depth: u32) -> u64 {
    let pos = position.inner;
    py.detach(move || reversi_core::perft(&pos, depth))
}

/// Plays `count` games between bots of levels `black` and `white`, each a pure function
/// of its seed `item_seed(seed, i)`: the first `random_opening` plies are uniform random
/// legal moves (so strong, deterministic bots do not replay one game), then the bots play
/// with their tie-breaks from the same seed. Runs on `threads` threads with the GIL
/// released; the result does not depend on it. Returns the finished `Game`s.
#[pyfunction]
#[pyo3(signature = (black, white, count, seed = 0, random_opening = 4, threads = 1))]
fn play_games(
    py: Python<'_>,
    black: LevelArg,
    white: LevelArg,
    count: usize,
    seed: u64,
    random_opening: u32,
    threads: usize,
) -> PyResult<Vec<Game>> {
    use rand::RngExt;
    let (black, white) = (parse_level(&black)?, parse_level(&white)?);
    let games = py.detach(move || {
        let threads = threads.clamp(1, count.max(1));
        let per = count.div_ceil(threads).max(1);
        let mut out: Vec<Option<reversi_core::Game>> = vec![None; count];
        std::thread::scope(|s| {
            for (t, chunk) in out.chunks_mut(per).enumerate() {
                s.spawn(move || {
                    let rules = Rules::default();
                    let mut b = black.bot(&rules);
                    let mut w = white.bot(&rules);
                    for (k, slot) in chunk.iter_mut().enumerate() {
                        let mut rng = util::rng(util::item_seed(seed, (t * per + k) as u64));
                        let mut game = reversi_core::Game::new(rules);
                        b.new_game();
                        w.new_game();
                        while !game.is_over() {
                            let mv = if game.moves().len() < random_opening as usize {
                                let legal = game.legal_moves();
                                legal[rng.random_range(0..legal.len())]
                            } else {
                                let bot = match game.side_to_move() {
                                    Color::Black => &mut b,
                                    Color::White => &mut w,
                                };
                                match bot.choose_move(game.position(), &mut rng) {
                                    Some(mv) => mv,
                                    None => break,
                                }
                            };
                            if game.play(mv).is_err() {
                                break;
                            }
                        }
                        *slot = Some(game);
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

util::game_copy_and_pickle!(Game);

util::position_copy_and_pickle!(Position);

pub(crate) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = util::submodule(py, "reversi")?;
    m.add_class::<Position>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<Game>()?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(hints, &m)?)?;
    m.add_function(wrap_pyfunction!(perft, &m)?)?;
    m.add_function(wrap_pyfunction!(play_games, &m)?)?;
    Ok(m)
}
