//! Tests of the solver, the search and the bots against simple references.

extern crate std;

use alloc::string::ToString;
use alloc::vec::Vec;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::bits::final_score;
use super::endgame::tests::brute_force;
use super::*;
use crate::bitboard::flips;
use crate::bitboard::legal_moves;

/// A small deterministic generator for test positions.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A position reached by random play from the start with `empties` empty squares left,
/// or `None` if the game ended earlier.
fn random_position(seed: u64, empties: u32) -> Option<(u64, u64)> {
    let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let (mut p, mut o) = ((1u64 << 28) | (1 << 35), (1u64 << 27) | (1 << 36));
    while (!(p | o)).count_ones() > empties {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return None;
            }
            core::mem::swap(&mut p, &mut o);
            continue;
        }
        let k = (rng.next() % u64::from(moves.count_ones())) as u32;
        let mut m = moves;
        for _ in 0..k {
            m &= m - 1;
        }
        let sq = m.trailing_zeros() as u8;
        let f = flips(p, o, sq);
        (p, o) = (o ^ f, p | f | (1 << sq));
    }
    Some((p, o))
}

/// Plain alpha-beta, no table and no ordering: the second reference, fast enough for
/// positions too big for [`brute_force`].
fn plain_alpha_beta(p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
    let moves = legal_moves(p, o);
    if moves == 0 {
        if legal_moves(o, p) == 0 {
            return final_score(p, o);
        }
        return -plain_alpha_beta(o, p, -beta, -alpha);
    }
    let mut m = moves;
    let mut best = -65;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        let f = flips(p, o, sq);
        let s = -plain_alpha_beta(o ^ f, p | f | (1 << sq), -beta, -alpha);
        if s > best {
            best = s;
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

fn score_after(p: u64, o: u64, sq: u8) -> i32 {
    let f = flips(p, o, sq);
    -brute_force(o ^ f, p | f | (1 << sq))
}

#[test]
fn solver_matches_brute_force_up_to_ten_empties() {
    let mut solver = Solver::with_table_bits(12);
    let mut checked = 0;
    for seed in 0..400u64 {
        let empties = 1 + (seed % 10) as u32;
        let Some((p, o)) = random_position(seed, empties) else {
            continue;
        };
        let exact = brute_force(p, o);
        let s = solver.solve(p, o);
        assert_eq!(s.score, exact, "seed {seed}: p={p:#x} o={o:#x}");
        match s.best {
            Some(sq) => assert_eq!(score_after(p, o, sq), exact, "best move of seed {seed}"),
            None => assert_eq!(legal_moves(p, o), 0),
        }
        // Windows: fail-soft bounds on the right side.
        for (a, b) in [(-64, exact), (exact, 64), (exact - 1, exact + 1)] {
            let w = solver.solve_window(p, o, a, b).score;
            if exact <= a {
                assert!(
                    w <= a && w >= exact,
                    "seed {seed} window ({a},{b}): {w} vs {exact}"
                );
            } else if exact >= b {
                assert!(
                    w >= b && w <= exact,
                    "seed {seed} window ({a},{b}): {w} vs {exact}"
                );
            } else {
                assert_eq!(w, exact);
            }
        }
        checked += 1;
    }
    assert!(checked > 300);
}

#[test]
fn solver_matches_plain_alpha_beta_at_twelve_to_fourteen_empties() {
    let mut solver = Solver::new();
    for seed in 1000..1012u64 {
        let empties = 12 + (seed % 3) as u32;
        let Some((p, o)) = random_position(seed, empties) else {
            continue;
        };
        let exact = plain_alpha_beta(p, o, -65, 65);
        assert_eq!(solver.solve(p, o).score, exact, "seed {seed}");
    }
}

#[test]
fn both_move_orderings_solve_alike_and_the_pattern_one_visits_fewer_nodes() {
    // The solver orders moves with the pattern evaluation by default and with the
    // hand-tuned one inside the bots; the scores must not depend on it.
    let mut patterned = Solver::new();
    let mut hand = Solver::with_evaluator(20, eval::Evaluator::hand_tuned());
    let (mut nodes_patterned, mut nodes_hand, mut solved) = (0, 0, 0);
    for (board, _, score) in FFO {
        let pos: Position = board.parse().unwrap();
        patterned.clear();
        hand.clear();
        let a = patterned.solve(pos.player(), pos.opponent());
        let b = hand.solve(pos.player(), pos.opponent());
        assert_eq!((a.score, b.score), (score, score), "{board}");
        nodes_patterned += a.nodes;
        nodes_hand += b.nodes;
        solved += 1;
    }
    assert!(solved >= 3);
    assert!(
        nodes_patterned < nodes_hand,
        "{nodes_patterned} nodes with the patterns, {nodes_hand} without"
    );
}

#[test]
fn plain_alpha_beta_agrees_with_brute_force() {
    for seed in 2000..2040u64 {
        if let Some((p, o)) = random_position(seed, 8) {
            assert_eq!(plain_alpha_beta(p, o, -65, 65), brute_force(p, o));
        }
    }
}

#[test]
fn every_move_score_is_exact() {
    let mut solver = Solver::with_table_bits(14);
    for seed in 3000..3030u64 {
        let Some((p, o)) = random_position(seed, 9) else {
            continue;
        };
        for (sq, score) in solver.score_moves(p, o) {
            assert_eq!(score, score_after(p, o, sq));
        }
    }
}

/// FFO positions #20–#24 (6 to 19 empty squares) with their published exact scores.
const FFO: [(&str, &str, i32); 5] = [
    (
        "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X",
        "h5",
        6,
    ),
    (
        "OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O",
        "g5",
        0,
    ),
    (
        "--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O",
        "g8",
        2,
    ),
    (
        "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX-- X",
        "a2",
        4,
    ),
    (
        "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O",
        "c3",
        0,
    ),
];

#[test]
fn ffo_positions_are_solved_exactly() {
    let mut solver = Solver::new();
    for (board, best, score) in FFO {
        let pos: Position = board.parse().unwrap();
        let s = solver.solve(pos.player(), pos.opponent());
        assert_eq!(s.score, score, "{board}");
        let best: Square = best.parse().unwrap();
        assert_eq!(s.best, Some(best.index()), "{board}");
    }
}

#[test]
fn search_switches_to_the_exact_solver() {
    let mut searcher = Searcher::new();
    for seed in 4000..4020u64 {
        let Some((p, o)) = random_position(seed, 8) else {
            continue;
        };
        let r = searcher.search(p, o, &Limits::depth(3, 8), &mut || false);
        if legal_moves(p, o) == 0 {
            assert_eq!(r.best, None);
            continue;
        }
        let exact = brute_force(p, o);
        assert!(r.exact);
        assert_eq!(r.score, exact * DISC);
        for &sq in &r.ties {
            assert_eq!(score_after(p, o, sq), exact);
        }
        // ... and every move reaching the exact score is among the ties.
        let mut m = legal_moves(p, o);
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            assert_eq!(
                r.ties.contains(&sq),
                score_after(p, o, sq) == exact,
                "seed {seed} move {sq}"
            );
        }
        assert_eq!(r.best, Some(r.ties[0]));
    }
}

#[test]
fn midgame_search_plays_legal_moves_and_is_deterministic() {
    for seed in 5000..5010u64 {
        let Some((p, o)) = random_position(seed, 40) else {
            continue;
        };
        let limits = Limits::depth(4, 0);
        let a = Searcher::new().search(p, o, &limits, &mut || false);
        let b = Searcher::new().search(p, o, &limits, &mut || false);
        assert_eq!(a, b);
        if let Some(sq) = a.best {
            assert!(legal_moves(p, o) & (1 << sq) != 0);
            assert_eq!(a.depth, 4);
        }
    }
}

/// Fixed-depth negamax with the search's rules (a pass costs no depth, the exact score
/// when every empty square is within the depth), no pruning: the reference for the
/// midgame search with ProbCut off.
fn plain_negamax(eval: &eval::Evaluator, p: u64, o: u64, depth: u32, passed: bool) -> i32 {
    if depth == 0 {
        return eval.evaluate(p, o);
    }
    let empties = (!(p | o)).count_ones();
    if empties <= depth && empties <= 16 {
        return plain_alpha_beta(p, o, -65, 65) * eval::DISC;
    }
    let moves = legal_moves(p, o);
    if moves == 0 {
        if passed {
            return final_score(p, o) * eval::DISC;
        }
        return -plain_negamax(eval, o, p, depth, true);
    }
    let mut best = i32::MIN;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        let f = flips(p, o, sq);
        best = best.max(-plain_negamax(
            eval,
            o ^ f,
            p | f | (1 << sq),
            depth - 1,
            false,
        ));
    }
    best
}

#[test]
fn midgame_search_without_probcut_scores_like_plain_negamax() {
    // Iterative deepening, the table, the move ordering and the root's null windows
    // must not change the score of a fixed-depth search.
    let eval = eval::Evaluator::default();
    let mut checked = 0;
    for seed in 7000..7012u64 {
        let Some((p, o)) = random_position(seed, 22 + (seed % 4) as u32 * 5) else {
            continue;
        };
        // Aspiration off, the default window, and one so narrow that nearly every
        // iteration fails and is searched again.
        for aspiration in [None, Some(search::ASPIRATION_WINDOW), Some(1)] {
            let mut searcher = Searcher::new();
            searcher.set_probcut(None);
            searcher.set_aspiration(aspiration);
            for depth in 1..=5 {
                let r = searcher.search(p, o, &Limits::depth(depth, 0), &mut || false);
                assert_eq!(
                    r.score,
                    plain_negamax(&eval, p, o, depth, false),
                    "seed {seed} depth {depth} aspiration {aspiration:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 120);
}

#[test]
fn a_probcut_table_that_never_cuts_searches_like_probcut_off() {
    let (p, o) = random_position(6002, 40).unwrap();
    let limits = Limits::depth(7, 0);
    let mut off = Searcher::new();
    off.set_probcut(None);
    let off = off.search(p, o, &limits, &mut || false);
    let mut uncut = Searcher::new();
    let mut table = *probcut::shipped();
    for cell in table.iter_mut().flatten() {
        cell.sigma = 0;
    }
    uncut.set_probcut_table(table);
    assert_eq!(uncut.search(p, o, &limits, &mut || false), off);
    // The shipped table does cut: fewer nodes for the same depth.
    let shipped = Searcher::new().search(p, o, &limits, &mut || false);
    assert!(
        shipped.nodes < off.nodes,
        "{} vs {}",
        shipped.nodes,
        off.nodes
    );
}

#[test]
fn node_limit_stops_the_search_with_a_legal_move() {
    let (p, o) = random_position(6001, 44).unwrap();
    let limits = Limits {
        depth: 30,
        exact_empties: 0,
        nodes: 2_000,
    };
    let r = Searcher::new().search(p, o, &limits, &mut || false);
    let sq = r.best.unwrap();
    assert!(legal_moves(p, o) & (1 << sq) != 0);
    assert!(r.depth < 30);
    // A stop callback works the same way.
    let mut calls = 0;
    let r = Searcher::new().search(p, o, &Limits::depth(30, 0), &mut || {
        calls += 1;
        calls > 3
    });
    assert!(r.depth < 30 && r.best.is_some());
}

#[test]
fn a_search_on_the_clock_with_time_to_spare_is_the_fixed_depth_search() {
    let (p, o) = random_position(6002, 40).unwrap();
    let limits = Limits::depth(6, 12);
    let fixed = Searcher::new().search(p, o, &limits, &mut || false);
    // A clock that never moves: every iteration is predicted to take no time.
    let timed = Searcher::new().search_on_clock(p, o, &limits, 100, &|| 5, &mut || false);
    assert_eq!(timed, fixed);
    assert_eq!(timed.depth, 6);
}

#[test]
fn a_search_on_the_clock_stops_in_time_with_a_legal_move() {
    let (p, o) = random_position(6003, 44).unwrap();
    let limits = Limits::depth(40, 0);
    // A clock that reads the node count: about a microsecond a node (it is read once an
    // iteration and every 4,096 nodes).
    for target_ms in [1, 5, 50] {
        let mut searcher = Searcher::new();
        let nodes = core::cell::Cell::new(0u64);
        let clock = || {
            nodes.set(nodes.get() + 4096);
            nodes.get()
        };
        let r = searcher.search_on_clock(p, o, &limits, target_ms, &clock, &mut || false);
        let sq = r.best.unwrap();
        assert!(legal_moves(p, o) & (1 << sq) != 0);
        assert!(
            r.depth >= 1 && r.depth < 40,
            "{target_ms} ms: depth {}",
            r.depth
        );
        // Never past twice the budget, even when the budget grows by half.
        assert!(
            nodes.get() <= 3 * 1000 * target_ms + 8192,
            "{target_ms} ms: {}",
            nodes.get()
        );
    }
    // More time, deeper search.
    let depth_for = |target_ms| {
        let ticks = core::cell::Cell::new(0u64);
        let clock = || {
            ticks.set(ticks.get() + 4096);
            ticks.get()
        };
        Searcher::new()
            .search_on_clock(p, o, &limits, target_ms, &clock, &mut || false)
            .depth
    };
    assert!(depth_for(2) < depth_for(200));
    // The caller's stop still ends the search.
    let mut calls = 0;
    let r = Searcher::new().search_on_clock(p, o, &limits, 1_000_000, &|| 0, &mut || {
        calls += 1;
        calls > 3
    });
    assert!(r.depth < 40 && r.best.is_some());
}

#[test]
fn only_the_top_level_plays_on_the_clock() {
    use rand::Rng as _;
    assert_eq!(Level::MAX.time_ms(), Some(1000));
    let position = Position::start();
    for level in Level::ALL {
        if level == Level::MAX {
            continue;
        }
        assert_eq!(level.time_ms(), None);
        // Below the top level a bot on the clock plays exactly like the fixed one.
        let mut a = level.bot_on_clock(&Rules::default(), Clock::new(|| 0));
        let mut b = level.bot(&Rules::default());
        let (mut ra, mut rb) = (ChaCha8Rng::seed_from_u64(5), ChaCha8Rng::seed_from_u64(5));
        assert_eq!(
            a.choose_move(&position, &mut ra),
            b.choose_move(&position, &mut rb)
        );
        assert_eq!(ra.next_u64(), rb.next_u64());
    }
    // The top level on a clock that shows a second gone at once plays its first
    // iteration's move, which is legal.
    let ticks = alloc::sync::Arc::new(core::sync::atomic::AtomicU64::new(0));
    let t = ticks.clone();
    let clock = Clock::new(move || t.fetch_add(1_000_000, core::sync::atomic::Ordering::Relaxed));
    let mut bot = Engine::on_clock(1000, 18, clock, Evaluator::default());
    assert_eq!(bot.time_ms(), Some(1000));
    let mv = bot
        .choose_move(&position, &mut ChaCha8Rng::seed_from_u64(1))
        .unwrap();
    assert!(position.is_legal(mv));
    assert!(bot.last_search().unwrap().depth <= 2);
    assert!(ticks.load(core::sync::atomic::Ordering::Relaxed) >= 2_000_000);
}

/// Plays a whole game between two bots.
fn play_game(black: &mut Engine, white: &mut Engine, seed: u64) -> (Vec<Move>, Position) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::start();
    let mut moves = Vec::new();
    loop {
        let bot = if pos.side_to_move() == crate::Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let Some(mv) = bot.choose_move(&pos, &mut rng) else {
            break;
        };
        pos.play(mv).unwrap();
        moves.push(mv);
    }
    (moves, pos)
}

#[test]
fn same_seed_same_game() {
    let level = |n| Engine::new(Level::new(n).unwrap());
    let (a, end_a) = play_game(&mut level(1), &mut level(3), 42);
    let (b, end_b) = play_game(&mut level(1), &mut level(3), 42);
    assert_eq!(a, b);
    assert_eq!(end_a, end_b);
    assert!(end_a.is_over());
    // Level 1 is noisy: another seed gives another game.
    let (c, _) = play_game(&mut level(1), &mut level(1), 43);
    let (d, _) = play_game(&mut level(1), &mut level(1), 44);
    assert_ne!(c, d);
}

#[test]
fn bots_never_throw_away_a_solved_position() {
    // Every level without noise keeps the exact best score within its exact horizon.
    let mut solver = Solver::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for level in 4..=7u8 {
        let level = Level::new(level).unwrap();
        let mut bot = Engine::new(level);
        for seed in 7000..7015u64 {
            let empties = level.limits().exact_empties.min(10);
            let Some((p, o)) = random_position(seed, empties) else {
                continue;
            };
            let pos = Position::new_unchecked(p, o, crate::Color::Black);
            let best = solver.solve(p, o).score;
            match bot.choose_move(&pos, &mut rng) {
                Some(Move::Place(sq)) => {
                    assert_eq!(
                        score_after(p, o, sq.index()),
                        best,
                        "level {level}, seed {seed}"
                    );
                }
                Some(Move::Pass) => assert_eq!(legal_moves(p, o), 0),
                None => assert!(pos.is_over()),
            }
        }
    }
}

#[test]
fn higher_level_beats_level_one() {
    let mut wins = 0;
    for seed in 0..4u64 {
        let mut strong = Engine::new(Level::new(4).unwrap());
        let mut weak = Engine::new(Level::MIN);
        let (_, end) = if seed % 2 == 0 {
            play_game(&mut strong, &mut weak, seed)
        } else {
            play_game(&mut weak, &mut strong, seed)
        };
        let strong_color = if seed % 2 == 0 {
            crate::Color::Black
        } else {
            crate::Color::White
        };
        if end.count(strong_color) > end.count(strong_color.other()) {
            wins += 1;
        }
    }
    assert!(
        wins >= 3,
        "level 4 won only {wins} of 4 games against level 1"
    );
}

#[test]
fn hints_score_every_move() {
    let pos = Position::start();
    let mut searcher = Searcher::new();
    let h = hints(&mut searcher, &pos, &Limits::depth(3, 0));
    assert_eq!(h.len(), 4);
    assert!(h.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(h.iter().all(|m| !m.exact));
    // Near the end the hints are exact.
    let (p, o) = random_position(8000, 8).unwrap();
    let pos = Position::new_unchecked(p, o, crate::Color::White);
    for m in hints(&mut searcher, &pos, &Limits::depth(3, 10)) {
        assert!(m.exact);
        assert_eq!(m.score, score_after(p, o, m.square.index()) * DISC);
    }
}

#[test]
fn levels_parse_and_display() {
    assert_eq!("7".parse::<Level>().unwrap().get(), 7);
    assert!("0".parse::<Level>().is_err());
    assert!("11".parse::<Level>().is_err());
    assert!("x".parse::<Level>().is_err());
    assert_eq!(Level::MAX.to_string(), "10");
    let mut previous = Level::MIN.limits();
    for n in 2..=10 {
        let l = Level::new(n).unwrap().limits();
        assert!(l.depth >= previous.depth && l.exact_empties >= previous.exact_empties);
        previous = l;
    }
}

#[test]
fn scored_moves_display() {
    let sq: Square = "f5".parse().unwrap();
    let exact = ScoredMove {
        square: sq,
        score: 600,
        exact: true,
    };
    assert_eq!(exact.to_string(), "f5 +6");
    let estimate = ScoredMove {
        square: sq,
        score: -125,
        exact: false,
    };
    assert_eq!(estimate.to_string(), "f5 -1.25");
}

#[test]
fn probcut_prunes_deep_searches_and_keeps_them_sound() {
    // With the shipped table, depth-9 searches of midgame positions visit far fewer
    // nodes with Multi-ProbCut than without, and both play a legal move.
    let (mut with, mut without) = (Searcher::new(), Searcher::new());
    without.set_probcut(None);
    assert!(with.probcut().is_some());
    let (mut n_with, mut n_without) = (0, 0);
    let mut tried = 0;
    for seed in 0..40 {
        let Some((p, o)) = random_position(seed, 36) else {
            continue;
        };
        if legal_moves(p, o) == 0 {
            continue;
        }
        tried += 1;
        let limits = Limits::depth(9, 0);
        let a = with.search(p, o, &limits, &mut || false);
        let b = without.search(p, o, &limits, &mut || false);
        for r in [&a, &b] {
            assert!(legal_moves(p, o) & (1 << r.best.unwrap()) != 0);
        }
        n_with += a.nodes;
        n_without += b.nodes;
        if tried == 6 {
            break;
        }
    }
    assert_eq!(tried, 6);
    assert!(
        n_with * 2 < n_without,
        "{n_with} nodes with ProbCut, {n_without} without"
    );
    // Exact solves are never cut.
    let pos: Position = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X"
        .parse()
        .unwrap();
    let r = with.search(
        pos.player(),
        pos.opponent(),
        &Limits::depth(10, 10),
        &mut || false,
    );
    assert_eq!((r.score, r.exact), (6 * DISC, true));
}
