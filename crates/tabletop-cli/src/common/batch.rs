//! Batches: a progress bar for long runs and the parallel runner of independent games.

use std::io::{self, IsTerminal};

/// A progress bar on stderr with the rate and the time left, drawn only when stderr is a
/// terminal (indicatif).
pub struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar for `total` steps, labelled `label`.
    pub fn new(label: impl Into<String>, total: u64) -> Progress {
        let bar = if io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(total),
                indicatif::ProgressDrawTarget::stderr(),
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{msg} [{bar:30}] {pos}/{len} ({per_sec}, {eta} left)",
            ) {
                bar.set_style(style.progress_chars("#>-"));
            }
            // Drawn at once and kept fresh, so a run whose first step is slow shows its
            // bar from the start rather than nothing.
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_message(label.into());
        Progress { bar }
    }

    /// Advances the bar by `steps`.
    pub fn advance(&mut self, steps: u64) {
        self.bar.inc(steps);
    }

    /// Erases the bar.
    pub fn finish(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Runs `jobs` independent jobs on up to `threads` threads and returns their results in
/// job order, advancing `progress` by `steps_per_job` as each one ends.
///
/// Each thread builds its own scratch state with `init` (bots, tables) and hands it to
/// every job it runs; a job must depend only on its index (its own seed, a fresh game,
/// the bots reset with `new_game`), so the results are the same for any thread count.
pub fn run_parallel<S, R: Send>(
    jobs: usize,
    threads: usize,
    progress: &mut Progress,
    steps_per_job: u64,
    init: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, usize) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (sender, receiver) = std::sync::mpsc::channel::<(usize, R)>();
    let mut results: Vec<Option<R>> = (0..jobs).map(|_| None).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.max(1)) {
            let sender = sender.clone();
            let (next, init, job) = (&next, &init, &job);
            scope.spawn(move || {
                let mut state = init();
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if index >= jobs {
                        break;
                    }
                    if sender.send((index, job(&mut state, index))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (index, result) in receiver {
            results[index] = Some(result);
            progress.advance(steps_per_job);
        }
    });
    progress.finish();
    results.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_results_do_not_depend_on_threads() {
        let run = |threads| {
            let mut progress = Progress::new("test", 50);
            run_parallel(
                50,
                threads,
                &mut progress,
                1,
                || 0u64,
                |calls, i| {
                    *calls += 1;
                    (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7
                },
            )
        };
        let one = run(1);
        assert_eq!(one.len(), 50);
        assert_eq!(run(3), one);
        assert_eq!(run(64), one);
    }
}
