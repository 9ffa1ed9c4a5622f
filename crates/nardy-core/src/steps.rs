//! Step-by-step play for frontends: the legal next steps of a partly played turn, the
//! destinations of one checker, undo within the turn, and ending the turn only when it is a
//! legal full turn.

use alloc::vec::Vec;

use arrayvec::ArrayVec;

use crate::dice::Dice;
use crate::movegen::{Ctx, Generator, Move, ParseMoveError, Step, absolute};
use crate::position::{CHECKERS, Color, Position, SideBoard, path_coordinate};
use crate::rules::Rules;

/// Why a step or a turn cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The step starts on a point without a checker of the mover.
    #[error("{color} has no checker on point {point}")]
    NoChecker {
        /// The mover.
        color: Color,
        /// The point named.
        point: u8,
    },
    /// The step goes backwards, or no remaining die (nor several of them through legal
    /// intermediate points) covers its distance.
    #[error("the remaining dice cannot move a checker from {from} to {to}")]
    NoDie {
        /// The start point.
        from: u8,
        /// The destination as written (`off` for bearing off).
        to: alloc::string::String,
    },
    /// The destination holds an opposing checker.
    #[error("point {0} is closed: the opponent holds it")]
    Closed(u8),
    /// A second checker may not leave the head.
    #[error("only one checker may leave the head this turn")]
    Head,
    /// Bearing off while a checker is outside home, or with a larger die from a lower point.
    #[error(
        "cannot bear off from {0}: all checkers must be home, and a larger die bears off only from the highest point"
    )]
    BearOff(u8),
    /// The step would build a six-point block with no opposing checker ahead of it.
    #[error("that step builds a block of six points with no opposing checker ahead of it")]
    Block,
    /// The step is legal alone, but no legal full turn continues it (the turn must play as
    /// many dice as possible, the higher die when only one can be played, and end without a
    /// forbidden block).
    #[error(
        "that step cannot be completed to a legal turn (play as many dice as possible; if only one die can be played, the higher one)"
    )]
    NoCompletion,
    /// Every die of the turn has been played.
    #[error("the turn is complete: no dice left")]
    NoDiceLeft,
    /// The turn is not finished: more dice must be played.
    #[error("the turn is not finished: more dice must be played")]
    Incomplete,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The turn text cannot be read.
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
}

/// The dice still to play in one reading of the steps played so far (a bear-off with a
/// larger die can leave either die).
type Remaining = ArrayVec<u8, 4>;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Frame {
    packed: u128,
    mask: u32,
    off: u8,
    used: u8,
    alternatives: ArrayVec<Remaining, 2>,
}

impl Frame {
    fn side(&self) -> SideBoard {
        SideBoard {
            packed: self.packed,
            mask: self.mask,
            off: self.off,
        }
    }
}

/// A turn being played one step at a time.
///
/// Only steps that can still be completed to a legal full turn are offered or accepted;
/// [`TurnBuilder::finish`] succeeds only on a legal full turn.
///
/// ```
/// use nardy_core::{Dice, Position, Rules, TurnBuilder};
/// let mut b = TurnBuilder::new(Position::start(), Dice::new(3, 1)?, Rules::default());
/// assert_eq!(b.destinations(24), vec![21, 23]);
/// b.play("24/21".parse()?)?;
/// assert!(!b.is_complete());
/// b.play("21/20".parse()?)?;
/// assert_eq!(b.finish()?.to_string(), "24/21 21/20");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct TurnBuilder {
    rules: Rules,
    start: Position,
    dice: Dice,
    ctx: Ctx,
    max_dice: u8,
    results: Vec<u128>,
    played: Vec<Step>,
    frames: Vec<Frame>,
}

impl TurnBuilder {
    /// Starts the turn of `position`'s side to move with `dice`.
    pub fn new(position: Position, dice: Dice, rules: Rules) -> TurnBuilder {
        let mut g = Generator::new();
        let shape = g.run(&position, dice, &rules);
        let mut results: Vec<u128> = g.nodes().iter().map(|n| n.side.packed).collect();
        results.sort_unstable();
        let side = position.mover();
        let mut alternatives = ArrayVec::new();
        let mut all = Remaining::new();
        for &d in &dice.to_play() {
            all.push(d);
        }
        alternatives.push(all);
        TurnBuilder {
            rules,
            start: position,
            dice,
            ctx: Ctx::new(&position, &rules, shape.head_limit),
            max_dice: shape.max_dice,
            results,
            played: Vec::new(),
            frames: alloc::vec![Frame {
                packed: side.packed,
                mask: side.mask,
                off: side.off,
                used: 0,
                alternatives,
            }],
        }
    }

    /// The position the turn started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The dice of the turn.
    pub fn dice(&self) -> Dice {
        self.dice
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How many dice a legal full turn plays (0 for a forced pass).
    pub fn dice_to_play(&self) -> u8 {
        self.max_dice
    }

    /// The steps played so far.
    pub fn played(&self) -> &[Step] {
        &self.played
    }

    /// The dice not yet played (when a bear-off could have used either die, the larger
    /// remaining set is shown first).
    pub fn remaining_dice(&self) -> Vec<u8> {
        if self.is_complete() {
            return Vec::new();
        }
        self.frame()
            .alternatives
            .first()
            .map(|r| r.to_vec())
            .unwrap_or_default()
    }

    /// The board after the steps played so far (still the same side to move).
    pub fn position(&self) -> Position {
        let mut p = self.start.after(self.frame().side());
        p.turn = self.start.turn;
        p
    }

    fn frame(&self) -> &Frame {
        self.frames.last().expect("the first frame is never popped")
    }

    fn color(&self) -> Color {
        self.start.side_to_move()
    }

    fn complete_at(&self, side: &SideBoard, used: u8) -> bool {
        side.off == CHECKERS
            || (used == self.max_dice && self.results.binary_search(&side.packed).is_ok())
    }

    fn can_complete(&self, side: &SideBoard, used: u8, remaining: &[u8]) -> bool {
        if self.complete_at(side, used) {
            return true;
        }
        if used >= self.max_dice || remaining.is_empty() {
            return false;
        }
        let mut tried = 0u8;
        for (i, &d) in remaining.iter().enumerate() {
            if tried & (1 << d) != 0 {
                continue;
            }
            tried |= 1 << d;
            let mut rest: Remaining = ArrayVec::new();
            for (j, &e) in remaining.iter().enumerate() {
                if j != i {
                    rest.push(e);
                }
            }
            let mut m = side.mask;
            while m != 0 {
                let q = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                if let Some(s) = self.ctx.step(side, q, d)
                    && self.can_complete(&s, used + 1, &rest)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the steps played form a legal full turn (always true for a forced pass).
    pub fn is_complete(&self) -> bool {
        let f = self.frame();
        self.complete_at(&f.side(), f.used)
    }

    /// Every legal next step (distinct `from/to`), sorted.
    pub fn legal_steps(&self) -> Vec<Step> {
        let mut out = Vec::new();
        let f = self.frame();
        if self.is_complete() {
            return out;
        }
        let side = f.side();
        for alt in &f.alternatives {
            let mut tried = 0u8;
            for (i, &d) in alt.iter().enumerate() {
                if tried & (1 << d) != 0 {
                    continue;
                }
                tried |= 1 << d;
                let mut rest: Remaining = alt.clone();
                rest.remove(i);
                let mut m = side.mask;
                while m != 0 {
                    let q = m.trailing_zeros() as u8 + 1;
                    m &= m - 1;
                    if let Some(s) = self.ctx.step(&side, q, d)
                        && self.can_complete(&s, f.used + 1, &rest)
                    {
                        let step = crate::movegen::raw_to_step(
                            self.color(),
                            crate::movegen::RawStep { q, die: d },
                        );
                        if !out.contains(&step) {
                            out.push(step);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The legal destinations of the checker on absolute `point` (0 means off), sorted
    /// ascending.
    pub fn destinations(&self, point: u8) -> Vec<u8> {
        let mut out: Vec<u8> = self
            .legal_steps()
            .into_iter()
            .filter(|s| s.from() == point)
            .map(|s| s.to().unwrap_or(0))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Plays one step. On error nothing changes; the error says why the step is illegal.
    pub fn play(&mut self, step: Step) -> Result<(), PlayError> {
        let color = self.color();
        let f = self.frame().clone();
        if self.is_complete() {
            return Err(PlayError::NoDiceLeft);
        }
        let side = f.side();
        let q = path_coordinate(color, step.from());
        if side.count(q) == 0 {
            return Err(PlayError::NoChecker {
                color,
                point: step.from(),
            });
        }
        let to_q = step.to().map(|p| path_coordinate(color, p));
        let mut next: ArrayVec<Remaining, 2> = ArrayVec::new();
        let mut new_side = None;
        let mut first_error: Option<PlayError> = None;
        let mut any_die = false;
        for alt in &f.alternatives {
            let mut tried = 0u8;
            for (i, &d) in alt.iter().enumerate() {
                if tried & (1 << d) != 0 {
                    continue;
                }
                tried |= 1 << d;
                let fits = match to_q {
                    Some(t) => q > t && q - t == d,
                    None => d >= q,
                };
                if !fits {
                    continue;
                }
                any_die = true;
                let mut rest = alt.clone();
                rest.remove(i);
                match self.ctx.step(&side, q, d) {
                    Some(s) => {
                        if self.can_complete(&s, f.used + 1, &rest) {
                            new_side = Some(s);
                            if !next.contains(&rest) && !next.is_full() {
                                next.push(rest);
                            }
                        } else if first_error.is_none() {
                            first_error = Some(PlayError::NoCompletion);
                        }
                    }
                    None => {
                        if first_error.is_none() || first_error == Some(PlayError::NoCompletion) {
                            first_error = Some(self.why_illegal(&side, q, d));
                        }
                    }
                }
            }
        }
        let Some(s) = new_side else {
            if !any_die {
                if self.play_combined(step) {
                    return Ok(());
                }
                return Err(PlayError::NoDie {
                    from: step.from(),
                    to: match step.to() {
                        Some(p) => alloc::format!("{p}"),
                        None => "off".into(),
                    },
                });
            }
            return Err(first_error.unwrap_or(PlayError::NoCompletion));
        };
        // Prefer keeping the larger die: sort alternatives by their largest remaining die.
        next.sort_unstable_by(|a, b| b.iter().max().cmp(&a.iter().max()));
        self.frames.push(Frame {
            packed: s.packed,
            mask: s.mask,
            off: s.off,
            used: f.used + 1,
            alternatives: next,
        });
        self.played.push(step);
        Ok(())
    }

    /// Plays a move of one checker over several dice (`24/18` with 3-3), as single steps
    /// through legal intermediate points. Returns whether some order of the remaining dice
    /// works; on failure nothing changes.
    fn play_combined(&mut self, step: Step) -> bool {
        let color = self.color();
        let q = path_coordinate(color, step.from());
        let target = step.to().map(|p| path_coordinate(color, p));
        let alternatives = self.frame().alternatives.clone();
        for alt in &alternatives {
            let n = alt.len();
            // Every ordered selection of 2..=n of the remaining dice (at most 4! orders).
            let mut orders: Vec<ArrayVec<u8, 4>> = Vec::new();
            permutations(alt, &mut ArrayVec::new(), &mut [false; 4], &mut orders);
            for order in orders {
                for k in 2..=n {
                    let dice = &order[..k];
                    let mut at = i32::from(q);
                    let mut path: ArrayVec<Step, 4> = ArrayVec::new();
                    let mut ok = true;
                    for (i, &d) in dice.iter().enumerate() {
                        let next = at - i32::from(d);
                        let last = i + 1 == k;
                        let to = if next >= 1 {
                            Some(absolute(color, next as u8))
                        } else if last && target.is_none() {
                            None
                        } else {
                            ok = false;
                            break;
                        };
                        match Step::new(absolute(color, at as u8), to) {
                            Ok(s) => path.push(s),
                            Err(_) => {
                                ok = false;
                                break;
                            }
                        }
                        at = next;
                    }
                    let reaches = match target {
                        Some(t) => at == i32::from(t),
                        None => at <= 0,
                    };
                    if ok && reaches && self.play_all(&path).is_ok() {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn why_illegal(&self, side: &SideBoard, q: u8, d: u8) -> PlayError {
        let color = self.color();
        if q == 24 {
            let ctx1 = self.ctx.with_head_limit(15);
            if ctx1.step(side, q, d).is_some() {
                return PlayError::Head;
            }
        }
        if q > d {
            let to = absolute(color, q - d);
            if self.start.count(color.other(), to) > 0 {
                return PlayError::Closed(to);
            }
            PlayError::Block
        } else {
            let home = side.mask & !0x3F == 0;
            let highest = 32 - side.mask.leading_zeros() == u32::from(q);
            if !home || (q < d && !highest) {
                PlayError::BearOff(absolute(color, q))
            } else {
                PlayError::Block
            }
        }
    }

    /// Takes back the last step; `None` when no step has been played.
    pub fn undo(&mut self) -> Option<Step> {
        if self.frames.len() <= 1 {
            return None;
        }
        self.frames.pop();
        self.played.pop()
    }

    /// Takes back every step, back to the roll.
    pub fn reset(&mut self) {
        self.frames.truncate(1);
        self.played.clear();
    }

    /// Plays several steps in order; on error nothing changes.
    pub fn play_all(&mut self, steps: &[Step]) -> Result<(), PlayError> {
        let depth = self.frames.len();
        for &s in steps {
            if let Err(e) = self.play(s) {
                self.frames.truncate(depth);
                self.played.truncate(depth - 1);
                return Err(e);
            }
        }
        Ok(())
    }

    /// The full turn played, when it is legal.
    pub fn finish(&self) -> Result<Move, PlayError> {
        if !self.is_complete() {
            return Err(PlayError::Incomplete);
        }
        Ok(Move::from_steps(&self.played)?)
    }

    /// The position after the full turn (other side to move), when it is legal.
    pub fn result(&self) -> Result<Position, PlayError> {
        self.finish()?;
        Ok(self.start.after(self.frame().side()))
    }
}

impl Position {
    /// Plays a whole turn with `dice` in place; afterwards the other side is to move. An
    /// illegal turn is an error that says why, and leaves `self` unchanged.
    ///
    /// ```
    /// use nardy_core::{Dice, Position, Rules};
    /// let mut p = Position::start();
    /// p.play(Dice::new(6, 5)?, &"24/18 18/13".parse()?, &Rules::default())?;
    /// assert_eq!(p.to_string(), "24:14,13:1/12:15 b");
    /// let before = p;
    /// assert!(p.play(Dice::new(6, 5)?, &"12/6 12/7".parse()?, &Rules::default()).is_err());
    /// assert_eq!(p, before);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, dice: Dice, mv: &Move, rules: &Rules) -> Result<(), PlayError> {
        let mut b = TurnBuilder::new(*self, dice, *rules);
        b.play_all(mv.steps())?;
        *self = b.result()?;
        Ok(())
    }
}

/// Every ordering of `dice` (duplicates give repeated orders; at most 24).
fn permutations(
    dice: &[u8],
    current: &mut ArrayVec<u8, 4>,
    used: &mut [bool; 4],
    out: &mut Vec<ArrayVec<u8, 4>>,
) {
    if current.len() == dice.len() {
        if !out.contains(current) {
            out.push(current.clone());
        }
        return;
    }
    for i in 0..dice.len() {
        if !used[i] {
            used[i] = true;
            current.push(dice[i]);
            permutations(dice, current, used, out);
            current.pop();
            used[i] = false;
        }
    }
}
