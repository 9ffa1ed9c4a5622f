//! What both ways of playing start from: the play options, the puzzle of a level, and
//! the table `--load` reads or a new puzzle makes. Shared by the line mode (`play.rs`)
//! and the full screen (`tui/sudoku`).

use std::path::PathBuf;

use clap::Args;
use rand_chacha::ChaCha8Rng;
use sudoku_core::logic::Difficulty;
use sudoku_core::logic::generate_level::puzzle_of_level;
use sudoku_core::{Game, GenerateOptions, Grid, Size, Symmetry};
use tabletop_play::Table;
use tabletop_play::sudoku::{self, Sudoku};

use crate::common::{CliError, CliResult, SeedArg, load_file};

/// Generated puzzles to try before giving up on a level.
pub(crate) const LEVEL_ATTEMPTS: u32 = 2000;

/// Arguments of `tabletop sudoku play` (also accepted right after `tabletop sudoku`).
#[derive(Args, Debug, Default)]
pub(super) struct PlayArgs {
    /// Puzzle level: easy, medium, hard, expert or extreme [default: medium, easy for
    /// 4x4].
    #[arg(long, value_name = "LEVEL")]
    difficulty: Option<Difficulty>,
    /// Grid side: 4, 6, 9, 16 or 25 [default: 9].
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    #[command(flatten)]
    seed: SeedArg,
    /// Continue a saved game.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
}

impl PlayArgs {
    /// These arguments, with the unset ones taken from `other`.
    pub(super) fn or(self, other: PlayArgs) -> PlayArgs {
        PlayArgs {
            difficulty: self.difficulty.or(other.difficulty),
            size: self.size.or(other.size),
            seed: SeedArg {
                seed: self.seed.seed.or(other.seed.seed),
            },
            load: self.load.or(other.load),
        }
    }

    /// `--size`, if given.
    pub(super) fn side(&self) -> Option<usize> {
        self.size
    }

    /// Whether an option other than `--size` is given (online play takes only the size).
    pub(super) fn is_set_beyond_size(&self) -> bool {
        self.difficulty.is_some() || self.seed.seed.is_some() || self.load.is_some()
    }

    /// Whether any play option is given.
    pub(super) fn is_set(&self) -> bool {
        self.difficulty.is_some()
            || self.size.is_some()
            || self.seed.seed.is_some()
            || self.load.is_some()
    }
}

/// A grid size from `--size`.
pub(super) fn size_arg(side: usize) -> CliResult<Size> {
    Size::from_side(side)
        .ok_or_else(|| CliError::usage(format!("--size {side}: use 4, 6, 9, 16 or 25")))
}

/// A puzzle of `level`, or an error when none was found.
pub(crate) fn level_puzzle(
    level: Difficulty,
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
) -> CliResult<Grid> {
    puzzle_of_level(level, options, LEVEL_ATTEMPTS, rng).ok_or_else(|| {
        CliError::new(format!(
            "no {level} {} puzzle found in {LEVEL_ATTEMPTS} tries: try another level or size",
            options.size
        ))
    })
}

/// The level asked for, or the default: medium, easy for 4×4 (whose puzzles hardly ever
/// need more than singles).
pub(crate) fn level_of(difficulty: Option<Difficulty>, size: Size) -> Difficulty {
    difficulty.unwrap_or(if size == Size::Four {
        Difficulty::Easy
    } else {
        Difficulty::Medium
    })
}

/// A new game of a puzzle of `level`.
pub(super) fn new_game(
    level: Difficulty,
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
) -> CliResult<Game> {
    let puzzle = level_puzzle(level, options, rng)?;
    Game::new(puzzle).map_err(|e| CliError::new(format!("the generated puzzle is not proper: {e}")))
}

/// What `tabletop sudoku play` starts with: the table (loaded or a new puzzle),
/// `--difficulty`, the options of the next puzzles and the generator.
pub(super) struct Start {
    pub(super) table: Table<Sudoku>,
    /// Whether the table was loaded (`--load`) rather than generated.
    pub(super) loaded: bool,
    pub(super) difficulty: Option<Difficulty>,
    pub(super) options: GenerateOptions,
    pub(super) rng: ChaCha8Rng,
}

/// The table `args` ask for: loaded from `--load` (a table's save or the engine's own),
/// else a new puzzle.
pub(super) fn start(args: PlayArgs) -> CliResult<Start> {
    let loaded = match &args.load {
        Some(path) => {
            let bytes = load_file(path)?;
            Some(
                Table::<Sudoku>::from_bytes(&bytes)
                    .map_err(|e| CliError::new(e.to_string()).context(path.display()))?,
            )
        }
        None => None,
    };
    // A new game after a loaded one has the loaded game's size.
    let size = match (&loaded, args.size) {
        (Some(table), None) => table.game().game().size(),
        (_, side) => size_arg(side.unwrap_or(9))?,
    };
    let options = GenerateOptions {
        size,
        symmetry: Symmetry::Rotate180,
        ..GenerateOptions::default()
    };
    let mut rng = args.seed.rng();
    let (table, loaded) = match loaded {
        Some(table) => (table, true),
        None => {
            let game = new_game(level_of(args.difficulty, size), &options, &mut rng)?;
            (sudoku::new_table(game), false)
        }
    };
    Ok(Start {
        table,
        loaded,
        difficulty: args.difficulty,
        options,
        rng,
    })
}
