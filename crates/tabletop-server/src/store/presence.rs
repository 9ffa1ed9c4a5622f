//! Presence (migration 6): which servers have a seat's player following a table, so that
//! a claim judged by the table's owner sees the player's connections on every server.

use std::collections::HashMap;

use sqlx::Row;

use super::{Store, StoreError, now_ms};

/// Where a player is, as the other servers saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Connected through a living server.
    Here,
    /// Gone from every other server since this time (ms): the latest they saw.
    Left(u64),
}

impl Store {
    /// Stores, for server `node`, whether each player follows `table` through it
    /// (`None`) or since when it left (`Some(ms)`), and tells the other servers (`pre
    /// TABLE NODE`).
    pub async fn set_presence(
        &self,
        table: &str,
        node: &str,
        players: &[(String, Option<u64>)],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for (player, left) in players {
            sqlx::query(
                "INSERT INTO presence (table_id, player_id, node, left_ms) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (table_id, player_id, node) DO UPDATE SET left_ms = $4",
            )
            .bind(table)
            .bind(player)
            .bind(node)
            .bind(left.map(|ms| ms as i64))
            .execute(&mut *tx)
            .await?;
        }
        if self.postgres.is_some() {
            sqlx::query("SELECT pg_notify('tabletop', $1)")
                .bind(format!("pre {table} {node}"))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Where each player of `table` is according to the servers other than `node`: here
    /// if a living one (connected to the database, its heartbeat running) has it
    /// connected; else the latest time one saw it leave (a dead server's connections
    /// ended when it died, at the latest when its heartbeat ran out).
    pub async fn presence(
        &self,
        table: &str,
        node: &str,
    ) -> Result<HashMap<String, Presence>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.player_id, p.left_ms, l.expires_ms,
                    EXISTS (SELECT 1 FROM pg_stat_activity
                            WHERE application_name = 'tabletop-' || p.node) AS alive
             FROM presence p
             LEFT JOIN leases l ON l.table_id = 'node:' || p.node
             WHERE p.table_id = $1 AND p.node <> $2",
        )
        .bind(table)
        .bind(node)
        .fetch_all(&self.pool)
        .await?;
        let now = now_ms();
        let mut seen: HashMap<String, Presence> = HashMap::new();
        for row in &rows {
            let player: String = row.try_get("player_id")?;
            let left: Option<i64> = row.try_get("left_ms")?;
            let beat: Option<i64> = row.try_get("expires_ms")?;
            let alive: bool = row.try_get("alive")?;
            let this = match (left, beat) {
                (Some(left), _) => Presence::Left(left.max(0) as u64),
                (None, Some(beat)) if alive && beat.max(0) as u64 >= now => Presence::Here,
                // Its server died: the player left no later than now.
                (None, Some(beat)) => Presence::Left((beat.max(0) as u64).min(now)),
                // A server that never beat: nothing known.
                (None, None) => continue,
            };
            let merged = match (seen.get(&player), this) {
                (Some(Presence::Here), _) | (_, Presence::Here) => Presence::Here,
                (Some(Presence::Left(a)), Presence::Left(b)) => Presence::Left((*a).max(b)),
                (None, this) => this,
            };
            seen.insert(player, merged);
        }
        Ok(seen)
    }
}
