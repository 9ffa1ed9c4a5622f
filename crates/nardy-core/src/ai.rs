//! Computer players: the [`Bot`] trait and the strength [`Level`]s that build them, and
//! what the strong levels are made of.
//!
//! - [`Probabilities`]: how a game is expected to end for the side to move (win, mars,
//!   koks, and the same for the loss) and its equity under the [`Rules`].
//! - [`Evaluator`]: one trait for every static evaluation: [`HandEval`] (hand-written:
//!   pips, head, points in the right quarters, primes, stacks, race model), [`Network`]
//!   (learned by self-play with TD(λ), [`Trainer`]), and [`WithBearoff`], exact in
//!   bear-off races from the [`BearoffDb`]. [`is_race`] tells a race from contact.
//! - [`Search`]: expectimax over the 21 rolls at 0, 1 or 2 plies with move filters and a
//!   node budget ([`SearchConfig`]); [`Search::rank`] gives every legal turn with its
//!   equity, which is what a hint shows.
//! - [`SearchBot`]: a bot over a search, with optional noise; [`Level`] builds the six
//!   levels, sharing their [`Resources`] (database and network).
//! - [`analyse_game`]: every turn of a [`Game`](crate::Game) against the search's best;
//!   [`play_game`]: a game between two bots with seeded dice (for duplicate matches).
//!
//! The design, the training command of the shipped weights and the measured strength of
//! each level are in `docs/research/nardy-ai.md`.

use alloc::boxed::Box;
use core::fmt;
use core::str::FromStr;

use rand::Rng;

use crate::dice::Dice;
use crate::movegen::Move;
use crate::position::{CHECKERS, Position};
use crate::rules::Rules;

/// A computer player. The rules are given when the bot is built; it sees the position and
/// the dice thrown for the side to move.
///
/// The trait is object-safe, so levels hand out `Box<dyn Bot>`.
pub trait Bot {
    /// The turn to play in `position` with `dice`: one of [`Position::legal_moves`], the
    /// pass ([`Move::pass`]) when that is the only one. `None` only when the game is over:
    /// the side to move has borne off every checker, or its opponent has and the rules
    /// give no last-roll tie. The generator breaks ties between equal choices.
    fn choose_move(&mut self, position: &Position, dice: Dice, rng: &mut dyn Rng) -> Option<Move>;

    /// Forgets what was learnt during a game; call between games.
    fn new_game(&mut self) {}
}

/// Whether a game that reached `position` is over under `rules`, as far as the position
/// tells (under the last-roll tie the side to move still plays after its opponent
/// finished).
pub(crate) fn game_over(position: &Position, rules: &Rules) -> bool {
    let mover = position.side_to_move();
    position.borne_off(mover) == CHECKERS
        || (position.borne_off(mover.other()) == CHECKERS && !rules.last_roll_tie)
}

/// Plays a uniformly random legal turn.
///
/// ```
/// use nardy_core::{Dice, Position, Rules, ai::{Bot, RandomBot}};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let rules = Rules::default();
/// let mut bot = RandomBot::new(rules);
/// let mv = bot.choose_move(&Position::start(), Dice::new(3, 3)?, &mut rng).unwrap();
/// assert!(Position::start().legal_moves(Dice::new(3, 3)?, &rules).contains(&mv));
/// # Ok::<(), nardy_core::ParseDiceError>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomBot {
    rules: Rules,
}

impl RandomBot {
    /// A random player for games under `rules`.
    pub fn new(rules: Rules) -> RandomBot {
        RandomBot { rules }
    }
}

impl Bot for RandomBot {
    fn choose_move(&mut self, position: &Position, dice: Dice, rng: &mut dyn Rng) -> Option<Move> {
        if game_over(position, &self.rules) {
            return None;
        }
        let moves = position.legal_moves(dice, &self.rules);
        let n = moves.len() as u64;
        let pick = if n <= 1 { 0 } else { rng.next_u64() % n };
        Some(moves.get(pick as usize).cloned().unwrap_or_default())
    }
}

/// A strength level of the computer player, weakest first. Strength figures are
/// measured with `tabletop nardy arena` (duplicate dice, federation rules); see
/// `docs/research/nardy-ai.md`.
///
/// | level | name | bot | measured (points per game, duplicate dice) |
/// |---|---|---|---|
/// | 1 | `random` | [`RandomBot`]: a uniformly random legal turn | |
/// | 2 | `beginner` | the hand-written evaluation ([`HandEval`]) at 0 plies, with noise of 0.06 equity on every turn | +1.38 against random (2,000 games) |
/// | 3 | `greedy` | the hand-written evaluation at 0 plies | +0.95 against beginner (2,000) |
/// | 4 | `learned` | the network (the shipped `weights.bin`) at 0 plies, exact in bear-off races ([`BearoffDb`]) | +1.28 against greedy (2,000) |
/// | 5 | `strong` | the same at 1 ply (the default level of `tabletop nardy`) | +0.07 against learned (1,000), +1.39 against greedy (2,000) |
/// | 6 | `expert` | the same at 2 plies with move filters ([`SearchConfig::plies`]) | +0.12 ± 0.13 against strong (200), +1.48 against greedy (2,000; interval +1.44 to +1.52), 100% against random (100) |
///
/// `Level::bot` gives each bot of levels 4 to 6 its own bear-off database (built on the
/// bot's first bear-off race, about a second) and network; [`Level::bot_with`] shares
/// them. Without the default feature `shipped-weights` the network is not compiled in:
/// `Level::bot` is absent, [`Level::bot_with`] takes [`Resources::with_network`] of a
/// network read at run time, and [`Level::bot_without_resources`] builds levels 1 to 3.
///
/// ```
/// use nardy_core::{Rules, ai::Level};
/// let level: Level = "random".parse()?;
/// assert_eq!(level, Level::MIN);
/// assert_eq!((level.get(), level.name(), level.to_string()), (1, "random", "1".into()));
/// assert_eq!("Expert".parse::<Level>()?, Level::MAX);
/// assert!("7".parse::<Level>().is_err());
/// assert!(level.bot_without_resources(&Rules::default()).is_some());
/// assert!(Level::MAX.bot_without_resources(&Rules::default()).is_none(), "it needs the network");
/// # #[cfg(feature = "shipped-weights")]
/// let _bot = Level::MAX.bot(&Rules::default());
/// # Ok::<(), nardy_core::ai::ParseLevelError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// The numbers and names of the levels, weakest first.
const LEVELS: tabletop_common::LevelNames = tabletop_common::LevelNames::new(
    1,
    &[
        "random", "beginner", "greedy", "learned", "strong", "expert",
    ],
    &[],
);

pub use tabletop_common::ParseLevelError;

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(6);
    /// Every level, weakest first.
    pub const ALL: [Level; 6] = [Level(1), Level(2), Level(3), Level(4), Level(5), Level(6)];

    /// The level `n`, if there is one.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Level::MIN.0 && n <= Level::MAX.0 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The number of the level.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The name of the level (`random`, `beginner`, `greedy`, `learned`, `strong`,
    /// `expert`).
    pub const fn name(self) -> &'static str {
        LEVELS.name(self.0)
    }

    /// A fresh bot of this level for a game under `rules`. Levels 4 to 6 make their own
    /// [`Resources`] (whose database costs about a second on its first use); use
    /// [`Level::bot_with`] to share them. Only with the `shipped-weights` feature, whose
    /// network the learned levels use: without it, [`Level::bot_with`] takes a network
    /// read at run time and [`Level::bot_without_resources`] builds levels 1 to 3.
    #[cfg(feature = "shipped-weights")]
    pub fn bot(self, rules: &Rules) -> Box<dyn Bot> {
        self.bot_without_resources(rules)
            .unwrap_or_else(|| levels::learned_bot(self.0, rules, &Resources::new()))
    }

    /// A fresh bot of this level for a game under `rules`, using shared `resources`
    /// (levels 1 to 3 do not use them).
    pub fn bot_with(self, rules: &Rules, resources: &Resources) -> Box<dyn Bot> {
        self.bot_without_resources(rules)
            .unwrap_or_else(|| levels::learned_bot(self.0, rules, resources))
    }

    /// A fresh bot of this level for a game under `rules` when the level needs no
    /// [`Resources`] (levels 1 to 3, as `Level::bot` builds them); `None` for the
    /// learned levels, which only [`Level::bot_with`] (or `Level::bot`) can build.
    pub fn bot_without_resources(self, rules: &Rules) -> Option<Box<dyn Bot>> {
        levels::hand_bot(self.0, rules)
    }

    /// The search behind this level's choices, without the noise of the beginner level
    /// (levels 1 to 3 give the greedy level's search), for hints and analysis.
    pub fn search(
        self,
        rules: &Rules,
        resources: &Resources,
    ) -> Search<Box<dyn Evaluator + Send + Sync>> {
        self.search_without_resources(rules).unwrap_or_else(|| {
            let plies = self.0 - 4;
            Search::new(
                Box::new(resources.learned()),
                *rules,
                SearchConfig::plies(plies),
            )
        })
    }

    /// The search of [`Level::search`] when the level needs no [`Resources`] (levels 1
    /// to 3: the greedy level's search); `None` for the learned levels.
    pub fn search_without_resources(
        self,
        rules: &Rules,
    ) -> Option<Search<Box<dyn Evaluator + Send + Sync>>> {
        (!self.needs_resources())
            .then(|| Search::new(Box::new(HandEval) as _, *rules, SearchConfig::plies(0)))
    }

    /// Whether this level's bots need [`Resources`] (the database and the network).
    pub const fn needs_resources(self) -> bool {
        self.0 >= 4
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

    /// The number or the name of a level, in any case.
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        LEVELS.parse(s).map(Level)
    }
}

mod analysis;
mod arena;
mod bearoff;
mod equity;
mod eval;
mod levels;
mod network;
mod rollout;
mod search;
mod train;

pub use analysis::{AnalysedTurn, GameAnalysis, analyse_game};
pub use arena::{MAX_GAME_TURNS, play_game};
pub use bearoff::{BEAROFF_POSITIONS, BearoffDb, WithBearoff};
pub use equity::Probabilities;
pub use eval::{Evaluator, HandEval, is_race, terminal_probabilities};
pub use levels::{Resources, SearchBot};
pub use network::{INPUTS, INPUTS_V2, MAX_HIDDEN, Network, OUTPUTS, WEIGHTS_FORMAT};
pub use rollout::{RolloutStats, rollout};
pub use search::{MoveFilter, RankedMove, Search, SearchConfig};
pub use train::{CHECKPOINT_FORMAT, TrainConfig, Trainer};
