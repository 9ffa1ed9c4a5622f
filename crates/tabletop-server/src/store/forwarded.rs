//! Forwarded commands: a server that does not own a table sends a client's command to the
//! owner in a notification, and the owner its answer back the same way. Commands and
//! answers too long for a notification are stored in the `forwarded` table (migration
//! 6) and the notification names them. PostgreSQL only (a lone server owns every
//! table). Nothing here needs to be durable: a command whose answer is lost is sent
//! again, and applied once (command ids).

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
    /// Sends the command `body` of `player` at `table`, as `id`, to the servers: in the
    /// notification itself (`fwd TABLE ID {"player":…,"body":…}`) when it fits, else
    /// stored here with a notification that names it (`fwd TABLE ID`). Sending it again
    /// (the owner may have missed it) is the same call with `again`. True if it was
    /// stored.
    pub async fn forward(
        &self,
        id: &str,
        table: &str,
        player: &str,
        body: &str,
        again: bool,
    ) -> Result<bool, StoreError> {
        let inline = serde_json::json!({"player": player, "body": body}).to_string();
        if inline.len() <= MAX_PAYLOAD {
            self.notify(&format!("fwd {table} {id} {inline}")).await?;
            return Ok(false);
        }
        if again {
            self.notify(&format!("fwd {table} {id}")).await?;
            return Ok(true);
        }
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
        Ok(true)
    }

    /// Notifies the servers (`NOTIFY tabletop`), outside any transaction.
    async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify('tabletop', $1)")
            .bind(payload)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The forwarded command `id`, if it is stored (too long for a notification, or its
    /// answer was).
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

    /// Sends the answer to the forwarded command `id` at `table` to its sender: in the
    /// notification (`ans ID TEXT`) when it fits, else stored (the first answer) with a
    /// notification that names it (`ans ID`).
    pub async fn answer_forwarded(
        &self,
        id: &str,
        table: &str,
        answer: &str,
    ) -> Result<(), StoreError> {
        if answer.len() <= MAX_PAYLOAD {
            return self.notify(&format!("ans {id} {answer}")).await;
        }
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO forwarded (id, table_id, player_id, body, answer, created_ms)
             VALUES ($1, $2, '', '', $3, $4)
             ON CONFLICT (id) DO UPDATE SET answer = $3 WHERE forwarded.answer IS NULL",
        )
        .bind(id)
        .bind(table)
        .bind(answer)
        .bind(now_i64())
        .execute(&mut *tx)
        .await?;
        sqlx::query("SELECT pg_notify('tabletop', $1)")
            .bind(format!("ans {id}"))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forgets a stored forwarded command once its sender has the answer or gave up.
    pub async fn forget_forwarded(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM forwarded WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
