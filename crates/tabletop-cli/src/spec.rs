//! `tabletop --cli-spec` (hidden): the command-line definition as JSON, so the tests can
//! check the usage errors of every subcommand, including ones added later, without a list
//! of their own.
//!
//! Holds facts about the clap definition only: each argument's name, whether it is
//! required, its allowed values, and which probe values clap refuses for it.

use clap::{Arg, Command};
use serde::Serialize;

use crate::common::{CliResult, JsonArg};

/// Values tried on every argument that takes one, to find those clap itself refuses (a
/// value enum, a numeric range, a parser of its own).
const PROBES: [&str; 4] = ["bogus", "0", "-1", "99999999999"];

/// One argument of one subcommand.
#[derive(Serialize)]
struct ArgSpec {
    /// The subcommand names from `tabletop`, e.g. `["nardy", "hint"]`.
    path: Vec<String>,
    /// How clap names the argument in its errors: `--long` or `<VALUE>`.
    display: String,
    /// Whether the argument must always be given.
    required: bool,
    /// Whether it is positional.
    positional: bool,
    /// The values a value enum allows (empty for free values).
    possible_values: Vec<String>,
    /// The [`PROBES`] clap refuses for this argument.
    rejects: Vec<String>,
}

/// Prints one JSON array of every argument of every subcommand of `command`.
pub fn print(mut command: Command) -> CliResult {
    command.build();
    let mut specs = Vec::new();
    collect(&command, &command, &mut Vec::new(), &mut specs);
    JsonArg { json: true }.print(&specs)
}

/// Adds the arguments of `cmd` (reached by `path` from `root`) and of its subcommands.
fn collect(root: &Command, cmd: &Command, path: &mut Vec<String>, specs: &mut Vec<ArgSpec>) {
    let positionals: Vec<&Arg> = cmd.get_positionals().collect();
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        if arg.is_hide_set() || id == "help" || id == "version" {
            continue;
        }
        let positional = arg.is_positional();
        let display = match arg.get_long() {
            Some(long) if !positional => format!("--{long}"),
            _ => format!("<{}>", value_name(arg)),
        };
        let takes_value = arg.get_action().takes_values();
        // Only the first positional can be probed alone: later ones need earlier values.
        let probed = takes_value
            && (!positional
                || positionals
                    .first()
                    .is_some_and(|p| p.get_id() == arg.get_id()));
        let rejects = if probed {
            PROBES
                .iter()
                .filter(|probe| refuses(root, path, arg, probe))
                .map(|probe| (*probe).to_owned())
                .collect()
        } else {
            Vec::new()
        };
        specs.push(ArgSpec {
            path: path.clone(),
            display,
            required: arg.is_required_set(),
            positional,
            possible_values: arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_owned())
                .collect(),
            rejects,
        });
    }
    for sub in cmd.get_subcommands() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        path.push(sub.get_name().to_owned());
        collect(root, sub, path, specs);
        path.pop();
    }
}

/// The argument's value name as clap shows it, e.g. `POSITION`.
fn value_name(arg: &Arg) -> String {
    arg.get_value_names()
        .and_then(|names| names.first())
        .map_or_else(|| arg.get_id().as_str().to_uppercase(), ToString::to_string)
}

/// Whether clap refuses `probe` as the value of `arg` on the command line.
fn refuses(root: &Command, path: &[String], arg: &Arg, probe: &str) -> bool {
    let mut words: Vec<String> = vec!["tabletop".to_owned()];
    words.extend(path.iter().cloned());
    if let Some(long) = arg.get_long().filter(|_| !arg.is_positional()) {
        words.push(format!("--{long}={probe}"));
    } else {
        words.push(probe.to_owned());
    }
    match root.clone().try_get_matches_from(words) {
        Ok(_) => false,
        Err(err) => matches!(
            err.kind(),
            clap::error::ErrorKind::InvalidValue | clap::error::ErrorKind::ValueValidation
        ),
    }
}
