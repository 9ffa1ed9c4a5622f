//! Shared by the CLI integration tests: run the real `tabletop` binary with scripted
//! stdin and read what it printed, in a private temporary folder that goes away with the
//! test.

// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `tabletop ARGS` with `stdin` as its standard input and `NO_COLOR=1`.
pub fn tabletop(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabletop binary runs");
    // The command may exit before reading all of its input (e.g. a bad save file).
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("the tabletop binary ends")
}

/// What the command printed on stdout.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What the command printed on stderr.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A new private folder `tabletop-NAME-XXXXXX` in the system's temporary directory,
/// removed with everything in it when the value is dropped: at the end of the test,
/// passed or failed. Declare it before the processes that write into it, so that they are
/// stopped (dropped) first.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("tabletop-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// The folder goes when a test fails too: a panic unwinds through the `TempDir`.
#[test]
fn a_temp_dir_goes_when_its_test_panics() {
    let mut seen = None;
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let dir = temp_dir("panics");
        std::fs::write(dir.path().join("save.ttpl"), b"TTPL").unwrap();
        seen = Some(dir.path().to_owned());
        panic!("a failed assertion");
    }));
    assert!(failed.is_err());
    let seen = seen.expect("the folder was made");
    assert!(!seen.exists(), "{} is left", seen.display());
}
