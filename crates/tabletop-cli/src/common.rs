//! Conventions shared by every game subcommand, implemented once:
//!
//! - errors: [`CliError`] prints one line to stderr and exits with code 1; usage errors
//!   (bad arguments) print one line and exit with code 2 ([`report_usage_error`]); a panic
//!   never prints a backtrace ([`install_panic_hook`]);
//! - randomness: [`SeedArg`] adds `--seed N` and builds the engines' ChaCha8 generator;
//! - machine-readable output: [`JsonArg`] adds `--json`;
//! - interactive play: [`Console`] reads one command per line from stdin, shows a prompt and
//!   colours only on a terminal, and respects `NO_COLOR`;
//! - files: [`write_atomic`] writes a save through a temporary file and a rename, so a save
//!   is never lost or half-written; [`open_input`] reads a file or `-` for stdin.

use std::fmt;
use std::fs;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::Args;
use clap::error::ErrorKind;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Exit code of a failed command (bad input, illegal move, unreadable file…).
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of a usage error (unknown subcommand, bad argument).
pub const EXIT_USAGE: u8 = 2;

/// The result of a subcommand.
pub type CliResult<T = ()> = Result<T, CliError>;

/// A failure to report to the user: one line on stderr and an exit code.
#[derive(Debug)]
pub struct CliError {
    message: String,
    code: u8,
}

impl CliError {
    /// A failure with this message and exit code 1.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: EXIT_FAILURE,
        }
    }

    /// A usage error (exit code 2) found after argument parsing, e.g. two flags that
    /// cannot go together.
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: EXIT_USAGE,
        }
    }

    /// Prefixes the message with some context, e.g. the file name.
    pub fn context(self, context: impl fmt::Display) -> CliError {
        CliError {
            message: format!("{context}: {}", self.message),
            ..self
        }
    }

    /// The message, without the `error: ` prefix.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Prints the error as one line on stderr and returns its exit code.
    pub fn report(&self) -> ExitCode {
        if self.code != EXIT_BROKEN_PIPE {
            eprintln!("error: {}", one_line(&self.message));
        }
        ExitCode::from(self.code)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Exit status of a command whose reader went away (`tabletop … | head`), as the shell
/// reports a process ended by SIGPIPE.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// Any engine or I/O error becomes a one-line failure with its own message; writing to a
/// closed pipe becomes a quiet exit with [`EXIT_BROKEN_PIPE`].
impl<E: std::error::Error + 'static> From<E> for CliError {
    fn from(err: E) -> CliError {
        let broken_pipe = (&err as &dyn std::error::Error)
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe);
        if broken_pipe {
            CliError {
                message: String::new(),
                code: EXIT_BROKEN_PIPE,
            }
        } else {
            CliError::new(err.to_string())
        }
    }
}

/// Folds a message onto one line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reports a clap parse failure: help and version go to stdout with exit code 0; anything
/// else prints its first line on stderr and exits with code 2.
pub fn report_usage_error(err: &clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(EXIT_USAGE)
        }
        _ => {
            let rendered = err.render().to_string();
            let first = rendered
                .lines()
                .map(str::trim)
                .find(|line| !line.is_empty())
                .unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("error: {first} (see 'tabletop --help')");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Replaces the default panic output (message plus backtrace hint) by one line, so that
/// even a bug never shows a backtrace to a player. Writing to a closed pipe ends the
/// process quietly with status 141, as SIGPIPE would.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        if what.contains("Broken pipe") {
            // The reader went away (`tabletop … | head`): stop quietly, like a Unix tool
            // killed by SIGPIPE, with the shell's exit status for it.
            std::process::exit(i32::from(EXIT_BROKEN_PIPE));
        }
        eprintln!(
            "error: internal error: {} (please report this bug)",
            one_line(&what)
        );
    }));
}

/// `--seed N`: the seed of every random choice a command makes.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct SeedArg {
    /// Seed of the random generator, for a reproducible run (default: from the clock).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

impl SeedArg {
    /// The given seed, or one taken from the clock.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(clock_seed)
    }

    /// The engines' default generator, seeded with [`SeedArg::seed`].
    pub fn rng(&self) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.seed())
    }
}

/// A seed from the clock and the process id, for runs without `--seed`.
pub fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos ^ (u64::from(std::process::id()) << 32).rotate_left(17)
}

/// `--json`: machine-readable output for tool commands.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct JsonArg {
    /// Print machine-readable JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

impl JsonArg {
    /// Prints `value` as one line of JSON.
    pub fn print<T: serde::Serialize>(&self, value: &T) -> CliResult {
        let line = serde_json::to_string(value)?;
        println!("{line}");
        Ok(())
    }
}

/// A text style for terminal output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Bold text.
    Bold,
    /// Dimmed text (coordinates, hints).
    Dim,
    /// Red text (errors, one side's pieces, hits).
    Red,
    /// Green text (legal moves, success).
    Green,
    /// Yellow text (highlights).
    Yellow,
    /// Blue text (water, the other side's pieces).
    Blue,
    /// Cyan text (information).
    Cyan,
}

impl Style {
    fn code(self) -> &'static str {
        match self {
            Style::Bold => "1",
            Style::Dim => "2",
            Style::Red => "31",
            Style::Green => "32",
            Style::Yellow => "33",
            Style::Blue => "34",
            Style::Cyan => "36",
        }
    }
}

/// Colours text for a terminal, or leaves it plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Painter {
    color: bool,
}

impl Painter {
    /// A painter that never colours.
    pub fn plain() -> Painter {
        Painter { color: false }
    }

    /// Colours when stdout is a terminal and `NO_COLOR` is not set.
    pub fn stdout() -> Painter {
        Painter {
            color: io::stdout().is_terminal() && !no_color(),
        }
    }

    /// `text` in `style` when colours are on, else `text` unchanged.
    pub fn paint(&self, text: &str, style: Style) -> String {
        if self.color {
            format!("\x1b[{}m{text}\x1b[0m", style.code())
        } else {
            text.to_owned()
        }
    }
}

/// The number of characters `text` shows on a terminal: colour codes take no room.
pub fn visible_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|&d| d == 'm');
        } else {
            width += 1;
        }
    }
    width
}

/// The terminal side of interactive play: reads one command per line from stdin and knows
/// whether to show a prompt and colours.
///
/// On a terminal it prints a prompt before each command and colours output (unless
/// `NO_COLOR` is set to a non-empty value); when stdin is a pipe or a file it prints plain
/// text and no prompt, so a scripted session's output is easy to test.
pub struct Console {
    input: Box<dyn BufRead>,
    interactive: bool,
    painter: Painter,
}

impl Console {
    /// A console on the process's stdin and stdout.
    pub fn stdin() -> Console {
        let interactive = io::stdin().is_terminal();
        let painter = Painter {
            color: interactive && Painter::stdout().color,
        };
        Console {
            input: Box::new(io::stdin().lock()),
            interactive,
            painter,
        }
    }

    /// A console reading scripted input, never interactive nor coloured (for tests).
    #[cfg(test)]
    pub fn scripted(input: &'static str) -> Console {
        Console {
            input: Box::new(io::Cursor::new(input)),
            interactive: false,
            painter: Painter::plain(),
        }
    }

    /// Whether a person is typing (stdin is a terminal).
    pub fn is_interactive(&self) -> bool {
        self.interactive
    }

    /// The console's painter (colours on a terminal only).
    pub fn painter(&self) -> Painter {
        self.painter
    }

    /// `text` in `style` when colours are on, else `text` unchanged.
    pub fn paint(&self, text: &str, style: Style) -> String {
        self.painter.paint(text, style)
    }

    /// Shows `prompt` (on a terminal only) and reads the next non-empty command line,
    /// trimmed. `None` at the end of input.
    pub fn read_command(&mut self, prompt: &str) -> io::Result<Option<String>> {
        loop {
            if self.interactive {
                let mut out = io::stdout().lock();
                write!(out, "{}", self.paint(prompt, Style::Bold))?;
                out.flush()?;
            }
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                return Ok(None);
            }
            let command = line.trim();
            if !command.is_empty() {
                return Ok(Some(command.to_owned()));
            }
        }
    }
}

/// Whether `NO_COLOR` asks for plain output (set and not empty, see no-color.org).
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Writes `bytes` to `path` atomically: the data goes to a temporary file in the same
/// directory, is flushed to disk, then renamed over `path`. A crash or a full disk leaves
/// either the old file or the new one, never a half-written save.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Saves `bytes` to `path` with [`write_atomic`], with the file name in any error.
pub fn save_file(path: &Path, bytes: &[u8]) -> CliResult {
    write_atomic(path, bytes)
        .map_err(|e| CliError::new(format!("cannot save {}: {e}", path.display())))
}

/// Reads a whole file, with the file name in any error.
pub fn load_file(path: &Path) -> CliResult<Vec<u8>> {
    fs::read(path).map_err(|e| CliError::new(format!("cannot read {}: {e}", path.display())))
}

/// Opens a text input: the named file, or stdin for `None` or `-`.
pub fn open_input(path: Option<&Path>) -> CliResult<Box<dyn BufRead>> {
    match path {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p.as_os_str() == "-" => Ok(Box::new(io::stdin().lock())),
        Some(p) => {
            let file = fs::File::open(p)
                .map_err(|e| CliError::new(format!("cannot open {}: {e}", p.display())))?;
            Ok(Box::new(io::BufReader::new(file)))
        }
    }
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
pub struct Progress {
    total: u64,
    done: u64,
    label: String,
    visible: bool,
    last_drawn: u64,
}

impl Progress {
    /// A bar for `total` steps, labelled `label`.
    pub fn new(label: impl Into<String>, total: u64) -> Progress {
        Progress {
            total: total.max(1),
            done: 0,
            label: label.into(),
            visible: io::stderr().is_terminal(),
            last_drawn: u64::MAX,
        }
    }

    /// Advances the bar by `steps`.
    pub fn advance(&mut self, steps: u64) {
        self.done = (self.done + steps).min(self.total);
        if !self.visible {
            return;
        }
        let percent = self.done * 100 / self.total;
        if percent == self.last_drawn {
            return;
        }
        self.last_drawn = percent;
        let width = 30;
        let filled = (self.done * width / self.total) as usize;
        eprint!(
            "\r{} [{}{}] {}/{} ({percent}%)",
            self.label,
            "#".repeat(filled),
            " ".repeat(width as usize - filled),
            self.done,
            self.total
        );
        let _ = io::stderr().flush();
    }

    /// Erases the bar.
    pub fn finish(&mut self) {
        if self.visible && self.last_drawn != u64::MAX {
            eprint!("\r{}\r", " ".repeat(self.label.len() + 60));
            let _ = io::stderr().flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_the_whole_file() {
        let dir = std::env::temp_dir().join(format!("tabletop-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.sav");
        write_atomic(&path, b"first version, long").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let leftovers: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n != "game.sav")
            .collect();
        assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn atomic_write_into_a_missing_directory_fails_cleanly() {
        let path = std::env::temp_dir()
            .join("tabletop-no-such-dir-xyz")
            .join("a.sav");
        assert!(write_atomic(&path, b"x").is_err());
        assert!(
            save_file(&path, b"x")
                .unwrap_err()
                .message()
                .contains("cannot save")
        );
    }

    #[test]
    fn scripted_console_skips_blank_lines_and_ends() {
        let mut console = Console::scripted("f5\n\n  hint  \n");
        assert_eq!(console.read_command("> ").unwrap().as_deref(), Some("f5"));
        assert_eq!(console.read_command("> ").unwrap().as_deref(), Some("hint"));
        assert_eq!(console.read_command("> ").unwrap(), None);
        assert!(!console.is_interactive());
        assert_eq!(console.paint("x", Style::Red), "x");
    }

    #[test]
    fn colour_codes_take_no_room() {
        let red = Painter { color: true }.paint("X", Style::Red);
        assert_ne!(red, "X");
        assert_eq!(visible_width(&red), 1);
        assert_eq!(visible_width("a b"), 3);
        assert_eq!(Painter::plain().paint("X", Style::Red), "X");
    }

    #[test]
    fn errors_are_one_line() {
        assert_eq!(one_line("bad\n  move"), "bad move");
        let err = CliError::new("no such square").context("move 3");
        assert_eq!(err.to_string(), "move 3: no such square");
    }

    #[test]
    fn seeds_are_reproducible() {
        use rand::Rng;
        let a = SeedArg { seed: Some(7) }.rng().next_u64();
        let b = SeedArg { seed: Some(7) }.rng().next_u64();
        assert_eq!(a, b);
    }
}
