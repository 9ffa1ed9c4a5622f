//! The seats' contributions to a nardy table's dice (migration 3): written once per seat,
//! read back when the table is loaded (migration 5).

use sqlx::Row;

use super::{Store, StoreError, now_i64};

impl Store {
    /// Stores `seat`'s seed (hex) at `table`; fails if the seat has one already.
    pub async fn add_seed(&self, table: &str, seat: u8, seed: &str) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO dice_seeds (table_id, seat, seed, created_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(table)
        .bind(i64::from(seat))
        .bind(seed)
        .bind(now_i64())
        .execute(&mut *tx)
        .await?;
        if self.postgres.is_some() {
            super::writer::notify(&mut tx, table, None).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The seeds stored for `table`: (seat, hex).
    pub async fn seeds_of(&self, table: &str) -> Result<Vec<(u8, String)>, StoreError> {
        let rows = sqlx::query("SELECT seat, seed FROM dice_seeds WHERE table_id = $1")
            .bind(table)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                let seat: i64 = r.try_get("seat")?;
                let seat = u8::try_from(seat)
                    .map_err(|_| StoreError::Corrupt(format!("seed of seat {seat}")))?;
                Ok((seat, r.try_get("seed")?))
            })
            .collect()
    }
}
