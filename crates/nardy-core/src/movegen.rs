//! Steps, turns and exact move generation.
//!
//! A turn is generated over the mover's path coordinates (`q`: 24 = head, 1..6 = home) with
//! 24-bit occupancy masks; the opponent's board never changes during a turn, so closed points
//! and the six-point block test are a few bit operations per step. Doubles are expanded level
//! by level with the states of each level de-duplicated, so the permutations of the same
//! steps are not explored again.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::position::{CHECKERS, Color, Position, SideBoard, rotate, rotate_mask};
use crate::rules::{BlockCheck, HeadException, Rules};

/// Upper bound on the distinct legal turns of one roll: a double's result is fixed by the
/// multiset of (start point, steps taken) over at most 15 occupied points, at most
/// C(18, 4) = 3060; a non-double gives far fewer.
pub const MAX_MOVES: usize = 3060;

/// The distinct legal turns of one roll, without heap allocation.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// One checker moved by one die: `from/to` in absolute points, `from/off` when borne off.
///
/// ```
/// use nardy_core::Step;
/// let s: Step = "24/18".parse()?;
/// assert_eq!((s.from(), s.to()), (24, Some(18)));
/// assert_eq!("3/off".parse::<Step>()?.to(), None);
/// # Ok::<(), nardy_core::ParseMoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "(u8, u8)", try_from = "(u8, u8)")]
pub struct Step {
    from: u8,
    /// Destination point, 0 for off.
    to: u8,
}

impl Step {
    /// A step from absolute point `from` to `to` (`None`: borne off). Points are 1–24.
    pub fn new(from: u8, to: Option<u8>) -> Result<Step, ParseMoveError> {
        let to = to.unwrap_or(0);
        if !(1..=24).contains(&from) || to > 24 || from == to {
            return Err(ParseMoveError::BadStep(alloc::format!(
                "{from}/{}",
                if to == 0 {
                    String::from("off")
                } else {
                    alloc::format!("{to}")
                }
            )));
        }
        Ok(Step { from, to })
    }

    /// The absolute point the checker leaves.
    pub fn from(self) -> u8 {
        self.from
    }

    /// The absolute point it lands on, `None` when borne off.
    pub fn to(self) -> Option<u8> {
        (self.to != 0).then_some(self.to)
    }

    /// Whether the step bears the checker off.
    pub fn is_bear_off(self) -> bool {
        self.to == 0
    }
}

impl TryFrom<(u8, u8)> for Step {
    type Error = ParseMoveError;
    fn try_from((from, to): (u8, u8)) -> Result<Step, ParseMoveError> {
        Step::new(from, (to != 0).then_some(to))
    }
}

impl From<Step> for (u8, u8) {
    fn from(s: Step) -> (u8, u8) {
        (s.from, s.to)
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to() {
            Some(to) => write!(f, "{}/{to}", self.from),
            None => write!(f, "{}/off", self.from),
        }
    }
}

/// Why a step or turn cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// A step is not `from/to` or `from/off` with points 1–24.
    #[error("`{0}` is not a step: write `from/to` or `from/off` with points 1 to 24")]
    BadStep(String),
    /// A repeat count like `(2)` is not 1–4.
    #[error("`{0}`: a repeat count is (1) to (4)")]
    BadRepeat(String),
    /// More than four steps.
    #[error("a turn has at most four steps")]
    TooManySteps,
}

/// A turn: the steps in the order played; no steps is a pass.
///
/// The notation is steps separated by spaces (`24/18 18/13`); when reading, chains
/// (`24/21/20`), repeats (`24/18(2)`) and `pass` are understood too.
///
/// ```
/// use nardy_core::Move;
/// let t: Move = "24/21/20".parse()?;
/// assert_eq!(t.to_string(), "24/21 21/20");
/// assert_eq!("24/18(2)".parse::<Move>()?.to_string(), "24/18 24/18");
/// assert!("pass".parse::<Move>()?.is_pass());
/// # Ok::<(), nardy_core::ParseMoveError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Move {
    steps: ArrayVec<Step, 4>,
}

impl Move {
    /// The empty turn of a side with no legal step.
    pub fn pass() -> Move {
        Move::default()
    }

    /// A turn from up to four steps.
    pub fn from_steps(steps: &[Step]) -> Result<Move, ParseMoveError> {
        let steps = ArrayVec::try_from(steps).map_err(|_| ParseMoveError::TooManySteps)?;
        Ok(Move { steps })
    }

    /// The steps, in the order played.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Whether this is a pass.
    pub fn is_pass(&self) -> bool {
        self.steps.is_empty()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return f.write_str("pass");
        }
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

fn parse_point(text: &str, allow_off: bool) -> Option<u8> {
    if allow_off && text.eq_ignore_ascii_case("off") {
        return Some(0);
    }
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u8>().ok().filter(|p| (1..=24).contains(p))
}

impl FromStr for Step {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Step, ParseMoveError> {
        let bad = || ParseMoveError::BadStep(s.trim().into());
        let (a, b) = s.trim().split_once('/').ok_or_else(bad)?;
        let from = parse_point(a, false).ok_or_else(bad)?;
        let to = parse_point(b, true).ok_or_else(bad)?;
        if from == to {
            return Err(bad());
        }
        Ok(Step { from, to })
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let mut steps: ArrayVec<Step, 4> = ArrayVec::new();
        let text = s.trim();
        if text.eq_ignore_ascii_case("pass") || text.is_empty() {
            return Ok(Move { steps });
        }
        for word in text.split_whitespace() {
            let (chain, repeat) = match word.find('(') {
                Some(i) => {
                    let r = &word[i..];
                    let n = r
                        .strip_prefix('(')
                        .and_then(|r| r.strip_suffix(')'))
                        .and_then(|n| n.parse::<u8>().ok())
                        .filter(|n| (1..=4).contains(n) && r.len() == 3)
                        .ok_or_else(|| ParseMoveError::BadRepeat(word.into()))?;
                    (&word[..i], n)
                }
                None => (word, 1),
            };
            let points: Vec<&str> = chain.split('/').collect();
            if points.len() < 2 {
                return Err(ParseMoveError::BadStep(word.into()));
            }
            let mut chain_steps: ArrayVec<Step, 4> = ArrayVec::new();
            for pair in points.windows(2) {
                let from = parse_point(pair[0], false)
                    .ok_or_else(|| ParseMoveError::BadStep(word.into()))?;
                let to = parse_point(pair[1], true)
                    .ok_or_else(|| ParseMoveError::BadStep(word.into()))?;
                if from == to {
                    return Err(ParseMoveError::BadStep(word.into()));
                }
                chain_steps
                    .try_push(Step { from, to })
                    .map_err(|_| ParseMoveError::TooManySteps)?;
            }
            for _ in 0..repeat {
                for st in &chain_steps {
                    steps
                        .try_push(*st)
                        .map_err(|_| ParseMoveError::TooManySteps)?;
                }
            }
        }
        Ok(Move { steps })
    }
}

// ---------------------------------------------------------------------------------------
// The generator.

/// A step in the mover's coordinates: the start `q` and the die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct RawStep {
    pub(crate) q: u8,
    pub(crate) die: u8,
}

/// A partial or complete turn: the mover's board and the steps that made it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub(crate) side: SideBoard,
    pub(crate) steps: [RawStep; 4],
    pub(crate) n: u8,
}

impl Node {
    #[inline]
    fn push(&self, side: SideBoard, q: u8, die: u8) -> Node {
        let mut steps = self.steps;
        steps[usize::from(self.n)] = RawStep { q, die };
        Node {
            side,
            steps,
            n: self.n + 1,
        }
    }
}

/// The rules of one turn, reduced to bit masks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx {
    /// Points held by the opponent, in the mover's coordinates.
    closed: u32,
    /// The opponent's most advanced checker as a bit index of its own coordinates; `None`
    /// when the opponent has borne a checker off (no block is then forbidden).
    guard: Option<u32>,
    every_step: bool,
    head_start: u8,
    pub(crate) head_limit: u8,
}

impl Ctx {
    pub(crate) fn new(pos: &Position, rules: &Rules, head_limit: u8) -> Ctx {
        let mover = pos.mover();
        let waiter = pos.waiter();
        Ctx {
            closed: rotate_mask(waiter.mask),
            guard: (waiter.off == 0).then_some(waiter.mask.trailing_zeros()),
            every_step: rules.block_check == BlockCheck::EveryStep,
            head_start: mover.count(24),
            head_limit,
        }
    }

    /// Whether the mover's occupancy `mask` holds six or more points in a row along the
    /// opponent's route with no opposing checker ahead of the run.
    #[inline]
    pub(crate) fn blocked(&self, mask: u32) -> bool {
        let Some(guard) = self.guard else {
            return false;
        };
        let o = rotate_mask(mask);
        let r = o & (o >> 1) & (o >> 2) & (o >> 3) & (o >> 4) & (o >> 5);
        r != 0 && r.trailing_zeros() <= guard
    }

    /// Whether a finished sequence ending with `side` passes the block test.
    #[inline]
    pub(crate) fn final_ok(&self, side: &SideBoard) -> bool {
        self.every_step || !self.blocked(side.mask)
    }

    /// The same rules with another head limit.
    pub(crate) fn with_head_limit(self, head_limit: u8) -> Ctx {
        Ctx { head_limit, ..self }
    }

    /// Moves the checker on `q` by `die`, if that single step is legal.
    #[inline]
    pub(crate) fn step(&self, s: &SideBoard, q: u8, die: u8) -> Option<SideBoard> {
        let from_bit = 1u32 << (q - 1);
        if s.mask & from_bit == 0 {
            return None;
        }
        if q == 24 && self.head_start - s.count(24) >= self.head_limit {
            return None;
        }
        let mut n = *s;
        let shift = 4 * (u32::from(q) - 1);
        n.packed -= 1u128 << shift;
        if (n.packed >> shift) & 0xF == 0 {
            n.mask &= !from_bit;
        }
        if q > die {
            let to = q - die;
            let to_bit = 1u32 << (to - 1);
            if self.closed & to_bit != 0 {
                return None;
            }
            n.packed += 1u128 << (4 * (u32::from(to) - 1));
            n.mask |= to_bit;
        } else {
            // Bearing off: everything home, and a larger die only from the highest point.
            if s.mask & !0x3F != 0 {
                return None;
            }
            if q < die && 32 - s.mask.leading_zeros() != u32::from(q) {
                return None;
            }
            n.off += 1;
        }
        if self.every_step && self.blocked(n.mask) {
            return None;
        }
        Some(n)
    }
}

/// Reusable buffers for move generation: allocate one and generate any number of turns
/// without further allocation once the buffers have grown.
#[derive(Debug, Default, Clone)]
pub struct Generator {
    levels: [Vec<Node>; 5],
    singles: [Vec<Node>; 2],
    out: Vec<Node>,
    spare: Vec<Node>,
}

/// What move generation found for one roll, beside the turns themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TurnShape {
    /// Dice a legal turn plays (a turn that bears off the last checker counts as playing
    /// them all).
    pub(crate) max_dice: u8,
    /// Checkers that may leave the head this turn.
    pub(crate) head_limit: u8,
}

fn sort_dedup(v: &mut Vec<Node>) {
    if v.len() > 1 {
        v.sort_unstable_by_key(|n| n.side.packed);
        v.dedup_by_key(|n| n.side.packed);
    }
}

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

impl Generator {
    /// Empty buffers.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Generates every distinct legal turn of `pos` with `dice` into the internal buffer;
    /// returns its shape. Results are sorted by the mover's packed board.
    pub(crate) fn run(&mut self, pos: &Position, dice: Dice, rules: &Rules) -> TurnShape {
        let ctx = Ctx::new(pos, rules, 1);
        let m1 = self.run_ctx(pos, dice, &ctx);
        let full = if dice.is_double() { 4 } else { 2 };
        let qualifies = match rules.head_exception {
            HeadException::Strict => matches!(dice.high(), 6 | 4 | 3),
            HeadException::AnyBlockedDouble => true,
        };
        if dice.is_double() && qualifies && m1 < full && pos.on_first_turn(pos.side_to_move()) {
            core::mem::swap(&mut self.out, &mut self.spare);
            let ctx2 = Ctx::new(pos, rules, 2);
            let m2 = self.run_ctx(pos, dice, &ctx2);
            if m2 > m1 {
                return TurnShape {
                    max_dice: m2,
                    head_limit: 2,
                };
            }
            core::mem::swap(&mut self.out, &mut self.spare);
        }
        TurnShape {
            max_dice: m1,
            head_limit: 1,
        }
    }

    fn run_ctx(&mut self, pos: &Position, dice: Dice, ctx: &Ctx) -> u8 {
        let start = Node {
            side: pos.mover(),
            steps: [RawStep::default(); 4],
            n: 0,
        };
        self.out.clear();
        if dice.is_double() {
            self.run_double(start, dice.high(), ctx)
        } else {
            self.run_pair(start, dice.high(), dice.low(), ctx)
        }
    }

    fn run_pair(&mut self, start: Node, a: u8, b: u8, ctx: &Ctx) -> u8 {
        self.singles[0].clear();
        self.singles[1].clear();
        for (k, (d1, d2)) in [(a, b), (b, a)].into_iter().enumerate() {
            for q in bits(start.side.mask) {
                let Some(s1) = ctx.step(&start.side, q, d1) else {
                    continue;
                };
                let n1 = start.push(s1, q, d1);
                if s1.off == CHECKERS {
                    self.out.push(n1);
                    continue;
                }
                for q2 in bits(s1.mask) {
                    if let Some(s2) = ctx.step(&s1, q2, d2)
                        && ctx.final_ok(&s2)
                    {
                        self.out.push(n1.push(s2, q2, d2));
                    }
                }
                if ctx.final_ok(&s1) {
                    self.singles[k].push(n1);
                }
            }
        }
        if !self.out.is_empty() {
            sort_dedup(&mut self.out);
            return 2;
        }
        for k in 0..2 {
            if !self.singles[k].is_empty() {
                core::mem::swap(&mut self.out, &mut self.singles[k]);
                sort_dedup(&mut self.out);
                return 1;
            }
        }
        self.out.push(start);
        0
    }

    fn run_double(&mut self, start: Node, d: u8, ctx: &Ctx) -> u8 {
        self.levels[0].clear();
        self.levels[0].push(start);
        let mut win: Option<Node> = None;
        let mut top = 0;
        for k in 1..=4 {
            let (done, rest) = self.levels.split_at_mut(k);
            let prev = &done[k - 1];
            let cur = &mut rest[0];
            cur.clear();
            for node in prev.iter() {
                for q in bits(node.side.mask) {
                    if let Some(s) = ctx.step(&node.side, q, d) {
                        let n = node.push(s, q, d);
                        if s.off == CHECKERS {
                            if win.is_none() {
                                win = Some(n);
                            }
                        } else {
                            cur.push(n);
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
                .extend(self.levels[4].iter().filter(|n| ctx.final_ok(&n.side)));
        }
        if !self.out.is_empty() {
            sort_dedup(&mut self.out);
            return 4;
        }
        for k in (1..=top.min(3)).rev() {
            self.out
                .extend(self.levels[k].iter().filter(|n| ctx.final_ok(&n.side)));
            if !self.out.is_empty() {
                return k as u8;
            }
        }
        self.out.push(start);
        0
    }

    /// The generated nodes (after [`Generator::run`]).
    pub(crate) fn nodes(&self) -> &[Node] {
        &self.out
    }

    /// Every distinct legal turn of `pos` with `dice` under `rules`, appended to `list`
    /// (cleared first). A side with no legal step gets one turn: the pass.
    pub fn legal_moves_into(
        &mut self,
        pos: &Position,
        dice: Dice,
        rules: &Rules,
        list: &mut MoveList,
    ) {
        list.clear();
        self.run(pos, dice, rules);
        let color = pos.side_to_move();
        for node in &self.out {
            list.push(node_turn(color, node));
        }
    }

    /// The number of distinct legal turns (a pass counts as one).
    pub fn count_moves(&mut self, pos: &Position, dice: Dice, rules: &Rules) -> usize {
        self.run(pos, dice, rules);
        self.out.len()
    }

    /// The positions after every distinct legal turn, appended to `out`.
    pub fn children(&mut self, pos: &Position, dice: Dice, rules: &Rules, out: &mut Vec<Position>) {
        self.run(pos, dice, rules);
        out.extend(self.out.iter().map(|n| pos.after(n.side)));
    }
}

/// The absolute point of `color`'s path coordinate `q`.
#[inline]
pub(crate) fn absolute(color: Color, q: u8) -> u8 {
    match color {
        Color::White => q,
        Color::Black => rotate(q),
    }
}

pub(crate) fn raw_to_step(color: Color, r: RawStep) -> Step {
    let to = if r.q > r.die {
        absolute(color, r.q - r.die)
    } else {
        0
    };
    Step {
        from: absolute(color, r.q),
        to,
    }
}

fn node_turn(color: Color, node: &Node) -> Move {
    let mut steps = ArrayVec::new();
    for r in &node.steps[..usize::from(node.n)] {
        steps.push(raw_to_step(color, *r));
    }
    Move { steps }
}

impl Position {
    /// Every distinct legal turn for `dice`: one turn per distinct resulting position, each
    /// with one step sequence that reaches it. A side with no legal step has exactly one
    /// turn, the pass.
    ///
    /// ```
    /// use nardy_core::{Dice, Position, Rules};
    /// let turns = Position::start().legal_moves(Dice::new(3, 1)?, &Rules::default());
    /// assert_eq!(turns.len(), 1);
    /// assert_eq!(turns[0].to_string(), "24/21 21/20");
    /// # Ok::<(), nardy_core::ParseDiceError>(())
    /// ```
    pub fn legal_moves(&self, dice: Dice, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        Generator::new().legal_moves_into(self, dice, rules, &mut list);
        list
    }

    /// Every distinct legal turn with the position it leads to (the other side to move).
    pub fn legal_moves_with_results(&self, dice: Dice, rules: &Rules) -> Vec<(Move, Position)> {
        let mut g = Generator::new();
        g.run(self, dice, rules);
        let color = self.turn;
        g.out
            .iter()
            .map(|n| (node_turn(color, n), self.after(n.side)))
            .collect()
    }
}
