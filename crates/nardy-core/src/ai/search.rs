//! Expectimax over the 21 rolls (0-, 1- and 2-ply) with move filters and a node budget.

use alloc::vec::Vec;

mod children;

use crate::ai::equity::Probabilities;
use crate::ai::eval::{Evaluator, terminal_probabilities};
use crate::dice::Dice;
use crate::movegen::Move;
use crate::position::Position;
use crate::rules::Rules;

/// Which candidates survive to a deeper (dearer) evaluation: at most `keep` of them, and
/// only those within `margin` equity of the best at the cheaper one (as GNU Backgammon's
/// move filters do). The best always survives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveFilter {
    /// At most this many candidates go deeper (at least one does).
    pub keep: usize,
    /// Only candidates within this much equity of the best go deeper.
    pub margin: f32,
}

/// How deep to search and what to prune.
///
/// - 0 plies: every legal turn is scored by the evaluator on the position it leads to.
/// - 1 ply: the turns that pass `root_filters[0]` are scored by averaging, over the
///   opponent's 21 rolls, the opponent's best reply at 0 plies.
/// - 2 plies: the turns that pass `root_filters[1]` after that are scored by averaging,
///   over the opponent's rolls, its best reply scored at 1 ply; inside, the opponent's
///   candidate replies pass `inner_filter` first.
///
/// When a stage would go over `max_nodes` evaluations, the search stops and keeps the
/// last complete stage, so the result depends only on the position, the dice and the
/// configuration (never on time or threads).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchConfig {
    /// 0, 1 or 2 (more is treated as 2).
    pub plies: u8,
    /// The filters before the 1-ply and the 2-ply stages at the root.
    pub root_filters: [MoveFilter; 2],
    /// The filter on the replies inside a 2-ply search.
    pub inner_filter: MoveFilter,
    /// The budget of static evaluations for one decision.
    pub max_nodes: u64,
}

impl SearchConfig {
    /// A search of `plies` with the default filters and budget.
    pub const fn plies(plies: u8) -> SearchConfig {
        SearchConfig {
            plies,
            root_filters: [
                MoveFilter {
                    keep: 8,
                    margin: 0.16,
                },
                MoveFilter {
                    keep: 3,
                    margin: 0.08,
                },
            ],
            inner_filter: MoveFilter {
                keep: 2,
                margin: 0.04,
            },
            max_nodes: 1_500_000,
        }
    }
}

/// One legal turn with its evaluation, for the side that plays it.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedMove {
    /// The turn.
    pub mv: Move,
    /// The position it leads to.
    pub position: Position,
    /// The probabilities for the side that plays it.
    pub probabilities: Probabilities,
    /// Their equity under the rules.
    pub equity: f32,
    /// The depth this turn was evaluated at (it may have been filtered out earlier).
    pub plies: u8,
    /// The equity given up against the best turn (0 for the best).
    pub loss: f32,
}

/// An expectimax search with an evaluator.
#[derive(Debug, Clone)]
pub struct Search<E> {
    /// The static evaluation at the leaves.
    pub evaluator: E,
    /// The rules of the game (legal turns, scoring).
    pub rules: Rules,
    /// Depth, filters, budget.
    pub config: SearchConfig,
    generator: children::Children,
    nodes: u64,
    /// Values already searched in this call, with the evaluations they cost.
    cache: Cache,
    /// Spare child lists, one per depth, so the search allocates once.
    spare: Vec<Vec<Position>>,
}

/// Slots in the transposition table (a power of two): a 2-ply decision makes about
/// 60,000 evaluations.
const CACHE_SLOTS: usize = 1 << 16;

/// One searched value: the position (both packed boards and the side to move, which fix
/// it), its depth, the probabilities and the evaluations they cost.
#[derive(Clone, Copy, Default)]
struct Entry {
    white: u128,
    black: u128,
    stamp: u32,
    /// `depth << 1 | side to move`.
    tag: u8,
    cost: u32,
    value: [f32; 5],
}

/// A transposition table of `value(position, depth)` for depths of 1 and more, for one
/// search call. The same position reached by other rolls or turns (6-1 and 5-2 moving
/// one checker 7, the filter stage before the deeper one) is searched once; a hit adds
/// the evaluations the first search cost to the node count, so the budget, and with it
/// every result, is the same as without the table. Entries of earlier calls are told
/// apart by a stamp. A 0-ply value is cheaper to compute again than to fetch from this
/// 4 MB table, so it is never stored.
#[derive(Clone, Default)]
struct Cache {
    entries: Vec<Entry>,
    stamp: u32,
}

impl core::fmt::Debug for Cache {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cache").field("stamp", &self.stamp).finish()
    }
}

impl Cache {
    /// Forgets every entry (a new search call: the configuration may have changed). A
    /// 0-ply search meets no position twice: it gets no table.
    fn renew(&mut self, plies: u8) {
        if self.entries.is_empty() && plies > 0 {
            self.entries = alloc::vec![Entry::default(); CACHE_SLOTS];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.entries.fill(Entry::default());
            self.stamp = 1;
        }
    }

    fn key(p: &Position, depth: u8) -> (u128, u128, u8, usize) {
        let (w, b) = (p.sides[0].packed, p.sides[1].packed);
        let tag = (depth << 1) | p.turn.index() as u8;
        let mut h = (w as u64) ^ ((w >> 64) as u64).rotate_left(17) ^ u64::from(tag);
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (b as u64) ^ ((b >> 64) as u64).rotate_left(41);
        h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 32;
        (w, b, tag, h as usize & (CACHE_SLOTS - 1))
    }

    fn get(&self, p: &Position, depth: u8) -> Option<(Probabilities, u32)> {
        let (w, b, tag, i) = Self::key(p, depth);
        let e = self.entries.get(i)?;
        (e.stamp == self.stamp && e.tag == tag && e.white == w && e.black == b)
            .then(|| (Probabilities::from_array(e.value), e.cost))
    }

    fn put(&mut self, p: &Position, depth: u8, value: Probabilities, cost: u32) {
        let (w, b, tag, i) = Self::key(p, depth);
        let stamp = self.stamp;
        if let Some(e) = self.entries.get_mut(i) {
            // A deeper value of this call is dearer to redo: keep it.
            if e.stamp == stamp && e.tag >> 1 > depth {
                return;
            }
            *e = Entry {
                white: w,
                black: b,
                stamp,
                tag,
                cost,
                value: value.to_array(),
            };
        }
    }
}

/// The weight of each of the 21 rolls: 1/36 for a double, 2/36 otherwise.
pub(crate) fn roll_weight(dice: Dice) -> f32 {
    (if dice.is_double() { 1.0 } else { 2.0 }) / 36.0
}

impl<E: Evaluator> Search<E> {
    /// A search with `evaluator` under `rules`.
    pub fn new(evaluator: E, rules: Rules, config: SearchConfig) -> Search<E> {
        Search {
            evaluator,
            rules,
            config,
            generator: children::Children::default(),
            nodes: 0,
            cache: Cache::default(),
            spare: Vec::new(),
        }
    }

    /// Static evaluations made by the last call of [`Search::rank`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn eval(&mut self, p: &Position) -> Probabilities {
        self.nodes += 1;
        self.evaluator.evaluate(p)
    }

    /// The value of `p` for its side to move, before it rolls, searched `depth` plies:
    /// from the table when this call has searched it already.
    fn value(&mut self, p: &Position, depth: u8) -> Probabilities {
        if let Some(done) = terminal_probabilities(p) {
            return done;
        }
        if depth == 0 {
            // One evaluation: as cheap as a probe of the table (see `Cache`).
            return self.eval(p);
        }
        if let Some((v, cost)) = self.cache.get(p, depth) {
            self.nodes += u64::from(cost);
            return v;
        }
        let before = self.nodes;
        let v = self.expand(p, depth);
        let cost = u32::try_from(self.nodes - before).unwrap_or(u32::MAX);
        self.cache.put(p, depth, v, cost);
        v
    }

    /// The average over the 21 rolls of the best reply of `p`'s side to move.
    fn expand(&mut self, p: &Position, depth: u8) -> Probabilities {
        let mut kids = self.spare.pop().unwrap_or_default();
        let mut acc = [0f32; 5];
        for dice in Dice::ALL {
            self.generator.generate(p, dice, &self.rules, &mut kids);
            let best = self.best_reply(&kids, depth - 1);
            let w = roll_weight(dice);
            for (a, b) in acc.iter_mut().zip(best.to_array()) {
                *a += w * b;
            }
        }
        self.spare.push(kids);
        // The weights sum to 1 only up to rounding.
        Probabilities::from_array(acc).consistent()
    }

    /// The best of `kids` for the side choosing among them, each searched `depth` plies
    /// (after a 0-ply filter when `depth > 0`); returned from the chooser's view.
    fn best_reply(&mut self, kids: &[Position], depth: u8) -> Probabilities {
        let mut scored: Vec<(f32, Probabilities, usize)> = kids
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let p = self.value(k, 0).flip();
                (p.equity(&self.rules), p, i)
            })
            .collect();
        let best0 = best_index(&scored);
        if depth == 0 {
            return scored[best0].1;
        }
        let survivors = filter(&mut scored, self.config.inner_filter);
        let mut best: Option<(f32, Probabilities)> = None;
        for &(_, _, i) in &scored[..survivors] {
            let p = self.value(&kids[i], depth).flip();
            let e = p.equity(&self.rules);
            if best.is_none_or(|(be, _)| e > be) {
                best = Some((e, p));
            }
        }
        best.map_or(scored[0].1, |(_, p)| p)
    }

    /// Every legal turn of `position` with `dice`, best first, searched as configured.
    /// The turns that reached the deepest stage come first (by their deepest equity),
    /// then the others by the equity of the stage they stopped at. Ties keep the move
    /// generator's order.
    pub fn rank(&mut self, position: &Position, dice: Dice) -> Vec<RankedMove> {
        self.nodes = 0;
        self.cache.renew(self.config.plies);
        let rules = self.rules;
        let mut ranked: Vec<RankedMove> = position
            .legal_moves_with_results(dice, &rules)
            .into_iter()
            .map(|(mv, after)| {
                let probabilities = self.value(&after, 0).flip();
                RankedMove {
                    mv,
                    position: after,
                    equity: probabilities.equity(&rules),
                    probabilities,
                    plies: 0,
                    loss: 0.0,
                }
            })
            .collect();
        sort(&mut ranked);
        let plies = self.config.plies.min(2);
        for stage in 1..=plies {
            let f = self.config.root_filters[usize::from(stage - 1)];
            let n = survivors(&ranked, f);
            if ranked.len() <= 1 {
                break;
            }
            let mut deeper = Vec::with_capacity(n);
            let mut over = false;
            for r in &ranked[..n] {
                let p = self.value(&r.position, stage).flip();
                deeper.push(p);
                if self.nodes > self.config.max_nodes {
                    over = true;
                    break;
                }
            }
            if over {
                // Keep the last complete stage.
                break;
            }
            for (r, p) in ranked.iter_mut().zip(deeper) {
                r.probabilities = p;
                r.equity = p.equity(&rules);
                r.plies = stage;
            }
            sort(&mut ranked);
        }
        let best = ranked.first().map_or(0.0, |r| r.equity);
        for r in &mut ranked {
            r.loss = best - r.equity;
        }
        ranked
    }

    /// The value of `position` for its side to move, before it rolls, searched `plies`
    /// deep (0 to 2; the replies inside pass the inner filter).
    pub fn value_of_position(&mut self, position: &Position, plies: u8) -> Probabilities {
        self.cache.renew(plies);
        self.value(position, plies.min(2))
    }

    /// The value of the turn that leads to `after`, for the side that plays it, searched
    /// `plies` deep (0 to 2; the replies inside pass the inner filter).
    pub fn value_of_move(&mut self, after: &Position, plies: u8) -> Probabilities {
        self.cache.renew(plies);
        self.value(after, plies.min(2)).flip()
    }
}

/// Best first: deeper stages first, then by equity (stable, so ties keep their order).
fn sort(ranked: &mut [RankedMove]) {
    ranked.sort_by(|a, b| b.plies.cmp(&a.plies).then(b.equity.total_cmp(&a.equity)));
}

/// How many of the (sorted) `ranked` pass the filter.
fn survivors(ranked: &[RankedMove], f: MoveFilter) -> usize {
    let Some(best) = ranked.first() else {
        return 0;
    };
    let top = best.plies;
    ranked
        .iter()
        .take(f.keep.max(1))
        .take_while(|r| r.plies == top && r.equity >= best.equity - f.margin)
        .count()
        .max(1)
}

/// The index of the highest equity (the first on a tie).
fn best_index(scored: &[(f32, Probabilities, usize)]) -> usize {
    let mut best = 0;
    for (i, s) in scored.iter().enumerate() {
        if s.0 > scored[best].0 {
            best = i;
        }
    }
    best
}

/// Sorts `scored` best first (stable) and returns how many pass `f`.
fn filter(scored: &mut [(f32, Probabilities, usize)], f: MoveFilter) -> usize {
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let Some(&(best, _, _)) = scored.first() else {
        return 0;
    };
    scored
        .iter()
        .take(f.keep.max(1))
        .take_while(|s| s.0 >= best - f.margin)
        .count()
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::eval::HandEval;

    #[test]
    fn deeper_search_ranks_every_turn_and_counts_nodes() {
        let rules = Rules::default();
        let p: Position = "24:10,19:2,17:1,13:2/12:9,9:2,5:2,3:2 w".parse().unwrap();
        let dice = Dice::new(5, 2).unwrap();
        let n = p.legal_moves(dice, &rules).len();
        let mut s0 = Search::new(HandEval, rules, SearchConfig::plies(0));
        let r0 = s0.rank(&p, dice);
        assert_eq!(r0.len(), n);
        assert_eq!(s0.nodes(), n as u64);
        let mut s2 = Search::new(HandEval, rules, SearchConfig::plies(2));
        let r2 = s2.rank(&p, dice);
        assert_eq!(r2.len(), n);
        assert_eq!(r2[0].plies, 2);
        assert!(s2.nodes() > s0.nodes());
        // Sorted: deeper first, then by equity.
        for w in r2.windows(2) {
            assert!(w[0].plies > w[1].plies || w[0].equity >= w[1].equity);
        }
        // Same answer again.
        assert_eq!(s2.rank(&p, dice), r2);
    }

    #[test]
    fn budget_falls_back_to_a_complete_stage() {
        let rules = Rules::default();
        let p: Position = "24:10,19:2,17:1,13:2/12:9,9:2,5:2,3:2 w".parse().unwrap();
        let dice = Dice::new(4, 4).unwrap();
        let mut config = SearchConfig::plies(2);
        config.max_nodes = 2_000;
        let mut s = Search::new(HandEval, rules, config);
        let r = s.rank(&p, dice);
        assert!(r[0].plies < 2);
    }
}
