//! The integration tests of the server, one module per subject, built into one test
//! binary (one link of tokio, axum and sqlx instead of one per file).
//!
//! Each test starts a real server on 127.0.0.1:0 over a temporary SQLite file and plays
//! through real WebSocket clients; with `TABLETOP_TEST_POSTGRES` set, over PostgreSQL
//! (see `support`). `.ci/run` runs these modules again on PostgreSQL by their names:
//! a new module goes into its list too.

mod away;
mod bad_input;
mod cluster;
mod dice;
mod games;
mod recovery;
mod support;
mod web;
