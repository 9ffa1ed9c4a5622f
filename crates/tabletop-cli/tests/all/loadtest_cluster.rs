//! `tabletop loadtest` against two `tabletop serve` processes on one PostgreSQL database
//! (`TABLETOP_TEST_POSTGRES=postgres://…`; without it the test says why it skips): the
//! players of each game on different servers, and nothing lost, duplicated or out of
//! order in any client's state.
//! Its name holds `cluster::`, so CI's PostgreSQL step runs it.

use std::process::Child;

use crate::serve::start_serve;
use crate::support::{stderr, stdout, tabletop};

/// A fresh database on the PostgreSQL of `admin`; its URL.
fn fresh_database(admin: &str) -> String {
    let name = format!(
        "tabletop_cli_loadtest_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        sqlx::any::install_default_drivers();
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(admin)
            .await
            .expect("the PostgreSQL of TABLETOP_TEST_POSTGRES answers");
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut conn)
            .await
            .unwrap();
    });
    let base = admin.rsplit_once('/').map_or(admin, |(b, _)| b);
    format!("{base}/{name}")
}

/// Server processes killed when dropped (a failed assertion too).
struct Servers(Vec<Child>);

impl Drop for Servers {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn loadtest_refuses_a_server_off_this_machine() {
    let out = tabletop(
        &[
            "loadtest",
            "ws://127.0.0.1:9/",
            "ws://192.0.2.1:8080/",
            "--seconds",
            "1",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("ws://192.0.2.1:8080/: the load generator only targets this machine"),
        "{}",
        stderr(&out)
    );
}

mod cluster {
    use super::*;

    #[test]
    fn loadtest_plays_on_two_servers_of_one_postgres() {
        let Ok(admin) = std::env::var("TABLETOP_TEST_POSTGRES") else {
            println!("skipped: set TABLETOP_TEST_POSTGRES=postgres://… to run two servers");
            return;
        };
        let database = fresh_database(&admin);
        let mut servers = Servers(Vec::new());
        let mut urls = Vec::new();
        for _ in 0..2 {
            let (child, addr) = start_serve(&["--listen", "127.0.0.1:0", "--database", &database]);
            servers.0.push(child);
            urls.push(format!("ws://{addr}/"));
        }
        let out = tabletop(
            &[
                "loadtest",
                &urls[0],
                &urls[1],
                "--games",
                "8",
                "--seconds",
                "4",
                "--think-ms",
                "5-30",
                "--drops",
                "0",
            ],
            "",
        );
        let text = stdout(&out);
        assert!(out.status.success(), "{}{}", text, stderr(&out));
        assert!(text.contains("players spread over 2 servers"), "{text}");
        let last = text.lines().last().unwrap_or("");
        assert!(
            last.ends_with("errors 0 · mismatches 0 · lost 0 · duplicated 0"),
            "{text}"
        );
        drop(servers);
    }
}
