//! The database: players, tables, seats, events and applied command ids, in SQLite or
//! PostgreSQL through one code path (`sqlx::Any`, which picks the driver from the URL).
//!
//! Why `Any` rather than a generic over both databases: the queries are few and plain
//! (TEXT and BIGINT columns, `$n` parameters, which both drivers accept), so one set of
//! functions serves both without duplicating them or making every caller generic.
//!
//! Every change that clients will hear of is one transaction, committed before anything
//! is sent. An action appends one row (its events and its input); the table's save is a
//! snapshot written now and then, and a table is rebuilt as its snapshot followed by the
//! inputs stored after it — so a move writes a few hundred bytes, not the whole game. SQLite runs in WAL mode with `synchronous=NORMAL`: a commit survives the
//! process being killed (only a power cut can lose the last commits), and a pool of one
//! connection serializes the writes SQLite serializes anyway, so no writer ever sees
//! `SQLITE_BUSY`.

use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Connection, Row};

use crate::protocol::GameRecord;

mod forwarded;
mod leases;
mod presence;
mod seeds;
mod writer;
pub use presence::Presence;
pub use writer::Commit;
use writer::Writer;

/// A database error.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database said no.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The URL names no database this server supports.
    #[error("unsupported database URL {0:?}: use sqlite://PATH or postgres://…")]
    Url(String),
    /// A stored value could not be read back.
    #[error("corrupt row: {0}")]
    Corrupt(String),
}

/// The migrations, in order: applied once each, at start, in a transaction each.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../../migrations/0001_init.sql")),
    (
        2,
        "rematch",
        include_str!("../../migrations/0002_rematch.sql"),
    ),
    (
        3,
        "inputs",
        include_str!("../../migrations/0003_inputs.sql"),
    ),
    (
        4,
        "leases",
        include_str!("../../migrations/0004_leases.sql"),
    ),
    (5, "dice", include_str!("../../migrations/0005_dice.sql")),
    (
        6,
        "forwarded",
        include_str!("../../migrations/0006_forwarded.sql"),
    ),
];

/// The advisory lock the servers sharing a PostgreSQL database migrate under (any number
/// of ours: "tabl" in ASCII).
const MIGRATION_LOCK: &str = "SELECT pg_advisory_lock(1952539244)";
/// Its release.
const MIGRATION_UNLOCK: &str = "SELECT pg_advisory_unlock(1952539244)";

/// The statements of a migration: its lines without `--` comments, split at `;` (the
/// migrations hold no `;` in a string). One by one, since the Any driver runs one
/// statement per query.
fn statements(sql: &str) -> Vec<String> {
    let text: String = sql
        .lines()
        .map(|l| l.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    text.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn now_i64() -> i64 {
    now_ms() as i64
}

/// The status of a table.
pub mod status {
    /// Waiting for a player to take an open seat.
    pub const OPEN: &str = "open";
    /// Every seat is taken; the game goes on.
    pub const PLAYING: &str = "playing";
    /// The game has ended.
    pub const FINISHED: &str = "finished";
}

/// A table as stored.
#[derive(Debug, Clone)]
pub struct StoredTable {
    /// The id.
    pub id: String,
    /// The game's name.
    pub game: String,
    /// The setup, JSON.
    pub setup: String,
    /// The invite code.
    pub invite: String,
    /// Whether it is listed.
    pub public: bool,
    /// Its status.
    pub status: String,
    /// The save, hex: a snapshot of the table at `version`.
    pub save: String,
    /// The version of the snapshot in `save`.
    pub version: u64,
    /// Each seat: its player, or its bot level, or neither (open).
    pub seats: Vec<(Option<String>, Option<i64>)>,
    /// The table of its rematch, once one was made.
    pub rematch: Option<String>,
}

/// The database behind a server.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    writer: Writer,
    /// The PostgreSQL URL, when it is one: several servers may share it.
    postgres: Option<String>,
}

impl Store {
    /// Connects to `url` (`sqlite://PATH`, `postgres://…`), creating a SQLite file and
    /// its folder if missing, and applies the migrations not yet applied.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let (url, sqlite) = if let Some(path) = url.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err(StoreError::Url(url.into()));
            }
            let file = path.split('?').next().unwrap_or(path);
            if let Some(dir) = std::path::Path::new(file).parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StoreError::Db(sqlx::Error::Configuration(
                        format!("cannot make {}: {e}", dir.display()).into(),
                    ))
                })?;
            }
            let url = if path.contains('?') {
                url.to_owned()
            } else {
                format!("{url}?mode=rwc")
            };
            (url, true)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            (url.to_owned(), false)
        } else {
            return Err(StoreError::Url(url.into()));
        };
        // No idle timeout nor lifetime: the pragmas below hold for the connection's life.
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 1 } else { 8 })
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect(&url)
            .await?;
        if sqlite {
            // The Any driver opens SQLite with its default rollback journal: switch the
            // file to WAL (the setting stays with the file), which with NORMAL syncs
            // only at checkpoints instead of at every commit.
            sqlx::query("PRAGMA journal_mode=WAL")
                .execute(&pool)
                .await?;
            sqlx::query("PRAGMA synchronous=NORMAL")
                .execute(&pool)
                .await?;
            // Checkpoints (the only fsyncs) run outside the commits: twice a second a
            // PASSIVE one on a connection of its own, which never blocks a commit, copies
            // the WAL into the file; every two seconds a RESTART one on the writer's own
            // connection (so it waits for no other writer) copies what little is left, and
            // the next commit writes the WAL from its start again — under constant writes
            // a passive one never gets to the end, and the WAL would grow without end.
            // (TRUNCATE instead of RESTART held commits back for ~100 ms: cutting a large
            // file is slow; `journal_size_limit` trims it now and then instead.)
            sqlx::query("PRAGMA wal_autocheckpoint=0")
                .execute(&pool)
                .await?;
            sqlx::query("PRAGMA journal_size_limit=67108864")
                .execute(&pool)
                .await?;
            let mut checkpointer = sqlx::AnyConnection::connect(&url).await?;
            let writer = pool.clone();
            tokio::spawn(async move {
                let mut every = tokio::time::interval(std::time::Duration::from_millis(500));
                for tick in 1u64.. {
                    every.tick().await;
                    if writer.is_closed() {
                        break;
                    }
                    let done = if tick.is_multiple_of(4) {
                        sqlx::query("PRAGMA wal_checkpoint(RESTART)")
                            .execute(&writer)
                            .await
                    } else {
                        sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                            .execute(&mut checkpointer)
                            .await
                    };
                    if let Err(e) = done {
                        tracing::error!("checkpoint: {e}");
                    }
                }
            });
        }
        let writer = Writer::start(pool.clone(), !sqlite);
        let store = Store {
            pool,
            writer,
            postgres: (!sqlite).then(|| url.clone()),
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Applies the migrations not yet applied. On PostgreSQL several servers may start
    /// at once on one database: they take turns under an advisory lock, held by the
    /// connection that migrates (even `CREATE TABLE IF NOT EXISTS` races there).
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        if self.postgres.is_some() {
            sqlx::query(MIGRATION_LOCK).execute(&mut *conn).await?;
        }
        let done = self.migrate_on(&mut conn).await;
        if self.postgres.is_some() {
            // Unlocked in any case (the connection goes back to the pool).
            let unlocked = sqlx::query(MIGRATION_UNLOCK).execute(&mut *conn).await;
            done?;
            unlocked?;
            return Ok(());
        }
        done
    }

    async fn migrate_on(&self, conn: &mut sqlx::AnyConnection) -> Result<(), StoreError> {
        use sqlx::Connection;
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)",
        )
        .execute(&mut *conn)
        .await?;
        for &(version, name, sql) in MIGRATIONS {
            let mut tx = conn.begin().await?;
            let done = sqlx::query("SELECT version FROM schema_migrations WHERE version = $1")
                .bind(version)
                .fetch_optional(&mut *tx)
                .await?;
            if done.is_some() {
                continue;
            }
            for statement in statements(sql) {
                sqlx::query(&statement).execute(&mut *tx).await?;
            }
            sqlx::query(
                "INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)",
            )
            .bind(version)
            .bind(name)
            .bind(now_i64())
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            tracing::info!(version, name, "applied migration");
        }
        Ok(())
    }

    /// The player whose token has this hash.
    pub async fn player_by_token(&self, token_hash: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT id FROM players WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("id")).transpose()?)
    }

    /// Stores a new guest.
    pub async fn create_guest(&self, id: &str, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO players (id, token_hash, created_ms) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(token_hash)
            .bind(now_i64())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The player and password hash of an account name.
    pub async fn account(&self, name: &str) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT id, password_hash FROM players WHERE name = $1 AND password_hash IS NOT NULL",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get("id")?, r.try_get("password_hash")?)))
            .transpose()
    }

    /// Gives a player without a name this name and password hash; false if the player has
    /// a name already or the name is taken.
    pub async fn set_account(
        &self,
        player: &str,
        name: &str,
        password_hash: &str,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let named = sqlx::query(
            "UPDATE players SET name = $1, password_hash = $2
             WHERE id = $3 AND name IS NULL
               AND NOT EXISTS (SELECT 1 FROM players p WHERE p.name = $1)",
        )
        .bind(name)
        .bind(password_hash)
        .bind(player)
        .execute(&mut *tx)
        .await?;
        if named.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Stores a new table with its seats, and the creator's command id, in one
    /// transaction. For a rematch of `rematch_of`, returns false (storing nothing) if that
    /// table has its rematch already.
    pub async fn create_table(
        &self,
        table: &StoredTable,
        creator: &str,
        client_id: &str,
        rematch_of: Option<&str>,
    ) -> Result<bool, StoreError> {
        let now = now_i64();
        let mut tx = self.pool.begin().await?;
        if let Some(old) = rematch_of {
            let marked = sqlx::query(
                "UPDATE game_tables SET rematch = $1 WHERE id = $2 AND rematch IS NULL",
            )
            .bind(&table.id)
            .bind(old)
            .execute(&mut *tx)
            .await?;
            if marked.rows_affected() != 1 {
                return Ok(false);
            }
        }
        sqlx::query(
            "INSERT INTO commands (player_id, client_id, table_id, version) VALUES ($1, $2, $3, 0)",
        )
        .bind(creator)
        .bind(client_id)
        .bind(&table.id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO game_tables (id, game, setup, invite, public, status, version, save,
                created_ms, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
        )
        .bind(&table.id)
        .bind(&table.game)
        .bind(&table.setup)
        .bind(&table.invite)
        .bind(i64::from(table.public))
        .bind(&table.status)
        .bind(table.version as i64)
        .bind(&table.save)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for (seat, (player, bot)) in table.seats.iter().enumerate() {
            sqlx::query(
                "INSERT INTO seats (table_id, seat, player_id, bot) VALUES ($1, $2, $3, $4)",
            )
            .bind(&table.id)
            .bind(seat as i64)
            .bind(player.clone())
            .bind(*bot)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The table a player's command id made or acted on, and the version it made.
    pub async fn command(
        &self,
        player: &str,
        client_id: &str,
    ) -> Result<Option<(String, u64)>, StoreError> {
        let row = sqlx::query(
            "SELECT table_id, version FROM commands WHERE player_id = $1 AND client_id = $2",
        )
        .bind(player)
        .bind(client_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok((
                r.try_get("table_id")?,
                r.try_get::<i64, _>("version")? as u64,
            ))
        })
        .transpose()
    }

    /// Gives an open seat to `player`, and sets the table's status; fails if the seat
    /// was taken meanwhile.
    pub async fn take_seat(
        &self,
        table: &str,
        seat: u8,
        player: &str,
        status: &str,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query(
            "UPDATE seats SET player_id = $1
             WHERE table_id = $2 AND seat = $3 AND player_id IS NULL AND bot IS NULL",
        )
        .bind(player)
        .bind(table)
        .bind(i64::from(seat))
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() != 1 {
            return Ok(false);
        }
        sqlx::query("UPDATE game_tables SET status = $1, updated_ms = $2 WHERE id = $3")
            .bind(status)
            .bind(now_i64())
            .bind(table)
            .execute(&mut *tx)
            .await?;
        if self.postgres.is_some() {
            writer::notify(&mut tx, table, None).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Stores an applied action: its events and input, the command id, and the status
    /// or snapshot when they change, in a transaction (shared with the other actions
    /// waiting then). Fails (changing nothing) if the table already has a row at this
    /// version.
    pub async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        self.writer.commit(commit).await
    }

    /// The inputs stored after `version` at a table, in order: what to replay on its
    /// snapshot to rebuild it.
    pub async fn inputs_after(
        &self,
        table: &str,
        version: u64,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT version, input FROM events WHERE table_id = $1 AND version > $2
             ORDER BY version",
        )
        .bind(table)
        .bind(version as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let version = r.try_get::<i64, _>("version")? as u64;
                let input: Option<String> = r.try_get("input")?;
                let input = input.ok_or_else(|| {
                    StoreError::Corrupt(format!("{table}: version {version} has no input"))
                })?;
                Ok((version, input))
            })
            .collect()
    }

    /// The table of an invite code.
    pub async fn table_by_invite(&self, invite: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT id FROM game_tables WHERE invite = $1")
            .bind(invite)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("id")).transpose()?)
    }

    /// The ids of the public tables with an open seat, newest first (at most 100).
    pub async fn open_tables(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM game_tables WHERE status = $1 AND public = 1
             ORDER BY created_ms DESC LIMIT 100",
        )
        .bind(status::OPEN)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// The ids of every table not finished (the server rebuilds them at start).
    pub async fn unfinished_tables(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM game_tables WHERE status <> $1")
            .bind(status::FINISHED)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// A table with its seats.
    pub async fn table(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT id, game, setup, invite, public, status, save, version, rematch
             FROM game_tables WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let seats =
            sqlx::query("SELECT player_id, bot FROM seats WHERE table_id = $1 ORDER BY seat")
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| Ok((r.try_get("player_id")?, r.try_get("bot")?)))
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(Some(StoredTable {
            id: row.try_get("id")?,
            game: row.try_get("game")?,
            setup: row.try_get("setup")?,
            invite: row.try_get("invite")?,
            public: row.try_get::<i64, _>("public")? != 0,
            status: row.try_get("status")?,
            save: row.try_get("save")?,
            version: row.try_get::<i64, _>("version")? as u64,
            seats,
            rematch: row.try_get("rematch")?,
        }))
    }

    /// The command ids applied at a table, with their players and versions.
    pub async fn commands_of(&self, table: &str) -> Result<Vec<(String, String, u64)>, StoreError> {
        // The command that made the table has version 0.
        self.commands_since(table, -1).await
    }

    /// A player's finished games, newest first (at most 200).
    pub async fn history(&self, player: &str) -> Result<Vec<GameRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.id, t.game, s.seat, t.ending, t.updated_ms FROM seats s
             JOIN game_tables t ON t.id = s.table_id
             WHERE s.player_id = $1 AND t.status = $2
             ORDER BY t.updated_ms DESC LIMIT 200",
        )
        .bind(player)
        .bind(status::FINISHED)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let game: String = r.try_get("game")?;
                let ending: Option<String> = r.try_get("ending")?;
                Ok(GameRecord {
                    table: r.try_get("id")?,
                    game: crate::games::GameKind::from_name(&game)
                        .ok_or_else(|| StoreError::Corrupt(format!("game {game:?}")))?,
                    seat: r.try_get::<i64, _>("seat")? as u8,
                    ending: ending
                        .and_then(|e| serde_json::from_str(&e).ok())
                        .unwrap_or_default(),
                    ended_ms: r.try_get("updated_ms")?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn sqlite_runs_in_wal_mode() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("wal.sqlite").display());
        let store = Store::open(&url).await.unwrap();
        let mode: String = sqlx::query("PRAGMA journal_mode")
            .fetch_one(&store.pool)
            .await
            .unwrap()
            .try_get(0)
            .unwrap();
        assert_eq!(mode, "wal");
    }

    #[tokio::test]
    async fn migrations_apply_once_and_urls_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!(
            "sqlite://{}",
            dir.path().join("a/b/server.sqlite").display()
        );
        let store = Store::open(&url).await.unwrap();
        store.create_guest("p1", "hash").await.unwrap();
        drop(store);
        // Opening again applies nothing twice (migration 2 alters a table) and keeps data.
        let store = Store::open(&url).await.unwrap();
        assert_eq!(
            store.player_by_token("hash").await.unwrap().as_deref(),
            Some("p1")
        );
        assert!(matches!(
            Store::open("mysql://x").await,
            Err(StoreError::Url(_))
        ));
        assert!(matches!(
            Store::open("sqlite://").await,
            Err(StoreError::Url(_))
        ));
    }
}
