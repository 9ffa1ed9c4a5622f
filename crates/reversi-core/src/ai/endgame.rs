//! The exact endgame solver: alpha-beta on raw 16-byte (player, opponent) nodes, with a
//! transposition table, move ordering by shallow evaluated searches far from the end and
//! fastest-first nearer to it, parity ordering near the end, enhanced transposition
//! cutoffs, stability cutoffs and specialised code for the last empty squares.

use arrayvec::ArrayVec;

use super::bits::{NEIGHBOURS, final_score, odd_regions, stable_discs, weighted_mobility};
use super::eval::{DISC, Evaluator};
use super::tt::{NO_MOVE, Table};
use crate::bitboard::flips;
use crate::bitboard::legal_moves;

/// Below this many empty squares the solver drops the table and sorting, and orders
/// moves by parity only.
const SHALLOW: u32 = 7;
/// With the pattern evaluation: from this many empty squares, moves are ordered by a
/// shallow evaluated search of each child, and the opponent's mobility weighs this much
/// in it (measured best on FFO #20–49, see `docs/research/reversi-strength.md`).
const PATTERN_ORDERING: (u32, i32) = (14, 300);
/// The same with the hand-tuned evaluation (kept as it was: the training self-play
/// depends on it).
const HAND_TUNED_ORDERING: (u32, i32) = (16, 150);
/// From this many empty squares, children are looked up in the table before searching.
const ETC_DEPTH: u32 = 12;
/// Up to this many empty squares, the move ordering looks at mobility and parity only.
const CHEAP_KEYS: u32 = 9;
/// Scores are disc differences, so every window lies inside this.
const SCORE_MAX: i32 = 64;
/// Larger than any evaluation.
const INF_EVAL: i32 = 100 * DISC;

/// The result of an exact solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final disc difference with perfect play, from the side to move's view (empty
    /// squares go to the winner).
    pub score: i32,
    /// A best move (square index 0..64), or `None` when the side to move must pass or the
    /// game is over.
    pub best: Option<u8>,
    /// Positions visited.
    pub nodes: u64,
}

/// The exact endgame solver. It keeps its transposition table between solves; reuse one
/// solver for a series of positions.
#[derive(Clone, Debug)]
pub struct Solver {
    tt: Table,
    eval: Evaluator,
    /// From this many empty squares, moves are ordered by an evaluated search.
    deep_ordering: u32,
    /// Weight of the opponent's mobility in the evaluated move ordering.
    mob_w: i32,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
}

#[cfg(feature = "shipped-weights")]
impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

/// One candidate move with its ordering key (lower first).
#[derive(Clone, Copy)]
struct Candidate {
    sq: u8,
    flipped: u64,
    key: i32,
}

impl Solver {
    /// A solver with a table of 2^20 entries (24 MiB).
    #[cfg(feature = "shipped-weights")]
    pub fn new() -> Solver {
        Solver::with_table_bits(20)
    }

    /// A solver with a table of 2^`bits` entries (24 bytes each), ordering moves with
    /// the shipped pattern evaluation.
    #[cfg(feature = "shipped-weights")]
    pub fn with_table_bits(bits: u32) -> Solver {
        Solver::with_evaluator(bits, Evaluator::trained())
    }

    /// A solver with a table of 2^`bits` entries whose move ordering uses `eval`. Scores
    /// never depend on it; the number of nodes does, and so may which of several equally
    /// good moves is returned.
    pub fn with_evaluator(bits: u32, eval: Evaluator) -> Solver {
        let (deep_ordering, mob_w) = if eval.patterns().is_some() {
            PATTERN_ORDERING
        } else {
            HAND_TUNED_ORDERING
        };
        Solver {
            tt: Table::new(bits),
            eval,
            deep_ordering,
            mob_w,
            nodes: 0,
            node_limit: u64::MAX,
            aborted: false,
        }
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Positions visited since the last solve started.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves (`player` to move, `opponent`) exactly.
    pub fn solve(&mut self, player: u64, opponent: u64) -> Solution {
        self.nodes = 0;
        self.node_limit = u64::MAX;
        self.aborted = false;
        self.tt.new_search();
        let n = (!(player | opponent)).count_ones();
        if n <= SHALLOW + 4 {
            let (score, best) = self.root(player, opponent, -SCORE_MAX, SCORE_MAX);
            return Solution {
                score,
                best,
                nodes: self.nodes,
            };
        }
        // MTD(f): null-window tests around a guess from a shallow evaluated search. Final
        // scores are even, so each test moves the bounds by at least two discs.
        let guess = self.probe_eval(player, opponent, -INF_EVAL, INF_EVAL, 4);
        let mut g = (guess / DISC).clamp(-SCORE_MAX, SCORE_MAX) & !1;
        let (mut lower, mut upper) = (-SCORE_MAX - 1, SCORE_MAX + 1);
        let mut best = None;
        while lower < upper {
            let beta = g.max(lower + 1);
            let (score, mv) = self.root(player, opponent, beta - 1, beta);
            g = score;
            if score < beta {
                upper = score;
            } else {
                lower = score;
                best = mv;
            }
        }
        if best.is_none() && legal_moves(player, opponent) != 0 {
            // Every test failed low: find the move that reaches the score.
            best = self.root(player, opponent, g - 1, g + 1).1;
        }
        Solution {
            score: g,
            best,
            nodes: self.nodes,
        }
    }

    /// Solves within the window (`alpha`, `beta`): the score is exact when it lies strictly
    /// inside; otherwise it is a bound on the same side (fail-soft).
    pub fn solve_window(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32) -> Solution {
        self.nodes = 0;
        self.node_limit = u64::MAX;
        self.aborted = false;
        self.tt.new_search();
        let (score, best) = self.root(player, opponent, alpha, beta);
        Solution {
            score,
            best,
            nodes: self.nodes,
        }
    }

    /// Like [`Solver::solve_window`] but gives up (returning `None`) after about
    /// `node_limit` nodes.
    pub fn solve_limited(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        node_limit: u64,
    ) -> Option<Solution> {
        self.nodes = 0;
        self.node_limit = node_limit;
        self.aborted = false;
        self.tt.new_search();
        let (score, best) = self.root(player, opponent, alpha, beta);
        let nodes = self.nodes;
        self.node_limit = u64::MAX;
        if self.aborted {
            self.aborted = false;
            None
        } else {
            Some(Solution { score, best, nodes })
        }
    }

    /// The exact score of the position after `player` plays on each of its legal moves
    /// (from `player`'s view), in square order.
    pub fn score_moves(&mut self, player: u64, opponent: u64) -> ArrayVec<(u8, i32), 32> {
        let mut out = ArrayVec::new();
        let mut moves = legal_moves(player, opponent);
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips(player, opponent, sq);
            let s = self.solve(opponent ^ f, player | f | (1u64 << sq));
            out.push((sq, -s.score));
        }
        out
    }

    /// The exact best score of (`player`, `opponent`) and every legal move reaching it
    /// (`moves` are the legal moves, not empty).
    pub(crate) fn score_moves_with_ties(
        &mut self,
        player: u64,
        opponent: u64,
        moves: u64,
    ) -> (i32, ArrayVec<u8, 32>) {
        // The best score by MTD(f), then one null-window test per move: does it reach
        // that score too?
        let solution = self.solve(player, opponent);
        let best = solution.score;
        let n = (!(player | opponent)).count_ones();
        let tt_move = self.tt.probe(player, opponent).map_or(NO_MOVE, |e| e.best);
        let mut list = self.order(player, opponent, moves, n, tt_move);
        list.sort_unstable_by_key(|c| c.key);
        let mut ties = ArrayVec::new();
        for c in &list {
            let (p2, o2) = (opponent ^ c.flipped, player | c.flipped | (1u64 << c.sq));
            let reaches =
                Some(c.sq) == solution.best || -self.search(p2, o2, -best, -best + 1) >= best;
            if reaches {
                ties.push(c.sq);
            }
        }
        (best, ties)
    }

    /// An internal search entry point in the middle of a larger search: the exact score
    /// within (`alpha`, `beta`) (fail-soft), counting nodes into the running total.
    pub(crate) fn search(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        let empty = !(player | opponent);
        let n = empty.count_ones();
        if n <= SHALLOW {
            self.shallow(player, opponent, alpha, beta, empty, n, false)
        } else {
            self.deep(player, opponent, alpha, beta, n, false)
        }
    }

    fn root(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32) -> (i32, Option<u8>) {
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            let score = if legal_moves(opponent, player) == 0 {
                final_score(player, opponent)
            } else {
                -self.search(opponent, player, -beta, -alpha)
            };
            return (score, None);
        }
        let n = (!(player | opponent)).count_ones();
        let tt_move = self.tt.probe(player, opponent).map_or(NO_MOVE, |e| e.best);
        let mut list = self.order(player, opponent, moves, n, tt_move);
        list.sort_unstable_by_key(|c| c.key);
        let mut best = -SCORE_MAX - 1;
        let mut best_sq = list[0].sq;
        let mut a = alpha;
        for (i, c) in list.iter().enumerate() {
            let (p2, o2) = (opponent ^ c.flipped, player | c.flipped | (1u64 << c.sq));
            let score = if i == 0 {
                -self.search(p2, o2, -beta, -a)
            } else {
                let s = -self.search(p2, o2, -a - 1, -a);
                if s > a && s < beta {
                    -self.search(p2, o2, -beta, -s)
                } else {
                    s
                }
            };
            if score > best {
                best = score;
                best_sq = c.sq;
                if score > a {
                    a = score;
                }
                if score >= beta {
                    break;
                }
            }
        }
        (best, Some(best_sq))
    }

    /// Builds the candidate list with fastest-first keys.
    #[inline]
    fn order(
        &mut self,
        player: u64,
        opponent: u64,
        mut moves: u64,
        n: u32,
        tt_move: u8,
    ) -> ArrayVec<Candidate, 32> {
        let mut list = ArrayVec::new();
        let odd = odd_regions(!(player | opponent));
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let bit = 1u64 << sq;
            let f = flips(player, opponent, sq);
            let (p2, o2) = (opponent ^ f, player | f | bit);
            let key = if sq == tt_move {
                -1_000_000
            } else if p2 == 0 {
                // A wipeout: nothing is better.
                -2_000_000
            } else if n >= self.deep_ordering {
                // A shallow evaluated search of the reply, from the opponent's view.
                let depth = if n >= self.deep_ordering + 6 {
                    2
                } else if n >= self.deep_ordering + 2 {
                    1
                } else {
                    0
                };
                let e = self.probe_eval(p2, o2, -INF_EVAL, INF_EVAL, depth);
                e + (weighted_mobility(p2, o2) as i32) * self.mob_w
            } else {
                // Fastest first: the opponent's mobility dominates, then our stable
                // corner discs, the opponent's potential mobility and parity.
                let mob = weighted_mobility(p2, o2) as i32;
                let mut key = mob * 1024;
                if n > CHEAP_KEYS {
                    let pot = (super::bits::around(o2) & !(p2 | o2)).count_ones() as i32;
                    key += pot * 8 - corner_stability(o2) * 128;
                }
                if bit & odd != 0 {
                    key -= 4;
                }
                key
            };
            list.push(Candidate {
                sq,
                flipped: f,
                key,
            });
        }
        list
    }

    /// Alpha-beta with the table, from `SHALLOW + 1` empty squares up.
    fn deep(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        mut beta: i32,
        n: u32,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.aborted = true;
            return 0;
        }
        // Stability cutoff: the opponent's stable discs cap our score.
        let opp_count = opponent.count_ones() as i32;
        if 64 - 2 * opp_count <= alpha {
            let max = 64 - 2 * (stable_discs(opponent, player).count_ones() as i32);
            if max <= alpha {
                return max;
            }
            if max < beta {
                beta = max;
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt.probe(player, opponent) {
            tt_move = e.best;
            match e.narrow(alpha, beta) {
                Ok(window) => (alpha, beta) = window,
                Err(score) => return score,
            }
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if passed {
                return final_score(player, opponent);
            }
            return -self.deep(opponent, player, -beta, -alpha, n, true);
        }
        let mut list = self.order(player, opponent, moves, n, tt_move);
        if n >= ETC_DEPTH {
            // Enhanced transposition cutoff: a child already known to be bad enough for
            // the opponent proves the cut without searching.
            for c in &list {
                let (p2, o2) = (opponent ^ c.flipped, player | c.flipped | (1u64 << c.sq));
                if let Some(e) = self.tt.probe(p2, o2) {
                    let score = -i32::from(e.upper);
                    if score >= beta {
                        return score;
                    }
                }
            }
        }
        // Insertion sort: the lists are short.
        for i in 1..list.len() {
            let mut j = i;
            while j > 0 && list[j - 1].key > list[j].key {
                list.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut best = -SCORE_MAX - 1;
        let mut best_sq = NO_MOVE;
        let mut a = alpha;
        for (i, c) in list.iter().enumerate() {
            let (p2, o2) = (opponent ^ c.flipped, player | c.flipped | (1u64 << c.sq));
            let score = if n - 1 <= SHALLOW {
                let empty = !(p2 | o2);
                -self.shallow(p2, o2, -beta, -a, empty, n - 1, false)
            } else if i == 0 {
                -self.deep(p2, o2, -beta, -a, n - 1, false)
            } else {
                let s = -self.deep(p2, o2, -a - 1, -a, n - 1, false);
                if s > a && s < beta {
                    -self.deep(p2, o2, -beta, -s, n - 1, false)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_sq = c.sq;
                if score >= beta {
                    break;
                }
                if score > a {
                    a = score;
                }
            }
        }
        self.tt
            .store(player, opponent, n as u8, alpha0, beta0, best, best_sq);
        best
    }

    /// The exact score with two empty squares (`empty`), fail-soft in (`alpha`, `beta`).
    #[inline]
    fn solve2(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32, empty: u64) -> i32 {
        self.nodes += 1;
        let x1 = empty.trailing_zeros() as u8;
        let x2 = (63 - empty.leading_zeros()) as u8;
        let (b1, b2) = (1u64 << x1, 1u64 << x2);
        let mut best = -SCORE_MAX - 1;
        if NEIGHBOURS[x1 as usize] & opponent != 0 {
            let f = flips(player, opponent, x1);
            if f != 0 {
                best = -last_move(opponent ^ f, player | f | b1, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2 as usize] & opponent != 0 {
            let f = flips(player, opponent, x2);
            if f != 0 {
                let s = -last_move(opponent ^ f, player | f | b2, x1);
                return s.max(best);
            }
        }
        if best > -SCORE_MAX - 1 {
            return best;
        }
        // The side to move passes: the opponent plays, from our point of view.
        self.nodes += 1;
        let mut worst = SCORE_MAX + 1;
        if NEIGHBOURS[x1 as usize] & player != 0 {
            let f = flips(opponent, player, x1);
            if f != 0 {
                worst = last_move(player ^ f, opponent | f | b1, x2);
                if worst <= alpha {
                    return worst;
                }
            }
        }
        if NEIGHBOURS[x2 as usize] & player != 0 {
            let f = flips(opponent, player, x2);
            if f != 0 {
                let s = last_move(player ^ f, opponent | f | b2, x1);
                return s.min(worst);
            }
        }
        if worst < SCORE_MAX + 1 {
            return worst;
        }
        final_score(player, opponent)
    }

    /// Alpha-beta without table for the last few empty squares, parity ordering.
    #[allow(clippy::too_many_arguments)]
    fn shallow(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        empty: u64,
        n: u32,
        passed: bool,
    ) -> i32 {
        if n == 2 {
            return self.solve2(player, opponent, alpha, beta, empty);
        }
        if n == 1 {
            self.nodes += 1;
            return last_move(player, opponent, empty.trailing_zeros() as u8);
        }
        self.nodes += 1;
        let mut best = -SCORE_MAX - 1;
        let mut a = alpha;
        let odd = odd_regions(empty);
        for group in [empty & odd, empty & !odd] {
            let mut squares = group;
            while squares != 0 {
                let sq = squares.trailing_zeros() as u8;
                squares &= squares - 1;
                if NEIGHBOURS[sq as usize] & opponent == 0 {
                    continue;
                }
                let f = flips(player, opponent, sq);
                if f == 0 {
                    continue;
                }
                let bit = 1u64 << sq;
                let score = -self.shallow(
                    opponent ^ f,
                    player | f | bit,
                    -beta,
                    -a,
                    empty ^ bit,
                    n - 1,
                    false,
                );
                if score > best {
                    best = score;
                    if score >= beta {
                        return best;
                    }
                    if score > a {
                        a = score;
                    }
                }
            }
        }
        if best == -SCORE_MAX - 1 {
            if passed {
                return final_score(player, opponent);
            }
            return -self.shallow(opponent, player, -beta, -alpha, empty, n, true);
        }
        best
    }
}

impl Solver {
    /// A small alpha-beta on the evaluation, for move ordering.
    fn probe_eval(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32, depth: u32) -> i32 {
        if depth == 0 {
            return self.eval.evaluate(player, opponent);
        }
        let mut moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return final_score(player, opponent) * DISC;
            }
            return -self.probe_eval(opponent, player, -beta, -alpha, depth);
        }
        let mut best = -INF_EVAL;
        let mut a = alpha;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips(player, opponent, sq);
            let s = -self.probe_eval(
                opponent ^ f,
                player | f | (1u64 << sq),
                -beta,
                -a,
                depth - 1,
            );
            if s > best {
                best = s;
                if s >= beta {
                    break;
                }
                a = a.max(s);
            }
        }
        best
    }
}

/// The corners of `own` and the edge squares next to them that `own` holds: a cheap
/// count of stable discs.
#[inline(always)]
fn corner_stability(own: u64) -> i32 {
    let stable = (((0x0100_0000_0000_0001 & own) << 1)
        | ((0x8000_0000_0000_0080 & own) >> 1)
        | ((0x0000_0000_0000_0081 & own) << 8)
        | ((0x8100_0000_0000_0000 & own) >> 8)
        | 0x8100_0000_0000_0081)
        & own;
    stable.count_ones() as i32
}

/// The exact score of a position with one empty square `sq`, `player` to move.
#[inline(always)]
fn last_move(player: u64, opponent: u64, sq: u8) -> i32 {
    let f = flips(player, opponent, sq);
    if f != 0 {
        let o = opponent.count_ones() as i32 - f.count_ones() as i32;
        return 64 - 2 * o;
    }
    let f = flips(opponent, player, sq);
    if f != 0 {
        let p = player.count_ones() as i32 - f.count_ones() as i32;
        return 2 * p - 64;
    }
    let diff = 2 * player.count_ones() as i32 - 63;
    // One empty square goes to the winner; the difference is odd, never a draw.
    if diff > 0 { diff + 1 } else { diff - 1 }
}

#[cfg(test)]
pub(crate) mod tests {
    extern crate std;
    use super::*;

    /// A plain minimax over the rules: the reference every optimisation is checked
    /// against.
    pub(crate) fn brute_force(player: u64, opponent: u64) -> i32 {
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return final_score(player, opponent);
            }
            return -brute_force(opponent, player);
        }
        let mut best = i32::MIN;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let f = flips(player, opponent, sq);
            best = best.max(-brute_force(opponent ^ f, player | f | (1 << sq)));
        }
        best
    }

    #[test]
    fn last_move_agrees_with_brute_force() {
        // Nearly full board: all but h8, with a mix of discs.
        let full = !(1u64 << 63);
        for seed in 0..2000u64 {
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x1234_5678;
            x ^= x >> 29;
            x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let p = x & full;
            let o = !x & full;
            assert_eq!(last_move(p, o, 63), brute_force(p, o), "p={p:#x}");
        }
    }
}
