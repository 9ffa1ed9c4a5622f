//! Runs the real `tabletop` binary full screen in a pseudo-terminal of a fixed size and
//! reads its screen, for end-to-end tests of the full-screen mode.
//!
//! The terminal is made by util-linux `script` (Debian/Ubuntu package `bsdutils`, present
//! on CI machines): `script -qfec "stty rows 24 cols 80; exec BIN ARGS" /dev/null`. What
//! the program writes is fed to a `vt100::Parser`, so a test sees the screen as a terminal
//! would show it, not the escape sequences.
//!
//! `tests/all/main.rs` declares it; use it from a test module (`tests/all/*.rs`) with
//!
//! ```ignore
//! use crate::pty;
//!
//! let mut term = pty::Pty::spawn(&["reversi", "--seed", "1"]);
//! assert!(term.wait_for("Black to move"), "{}", term.screen());
//! term.keys(&[pty::RIGHT, pty::ENTER]); // one key at a time, with a pause after each
//! term.click(10, 5); // a left click at column 10, row 5 (0-based)
//! assert!(term.wait_for("White"), "{}", term.screen());
//! let end = term.finish(&["q", "y"]); // type these, then wait for the program to end
//! assert!(end.exited && !end.alternate_screen, "{}", end.screen);
//! ```
//!
//! `wait_for` polls the screen until a text appears (10 s at most), which keeps the tests
//! steady on a slow machine; `screen` is the text now shown, rows joined by newlines.

// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The size of the pseudo-terminal: the games' layout size.
pub const ROWS: u16 = 24;
/// The size of the pseudo-terminal: the games' layout size.
pub const COLS: u16 = 80;

/// Keys as a terminal sends them.
pub const UP: &str = "\u{1b}[A";
/// The down arrow.
pub const DOWN: &str = "\u{1b}[B";
/// The right arrow.
pub const RIGHT: &str = "\u{1b}[C";
/// The left arrow.
pub const LEFT: &str = "\u{1b}[D";
/// Enter (a carriage return in raw mode).
pub const ENTER: &str = "\r";
/// Escape alone (the pause after it keeps it apart from the next key).
pub const ESC: &str = "\u{1b}";
/// Ctrl-C: a key in raw mode, not a signal.
pub const CTRL_C: &str = "\u{3}";
/// F1.
pub const F1: &str = "\u{1b}OP";

/// The pause after each key, so the program reads keys one at a time.
const KEY_PAUSE: Duration = Duration::from_millis(150);
/// How long `wait_for` and `finish` wait at most.
const TIMEOUT: Duration = Duration::from_secs(10);

/// A running `tabletop` in a pseudo-terminal.
pub struct Pty {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Arc<Mutex<Vec<u8>>>,
    parser: vt100::Parser,
    /// How many bytes of `output` the parser has seen.
    parsed: usize,
}

/// How the program ended.
pub struct End {
    /// Whether it exited by itself (false: it was killed after the timeout).
    pub exited: bool,
    /// Whether the terminal was still on the alternate screen at the end (a restored
    /// terminal is back on the main screen).
    pub alternate_screen: bool,
    /// Whether the mouse was still captured at the end.
    pub mouse_captured: bool,
    /// Whether the cursor was still hidden at the end.
    pub cursor_hidden: bool,
    /// The screen text at the end.
    pub screen: String,
    /// Everything the program wrote, escape sequences included.
    pub raw: Vec<u8>,
}

/// Quotes `arg` for `sh`.
fn quote(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', r"'\''"))
}

impl Pty {
    /// Starts `tabletop ARGS` in an 80×24 pseudo-terminal, with `TERM=xterm` and
    /// `NO_COLOR` unset.
    pub fn spawn(args: &[&str]) -> Pty {
        Pty::spawn_with_env(args, &[])
    }

    /// Like [`Pty::spawn`], with extra environment variables.
    pub fn spawn_with_env(args: &[&str], env: &[(&str, &str)]) -> Pty {
        let bin = env!("CARGO_BIN_EXE_tabletop");
        let mut line = format!("stty rows {ROWS} cols {COLS}; exec {}", quote(bin));
        for arg in args {
            line.push(' ');
            line.push_str(&quote(arg));
        }
        let mut command = Command::new("script");
        command
            .args(["-qfec", &line, "/dev/null"])
            .env("TERM", "xterm")
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command
            .spawn()
            .expect("these tests need util-linux `script` (apt-get install bsdutils)");
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().expect("stdout is piped");
        let output = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .expect("output lock")
                    .extend_from_slice(&chunk[..n]);
            }
        });
        Pty {
            child,
            stdin,
            output,
            parser: vt100::Parser::new(nonzero(ROWS), nonzero(COLS), 0),
            parsed: 0,
        }
    }

    /// Feeds the parser what the program wrote since the last call.
    fn update(&mut self) {
        let output = self.output.lock().expect("output lock");
        let new = &output[self.parsed..];
        self.parser.process(new);
        self.parsed = output.len();
    }

    /// The text now on the screen, rows joined by newlines (trailing spaces dropped).
    pub fn screen(&mut self) -> String {
        self.update();
        self.parser.screen().contents()
    }

    /// The terminal as the parser sees it (cells, styles, modes).
    pub fn vt(&mut self) -> &vt100::Screen {
        self.update();
        self.parser.screen()
    }

    /// Waits until `text` is on the screen; false after the timeout.
    pub fn wait_for(&mut self, text: &str) -> bool {
        let start = Instant::now();
        while start.elapsed() < TIMEOUT {
            if self.screen().contains(text) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Waits until the screen has not changed for `quiet` (bots done, redraws over).
    pub fn settle(&mut self, quiet: Duration) -> String {
        let start = Instant::now();
        let mut last = self.screen();
        let mut since = Instant::now();
        while start.elapsed() < TIMEOUT {
            std::thread::sleep(Duration::from_millis(50));
            let now = self.screen();
            if now != last {
                last = now;
                since = Instant::now();
            } else if since.elapsed() >= quiet {
                break;
            }
        }
        last
    }

    /// Types raw bytes (a key, an escape sequence) and pauses.
    pub fn send(&mut self, bytes: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            // The program may have ended already; the test then sees it on the screen.
            let _ = stdin.write_all(bytes.as_bytes());
            let _ = stdin.flush();
        }
        std::thread::sleep(KEY_PAUSE);
    }

    /// Types each of `keys`, pausing after each.
    pub fn keys(&mut self, keys: &[&str]) {
        for key in keys {
            self.send(key);
        }
    }

    /// A left click (press and release) at 0-based `column`, `row`, in the SGR mouse
    /// encoding the program asks for.
    pub fn click(&mut self, column: u16, row: u16) {
        let (x, y) = (column + 1, row + 1);
        self.send(&format!("\u{1b}[<0;{x};{y}M\u{1b}[<0;{x};{y}m"));
    }

    /// A right click at 0-based `column`, `row`.
    pub fn right_click(&mut self, column: u16, row: u16) {
        let (x, y) = (column + 1, row + 1);
        self.send(&format!("\u{1b}[<2;{x};{y}M\u{1b}[<2;{x};{y}m"));
    }

    /// Types `keys`, then waits for the program to end (killing it after the timeout)
    /// and reports how the terminal was left.
    pub fn finish(mut self, keys: &[&str]) -> End {
        self.keys(keys);
        let start = Instant::now();
        let mut exited = false;
        while start.elapsed() < TIMEOUT {
            if let Ok(Some(_)) = self.child.try_wait() {
                exited = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if !exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        drop(self.stdin.take());
        // Let the reader thread take the last bytes.
        std::thread::sleep(Duration::from_millis(100));
        let screen = self.screen();
        let vt = self.parser.screen();
        End {
            exited,
            alternate_screen: vt.alternate_screen(),
            mouse_captured: vt.mouse_protocol_mode() != vt100::MouseProtocolMode::None,
            cursor_hidden: vt.hide_cursor(),
            screen,
            raw: self.output.lock().expect("output lock").clone(),
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        // A failed test must not leave the program running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn nonzero(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a terminal size is not zero")
}
