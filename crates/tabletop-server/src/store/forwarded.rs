//! Forwarded commands (migration 6): a server that does not own a table writes a client's
//! command here for the owner and notifies it; the owner writes the answer back and
//! notifies the first server. PostgreSQL only (a lone server owns every table), so each
//! step is one statement: the row and its notification in one round trip.

use sqlx::Row;

use super::{Store, StoreError, now_i64};

/// The longest notification payload PostgreSQL takes is 8000 bytes; an answer longer
/// than this is read from its row instead.
const MAX_PAYLOAD: usize = 7000;

/// A forwarded command as the owner reads it.
#[derive(Debug, Clone)]
pub struct ForwardedRow {
    /// The table.
    pub table: String,
    /// The player who sent it.
    pub player: String,
    /// The command, JSON.
    pub body: String,
    /// The answer, once the owner gave it.
    pub answer: Option<String>,
}

impl Store {
    /// Stores the command `body` of `player` at `table` as `id` and tells the servers
    /// (`fwd TABLE ID`).
    pub async fn forward(
        &self,
        id: &str,
        table: &str,
        player: &str,
        body: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "WITH made AS (
                INSERT INTO forwarded (id, table_id, player_id, body, created_ms)
                VALUES ($1, $2, $3, $4, $5) RETURNING id)
             SELECT pg_notify('tabletop', $6) FROM made",
        )
        .bind(id)
        .bind(table)
        .bind(player)
        .bind(body)
        .bind(now_i64())
        .bind(format!("fwd {table} {id}"))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Tells the servers again of the forwarded command `id` (its owner may have missed
    /// it: a room loaded since, a listener that reconnected).
    pub async fn forward_again(&self, id: &str, table: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify('tabletop', $1)")
            .bind(format!("fwd {table} {id}"))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The forwarded command `id`, if it is stored.
    pub async fn forwarded(&self, id: &str) -> Result<Option<ForwardedRow>, StoreError> {
        let row =
            sqlx::query("SELECT table_id, player_id, body, answer FROM forwarded WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|r| {
            Ok(ForwardedRow {
                table: r.try_get("table_id")?,
                player: r.try_get("player_id")?,
                body: r.try_get("body")?,
                answer: r.try_get("answer")?,
            })
        })
        .transpose()
    }

    /// Stores the answer to the forwarded command `id` (the first answer only) and tells
    /// the servers (`ans ID TEXT`, or `ans ID` when the text is too long to carry).
    pub async fn answer_forwarded(&self, id: &str, answer: &str) -> Result<(), StoreError> {
        let payload = if answer.len() <= MAX_PAYLOAD {
            format!("ans {id} {answer}")
        } else {
            format!("ans {id}")
        };
        sqlx::query(
            "WITH done AS (
                UPDATE forwarded SET answer = $2 WHERE id = $1 AND answer IS NULL RETURNING id)
             SELECT pg_notify('tabletop', $3) FROM done",
        )
        .bind(id)
        .bind(answer)
        .bind(payload)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets a forwarded command once its sender has the answer or gave up.
    pub async fn forget_forwarded(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM forwarded WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
