//! A background thread for a screen's slow work (a bot's thinking), so the screen keeps
//! drawing and answering keys meanwhile.
//!
//! The thread owns a state built inside it (the bots, which need not be `Send`); the screen
//! hands it closures that run on that state, one at a time, in the order given. An answer
//! is delivered only if no [`Worker::cancel`] came after its job was asked: quitting, a new
//! game, undo or load cancel, and the stale answer is dropped.

use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};

/// A job on the worker's state `S`; `Ask` jobs answer an `R`.
enum Job<S, R> {
    /// Changes the state (e.g. rebuilds the bots); no answer.
    Do(Box<dyn FnOnce(&mut S) + Send>),
    /// Computes an answer, tagged with the generation it was asked in.
    Ask(u64, Box<dyn FnOnce(&mut S) -> R + Send>),
}

/// One screen's worker thread and the job it is waiting for.
pub struct Worker<S, R> {
    jobs: Sender<Job<S, R>>,
    answers: Receiver<(u64, R)>,
    /// Bumped by [`Worker::cancel`]; answers of older generations are stale.
    generation: u64,
    /// Whether an answer of the current generation is still to come.
    pending: bool,
    /// An answer received by [`Worker::wait`] and not yet taken by [`Worker::poll`].
    ready: Option<R>,
}

impl<S: 'static, R: Send + 'static> Worker<S, R> {
    /// Starts the thread; `init` builds its state there. The thread ends when the worker
    /// is dropped.
    pub fn new(name: &str, init: impl FnOnce() -> S + Send + 'static) -> Worker<S, R> {
        let (jobs, job_rx) = mpsc::channel::<Job<S, R>>();
        let (answer_tx, answers) = mpsc::channel();
        // Should the thread fail to start, jobs find no receiver and the screen reports
        // "thinking…" forever rather than panicking; that needs an exhausted system.
        let _ = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                let mut state = init();
                while let Ok(job) = job_rx.recv() {
                    match job {
                        Job::Do(f) => f(&mut state),
                        Job::Ask(generation, f) => {
                            let answer = f(&mut state);
                            if answer_tx.send((generation, answer)).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        Worker {
            jobs,
            answers,
            generation: 0,
            pending: false,
            ready: None,
        }
    }

    /// Runs `f` on the state after the jobs already given (no answer).
    pub fn run(&mut self, f: impl FnOnce(&mut S) + Send + 'static) {
        let _ = self.jobs.send(Job::Do(Box::new(f)));
    }

    /// Asks for an answer computed by `f`; any answer asked for before is dropped.
    pub fn ask(&mut self, f: impl FnOnce(&mut S) -> R + Send + 'static) {
        self.cancel();
        self.pending = true;
        let _ = self.jobs.send(Job::Ask(self.generation, Box::new(f)));
    }

    /// Drops the answer asked for, whether it has come or not.
    pub fn cancel(&mut self) {
        self.generation += 1;
        self.pending = false;
        self.ready = None;
    }

    /// Whether an answer is asked for and not yet taken.
    pub fn busy(&self) -> bool {
        self.pending
    }

    /// The answer, once it has come (never blocks).
    pub fn poll(&mut self) -> Option<R> {
        if !self.pending {
            return None;
        }
        if let Some(answer) = self.ready.take() {
            self.pending = false;
            return Some(answer);
        }
        loop {
            match self.answers.try_recv() {
                Ok((generation, answer)) if generation == self.generation => {
                    self.pending = false;
                    return Some(answer);
                }
                Ok(_) => continue,
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return None,
            }
        }
    }

    /// Blocks until the answer asked for has come (tests use it to step deterministically);
    /// [`Worker::poll`] then returns it.
    #[cfg(test)]
    pub fn wait(&mut self) {
        while self.pending && self.ready.is_none() {
            match self.answers.recv() {
                Ok((generation, answer)) if generation == self.generation => {
                    self.ready = Some(answer)
                }
                Ok(_) => {}
                Err(_) => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Barrier};

    #[test]
    fn answers_come_in_order_on_the_threads_state() {
        let mut w: Worker<u32, u32> = Worker::new("test", || 10);
        w.run(|s| *s += 5);
        w.ask(|s| *s * 2);
        assert!(w.busy());
        w.wait();
        assert_eq!(w.poll(), Some(30));
        assert!(!w.busy());
        assert_eq!(w.poll(), None);
    }

    #[test]
    fn a_cancelled_answer_is_dropped_and_the_next_one_delivered() {
        let gate = Arc::new(Barrier::new(2));
        let mut w: Worker<(), &'static str> = Worker::new("test", || ());
        let g = Arc::clone(&gate);
        w.ask(move |_| {
            g.wait();
            "stale"
        });
        // The first job is still running (it waits on the gate) when it is cancelled.
        w.cancel();
        assert!(!w.busy());
        assert_eq!(w.poll(), None);
        w.ask(|_| "fresh");
        gate.wait();
        w.wait();
        assert_eq!(w.poll(), Some("fresh"));
    }
}
