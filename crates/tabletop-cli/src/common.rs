//! Conventions shared by every game subcommand, implemented once:
//!
//! - errors: [`CliError`] prints one line to stderr and exits with code 1; usage errors
//!   (bad arguments) print one line and exit with code 2 ([`report_usage_error`]); a panic
//!   never prints a backtrace ([`install_panic_hook`]);
//! - randomness: [`SeedArg`] adds `--seed N` and builds the engines' ChaCha8 generator;
//! - machine-readable output: [`JsonArg`] adds `--json`;
//! - interactive play: [`Console`] reads one command per line from stdin, with line
//!   editing and history on a terminal (rustyline), a prompt and colours only on a terminal,
//!   and respects `NO_COLOR`; [`Session`] and [`run_session`] are the one command loop of
//!   every game (help, save, load, new game, quit, errors on stderr, the end of a game);
//! - batches: [`run_parallel`] spreads independent games over threads, with results that do
//!   not depend on the thread count; [`Progress`] draws a bar with rate and ETA on stderr;
//! - files: [`write_atomic`] writes a save through a temporary file and a rename, so a save
//!   is never lost or half-written; [`open_input`] reads a file or `-` for stdin.

use std::fmt;
use std::io::{self, BufRead, IsTerminal};
use std::path::Path;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::Args;
use clap::error::ErrorKind;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

mod batch;
mod files;
mod text;

pub use batch::{Progress, run_parallel};
pub use files::{check_output, load_file, open_input, save_file, write_atomic};
use text::{one_line, usage_line};

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

    /// Prints the error as one line on stderr (`error: …`), the way every game shows a
    /// refused command.
    pub fn print(&self) {
        eprintln!("error: {}", one_line(&self.message));
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

/// Reports a clap parse failure of `command`: help and version go to stdout with exit code
/// 0; anything else prints one line on stderr and exits with code 2.
pub fn report_usage_error(err: &clap::Error, command: &clap::Command) -> ExitCode {
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
            let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
            eprintln!("error: {}", usage_line(err, command, &args));
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

/// The value parser of a count that must be at least 1 (`--games`, `--threads`…): clap
/// refuses 0 with the range in its message, before any work starts.
pub fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..)
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

/// The terminal side of interactive play: reads one command per line and knows whether to
/// show a prompt and colours.
///
/// On a terminal it reads lines with real line editing and an in-memory history
/// (rustyline: arrows, Home/End, Ctrl-R…), shows a prompt and colours output (unless
/// `NO_COLOR` is set to a non-empty value); when stdin is a pipe or a file it reads plain
/// lines, prints no prompt and no colours, so a scripted session's output is easy to test.
pub struct Console {
    input: Input,
    painter: Painter,
}

enum Input {
    Editor(Box<rustyline::DefaultEditor>),
    Reader(Box<dyn BufRead>),
}

impl Console {
    /// A console on the process's stdin and stdout.
    pub fn stdin() -> Console {
        let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
        let editor = if terminal {
            rustyline::DefaultEditor::new().ok()
        } else {
            None
        };
        match editor {
            Some(editor) => Console {
                input: Input::Editor(Box::new(editor)),
                painter: Painter::stdout(),
            },
            None => Console {
                input: Input::Reader(Box::new(io::stdin().lock())),
                painter: Painter::plain(),
            },
        }
    }

    /// A console reading scripted input, never interactive nor coloured (for tests).
    #[cfg(test)]
    pub fn scripted(input: &'static str) -> Console {
        Console {
            input: Input::Reader(Box::new(io::Cursor::new(input))),
            painter: Painter::plain(),
        }
    }

    /// Whether a person is typing at a terminal.
    pub fn is_interactive(&self) -> bool {
        matches!(self.input, Input::Editor(_))
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
    /// trimmed. `None` at the end of input (or Ctrl-D / Ctrl-C on a terminal).
    pub fn read_command(&mut self, prompt: &str) -> io::Result<Option<String>> {
        loop {
            let line = match &mut self.input {
                Input::Editor(editor) => match editor.readline(prompt) {
                    Ok(line) => {
                        if !line.trim().is_empty() {
                            let _ = editor.add_history_entry(line.trim());
                        }
                        line
                    }
                    Err(
                        rustyline::error::ReadlineError::Eof
                        | rustyline::error::ReadlineError::Interrupted,
                    ) => return Ok(None),
                    Err(rustyline::error::ReadlineError::Io(err)) => return Err(err),
                    Err(err) => return Err(io::Error::other(err.to_string())),
                },
                Input::Reader(reader) => {
                    let mut line = String::new();
                    if reader.read_line(&mut line)? == 0 {
                        return Ok(None);
                    }
                    line
                }
            };
            let command = line.trim();
            if !command.is_empty() {
                return Ok(Some(command.to_owned()));
            }
        }
    }
}

/// One interactive game, driven by [`run_session`]: the game answers its own commands
/// and the loop handles what every game shares.
///
/// The loop shows [`Session::show`] at the start, then before each prompt lets the
/// computer play ([`Session::advance`]); it handles `help`/`?`, `save FILE`, `load FILE`,
/// `new`, `quit`/`exit`/`q` itself and hands every other line to [`Session::command`].
/// Text a game returns goes to stdout; an error goes to stderr as one line
/// (`error: …`) and the game goes on. When [`Session::game_over`] says the game has
/// ended, the loop prints it once and asks for a new game (`y` starts one, `n` quits;
/// any other command, `undo` or `save` say, still works).
pub trait Session {
    /// The help for the game's own commands (the loop adds the shared ones).
    fn help(&self) -> String;
    /// The prompt for the next command, e.g. `Black (X)> `.
    fn prompt(&self) -> String;
    /// The board and whose turn it is, as shown at the start and after `load` and `new`.
    fn show(&self, painter: Painter) -> String;
    /// Plays what needs no person (the computer's moves, forced passes) and returns what
    /// to print about it. Called before every prompt.
    fn advance(&mut self, _painter: Painter) -> CliResult<String> {
        Ok(String::new())
    }
    /// Handles one game command (trimmed; not one of the shared ones) and returns what to
    /// print, or an error to show on stderr.
    fn command(&mut self, line: &str, painter: Painter) -> CliResult<String>;
    /// The game as a save file, or why it cannot be saved now.
    fn save(&self) -> CliResult<Vec<u8>>;
    /// Replaces the game with a loaded save.
    fn load(&mut self, bytes: &[u8]) -> CliResult;
    /// Once the game is over: the final position and the result.
    fn game_over(&self, painter: Painter) -> Option<String>;
    /// Starts a new game with the same settings.
    fn new_game(&mut self);
}

/// The commands [`run_session`] handles for every game, for the games' help texts.
pub const SESSION_HELP: &str = concat!(
    "  save FILE   save the game            load FILE   load a saved game\n",
    "  new         start a new game         help        this help\n",
    "  quit        leave (also q, exit; Ctrl-D)",
);

/// Prints `text` unless it is empty.
fn print_text(text: &str) {
    if !text.is_empty() {
        println!("{}", text.trim_end_matches('\n'));
    }
}

/// The one command loop of every game; see [`Session`]. Returns at `quit` or at the end of
/// the input.
pub fn run_session(console: &mut Console, session: &mut dyn Session) -> CliResult {
    let painter = console.painter();
    print_text(&session.show(painter));
    let mut over_shown = false;
    loop {
        match session.advance(painter) {
            Ok(text) => print_text(&text),
            Err(err) => err.print(),
        }
        let over = session.game_over(painter);
        if over.is_none() {
            over_shown = false;
        }
        let prompt = match &over {
            Some(end) => {
                if !over_shown {
                    print_text(end);
                    println!("New game? (y/n)");
                    over_shown = true;
                }
                "New game? (y/n)> ".to_owned()
            }
            None => session.prompt(),
        };
        let Some(line) = console.read_command(&prompt)? else {
            return Ok(());
        };
        let (word, arg) = match line.split_once(char::is_whitespace) {
            Some((word, arg)) => (word.to_ascii_lowercase(), arg.trim()),
            None => (line.to_ascii_lowercase(), ""),
        };
        let answer = match word.as_str() {
            "quit" | "exit" | "q" => return Ok(()),
            "n" | "no" if over.is_some() => return Ok(()),
            "y" | "yes" | "new" => {
                if word != "new" && over.is_none() {
                    session.command(&line, painter)
                } else {
                    session.new_game();
                    over_shown = false;
                    Ok(session.show(painter))
                }
            }
            "help" | "?" => Ok(format!("{}\n{SESSION_HELP}", session.help().trim_end())),
            "save" if arg.is_empty() => Err(CliError::new("usage: save FILE")),
            "save" => session
                .save()
                .and_then(|bytes| save_file(Path::new(arg), &bytes))
                .map(|()| format!("Saved to {arg}.")),
            "load" if arg.is_empty() => Err(CliError::new("usage: load FILE")),
            "load" => load_file(Path::new(arg))
                .and_then(|bytes| session.load(&bytes).map_err(|e| e.context(arg)))
                .map(|()| {
                    over_shown = false;
                    format!("Loaded {arg}.\n{}", session.show(painter))
                }),
            _ => session.command(&line, painter),
        };
        match answer {
            Ok(text) => print_text(&text),
            Err(err) => err.print(),
        }
    }
}

/// Whether `NO_COLOR` asks for plain output (set and not empty, see no-color.org).
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn scripted_console_skips_blank_lines_and_ends() {
        let mut console = Console::scripted("f5\n\n  hint  \n");
        assert_eq!(console.read_command("> ").unwrap().as_deref(), Some("f5"));
        assert_eq!(console.read_command("> ").unwrap().as_deref(), Some("hint"));
        assert_eq!(console.read_command("> ").unwrap(), None);
        assert!(!console.is_interactive());
        assert_eq!(console.paint("x", Style::Red), "x");
    }

    /// A counter game for the session loop: `+` adds one, `bad` fails, 3 ends the game.
    struct Counter(u8);

    impl Session for Counter {
        fn help(&self) -> String {
            "  +   add one".into()
        }
        fn prompt(&self) -> String {
            "> ".into()
        }
        fn show(&self, _: Painter) -> String {
            format!("count {}", self.0)
        }
        fn command(&mut self, line: &str, _: Painter) -> CliResult<String> {
            match line {
                "+" => {
                    self.0 += 1;
                    Ok(self.show(Painter::plain()))
                }
                "undo" => {
                    self.0 = self.0.saturating_sub(1);
                    Ok(self.show(Painter::plain()))
                }
                _ => Err(CliError::new(format!("unknown command '{line}'"))),
            }
        }
        fn save(&self) -> CliResult<Vec<u8>> {
            Ok(vec![self.0])
        }
        fn load(&mut self, bytes: &[u8]) -> CliResult {
            match bytes {
                [n] if *n < 3 => {
                    self.0 = *n;
                    Ok(())
                }
                _ => Err(CliError::new("not a counter save")),
            }
        }
        fn game_over(&self, _: Painter) -> Option<String> {
            (self.0 >= 3).then(|| "the end".to_owned())
        }
        fn new_game(&mut self) {
            self.0 = 0;
        }
    }

    #[test]
    fn session_loop_offers_a_new_game_and_keeps_commands() {
        let mut game = Counter(0);
        let mut console = Console::scripted("+\n+\n+\nundo\n+\ny\n+\nquit\n+\n");
        run_session(&mut console, &mut game).unwrap();
        assert_eq!(
            game.0, 1,
            "undo after the end, then a new game and one more step"
        );
        let mut game = Counter(0);
        let mut console = Console::scripted("+\n+\n+\nno\n+\n");
        run_session(&mut console, &mut game).unwrap();
        assert_eq!(game.0, 3, "'no' at the end leaves");
    }

    #[test]
    fn session_loop_saves_and_loads() {
        let dir = crate::test_support::temp_dir("session");
        let path = dir.path().join("c.sav");
        let script = format!(
            "+\nsave {0}\n+\nload {0}\nload {0}.missing\nsave\nquit\n",
            path.display()
        );
        let script: &'static str = Box::leak(script.into_boxed_str());
        let mut game = Counter(0);
        run_session(&mut Console::scripted(script), &mut game).unwrap();
        assert_eq!(game.0, 1);
        assert_eq!(fs::read(&path).unwrap(), [1]);
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
