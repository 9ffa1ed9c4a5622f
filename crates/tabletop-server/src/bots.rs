//! The bot pool: bots think on blocking threads, at most `threads` at once, so no bot
//! ever blocks the event loop and a crowd of bot tables cannot take every core.

use std::sync::Arc;

use tokio::sync::Semaphore;

/// A bounded pool for bots' computations (and other CPU work, such as making a sudoku).
#[derive(Debug, Clone)]
pub struct BotPool {
    permits: Arc<Semaphore>,
}

impl BotPool {
    /// A pool running at most `threads` jobs at once (at least one).
    pub fn new(threads: usize) -> BotPool {
        BotPool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
        }
    }

    /// Runs `job` on a blocking thread once a place is free; `None` if it panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let _permit = self.permits.acquire().await.ok()?;
        tokio::task::spawn_blocking(job).await.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_the_bound_runs_at_once() {
        let pool = BotPool::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let jobs = (0..8).map(|_| {
            let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
            tokio::spawn(async move {
                pool.run(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                })
                .await
            })
        });
        for job in jobs.collect::<Vec<_>>() {
            assert_eq!(job.await.unwrap(), Some(()));
        }
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert_eq!(pool.run(|| panic!("a bot's bug")).await, None::<()>);
    }
}
