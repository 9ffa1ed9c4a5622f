//! Computer players and the exact endgame solver.
//!
//! - [`Solver`] solves a position exactly: the final disc difference with perfect play
//!   (empty squares to the winner) and a best move. It is an alpha-beta search on 16-byte
//!   nodes with a transposition table, fastest-first and parity move ordering, stability
//!   cutoffs and specialised code for the last empty squares.
//! - [`Searcher`] is the midgame search: principal variation search with iterative
//!   deepening, a transposition table, history and mobility move ordering, Multi-ProbCut
//!   ([`probcut`], its table fitted by our own tool) and the trained pattern
//!   [`Evaluator`]. Near the end it hands over to the solver.
//! - [`Bot`] is the computer player interface; [`Engine`] implements it for every
//!   [`Level`] from 1 (a beginner can win) to 10 (as strong as the machine allows).
//! - [`hints`] scores every legal move.
//!
//! ```
//! # #[cfg(feature = "shipped-weights")] {
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//! use reversi_core::ai::{Bot, Engine, Level, Solver};
//! use reversi_core::{Move, Position};
//!
//! // FFO #20: Black (X) to move, 6 empty squares; h5 wins by 6 discs.
//! let pos: Position =
//!     "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X".parse()?;
//! let solution = Solver::new().solve(pos.player(), pos.opponent());
//! assert_eq!(solution.score, 6);
//! assert_eq!(solution.best, Some(39)); // h5
//!
//! // A level-3 bot picks a legal move; the same seed gives the same move.
//! let mut bot = Engine::new(Level::new(3).unwrap());
//! let mut rng = ChaCha8Rng::seed_from_u64(7);
//! let mv = bot.choose_move(&Position::start(), &mut rng).unwrap();
//! assert!(Position::start().is_legal(mv));
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bits;
pub mod endgame;
pub mod eval;
pub mod pattern;
pub mod probcut;
pub mod search;
mod tt;

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use rand::Rng;

pub use endgame::{Solution, Solver};
pub use eval::{DISC, Evaluator, Weights};
pub use search::{Limits, SearchResult, Searcher};

use crate::{Move, Position, Rules, Square};

/// A computer player.
pub trait Bot {
    /// Chooses the move to play in `position`: a [`Move::Pass`] when the side to move
    /// must pass, `None` when the game is over. `rng` breaks ties between equally good
    /// moves (and adds the deliberate mistakes of weak levels), so the same seed gives the
    /// same choice.
    fn choose_move(&mut self, position: &Position, rng: &mut dyn Rng) -> Option<Move>;

    /// Forgets what was learnt during a game (transposition tables); call between games.
    fn new_game(&mut self) {}
}

/// A strength level, 1 (weakest) to [`Level::MAX`], each with a short name.
///
/// | level | name | midgame plies | exact from (empties) | notes |
/// |---|---|---|---|---|
/// | 1 | `random` | 1 | 4 | ±60 discs of random noise: nearly random play |
/// | 2 | `wild` | 1 | 4 | ±25 discs of random noise |
/// | 3 | `beginner` | 1 | 4 | ±10 discs of random noise: a beginner can win |
/// | 4 | `greedy` | 1 | 6 | the best move one ply deep |
/// | 5 | `casual` | 2 | 8 | |
/// | 6 | `club` | 3 | 10 | |
/// | 7 | `strong` | 4 | 12 | the CLI's default bot |
/// | 8 | `expert` | 8 | 14 | |
/// | 9 | `master` | 11 | 16 | |
/// | 10 | `max` | 14 | 18 | about 0.1 s per move here; 1 s a move on a [`Clock`] |
///
/// `Level::bot` searches the fixed budgets above, so the same seed plays the same game
/// on every machine. `Level::bot_on_clock` gives [`Level::MAX`] a fixed time per move
/// instead ([`Level::time_ms`]): it then deepens as far as one second allows, spending
/// more on moves where the best move changes or the score falls.
///
/// A level reads from its number or its name in any case (`"7"`, `"Strong"`) and prints
/// as its number. Every level uses the trained pattern evaluation. Each level beats the
/// one below in at least 65% of the games of `tabletop reversi arena` (the table is in
/// `docs/research/reversi-strength.md`); for stronger play than level 10, give
/// `Engine::with_limits` a deeper budget or a time limit
/// (`tabletop reversi bestmove --depth` / `--time-ms`).
///
/// ```
/// use reversi_core::Rules;
/// use reversi_core::ai::Level;
///
/// let level: Level = "club".parse()?;
/// assert_eq!(level, Level::new(6).unwrap());
/// assert_eq!((level.get(), level.name(), level.to_string()), (6, "club", "6".to_owned()));
/// assert_eq!(Level::ALL.len(), 10);
/// # #[cfg(feature = "shipped-weights")]
/// let _bot = level.bot(&Rules::default());
/// # Ok::<(), reversi_core::ai::ParseLevelError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// Milliseconds a move of [`Level::MAX`] on a clock.
const MAX_LEVEL_MS: u64 = 1000;

/// The numbers and names of levels 1 to 10, in order.
const LEVELS: tabletop_common::LevelNames = tabletop_common::LevelNames::new(
    1,
    &[
        "random", "wild", "beginner", "greedy", "casual", "club", "strong", "expert", "master",
        "max",
    ],
    &[],
);

pub use tabletop_common::ParseLevelError;

impl Level {
    /// The weakest level: a one-ply search with deliberate random mistakes.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(10);
    /// Every level, weakest first.
    pub const ALL: [Level; 10] = {
        let mut all = [Level(1); 10];
        let mut i = 0;
        while i < all.len() {
            all[i] = Level(i as u8 + 1);
            i += 1;
        }
        all
    };

    /// The level `n`, if it is in 1..=10.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= Level::MAX.0 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The number of the level.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The short name of the level (see the table on [`Level`]).
    pub const fn name(self) -> &'static str {
        LEVELS.name(self.0)
    }

    /// A fresh bot of this level: an [`Engine`] with empty tables. Reversi's only rule
    /// switch (who moves first) does not change how a bot plays, so `rules` is not
    /// needed to build one; it is taken for the shape every engine shares.
    #[cfg(feature = "shipped-weights")]
    pub fn bot(self, rules: &Rules) -> Box<dyn Bot> {
        self.bot_with(rules, Evaluator::default())
    }

    /// A fresh bot of this level that evaluates with `eval`: the one `Level::bot` builds
    /// when `eval` holds the shipped weights, for a frontend that reads them at run time
    /// (`Evaluator::with_patterns(PatternWeights::from_bytes(file)?)`) instead of
    /// compiling them in. Cloning an [`Evaluator`] shares its weights.
    pub fn bot_with(self, rules: &Rules, eval: Evaluator) -> Box<dyn Bot> {
        let _ = rules;
        Box::new(Engine::with_level_evaluator(self, eval))
    }

    /// The thinking time a move of this level when it plays on a [`Clock`]
    /// (`Level::bot_on_clock`): one second for [`Level::MAX`], `None` for the others,
    /// which always search their fixed budget.
    pub const fn time_ms(self) -> Option<u64> {
        if self.0 == Level::MAX.0 {
            Some(MAX_LEVEL_MS)
        } else {
            None
        }
    }

    /// A fresh bot of this level that plays on `clock`: [`Level::MAX`] then thinks
    /// [`Level::time_ms`] a move, however fast the machine; the other levels play exactly
    /// as [`Level::bot`]'s. A bot on the clock no longer plays the same game for the same
    /// seed on every machine: use [`Level::bot`] where that matters.
    #[cfg(feature = "shipped-weights")]
    pub fn bot_on_clock(self, rules: &Rules, clock: Clock) -> Box<dyn Bot> {
        let _ = rules;
        match self.time_ms() {
            Some(ms) => Box::new(Engine::on_clock(
                ms,
                self.limits().exact_empties,
                clock,
                Evaluator::default(),
            )),
            None => Box::new(Engine::new(self)),
        }
    }

    /// The search budget: midgame depth and the number of empty squares from which the
    /// game is solved exactly.
    pub const fn limits(self) -> Limits {
        let (depth, exact) = match self.0 {
            1..=3 => (1, 4),
            4 => (1, 6),
            5 => (2, 8),
            6 => (3, 10),
            7 => (4, 12),
            8 => (8, 14),
            9 => (11, 16),
            _ => (14, 18),
        };
        Limits::depth(depth, exact)
    }

    /// The size of the random noise (hundredths of a disc) added to each move's score:
    /// weak levels make human-like mistakes on purpose.
    pub const fn noise(self) -> i32 {
        match self.0 {
            1 => 6000,
            2 => 2500,
            3 => 1000,
            _ => 0,
        }
    }
}

impl fmt::Display for Level {
    /// The number of the level.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// The number (`"7"`) or the name (`"strong"`, any case), surrounding spaces allowed.
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        LEVELS.parse(s).map(Level)
    }
}

/// One legal move with its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The square to play.
    pub square: Square,
    /// The score after this move from the mover's view, in hundredths of a disc
    /// ([`DISC`] per disc); when `exact`, `DISC` times the final disc difference.
    pub score: i32,
    /// Whether the score is the exact final result with perfect play.
    pub exact: bool,
}

impl ScoredMove {
    /// The score alone as [`ScoredMove`]'s `Display` shows it: `+6` for an exact score
    /// (whole discs, always signed: `+0` for a draw), `+1.25` or `-0.50` for an estimate.
    pub fn score_text(self) -> impl fmt::Display {
        struct Text(i32, bool);
        impl fmt::Display for Text {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let Text(score, exact) = *self;
                if exact {
                    write!(f, "{:+}", score / DISC)
                } else {
                    let sign = if score < 0 { '-' } else { '+' };
                    let abs = score.unsigned_abs();
                    write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
                }
            }
        }
        Text(self.score, self.exact)
    }
}

impl fmt::Display for ScoredMove {
    /// `f5 +6` for an exact score, `f5 +1.25` for an estimate.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.square, self.score_text())
    }
}

/// Scores every legal move of `position` with `searcher` and `limits` (exactly when the
/// number of empty squares is at most `limits.exact_empties`), best first. Empty when the
/// side to move has no legal move.
pub fn hints(searcher: &mut Searcher, position: &Position, limits: &Limits) -> Vec<ScoredMove> {
    searcher
        .score_moves(position.player(), position.opponent(), limits)
        .into_iter()
        .map(|(sq, score, exact)| ScoredMove {
            square: Square::ALL[sq as usize],
            score,
            exact,
        })
        .collect()
}

/// The searching bot of every level.
#[derive(Clone, Debug)]
pub struct Engine {
    limits: Limits,
    noise: i32,
    searcher: Searcher,
    last: Option<SearchResult>,
    /// Milliseconds a move when playing on `clock`.
    time_ms: Option<u64>,
    clock: Option<Clock>,
}

/// A monotonic clock for bots that play on time: microseconds from any fixed origin.
///
/// The engines are `no_std` and read no clock of their own, so a frontend passes one:
///
/// ```
/// use reversi_core::ai::Clock;
///
/// let origin = std::time::Instant::now();
/// let clock = Clock::new(move || origin.elapsed().as_micros() as u64);
/// assert!(clock.micros() < 60_000_000);
/// ```
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> u64 + Send + Sync>);

impl Clock {
    /// A clock reading `micros`.
    pub fn new(micros: impl Fn() -> u64 + Send + Sync + 'static) -> Clock {
        Clock(Arc::new(micros))
    }

    /// The current reading in microseconds.
    pub fn micros(&self) -> u64 {
        (self.0)()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Clock")
    }
}

impl Engine {
    /// The bot of `level`.
    #[cfg(feature = "shipped-weights")]
    pub fn new(level: Level) -> Engine {
        Engine::with_level_evaluator(level, Evaluator::default())
    }

    /// The bot of `level` with the evaluation `eval`.
    pub fn with_level_evaluator(level: Level, eval: Evaluator) -> Engine {
        Engine::build(level.limits(), level.noise(), eval)
    }

    /// A bot with an explicit budget, no noise and the evaluation `eval`.
    pub fn with_evaluator(limits: Limits, eval: Evaluator) -> Engine {
        Engine::build(limits, 0, eval)
    }

    /// A bot with an explicit budget and no noise.
    #[cfg(feature = "shipped-weights")]
    pub fn with_limits(limits: Limits) -> Engine {
        Engine::with_evaluator(limits, Evaluator::default())
    }

    fn build(limits: Limits, noise: i32, eval: Evaluator) -> Engine {
        Engine {
            limits,
            noise,
            searcher: Searcher::with_evaluator(eval),
            last: None,
            time_ms: None,
            clock: None,
        }
    }

    /// A bot that searches for about `time_ms` milliseconds a move on `clock` (with the
    /// time management of [`Searcher::search_on_clock`]), solving exactly from
    /// `exact_empties` empty squares, with the evaluation `eval`.
    pub fn on_clock(time_ms: u64, exact_empties: u32, clock: Clock, eval: Evaluator) -> Engine {
        let mut engine = Engine::build(Limits::depth(60, exact_empties), 0, eval);
        engine.time_ms = Some(time_ms.max(1));
        engine.clock = Some(clock);
        engine
    }

    /// The milliseconds a move this bot spends on its clock (`None`: it searches its fixed
    /// budget).
    pub fn time_ms(&self) -> Option<u64> {
        self.time_ms.filter(|_| self.clock.is_some())
    }

    /// The search budget.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The searcher (for hints with the same tables).
    pub fn searcher_mut(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    /// The result of the last search, if any.
    pub fn last_search(&self) -> Option<&SearchResult> {
        self.last.as_ref()
    }

    /// Chooses a move like [`Bot::choose_move`], polling `stop` during the search: when it
    /// returns `true` (a time limit), the best move of the last finished iteration is
    /// played.
    pub fn choose_move_with_stop(
        &mut self,
        position: &Position,
        rng: &mut dyn Rng,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Move> {
        if position.is_over() {
            return None;
        }
        let (p, o) = (position.player(), position.opponent());
        if crate::bitboard::legal_moves(p, o) == 0 {
            return Some(Move::Pass);
        }
        if self.noise > 0 {
            let scored = self.searcher.score_moves(p, o, &self.limits);
            let mut best = (i32::MIN, scored[0].0);
            for &(sq, score, _) in &scored {
                let noisy =
                    score + (rng.next_u64() % (2 * self.noise as u64 + 1)) as i32 - self.noise;
                if noisy > best.0 {
                    best = (noisy, sq);
                }
            }
            self.last = None;
            return Some(Move::Place(Square::ALL[best.1 as usize]));
        }
        let result = match (self.time_ms, &self.clock) {
            (Some(ms), Some(clock)) => {
                let micros = || clock.micros();
                self.searcher
                    .search_on_clock(p, o, &self.limits, ms, &micros, stop)
            }
            _ => self.searcher.search(p, o, &self.limits, stop),
        };
        let pick = if result.ties.len() > 1 {
            result.ties[(rng.next_u64() % result.ties.len() as u64) as usize]
        } else {
            result.best?
        };
        self.last = Some(result);
        Some(Move::Place(Square::ALL[pick as usize]))
    }
}

impl Bot for Engine {
    fn choose_move(&mut self, position: &Position, rng: &mut dyn Rng) -> Option<Move> {
        self.choose_move_with_stop(position, rng, &mut || false)
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }
}

// The bots' own tests play with the shipped weights.
#[cfg(all(test, feature = "shipped-weights"))]
mod tests;
