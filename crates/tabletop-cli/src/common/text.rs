//! Error text: one line per error, echoed input cut to a readable length, and clap's
//! usage errors folded onto one line that keeps what is wrong.

use clap::error::ErrorKind;

/// Folds a message onto one line, with any echoed input cut to a readable length (see
/// [`shorten`]).
pub(super) fn one_line(message: &str) -> String {
    let words: Vec<String> = message.split_whitespace().map(shorten).collect();
    shorten_line(&words.join(" "))
}

/// The longest word an error shows whole: longer ones are input echoed back (a pasted
/// file, a stray megabyte), of which the start is enough to recognise it.
const MAX_WORD: usize = 64;
/// The longest error line shown whole; a longer one keeps its start and its end, where
/// the reason usually is.
const MAX_LINE: usize = 600;

/// `word`, or its first characters and its size when it is longer than [`MAX_WORD`]:
/// `'xxxxxxxx… (1,000,000 bytes)':` (the quotes and punctuation around it are kept and
/// not counted).
fn shorten(word: &str) -> String {
    if word.chars().count() <= MAX_WORD {
        return word.to_owned();
    }
    let marks: &[char] = &['\'', '"', '`', ':', ',', ';', '.', '(', ')'];
    let core = word.trim_matches(marks);
    let core = if core.is_empty() { word } else { core };
    let start = word.find(core).unwrap_or(0);
    let (prefix, suffix) = (&word[..start], &word[start + core.len()..]);
    let head: String = core.chars().take(MAX_WORD / 2).collect();
    format!("{prefix}{head}… ({} bytes){suffix}", thousands(core.len()))
}

/// A line longer than [`MAX_LINE`] characters (many short words) as its start, a note of
/// what was left out, and its end.
fn shorten_line(line: &str) -> String {
    let count = line.chars().count();
    if count <= MAX_LINE {
        return line.to_owned();
    }
    let head: String = line.chars().take(MAX_LINE / 2).collect();
    let tail: String = line.chars().skip(count - MAX_LINE / 4).collect();
    let cut = line.len() - head.len() - tail.len();
    format!("{head}… ({} bytes) …{tail}", thousands(cut))
}

/// `1000000` as `1,000,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A clap error as one line that keeps what is wrong: every missing argument, the values
/// an invalid one allows and clap's tip, then where to read more: the help of the
/// subcommand `args` name in `command` (`tabletop nardy hint --help`).
pub(super) fn usage_line(
    err: &clap::Error,
    command: &clap::Command,
    args: &[std::ffi::OsString],
) -> String {
    use clap::error::{ContextKind, ContextValue};
    let rendered = err.render().to_string();
    let mut what = String::new();
    for line in rendered.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if !what.is_empty() {
            // A list under a heading stays on its line; a tip is a sentence of its own.
            what.push_str(if what.ends_with(':') || line.starts_with('[') {
                " "
            } else if line.starts_with("tip:") {
                "; "
            } else {
                ", "
            });
        }
        what.push_str(line);
    }
    if err.kind() == ErrorKind::MissingRequiredArgument
        && let Some(ContextValue::Strings(missing)) = err.get(ContextKind::InvalidArg)
    {
        what = format!(
            "the following required arguments were not provided: {}",
            missing.join(", ")
        );
    }
    if what.is_empty() {
        what.push_str("invalid arguments");
    }
    let what = plain_range(&one_line(&what));
    let mut path = vec![command.get_name().to_owned()];
    let mut current = command;
    for arg in args.iter().skip(1).filter_map(|a| a.to_str()) {
        if let Some(sub) = current.find_subcommand(arg) {
            path.push(sub.get_name().to_owned());
            current = sub;
        }
    }
    format!("{what} (see '{} --help')", path.join(" "))
}

/// Clap's `0 is not in 1..=4294967295` for a count with no upper bound, as `0 is less
/// than 1`.
fn plain_range(line: &str) -> String {
    let mut line = line.to_owned();
    for max in [u64::MAX, i64::MAX as u64, u64::from(u32::MAX)] {
        let tail = format!("..={max}");
        while let Some(end) = line.find(&tail) {
            let start = line[..end]
                .rfind(" is not in ")
                .map(|i| i + " is not in ".len());
            let Some(start) = start else { break };
            let low = line[start..end].to_owned();
            line.replace_range(
                start - "not in ".len()..end + tail.len(),
                &format!("less than {low}"),
            );
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbounded_ranges_read_plainly() {
        assert_eq!(
            plain_range("invalid value '0' for '--games <N>': 0 is not in 1..=4294967295"),
            "invalid value '0' for '--games <N>': 0 is less than 1"
        );
        let max = u64::MAX;
        assert_eq!(
            plain_range(&format!("0 is not in 1..={max}")),
            "0 is less than 1"
        );
        assert_eq!(plain_range("99 is not in 0..=30"), "99 is not in 0..=30");
    }

    #[test]
    fn echoed_input_is_cut_with_its_size() {
        let huge = "x".repeat(1_000_000);
        let line = one_line(&format!("unknown command '{huge}': try help"));
        assert_eq!(
            line,
            format!(
                "unknown command '{}… (1,000,000 bytes)': try help",
                "x".repeat(32)
            )
        );
        let many = "ab ".repeat(100_000);
        let line = one_line(&format!("bad move {many}end"));
        assert!(line.len() < 1000, "{} bytes", line.len());
        assert!(
            line.starts_with("bad move ab ab") && line.ends_with("ab end"),
            "{line}"
        );
        assert!(line.contains(" bytes) …"), "{line}");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(one_line("short 'e4'"), "short 'e4'");
    }
}
