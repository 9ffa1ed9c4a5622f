//! Optional time controls. The caller passes the time in; the layer reads no clock.

use alloc::vec;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// A time control: each seat starts with `initial_ms` and gains `increment_ms` after each
/// of its turns (Fischer increment).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    /// Each seat's starting time, in milliseconds.
    pub initial_ms: u64,
    /// Time added after each completed turn, in milliseconds.
    pub increment_ms: u64,
}

impl TimeControl {
    /// `minutes` each plus `increment_s` seconds a turn.
    pub fn minutes(minutes: u64, increment_s: u64) -> TimeControl {
        TimeControl {
            initial_ms: minutes.saturating_mul(60_000),
            increment_ms: increment_s.saturating_mul(1000),
        }
    }
}

/// The clocks of a table: the time left of every seat and since when the running one runs.
///
/// Times are milliseconds on any monotonic scale the caller chooses (the same scale for
/// every call of one table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    control: TimeControl,
    left: Vec<u64>,
    /// The seat whose clock runs and the time it started, once a time has been given.
    running: Option<(Seat, u64)>,
}

impl Clocks {
    /// Fresh clocks for `seats` seats.
    pub fn new(control: TimeControl, seats: usize) -> Clocks {
        Clocks {
            control,
            left: vec![control.initial_ms; seats],
            running: None,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The time `seat` has left at `now` (its clock running if it is to act).
    pub fn left(&self, seat: Seat, now: Option<u64>) -> u64 {
        let base = self.left.get(seat.index()).copied().unwrap_or(0);
        match (self.running, now) {
            (Some((s, since)), Some(now)) if s == seat => {
                base.saturating_sub(now.saturating_sub(since))
            }
            _ => base,
        }
    }

    /// Whether `seat` has run out of time at `now`.
    pub fn flagged(&self, seat: Seat, now: Option<u64>) -> bool {
        now.is_some() && self.running.is_some_and(|(s, _)| s == seat) && self.left(seat, now) == 0
    }

    /// Charges the running seat up to `now`; with `turn_done`, it also gets its increment.
    /// Then the clock of `next` runs from `now` (none once the game is over).
    pub(crate) fn switch(&mut self, now: Option<u64>, turn_done: bool, next: Option<Seat>) {
        let Some(now) = now else {
            // No time given: nothing is charged; the next seat's clock starts at the next
            // timed call.
            if turn_done
                && let Some((s, _)) = self.running
                && let Some(left) = self.left.get_mut(s.index())
            {
                *left = left.saturating_add(self.control.increment_ms);
            }
            self.running = self.running.and(next.map(|s| (s, self.since())));
            return;
        };
        if let Some((s, since)) = self.running
            && let Some(left) = self.left.get_mut(s.index())
        {
            *left = left.saturating_sub(now.saturating_sub(since));
            if turn_done {
                *left = left.saturating_add(self.control.increment_ms);
            }
        }
        self.running = next.map(|s| (s, now));
    }

    fn since(&self) -> u64 {
        self.running.map_or(0, |(_, t)| t)
    }
}
