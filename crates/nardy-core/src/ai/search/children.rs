//! Move generation for the search: the distinct positions after every legal turn, in the
//! order of [`Generator::children`], without recording the steps that reach them.
//!
//! The search only needs the resulting boards, so this keeps the mover's board alone
//! (32 bytes instead of a 48-byte node with its steps) while generating and sorting. The
//! rules of a single step are the engine's own ([`Ctx::step`]); the maximum-dice and
//! higher-die logic follows `Generator::run` line for line, and a test checks the result
//! against the engine's generator. The rare first-turn double, where the head exception
//! may apply, is left to the engine's generator.

use alloc::vec::Vec;

use crate::dice::Dice;
use crate::movegen::{Ctx, Generator};
use crate::position::{CHECKERS, Position, SideBoard};
use crate::rules::Rules;

/// Reusable buffers (no allocation once they have grown).
#[derive(Debug, Default, Clone)]
pub(crate) struct Children {
    out: Vec<SideBoard>,
    levels: [Vec<SideBoard>; 5],
    singles: [Vec<SideBoard>; 2],
    generator: Generator,
}

/// Sorts by the packed board and drops repeats: the engine's order.
fn sort_dedup(v: &mut Vec<SideBoard>) {
    if v.len() > 1 {
        v.sort_unstable_by_key(|s| s.packed);
        v.dedup_by_key(|s| s.packed);
    }
}

/// The points (path coordinates) of the set bits of `m`.
#[inline]
fn bits(mut m: u32) -> impl Iterator<Item = u8> {
    core::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros();
            m &= m - 1;
            Some(b as u8 + 1)
        }
    })
}

impl Children {
    /// The positions after every distinct legal turn of `pos` with `dice`, into `out`
    /// (cleared first), in the order of [`Generator::children`].
    pub(crate) fn generate(
        &mut self,
        pos: &Position,
        dice: Dice,
        rules: &Rules,
        out: &mut Vec<Position>,
    ) {
        out.clear();
        if dice.is_double() && pos.on_first_turn(pos.side_to_move()) {
            self.generator.children(pos, dice, rules, out);
            return;
        }
        let ctx = Ctx::new(pos, rules, 1);
        let start = pos.mover();
        self.out.clear();
        if dice.is_double() {
            self.double(start, dice.high(), &ctx);
        } else {
            self.pair(start, dice.high(), dice.low(), &ctx);
        }
        out.extend(self.out.iter().map(|&s| pos.after(s)));
    }

    fn pair(&mut self, start: SideBoard, a: u8, b: u8, ctx: &Ctx) {
        self.singles[0].clear();
        self.singles[1].clear();
        for (k, (d1, d2)) in [(a, b), (b, a)].into_iter().enumerate() {
            for q in bits(start.mask) {
                let Some(s1) = ctx.step(&start, q, d1) else {
                    continue;
                };
                if s1.off == CHECKERS {
                    self.out.push(s1);
                    continue;
                }
                for q2 in bits(s1.mask) {
                    if let Some(s2) = ctx.step(&s1, q2, d2)
                        && ctx.final_ok(&s2)
                    {
                        self.out.push(s2);
                    }
                }
                if ctx.final_ok(&s1) {
                    self.singles[k].push(s1);
                }
            }
        }
        if !self.out.is_empty() {
            sort_dedup(&mut self.out);
            return;
        }
        for k in 0..2 {
            if !self.singles[k].is_empty() {
                core::mem::swap(&mut self.out, &mut self.singles[k]);
                sort_dedup(&mut self.out);
                return;
            }
        }
        self.out.push(start);
    }

    fn double(&mut self, start: SideBoard, d: u8, ctx: &Ctx) {
        self.levels[0].clear();
        self.levels[0].push(start);
        let mut win: Option<SideBoard> = None;
        let mut top = 0;
        for k in 1..=4 {
            let (done, rest) = self.levels.split_at_mut(k);
            let prev = &done[k - 1];
            let cur = &mut rest[0];
            cur.clear();
            for side in prev.iter() {
                for q in bits(side.mask) {
                    if let Some(s) = ctx.step(side, q, d) {
                        if s.off == CHECKERS {
                            win.get_or_insert(s);
                        } else {
                            cur.push(s);
                        }
                    }
                }
            }
            if cur.is_empty() {
                break;
            }
            sort_dedup(cur);
            top = k;
        }
        if let Some(w) = win {
            self.out.push(w);
        }
        if top == 4 {
            self.out
                .extend(self.levels[4].iter().filter(|s| ctx.final_ok(s)));
        }
        if !self.out.is_empty() {
            sort_dedup(&mut self.out);
            return;
        }
        for k in (1..=top.min(3)).rev() {
            self.out
                .extend(self.levels[k].iter().filter(|s| ctx.final_ok(s)));
            if !self.out.is_empty() {
                return;
            }
        }
        self.out.push(start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BlockCheck, HeadException};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Every position of random games under three rule sets, with every roll: the same
    /// children in the same order as the engine's generator.
    #[test]
    fn same_children_as_the_engine() {
        let mut variants = [Rules::default(); 3];
        variants[1].block_check = BlockCheck::EveryStep;
        variants[2].head_exception = HeadException::AnyBlockedDouble;
        let mut children = Children::default();
        let mut engine = Generator::new();
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for (v, rules) in variants.iter().enumerate() {
            for seed in 0..12u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed * 3 + v as u64);
                let mut p = Position::start();
                for _ in 0..400 {
                    if p.finished().is_some() {
                        break;
                    }
                    for dice in Dice::ALL {
                        children.generate(&p, dice, rules, &mut mine);
                        theirs.clear();
                        engine.children(&p, dice, rules, &mut theirs);
                        assert_eq!(mine, theirs, "{p} {dice}");
                        checked += 1;
                    }
                    let dice = Dice::roll(&mut rng);
                    let moves = p.legal_moves_with_results(dice, rules);
                    let pick = (rand::Rng::next_u32(&mut rng) as usize) % moves.len();
                    p = moves[pick].1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
