//! The README's pictures of the full-screen games are the ones the screens draw:
//! `docs/screens/GAME.txt` is written by each screen's tests (`UPDATE_SCREENS=1`), and
//! the README carries each file between `<!-- screen:GAME … -->` and `<!-- /screen -->`.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .expect("the workspace root")
}

/// Lines without trailing spaces (editors and Markdown drop them).
fn trimmed(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

#[test]
fn the_readme_shows_the_screen_each_game_draws() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    for game in ["nardy", "sudoku", "battleship", "reversi"] {
        let file = root().join(format!("docs/screens/{game}.txt"));
        let picture = std::fs::read_to_string(&file).expect("the screen picture");
        let marker = format!("<!-- screen:{game} ");
        let start = readme
            .find(&marker)
            .unwrap_or_else(|| panic!("README.md has no {marker}… block"));
        let block = &readme[start..];
        let end = block
            .find("<!-- /screen -->")
            .expect("the block's end marker");
        let body = &block[..end];
        let inner = body
            .split_once("```text\n")
            .and_then(|(_, rest)| rest.rsplit_once("```"))
            .map(|(inner, _)| inner)
            .expect("a ```text block inside the markers");
        assert_eq!(
            trimmed(inner),
            trimmed(&picture),
            "README.md's picture of {game} differs from docs/screens/{game}.txt: copy the file in"
        );
    }
}

/// `cargo install` without `--locked` ignores `Cargo.lock` and builds with whatever
/// versions are newest that day, so every install command the README gives uses it.
#[test]
fn the_readme_installs_with_the_lock_file() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let installs: Vec<&str> = readme
        .lines()
        .filter(|line| line.trim_start().starts_with("cargo install"))
        .collect();
    assert!(
        !installs.is_empty(),
        "README.md gives no cargo install command"
    );
    for line in installs {
        assert!(
            line.contains("--locked"),
            "README.md: `{line}` lacks --locked"
        );
    }
}
