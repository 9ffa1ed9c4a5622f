//! Leases: which server owns a table (applies its actions, runs its bots and its clock)
//! when several share one PostgreSQL database, and what a server that follows a table
//! owned elsewhere reads to catch up with it.

use sqlx::Row;

use super::{Store, StoreError, now_ms};

impl Store {
    /// The PostgreSQL URL, when several servers may share this database.
    pub fn shared_url(&self) -> Option<&str> {
        self.postgres.as_deref()
    }

    /// Takes or renews the lease of `table` for `node` until `ms` from now; false if
    /// another living node holds a lease not yet expired. A node whose process is gone
    /// has no connection to the database left (its connections are named after it, see
    /// [`crate::cluster::named`]): its leases are taken at once.
    pub async fn lease(&self, table: &str, node: &str, ms: u64) -> Result<bool, StoreError> {
        let now = now_ms() as i64;
        let taken = sqlx::query(
            "INSERT INTO leases (table_id, node, expires_ms) VALUES ($1, $2, $3)
             ON CONFLICT (table_id) DO UPDATE SET node = $2, expires_ms = $3
             WHERE leases.node = $2 OR leases.expires_ms < $4
                OR NOT EXISTS (SELECT 1 FROM pg_stat_activity
                               WHERE application_name = 'tabletop-' || leases.node)",
        )
        .bind(table)
        .bind(node)
        .bind(now + ms as i64)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(taken.rows_affected() == 1)
    }

    /// Whether a server other than `node` lives on this database: its heartbeat (the
    /// lease `node:NAME`) has not run out and it is connected.
    pub async fn others_alive(&self, node: &str) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM leases l
             WHERE l.table_id LIKE 'node:%' AND l.node <> $1 AND l.expires_ms >= $2
               AND EXISTS (SELECT 1 FROM pg_stat_activity
                           WHERE application_name = 'tabletop-' || l.node)
             LIMIT 1",
        )
        .bind(node)
        .bind(now_ms() as i64)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Deletes what dead servers left behind: forwarded commands older than ten minutes
    /// (their senders gave up long ago), and the presence and leases of servers and
    /// tables whose leases ran out an hour ago.
    pub async fn tidy_cluster(&self) -> Result<(), StoreError> {
        let now = now_ms() as i64;
        let hour_ago = now - 3_600_000;
        sqlx::query("DELETE FROM forwarded WHERE created_ms < $1")
            .bind(now - 600_000)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "DELETE FROM presence WHERE node IN (
                SELECT substr(table_id, 6) FROM leases
                WHERE table_id LIKE 'node:%' AND expires_ms < $1)",
        )
        .bind(hour_ago)
        .execute(&self.pool)
        .await?;
        sqlx::query("DELETE FROM leases WHERE expires_ms < $1")
            .bind(hour_ago)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The command ids applied at a table after `version`, with their players.
    pub async fn commands_after(
        &self,
        table: &str,
        version: u64,
    ) -> Result<Vec<(String, String, u64)>, StoreError> {
        self.commands_since(table, version as i64).await
    }

    /// The command ids applied at a table after version `after`.
    pub(super) async fn commands_since(
        &self,
        table: &str,
        after: i64,
    ) -> Result<Vec<(String, String, u64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT player_id, client_id, version FROM commands
             WHERE table_id = $1 AND version > $2",
        )
        .bind(table)
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("player_id")?,
                    r.try_get("client_id")?,
                    r.try_get::<i64, _>("version")? as u64,
                ))
            })
            .collect()
    }
}
