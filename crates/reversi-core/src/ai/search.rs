//! Midgame search: negamax alpha-beta with principal variation search, iterative
//! deepening with an aspiration window at the root, Multi-ProbCut, a transposition table,
//! history-guided fastest-first move ordering, and a hand-over to the exact solver near
//! the end of the game.

use alloc::boxed::Box;
use arrayvec::ArrayVec;
use core::cell::Cell;

use super::bits::{CORNERS, final_score, weighted_mobility};
use super::endgame::Solver;
use super::eval::{DISC, Evaluator};
use super::probcut;
use super::tt::{NO_MOVE, Table};
use crate::bitboard::flips;
use crate::bitboard::legal_moves;

/// Larger than any score.
const INF: i32 = 100 * DISC;

/// What a search may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest midgame iteration, in plies (at least 1).
    pub depth: u32,
    /// Solve exactly when at most this many squares are empty.
    pub exact_empties: u32,
    /// Stop after about this many nodes (the last finished iteration's move is kept).
    pub nodes: u64,
}

impl Limits {
    /// A fixed-depth search with an exact solve from `exact_empties` empty squares.
    pub const fn depth(depth: u32, exact_empties: u32) -> Limits {
        Limits {
            depth,
            exact_empties,
            nodes: u64::MAX,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The chosen move, `None` when the side to move must pass or the game is over.
    pub best: Option<u8>,
    /// The score of the best move from the side to move's view: hundredths of a disc, or
    /// `DISC` times the exact final disc difference when `exact`.
    pub score: i32,
    /// Whether the score is the exact final result.
    pub exact: bool,
    /// The deepest finished iteration (0 for an exact solve).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Every root move tied with the best one at the deepest finished iteration.
    pub ties: ArrayVec<u8, 32>,
}

/// What a finished iteration of the midgame search found (for time management).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Iteration {
    /// Its score (hundredths of a disc).
    score: i32,
    /// Whether the best move differs from the previous iteration's.
    changed: bool,
}

/// The first depth searched with an aspiration window at the root.
const ASPIRATION_FROM: u32 = 4;

/// A reusable midgame searcher: evaluation, transposition table, history and the
/// endgame solver.
#[derive(Clone, Debug)]
pub struct Searcher {
    eval: Evaluator,
    tt: Table,
    solver: Solver,
    history: [i32; 64],
    nodes: u64,
    node_limit: u64,
    aborted: bool,
    /// Multi-ProbCut's margin in hundredths of a deviation, `None` when off.
    probcut: Option<i32>,
    /// Multi-ProbCut's fitted table (the shipped one unless replaced).
    cuts: Box<probcut::Table>,
    /// Half the width of the root's aspiration window, `None` when off.
    aspiration: Option<i32>,
}

/// The default Multi-ProbCut margin, in hundredths of a deviation.
pub const PROBCUT_MARGIN: i32 = 150;

/// The default half width of the root's aspiration window, in hundredths of a disc
/// (four discs: narrower windows fail too often, see `docs/research/reversi-strength.md`).
pub const ASPIRATION_WINDOW: i32 = 4 * DISC;

#[cfg(feature = "shipped-weights")]
impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

/// Converts a window in eval units to disc units so that a fail-soft exact score maps
/// back to a correct bound.
#[inline]
fn disc_window(alpha: i32, beta: i32) -> (i32, i32) {
    let a = alpha.div_euclid(DISC).clamp(-65, 65);
    let b = (beta + DISC - 1).div_euclid(DISC).clamp(-65, 65);
    (a, b.max(a + 1))
}

impl Searcher {
    /// A searcher with the default evaluation and 2^18-entry tables.
    #[cfg(feature = "shipped-weights")]
    pub fn new() -> Searcher {
        Searcher::with_evaluator(Evaluator::default())
    }

    /// A searcher using `eval`.
    pub fn with_evaluator(eval: Evaluator) -> Searcher {
        Searcher {
            eval,
            tt: Table::new(18),
            // The bots' solver keeps the hand-tuned move ordering: the training self-play
            // (and so the shipped weights) must not change with it. The endgames the bots
            // solve are small, so the pattern ordering would gain them little.
            solver: Solver::with_evaluator(18, Evaluator::hand_tuned()),
            history: [0; 64],
            nodes: 0,
            node_limit: u64::MAX,
            aborted: false,
            probcut: Some(PROBCUT_MARGIN),
            cuts: Box::new(*probcut::shipped()),
            aspiration: Some(ASPIRATION_WINDOW),
        }
    }

    /// Multi-ProbCut's margin in hundredths of a deviation (`None`: off).
    pub fn probcut(&self) -> Option<i32> {
        self.probcut
    }

    /// Turns Multi-ProbCut off (`None`) or sets its margin in hundredths of a deviation:
    /// larger margins cut less and err less.
    pub fn set_probcut(&mut self, margin: Option<i32>) {
        self.probcut = margin;
    }

    /// The half width of the root's aspiration window in hundredths of a disc (`None`:
    /// off).
    pub fn aspiration(&self) -> Option<i32> {
        self.aspiration
    }

    /// Turns the root's aspiration window off (`None`: every iteration searches its first
    /// move with a full window) or sets its half width in hundredths of a disc. With
    /// ProbCut off the scores are the same either way, up to the search instability of a
    /// transposition table; with ProbCut on, the window also changes what is cut.
    pub fn set_aspiration(&mut self, half_width: Option<i32>) {
        self.aspiration = half_width.map(|w| w.max(1));
    }

    /// Replaces the Multi-ProbCut table (the shipped `probcut.bin` by default) with
    /// `table`, for instance one read by [`probcut::parse`] from a file being tried.
    pub fn set_probcut_table(&mut self, table: probcut::Table) {
        *self.cuts = table;
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Forgets the tables and history (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.solver.clear();
        self.history = [0; 64];
    }

    /// Searches (`player` to move, `opponent`) within `limits`. `stop` is polled now and
    /// then; when it returns `true` the search ends with the last finished iteration.
    pub fn search(
        &mut self,
        player: u64,
        opponent: u64,
        limits: &Limits,
        stop: &mut dyn FnMut() -> bool,
    ) -> SearchResult {
        self.search_planned(player, opponent, limits, stop, &mut |_| true)
    }

    /// Searches like [`Searcher::search`] for about `target_ms` milliseconds of `clock`
    /// (microseconds from any fixed origin; the engines have no clock of their own).
    ///
    /// Time goes where the position needs it: a new iteration starts only when it is
    /// expected to finish within the budget (its cost predicted from the growth of the
    /// last one), the budget grows by half when the best move just changed or the score
    /// fell by two discs or more, and an iteration still running at twice the budget is
    /// cut off (its new best move is kept when it already beats the last one). `limits`
    /// still caps the depth, the nodes and the exact solve; `stop` still ends the search.
    pub fn search_on_clock(
        &mut self,
        player: u64,
        opponent: u64,
        limits: &Limits,
        target_ms: u64,
        clock: &dyn Fn() -> u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> SearchResult {
        let target = target_ms.saturating_mul(1000).max(1);
        let start = clock();
        let elapsed = || clock().saturating_sub(start);
        let hard = Cell::new(target.saturating_mul(2));
        let mut last = (0u64, 0u64); // (elapsed at the previous iteration, its duration)
        let mut last_score: Option<i32> = None;
        let mut plan = |it: &Iteration| {
            let now = elapsed();
            let took = now.saturating_sub(last.0);
            // Iterations under a millisecond say nothing about the growth.
            let growth = if last.1 >= 1000 {
                (took as f64 / last.1 as f64).clamp(1.5, 6.0)
            } else {
                3.0
            };
            last = (now, took);
            let falling = last_score.is_some_and(|s| it.score <= s - 2 * DISC);
            last_score = Some(it.score);
            let budget = if it.changed || falling {
                target.saturating_add(target / 2)
            } else {
                target
            };
            hard.set(budget.saturating_mul(2));
            now as f64 + took as f64 * growth <= budget as f64
        };
        let mut stop_all = || stop() || elapsed() >= hard.get();
        self.search_planned(player, opponent, limits, &mut stop_all, &mut plan)
    }

    /// The search, asking `plan` after each finished iteration whether to start the next.
    fn search_planned(
        &mut self,
        player: u64,
        opponent: u64,
        limits: &Limits,
        stop: &mut dyn FnMut() -> bool,
        plan: &mut dyn FnMut(&Iteration) -> bool,
    ) -> SearchResult {
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes;
        self.tt.new_search();
        for h in &mut self.history {
            *h /= 4;
        }
        let moves = legal_moves(player, opponent);
        let empties = (!(player | opponent)).count_ones();
        if moves == 0 {
            let over = legal_moves(opponent, player) == 0;
            let score = if over {
                final_score(player, opponent) * DISC
            } else {
                self.eval.evaluate(player, opponent)
            };
            return SearchResult {
                best: None,
                score,
                exact: over,
                depth: 0,
                nodes: 0,
                ties: ArrayVec::new(),
            };
        }
        if empties <= limits.exact_empties {
            return self.solve_root(player, opponent, moves);
        }
        let mut root: ArrayVec<(u8, u64, i32), 32> = ArrayVec::new();
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let f = flips(player, opponent, sq);
            let key = -(weighted_mobility(opponent ^ f, player | f | (1 << sq)) as i32);
            root.push((sq, f, key));
        }
        root.sort_by_key(|r| -r.2);
        let mut result = SearchResult {
            best: Some(root[0].0),
            score: 0,
            exact: false,
            depth: 0,
            nodes: 0,
            ties: ArrayVec::new(),
        };
        result.ties.push(root[0].0);
        let max_depth = limits.depth.max(1);
        for depth in 1..=max_depth {
            let mut best = -INF;
            let mut ties: ArrayVec<u8, 32> = ArrayVec::new();
            let mut scores: ArrayVec<i32, 32> = ArrayVec::new();
            for (i, &(sq, f, _)) in root.iter().enumerate() {
                let (p2, o2) = (opponent ^ f, player | f | (1u64 << sq));
                let score = if i == 0 {
                    self.first_root_move(stop, p2, o2, depth, result.score)
                } else {
                    // Null window just below the best, so ties are recognised.
                    let s = -self.pvs(stop, p2, o2, -best, -best + 1, depth - 1, false);
                    if s >= best && !self.aborted {
                        -self.pvs(stop, p2, o2, -INF, -best + 1, depth - 1, false)
                    } else {
                        s
                    }
                };
                if self.aborted {
                    self.aborted = true;
                    break;
                }
                scores.push(score);
                if score > best {
                    best = score;
                    ties.clear();
                    ties.push(sq);
                } else if score == best {
                    ties.push(sq);
                }
            }
            if self.aborted {
                // A new best move found in an unfinished iteration is still better.
                if depth > 1 && best > result.score && !ties.is_empty() {
                    result.best = Some(ties[0]);
                    result.ties = ties;
                    result.score = best;
                }
                break;
            }
            // Sort the root moves by this iteration's scores (stable: ties keep order).
            let mut keyed: ArrayVec<(i32, (u8, u64, i32)), 32> =
                scores.iter().copied().zip(root.iter().copied()).collect();
            keyed.sort_by_key(|&(s, _)| -s);
            root = keyed.into_iter().map(|(_, r)| r).collect();
            let changed = result.best != Some(ties[0]);
            result.best = Some(ties[0]);
            result.ties = ties;
            result.score = best;
            result.depth = depth;
            if depth >= empties || depth == max_depth {
                break;
            }
            let it = Iteration {
                score: best,
                changed,
            };
            if !plan(&it) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// The score of the first root move at `depth`: from depth 4 on, in an aspiration
    /// window around the last iteration's score `guess`, searched again with a full window
    /// on the side it fails.
    fn first_root_move(
        &mut self,
        stop: &mut dyn FnMut() -> bool,
        p2: u64,
        o2: u64,
        depth: u32,
        guess: i32,
    ) -> i32 {
        let delta = match self.aspiration {
            Some(delta) if depth >= ASPIRATION_FROM => delta,
            _ => return -self.pvs(stop, p2, o2, -INF, INF, depth - 1, false),
        };
        let (lo, hi) = (guess - delta, guess + delta);
        let s = -self.pvs(stop, p2, o2, -hi, -lo, depth - 1, false);
        if self.aborted || (s > lo && s < hi) {
            s
        } else if s <= lo {
            -self.pvs(stop, p2, o2, -(s + 1), INF, depth - 1, false)
        } else {
            -self.pvs(stop, p2, o2, -INF, -(s - 1), depth - 1, false)
        }
    }

    /// The score of every legal move of `player` with `limits` (exact when the position
    /// is within the solver's reach), best first.
    pub fn score_moves(
        &mut self,
        player: u64,
        opponent: u64,
        limits: &Limits,
    ) -> ArrayVec<(u8, i32, bool), 32> {
        let mut out: ArrayVec<(u8, i32, bool), 32> = ArrayVec::new();
        let empties = (!(player | opponent)).count_ones();
        if empties <= limits.exact_empties {
            for (sq, s) in self.solver.score_moves(player, opponent) {
                out.push((sq, s * DISC, true));
            }
        } else {
            self.tt.new_search();
            let stop = &mut || false;
            let mut m = legal_moves(player, opponent);
            while m != 0 {
                let sq = m.trailing_zeros() as u8;
                m &= m - 1;
                let f = flips(player, opponent, sq);
                let (p2, o2) = (opponent ^ f, player | f | (1u64 << sq));
                self.aborted = false;
                self.node_limit = u64::MAX;
                let mut s = 0;
                for d in 0..limits.depth.max(1) {
                    s = -self.pvs(stop, p2, o2, -INF, INF, d, false);
                }
                out.push((sq, s, false));
            }
        }
        out.sort_by_key(|&(sq, s, _)| (-s, sq));
        out
    }

    fn solve_root(&mut self, player: u64, opponent: u64, moves: u64) -> SearchResult {
        let scored = self.solver.score_moves_with_ties(player, opponent, moves);
        let nodes = self.solver.nodes();
        let best = scored.0;
        SearchResult {
            best: Some(scored.1[0]),
            score: best * DISC,
            exact: true,
            depth: 0,
            nodes,
            ties: scored.1,
        }
    }

    /// The move ordering keys of (`player`, `opponent`)'s moves, lower first.
    fn ordered(
        &self,
        player: u64,
        opponent: u64,
        moves: u64,
        tt_move: u8,
        depth: u32,
    ) -> ArrayVec<(u8, u64, i32), 32> {
        let mut list: ArrayVec<(u8, u64, i32), 32> = ArrayVec::new();
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let f = flips(player, opponent, sq);
            let key = if sq == tt_move {
                i32::MIN
            } else if depth >= 2 {
                let (p2, o2) = (opponent ^ f, player | f | (1u64 << sq));
                let mut k = (weighted_mobility(p2, o2) as i32) * 1024
                    - self.history[sq as usize].min(1 << 20) / 64;
                if (1u64 << sq) & CORNERS != 0 {
                    k -= 2048;
                }
                k
            } else {
                -self.history[sq as usize]
            };
            list.push((sq, f, key));
        }
        list.sort_unstable_by_key(|e| e.2);
        list
    }

    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        stop: &mut dyn FnMut() -> bool,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.node_limit || (self.nodes & 0xFFF == 0 && stop()) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if depth == 0 {
            return self.eval.evaluate(player, opponent);
        }
        let empties = (!(player | opponent)).count_ones();
        if empties <= depth && empties <= 16 {
            let (a, b) = disc_window(alpha, beta);
            let before = self.solver.nodes();
            let s = self.solver.search(player, opponent, a, b);
            self.nodes += self.solver.nodes().wrapping_sub(before);
            return s * DISC;
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt.probe(player, opponent) {
            tt_move = e.best;
            if u32::from(e.depth) >= depth {
                match e.narrow(alpha, beta) {
                    Ok(window) => (alpha, beta) = window,
                    Err(score) => return score,
                }
            }
        }
        if beta == alpha + 1
            && let Some(t) = self.probcut
            && let Some(cut) = probcut::cell(&self.cuts, empties, depth)
        {
            let shallow = probcut::shallow_depth(depth);
            let high = probcut::high_bound(cut, beta, t);
            if high <= 64 * DISC {
                let s = if shallow == 0 {
                    self.eval.evaluate(player, opponent)
                } else {
                    self.pvs(stop, player, opponent, high - 1, high, shallow, passed)
                };
                if self.aborted {
                    return 0;
                }
                if s >= high {
                    return beta;
                }
            }
            let low = probcut::low_bound(cut, alpha, t);
            if low >= -64 * DISC {
                let s = if shallow == 0 {
                    self.eval.evaluate(player, opponent)
                } else {
                    self.pvs(stop, player, opponent, low, low + 1, shallow, passed)
                };
                if self.aborted {
                    return 0;
                }
                if s <= low {
                    return alpha;
                }
            }
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if passed {
                return final_score(player, opponent) * DISC;
            }
            return -self.pvs(stop, opponent, player, -beta, -alpha, depth, true);
        }
        let list = self.ordered(player, opponent, moves, tt_move, depth);
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        let mut a = alpha;
        for (i, &(sq, f, _)) in list.iter().enumerate() {
            let (p2, o2) = (opponent ^ f, player | f | (1u64 << sq));
            let score = if i == 0 {
                -self.pvs(stop, p2, o2, -beta, -a, depth - 1, false)
            } else {
                let s = -self.pvs(stop, p2, o2, -a - 1, -a, depth - 1, false);
                if s > a && s < beta {
                    -self.pvs(stop, p2, o2, -beta, -s, depth - 1, false)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_sq = sq;
                if score >= beta {
                    self.history[sq as usize] += (depth * depth) as i32;
                    break;
                }
                if score > a {
                    a = score;
                }
            }
        }
        self.tt
            .store(player, opponent, depth as u8, alpha0, beta0, best, best_sq);
        best
    }

    /// Nodes visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
