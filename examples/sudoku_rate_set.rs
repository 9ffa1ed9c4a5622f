//! Rates every puzzle of a file logically and checks each path against the solution.
//!
//! `cargo run --release --example sudoku_rate_set -- data/sudoku/puzzles3_magictour_top1465.txt [LIMIT]`
//! prints the count per level and per hardest technique, the steps that were not sound
//! (there should be none) and the time. `sudoku_rate_set --generate N` times generating
//! N puzzles of each level instead; `sudoku_rate_set --strat FILE [LIMIT]` solves with the
//! technique set of the `sudoku` crate's `StrategySolver` (singles, locked candidates,
//! subsets up to quads, X-wing, swordfish, jellyfish, XY- and XYZ-wing) and prints the
//! share solved by logic alone, like `rsbench strat`; `sudoku_rate_set --sound FILE
//! [LIMIT]` tries every technique at every state of each path and counts the steps that
//! would remove a digit of the solution or place another (there should be none);
//! `sudoku_rate_set --rate FILE` only rates (time it with `time`).

use std::collections::BTreeMap;
use std::time::Instant;

use sudoku_core::logic::{LogicSolver, Rating, Technique};
use sudoku_core::{Candidates, Grid, puzzle_lines};

fn main() {
    let mut args = std::env::args().skip(1);
    if std::env::args().nth(1).as_deref() == Some("--generate") {
        let n: u32 = std::env::args()
            .nth(2)
            .map_or(20, |s| s.parse().expect("a number"));
        generate_levels(n);
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("--sound") {
        let path = std::env::args().nth(2).expect("a file");
        let limit = std::env::args()
            .nth(3)
            .map_or(usize::MAX, |s| s.parse().expect("a number"));
        sound(&path, limit);
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("--rate") {
        // Rating alone, one thread: time it with `time` (user seconds = one core).
        let path = std::env::args().nth(2).expect("a file");
        let text = std::fs::read_to_string(&path).expect("a readable file");
        let mut levels: BTreeMap<String, usize> = BTreeMap::new();
        for line in puzzle_lines(&text) {
            let p = line.grid.expect("a puzzle");
            let r = Rating::of_outline(&LogicSolver::new().outline_from(Candidates::new(&p)));
            *levels.entry(r.difficulty.to_string()).or_default() += 1;
        }
        println!("{levels:?}");
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("--strat") {
        let path = std::env::args().nth(2).expect("a file");
        let limit = std::env::args()
            .nth(3)
            .map_or(usize::MAX, |s| s.parse().expect("a number"));
        strat(&path, limit);
        return;
    }
    let path = args.next().unwrap_or_else(|| {
        eprintln!("usage: sudoku_rate_set FILE [LIMIT]");
        std::process::exit(2)
    });
    let limit: usize = args
        .next()
        .map_or(usize::MAX, |s| s.parse().expect("a number"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let puzzles: Vec<Grid> = puzzle_lines(&text)
        .filter_map(|l| l.grid.ok())
        .take(limit)
        .collect();
    let solutions: Vec<Grid> = puzzles
        .iter()
        .map(|p| p.solve_unique().expect("proper"))
        .collect();
    let solver = LogicSolver::new();
    let start = Instant::now();
    let paths: Vec<_> = puzzles
        .iter()
        .map(|p| solver.solve_from(Candidates::new(p)))
        .collect();
    let secs = start.elapsed().as_secs_f64();
    // Rating alone (the same solve without building the steps).
    let start = Instant::now();
    let outlines: Vec<_> = puzzles
        .iter()
        .map(|p| solver.outline_from(Candidates::new(p)))
        .collect();
    let rate_secs = start.elapsed().as_secs_f64();
    for (o, p) in outlines.iter().zip(&paths) {
        assert_eq!(Rating::of_outline(o), Rating::of_path(p));
    }
    println!(
        "rating only: {:.3} s ({:.3} ms each)",
        rate_secs,
        1000.0 * rate_secs / puzzles.len() as f64
    );
    let mut levels: BTreeMap<String, usize> = BTreeMap::new();
    let mut hardest: BTreeMap<Technique, usize> = BTreeMap::new();
    let mut used: BTreeMap<Technique, usize> = BTreeMap::new();
    let mut unsolved = 0;
    let mut unsound = 0;
    for ((path, sol), _p) in paths.iter().zip(&solutions).zip(&puzzles) {
        let r = Rating::of_path(path);
        *levels.entry(r.difficulty.to_string()).or_default() += 1;
        if let Some(t) = r.hardest {
            *hardest.entry(t).or_default() += 1;
        }
        if !path.solved {
            unsolved += 1;
        }
        for s in &path.steps {
            *used.entry(s.technique).or_default() += 1;
            let bad = s.eliminations.iter().any(|&(c, d)| sol.cells()[c] == d)
                || s.placements.iter().any(|&(c, d)| sol.cells()[c] != d);
            if bad {
                unsound += 1;
                println!("UNSOUND {}: {s}", _p);
            }
        }
    }
    println!(
        "{} puzzles in {:.3} s ({:.3} ms each), unsolved {unsolved}, unsound steps {unsound}",
        puzzles.len(),
        secs,
        1000.0 * secs / puzzles.len() as f64
    );
    println!("levels: {levels:?}");
    println!("hardest technique: {hardest:?}");
    println!("steps by technique: {used:?}");
    if std::env::var_os("PROFILE").is_some() {
        // Time spent per technique along the same paths (the solver's loop, unrolled).
        let mut spent: BTreeMap<Technique, f64> = BTreeMap::new();
        for p in &puzzles {
            let mut state = Candidates::new(p);
            while !state.is_solved() {
                let mut step = None;
                for t in Technique::ALL {
                    let t0 = Instant::now();
                    let s = sudoku_core::logic::find(t, &state);
                    *spent.entry(t).or_default() += t0.elapsed().as_secs_f64();
                    if s.is_some() {
                        step = s;
                        break;
                    }
                }
                step.expect("a step").apply(&mut state);
            }
        }
        let mut v: Vec<_> = spent.into_iter().collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (t, secs) in v.iter().take(12) {
            println!("{:>28} {:8.3} s", t.name(), secs);
        }
    }
}

/// Times `n` puzzles of each level (seeded), with the attempts they took.
fn generate_levels(n: u32) {
    use rand::SeedableRng;
    use sudoku_core::GenerateOptions;
    use sudoku_core::logic::Difficulty;
    use sudoku_core::logic::generate_level::puzzle_of_level;
    for level in Difficulty::ALL {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let start = Instant::now();
        let mut made = 0;
        for _ in 0..n {
            if puzzle_of_level(level, &GenerateOptions::default(), 2000, &mut rng).is_some() {
                made += 1;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{level:>8}: {made}/{n} made, {:.2} ms each",
            1000.0 * secs / f64::from(n)
        );
    }
}

/// Logic-only solving with the `sudoku` crate's technique set: singles only, then all.
fn strat(path: &str, limit: usize) {
    use sudoku_core::logic::Techniques;
    let text = std::fs::read_to_string(path).expect("a readable file");
    let puzzles: Vec<Grid> = puzzle_lines(&text)
        .filter_map(|l| l.grid.ok())
        .take(limit)
        .collect();
    let all = Techniques::basic();
    for (name, set) in [
        ("singles only", Techniques::singles()),
        ("the 14 strategies", all),
    ] {
        let solver = LogicSolver::with_techniques(set);
        let start = Instant::now();
        let solved = puzzles
            .iter()
            .filter(|p| solver.outline_from(Candidates::new(p)).solved)
            .count();
        let t = start.elapsed().as_secs_f64();
        println!(
            "{path} [{name}]: {solved}/{} solved by logic ({:.1}%), {:.1} puzzles/s, {:.1} us/puzzle",
            puzzles.len(),
            100.0 * solved as f64 / puzzles.len() as f64,
            puzzles.len() as f64 / t,
            t * 1e6 / puzzles.len() as f64
        );
    }
}

/// Every technique at every state of the logical paths, checked against the solutions.
fn sound(path: &str, limit: usize) {
    let text = std::fs::read_to_string(path).expect("a readable file");
    let puzzles: Vec<Grid> = puzzle_lines(&text)
        .filter_map(|l| l.grid.ok())
        .take(limit)
        .collect();
    let (mut tried, mut fired, mut unsound) = (0usize, 0usize, 0usize);
    let start = Instant::now();
    for p in &puzzles {
        let sol = p.solve_unique().expect("proper");
        let mut state = Candidates::new(p);
        while let Some(step) = LogicSolver::new().next_step(&state) {
            for t in Technique::ALL {
                tried += 1;
                if let Some(s) = sudoku_core::logic::find(t, &state) {
                    fired += 1;
                    if s.eliminations.iter().any(|&(c, d)| sol.cells()[c] == d)
                        || s.placements.iter().any(|&(c, d)| sol.cells()[c] != d)
                    {
                        unsound += 1;
                        println!("UNSOUND {p}: {s}");
                    }
                }
            }
            step.apply(&mut state);
        }
    }
    println!(
        "{} puzzles, {tried} technique calls, {fired} steps found, {unsound} unsound, {:.1} s",
        puzzles.len(),
        start.elapsed().as_secs_f64()
    );
}
