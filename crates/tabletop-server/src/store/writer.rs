//! Group commit: the rooms' actions go to one writer task, which stores every action
//! waiting at that moment in one transaction — a row each in two multi-row INSERTs —
//! and answers each room once it is committed. One action alone is one transaction as
//! before; under load, many share the round trips to the database and its commit.
//! On PostgreSQL each transaction also notifies the tables it changed (`NOTIFY
//! tabletop`, delivered at commit), so that other servers on the database hear of them.

use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::{Semaphore, mpsc, oneshot};

use super::{StoreError, now_ms};

/// The most actions stored in one transaction.
const MAX_BATCH: usize = 64;

/// The most transactions in flight at once on PostgreSQL (of its pool's eight
/// connections; the rest serve reads).
const IN_FLIGHT: usize = 4;

/// One applied action to store: its input and the events it caused, and when the
/// status changes or a snapshot is due, the table's new status and save.
#[derive(Debug, Clone)]
pub struct Commit {
    /// The table.
    pub table: String,
    /// The version the action made (no other row may have it: that is what keeps two
    /// writers of one table apart).
    pub version: u64,
    /// What was applied, JSON (replayed to rebuild the table).
    pub input: String,
    /// The table's new status and ending (JSON), when they change.
    pub status: Option<(&'static str, Option<String>)>,
    /// A new snapshot of the table at `version`, hex.
    pub snapshot: Option<String>,
    /// The events of the version, a JSON array.
    pub events: String,
    /// The person's command: player id and client id.
    pub command: Option<(String, String)>,
}

type Job = (Commit, oneshot::Sender<Result<(), StoreError>>);

/// Where rooms send their actions to be stored.
#[derive(Debug, Clone)]
pub struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Starts the writer task over `pool` (PostgreSQL when `postgres`: it notifies);
    /// it ends when every `Writer` is dropped.
    pub fn start(pool: AnyPool, postgres: bool) -> Writer {
        let (jobs, rx) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(write_loop(pool, rx, postgres));
        Writer { jobs }
    }

    /// Stores `commit`; returns once it is committed.
    pub async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        let stopped = || StoreError::Corrupt("the database writer has stopped".into());
        self.jobs
            .send((commit, done))
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

async fn write_loop(pool: AnyPool, mut rx: mpsc::Receiver<Job>, postgres: bool) {
    // SQLite has one writer; PostgreSQL flushes its log at each commit, so several
    // batches in flight at once keep one flush from holding back the next batch.
    let in_flight = Arc::new(Semaphore::new(if postgres { IN_FLIGHT } else { 1 }));
    loop {
        let Ok(permit) = in_flight.clone().acquire_owned().await else {
            return;
        };
        let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
        if rx.recv_many(&mut batch, MAX_BATCH).await == 0 {
            return;
        }
        let pool = pool.clone();
        tokio::spawn(async move {
            store_batch(&pool, batch, postgres).await;
            drop(permit);
        });
    }
}

/// Stores a batch and answers each of its rooms.
async fn store_batch(pool: &AnyPool, mut batch: Vec<Job>, postgres: bool) {
    let commits: Vec<&Commit> = batch.iter().map(|(c, _)| c).collect();
    match write(pool, &commits, postgres).await {
        Ok(()) => {
            for (_, done) in batch.drain(..) {
                let _ = done.send(Ok(()));
            }
        }
        // One bad action must not sink the others: store them one by one.
        Err(_) if batch.len() > 1 => {
            for (commit, done) in batch.drain(..) {
                let _ = done.send(write(pool, &[&commit], postgres).await);
            }
        }
        Err(e) => {
            for (_, done) in batch.drain(..) {
                let _ = done.send(Err(StoreError::Corrupt(e.to_string())));
            }
        }
    }
}

/// `VALUES ($1, $2, …), (…)`: `rows` rows of `columns` parameters each.
fn values(rows: usize, columns: usize) -> String {
    (0..rows)
        .map(|r| {
            let params: Vec<String> = (1..=columns)
                .map(|c| format!("${}", r * columns + c))
                .collect();
            format!("({})", params.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Tells the other servers on this PostgreSQL database that `table` changed (at the
/// commit of `tx`): the payload is the table's id, with the version an action made (a
/// room at that version already, as the writer's own is, need not read anything).
pub async fn notify(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    table: &str,
    version: Option<u64>,
) -> Result<(), StoreError> {
    let payload = match version {
        Some(v) => format!("{table} {v}"),
        None => table.to_owned(),
    };
    sqlx::query("SELECT pg_notify('tabletop', $1)")
        .bind(payload)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Stores `commits` in one transaction.
async fn write(pool: &AnyPool, commits: &[&Commit], postgres: bool) -> Result<(), StoreError> {
    let now = now_ms() as i64;
    let mut tx = pool.begin().await?;
    let sql = format!(
        "INSERT INTO events (table_id, version, body, input, created_ms) VALUES {}",
        values(commits.len(), 5)
    );
    let mut insert = sqlx::query(&sql);
    for c in commits {
        insert = insert
            .bind(c.table.as_str())
            .bind(c.version as i64)
            .bind(c.events.as_str())
            .bind(c.input.as_str())
            .bind(now);
    }
    insert.execute(&mut *tx).await?;
    let commands: Vec<(&Commit, &(String, String))> = commits
        .iter()
        .filter_map(|c| c.command.as_ref().map(|k| (*c, k)))
        .collect();
    if !commands.is_empty() {
        let sql = format!(
            "INSERT INTO commands (player_id, client_id, table_id, version) VALUES {}",
            values(commands.len(), 4)
        );
        let mut insert = sqlx::query(&sql);
        for (c, (player, client_id)) in commands {
            insert = insert
                .bind(player.as_str())
                .bind(client_id.as_str())
                .bind(c.table.as_str())
                .bind(c.version as i64);
        }
        insert.execute(&mut *tx).await?;
    }
    for c in commits {
        if let Some((status, ending)) = &c.status {
            sqlx::query(
                "UPDATE game_tables SET status = $1, ending = $2, updated_ms = $3 WHERE id = $4",
            )
            .bind(*status)
            .bind(ending.clone())
            .bind(now)
            .bind(c.table.as_str())
            .execute(&mut *tx)
            .await?;
        }
        if let Some(save) = &c.snapshot {
            sqlx::query("UPDATE game_tables SET save = $1, version = $2 WHERE id = $3")
                .bind(save.as_str())
                .bind(c.version as i64)
                .bind(c.table.as_str())
                .execute(&mut *tx)
                .await?;
        }
    }
    if postgres {
        for c in commits {
            notify(&mut tx, &c.table, Some(c.version)).await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::values;

    #[test]
    fn values_number_the_parameters_row_by_row() {
        assert_eq!(values(1, 2), "($1, $2)");
        assert_eq!(values(2, 3), "($1, $2, $3), ($4, $5, $6)");
    }
}
