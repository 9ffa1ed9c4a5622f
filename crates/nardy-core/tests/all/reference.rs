//! The engine against a slow reference implementation written straight from the spec in
//! absolute points (every step sequence enumerated, no bit tricks), on random positions,
//! dice and rule variants; plus property tests over random games.

use std::collections::BTreeSet;

use nardy_core::{BlockCheck, Color, Dice, Game, HeadException, Position, Rules, TurnBuilder};
use proptest::prelude::*;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A side's route from its head to its last home point, as absolute points.
fn route(c: Color) -> Vec<u8> {
    match c {
        Color::White => (1..=24).rev().collect(),
        Color::Black => (1..=12).rev().chain((13..=24).rev()).collect(),
    }
}

#[derive(Clone, PartialEq, Eq)]
struct Board {
    n: [[u8; 25]; 2],
    off: [u8; 2],
}

fn idx(c: Color) -> usize {
    c.index()
}

impl Board {
    fn of(p: &Position) -> Board {
        let mut n = [[0u8; 25]; 2];
        for c in Color::ALL {
            for pt in 1..=24u8 {
                n[idx(c)][pt as usize] = p.count(c, pt);
            }
        }
        Board {
            n,
            off: [p.borne_off(Color::White), p.borne_off(Color::Black)],
        }
    }

    fn to_position(&self, turn: Color) -> Position {
        let mut w = [0u8; 24];
        let mut b = [0u8; 24];
        w.copy_from_slice(&self.n[0][1..]);
        b.copy_from_slice(&self.n[1][1..]);
        Position::from_boards(w, b, turn).unwrap()
    }

    /// Whether `c` holds an illegal block: six or more consecutive points of the
    /// opponent's route with no opposing checker further along it.
    fn illegal_block(&self, c: Color) -> bool {
        let o = c.other();
        if self.off[idx(o)] > 0 {
            return false;
        }
        let r = route(o);
        let mut i = 0;
        while i < 24 {
            if self.n[idx(c)][r[i] as usize] > 0 {
                let mut j = i;
                while j < 24 && self.n[idx(c)][r[j] as usize] > 0 {
                    j += 1;
                }
                if j - i >= 6 && !r[j..].iter().any(|&pt| self.n[idx(o)][pt as usize] > 0) {
                    return true;
                }
                i = j;
            } else {
                i += 1;
            }
        }
        false
    }

    /// One step of `c` from absolute `from` by `d`, or `None` when illegal.
    fn step(
        &self,
        c: Color,
        from: u8,
        d: u8,
        head_left: u8,
        limit: u8,
        every: bool,
    ) -> Option<Board> {
        let r = route(c);
        let me = idx(c);
        if self.n[me][from as usize] == 0 {
            return None;
        }
        let i = r.iter().position(|&p| p == from).unwrap();
        if i == 0 && head_left >= limit {
            return None;
        }
        let mut b = self.clone();
        b.n[me][from as usize] -= 1;
        let j = i + d as usize;
        if j < 24 {
            let to = r[j];
            if self.n[idx(c.other())][to as usize] > 0 {
                return None;
            }
            b.n[me][to as usize] += 1;
        } else {
            if r[..18].iter().any(|&p| self.n[me][p as usize] > 0) {
                return None;
            }
            if j > 24 && r[..i].iter().any(|&p| self.n[me][p as usize] > 0) {
                return None;
            }
            b.off[me] += 1;
        }
        if every && b.illegal_block(c) {
            return None;
        }
        Some(b)
    }
}

/// (dice used, final board) of every legal sequence, for one head limit.
fn sequences(
    start: &Board,
    c: Color,
    dice: Dice,
    limit: u8,
    every: bool,
) -> Vec<(usize, Option<u8>, Board)> {
    let orders: Vec<Vec<u8>> = if dice.is_double() {
        vec![vec![dice.high(); 4]]
    } else {
        vec![vec![dice.high(), dice.low()], vec![dice.low(), dice.high()]]
    };
    let head = c.head() as usize;
    let head_start = start.n[idx(c)][head];
    let mut out = Vec::new();
    fn rec(
        b: &Board,
        c: Color,
        order: &[u8],
        k: usize,
        first_die: Option<u8>,
        ctx: (u8, usize, u8, bool),
        out: &mut Vec<(usize, Option<u8>, Board)>,
    ) {
        let (head_start, head, limit, every) = ctx;
        out.push((k, first_die, b.clone()));
        if k == order.len() || b.off[idx(c)] == 15 {
            return;
        }
        for from in 1..=24u8 {
            let left = head_start - b.n[idx(c)][head];
            if let Some(nb) = b.step(c, from, order[k], left, limit, every) {
                rec(&nb, c, order, k + 1, first_die.or(Some(order[k])), ctx, out);
            }
        }
    }
    for order in &orders {
        rec(
            start,
            c,
            order,
            0,
            None,
            (head_start, head, limit, every),
            &mut out,
        );
    }
    out
}

/// The reference set of resulting positions.
fn reference(p: &Position, dice: Dice, rules: &Rules) -> BTreeSet<String> {
    let c = p.side_to_move();
    let start = Board::of(p);
    let every = rules.block_check == BlockCheck::EveryStep;
    let full = if dice.is_double() { 4 } else { 2 };
    let solve = |limit: u8| -> (usize, BTreeSet<String>) {
        let seqs = sequences(&start, c, dice, limit, every);
        let legal: Vec<(usize, Option<u8>, Board)> = seqs
            .into_iter()
            .filter(|(_, _, b)| every || !b.illegal_block(c))
            .map(|(k, f, b)| (if b.off[idx(c)] == 15 { full } else { k }, f, b))
            .collect();
        let max = legal.iter().map(|s| s.0).max().unwrap_or(0);
        let mut finals: Vec<&(usize, Option<u8>, Board)> =
            legal.iter().filter(|s| s.0 == max).collect();
        if max == 1 && !dice.is_double() && finals.iter().any(|s| s.1 == Some(dice.high())) {
            finals.retain(|s| s.1 == Some(dice.high()));
        }
        (
            max,
            finals
                .iter()
                .map(|s| s.2.to_position(c.other()).to_string())
                .collect(),
        )
    };
    let (m1, r1) = solve(1);
    let qualifies = match rules.head_exception {
        HeadException::Strict => matches!(dice.high(), 3 | 4 | 6),
        HeadException::AnyBlockedDouble => true,
    };
    if dice.is_double() && qualifies && m1 < 4 && p.on_first_turn(c) {
        let (m2, r2) = solve(2);
        if m2 > m1 {
            return r2;
        }
    }
    r1
}

/// A random position biased towards interesting cases: clumps, homes, near-blocks.
fn random_position(rng: &mut ChaCha8Rng) -> Position {
    loop {
        let mut w = [0u8; 24];
        let mut b = [0u8; 24];
        let style = rng.random_range(0..4u8);
        for (ci, board) in [&mut w, &mut b].into_iter().enumerate() {
            let on_board = if style == 0 {
                rng.random_range(1..=15u8)
            } else {
                15 - rng.random_range(0..3u8)
            };
            let color = if ci == 0 { Color::White } else { Color::Black };
            let r = route(color);
            let spread = match style {
                0 | 1 => 6, // home-heavy: bear-off
                2 => 12,
                _ => 24,
            };
            let npoints = rng.random_range(1..=8usize);
            let base = if style <= 1 {
                24 - spread
            } else {
                rng.random_range(0..=24 - spread)
            };
            let pts: Vec<u8> = (0..npoints)
                .map(|_| r[base + rng.random_range(0..spread)])
                .collect();
            for _ in 0..on_board {
                let pt = pts[rng.random_range(0..pts.len())];
                board[pt as usize - 1] += 1;
            }
            if style == 3 && rng.random_bool(0.3) {
                // Sometimes keep the head full for the first-turn rules.
                board.iter_mut().for_each(|x| *x = 0);
                board[color.head() as usize - 1] = 15;
            }
        }
        for i in 0..24 {
            if w[i] > 0 && b[i] > 0 {
                if rng.random_bool(0.5) {
                    w[i] += b[i];
                    b[i] = 0;
                } else {
                    b[i] += w[i];
                    w[i] = 0;
                }
            }
        }
        // Fix totals over 15 after merging.
        let ok = w.iter().map(|&x| x as u32).sum::<u32>() <= 15
            && b.iter().map(|&x| x as u32).sum::<u32>() <= 15;
        let turn = if rng.random_bool(0.5) {
            Color::White
        } else {
            Color::Black
        };
        if ok
            && let Ok(p) = Position::from_boards(w, b, turn)
            && p.finished().is_none()
        {
            return p;
        }
    }
}

fn random_rules(rng: &mut ChaCha8Rng) -> Rules {
    Rules {
        head_exception: if rng.random_bool(0.5) {
            HeadException::Strict
        } else {
            HeadException::AnyBlockedDouble
        },
        block_check: if rng.random_bool(0.5) {
            BlockCheck::EveryStep
        } else {
            BlockCheck::EndOfTurn
        },
        ..Rules::default()
    }
}

fn engine(p: &Position, dice: Dice, rules: &Rules) -> BTreeSet<String> {
    p.legal_moves_with_results(dice, rules)
        .into_iter()
        .map(|(_, r)| r.to_string())
        .collect()
}

/// Perft with the reference generator (all 21 rolls at every turn).
fn reference_perft(p: &Position, depth: u32, rules: &Rules) -> u64 {
    if depth == 0 {
        return 1;
    }
    Dice::ALL
        .iter()
        .map(|&d| {
            reference(p, d, rules)
                .iter()
                .map(|r| reference_perft(&r.parse().unwrap(), depth - 1, rules))
                .sum::<u64>()
        })
        .sum()
}

#[test]
fn perft_3_agrees_with_the_reference_under_every_variant() {
    for head_exception in [HeadException::Strict, HeadException::AnyBlockedDouble] {
        for block_check in [BlockCheck::EveryStep, BlockCheck::EndOfTurn] {
            let rules = Rules {
                opening: nardy_core::Opening::Reroll,
                head_exception,
                block_check,
                ..Rules::default()
            };
            let start = Position::start();
            assert_eq!(
                nardy_core::perft(&start, 3, &rules),
                reference_perft(&start, 3, &rules),
                "{rules:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Same set of distinct resulting positions as the reference, and each listed turn
    /// really plays to its listed position.
    #[test]
    fn matches_reference(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = random_position(&mut rng);
        let rules = random_rules(&mut rng);
        let dice = Dice::ALL[rng.random_range(0..21)];
        prop_assert_eq!(engine(&p, dice, &rules), reference(&p, dice, &rules), "{} {}", p, dice);
        for (t, r) in p.legal_moves_with_results(dice, &rules) {
            let mut played = p;
            prop_assert_eq!(played.play(dice, &t, &rules), Ok(()));
            prop_assert_eq!(played, r);
            prop_assert_eq!(t.to_string().parse::<nardy_core::Move>(), Ok(t.clone()));
        }
    }

    /// Step-by-step play reaches exactly the set of full turns.
    #[test]
    fn step_by_step_reaches_exactly_the_full_turns(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = random_position(&mut rng);
        let rules = random_rules(&mut rng);
        let dice = Dice::ALL[rng.random_range(0..21)];
        let expected = engine(&p, dice, &rules);
        prop_assume!(expected.len() <= 40);
        let mut reached = BTreeSet::new();
        let mut stack = vec![TurnBuilder::new(p, dice, rules)];
        let mut nodes = 0;
        while let Some(b) = stack.pop() {
            nodes += 1;
            prop_assume!(nodes < 3000);
            let steps = b.legal_steps();
            if b.is_complete() {
                prop_assert!(steps.is_empty());
                reached.insert(b.result().unwrap().to_string());
                continue;
            }
            prop_assert!(!steps.is_empty(), "a dead end at {:?}", b.played());
            prop_assert!(b.finish().is_err());
            for s in steps {
                let mut next = b.clone();
                next.play(s).unwrap();
                let mut back = next.clone();
                back.undo();
                prop_assert_eq!(back.position(), b.position());
                stack.push(next);
            }
        }
        prop_assert_eq!(reached, expected);
    }

    /// Random games: 15 checkers a side, no shared point, every turn plays the maximum
    /// number of dice, notation round-trips, saves reload, same seed gives the same game.
    #[test]
    fn random_games(seed in any::<u64>(), koks in any::<bool>(), tie in any::<bool>()) {
        let rules = Rules {
            scoring: if koks { nardy_core::Scoring::WithKoks } else { nardy_core::Scoring::Standard },
            last_roll_tie: tie,
            ..Rules::default()
        };
        let run = |seed: u64| {
            let mut game = Game::new(rules, seed);
            let mut pick = ChaCha8Rng::seed_from_u64(seed ^ 1);
            let mut seen = Vec::new();
            while game.outcome().is_none() && game.history().len() < 400 {
                let turns = game.legal_moves();
                let t = turns[(pick.next_u64() % turns.len() as u64) as usize].clone();
                seen.push((*game.position(), game.dice(), turns.len()));
                game.play(&t).unwrap();
            }
            (game, seen)
        };
        let (game, seen) = run(seed);
        let (again, _) = run(seed);
        prop_assert_eq!(&game, &again);
        prop_assert!(game.outcome().is_some());
        for (p, dice, _) in &seen {
            for c in Color::ALL {
                let on: u32 = p.board(c).iter().map(|&x| x as u32).sum();
                prop_assert_eq!(on + p.borne_off(c) as u32, 15);
            }
            for pt in 1..=24 {
                prop_assert!(p.count(Color::White, pt) == 0 || p.count(Color::Black, pt) == 0);
            }
            prop_assert_eq!(p.to_string().parse::<Position>(), Ok(*p));
            let turns = p.legal_moves_with_results(*dice, &rules);
            let max = turns.iter().map(|(t, _)| t.steps().len()).max().unwrap();
            for (t, r) in &turns {
                prop_assert!(t.steps().len() == max || r.finished() == Some(p.side_to_move()), "{} {}", p, t);
            }
        }
        let bytes = game.to_bytes();
        prop_assert_eq!(Game::from_bytes(&bytes), Ok(game.clone()));
        let outcome = game.outcome().unwrap();
        if let Some(w) = outcome.winner() {
            let loser_off = game.position().borne_off(w.other());
            prop_assert_eq!(outcome.points() == 1, loser_off > 0);
        } else {
            prop_assert!(tie);
        }
    }
}
