//! The host's tests: the frame, its keys, the menu, help, dialogs and games menu.

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, MouseEventKind};

use super::help::HOST_KEYS;
use super::*;
use crate::GAMES;
use crate::tui::reversi::{ReversiScreen, Side};
use crate::tui::screen::Placeholder;
use crate::tui::testing::{ch, click, ctrl, drive, key, mouse, render_app, text};
use proptest::prelude::*;
use reversi_core::Rules;
use reversi_core::ai::Level;
use tempfile::TempDir;

/// Every key of the host and of each game's help can be read at 80×24, scrolling
/// where the list is longer than the screen.
#[test]
fn the_help_shows_every_key_at_80x24() {
    for game in &GAMES {
        let mut app = App::new((game.make)(), ThemeKind::Dark);
        let keys = app.screen.as_ref().expect("a game").keys();
        let mut seen = text(&drive(&mut app, &[ch('?')], 80, 24));
        // ↓ scrolls a help that does not fit (and would close one that does).
        while app.help_scroll < app.help_more {
            seen.push_str(&text(&drive(&mut app, &[key(KeyCode::Down)], 80, 24)));
        }
        if app.help_more > 0 {
            assert!(
                seen.contains("↑↓ scroll"),
                "{}: the note says so",
                game.name
            );
        }
        assert!(matches!(app.overlay, Overlay::Help), "{}", game.name);
        for (k, what) in HOST_KEYS.iter().chain(keys.iter()) {
            let line = format!("{k}  ");
            // A long description is wrapped: each of its words is on screen.
            let words = what.split_whitespace().all(|w| seen.contains(w));
            assert!(
                seen.contains(&line) && words,
                "{}: {k} / {what} not shown\n{seen}",
                game.name
            );
        }
        drive(&mut app, &[ch('x')], 80, 24);
        assert!(
            matches!(app.overlay, Overlay::None),
            "another key closes it"
        );
    }
}

fn reversi() -> App {
    let screen = ReversiScreen::new([Side::Human, Side::Bot(Level::MIN)], Rules::default(), 1);
    App::new(Box::new(screen), ThemeKind::Dark)
}

fn frame_text(app: &mut App) -> String {
    text(&render_app(app, 80, 24))
}

fn moves(app: &App) -> String {
    // The status line names the last move; the save holds them all.
    app.screen().map(|s| s.status()).unwrap_or_default()
}

/// A fresh folder for the dialogs of one test, removed when dropped.
fn folder(name: &str) -> TempDir {
    crate::test_support::temp_dir(&format!("tui-{name}"))
}

#[test]
fn the_frame_has_a_title_the_game_and_a_status_line() {
    let mut app = reversi();
    let shown = frame_text(&mut app);
    let lines: Vec<&str> = shown.lines().collect();
    assert!(lines[0].starts_with("Reversi · Black: you · White: bot (random)"));
    assert!(lines[0].trim_end().ends_with("? help · Esc menu"));
    assert!(lines[23].starts_with("Black ● to move"), "{}", lines[23]);
    assert!(shown.contains("a   b   c   d"), "{shown}");
}

#[test]
fn below_80_by_24_the_game_gives_way_to_a_notice() {
    let mut app = reversi();
    for (w, h) in [(79, 24), (80, 23), (20, 5), (1, 1)] {
        let shown = text(&render_app(&mut app, w, h));
        if w >= 34 {
            assert!(
                shown.contains("terminal too small (80×24 needed)"),
                "{shown}"
            );
        }
        assert!(!shown.contains("a   b   c"), "{shown}");
        // Clicks are ignored while the game is hidden.
        assert!(!app.handle(&click(10, 3)));
    }
    assert!(frame_text(&mut app).contains("a   b   c"));
}

#[test]
fn q_asks_while_a_game_is_under_way() {
    let mut app = reversi();
    // No move yet: q quits at once.
    app.handle(&ch('q'));
    assert!(app.should_quit());

    let mut app = reversi();
    drive(&mut app, &[key(KeyCode::Enter)], 80, 24);
    assert!(app.screen().is_some_and(|s| s.in_progress()));
    let shown = text(&drive(&mut app, &[ch('q')], 80, 24));
    assert!(shown.contains("Quit the game under way?"), "{shown}");
    app.handle(&ch('n'));
    assert!(!app.should_quit() && !app.overlay_open());
    drive(&mut app, &[ch('q'), ch('y')], 80, 24);
    assert!(app.should_quit());
}

#[test]
fn the_question_answers_to_the_mouse() {
    let mut app = reversi();
    drive(&mut app, &[key(KeyCode::Enter), ch('n')], 80, 24);
    let shown = frame_text(&mut app);
    let (row, line) = shown
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("[y] yes"))
        .expect("the question");
    let column = line.chars().take_while(|c| *c != '[').count() as u16;
    app.handle(&click(column + 1, row as u16));
    assert!(!app.overlay_open());
    assert!(
        !moves(&app).contains("last:"),
        "a new game: {}",
        moves(&app)
    );
}

#[test]
fn ctrl_c_quits_at_once_from_anywhere() {
    let mut app = reversi();
    drive(&mut app, &[key(KeyCode::Enter), key(KeyCode::Esc)], 80, 24);
    assert!(app.overlay_open());
    app.handle(&ctrl('c'));
    assert!(app.should_quit());
}

#[test]
fn u_and_shift_u_undo_and_redo_through_the_host() {
    let mut app = reversi();
    drive(&mut app, &[key(KeyCode::Enter)], 80, 24);
    assert!(moves(&app).contains("last: Black"));
    app.handle(&ch('u'));
    assert!(!moves(&app).contains("last:"), "{}", moves(&app));
    assert_eq!(app.message(), Some("Move taken back"));
    app.handle(&ch('U'));
    assert!(moves(&app).contains("last: Black"));
    app.handle(&ch('u'));
    app.handle(&ctrl('r'));
    assert!(moves(&app).contains("last: Black"));
}

#[test]
fn messages_are_cleared_by_the_next_key() {
    let mut app = reversi();
    app.handle(&ch('u'));
    assert_eq!(app.message(), Some("Nothing to undo"));
    assert!(frame_text(&mut app).contains("Nothing to undo · Black ● to move"));
    app.handle(&key(KeyCode::Left));
    assert_eq!(app.message(), None);
}

#[test]
fn help_lists_the_host_and_game_keys_and_closes_on_any_key() {
    let mut app = reversi();
    let shown = text(&drive(&mut app, &[ch('?')], 80, 24));
    assert!(shown.contains("Ctrl-S"), "{shown}");
    assert!(shown.contains("hint: the best move"), "{shown}");
    app.handle(&mouse(MouseEventKind::Moved, 3, 3));
    assert!(app.overlay_open(), "a mouse move does not close it");
    app.handle(&ch('x'));
    assert!(!app.overlay_open());
    app.handle(&key(KeyCode::F(1)));
    assert!(app.overlay_open());
    app.handle(&click(0, 0));
    assert!(!app.overlay_open());
}

#[test]
fn the_menu_changes_settings_and_the_theme() {
    let mut app = reversi();
    let shown = text(&drive(&mut app, &[key(KeyCode::Esc)], 80, 24));
    for line in [
        "Resume", "New game", "Black", "White", "Theme", "Save…", "Quit",
    ] {
        assert!(shown.contains(line), "{line}:\n{shown}");
    }
    assert!(!shown.contains("Back to the games"));
    // Down to White (Resume, New game, Black, White), one level up.
    let events = [
        key(KeyCode::Down),
        ch('j'),
        key(KeyCode::Down),
        key(KeyCode::Right),
    ];
    drive(&mut app, &events, 80, 24);
    assert!(
        app.screen()
            .expect("a game")
            .title()
            .ends_with("bot (wild)")
    );
    assert_eq!(app.message(), Some("White: bot 2 (wild) (from now on)"));
    // Theme is after the three choices: two more down.
    drive(
        &mut app,
        &[key(KeyCode::Down), key(KeyCode::Down), ch('l')],
        80,
        24,
    );
    assert_eq!(app.theme(), ThemeKind::Light);
    app.handle(&key(KeyCode::Left));
    assert_eq!(app.theme(), ThemeKind::Dark);
    app.handle(&key(KeyCode::Esc));
    assert!(!app.overlay_open());
}

#[test]
fn the_menu_works_with_the_mouse() {
    let mut app = reversi();
    let shown = text(&drive(&mut app, &[key(KeyCode::Esc)], 80, 24));
    let find = |what: &str| {
        shown
            .lines()
            .enumerate()
            .find_map(|(y, l)| {
                l.find(what)
                    .map(|at| (l[..at].chars().count() as u16, y as u16))
            })
            .expect("a menu line")
    };
    // A click on the value of Theme steps it forward.
    let (_, y) = find("Theme");
    let (x, _) = find("◀ dark ▶");
    app.handle(&click(x + 4, y));
    assert_eq!(app.theme(), ThemeKind::Light);
    // A click on the left arrow steps back.
    render_app(&mut app, 80, 24);
    app.handle(&click(x, y));
    assert_eq!(app.theme(), ThemeKind::Dark);
    // A click on Resume closes the menu.
    let (x, y) = find("Resume");
    app.handle(&click(x, y));
    assert!(!app.overlay_open());
}

#[test]
fn save_then_load_through_the_dialogs() {
    let tmp = folder("save");
    let dir = tmp.path();
    let mut app = reversi();
    app.set_folder(dir);
    drive(&mut app, &[key(KeyCode::Enter)], 80, 24);
    let after_one = moves(&app);
    let shown = text(&drive(&mut app, &[ctrl('s')], 80, 24));
    assert!(shown.contains("File: reversi.save"), "{shown}");
    // Edit the name: Home, type a prefix, End, Backspace the last letter.
    let mut events = vec![key(KeyCode::Home), ch('m'), ch('y'), ch('-')];
    events.extend([
        key(KeyCode::End),
        key(KeyCode::Backspace),
        key(KeyCode::Enter),
    ]);
    drive(&mut app, &events, 80, 24);
    assert!(!app.overlay_open());
    assert_eq!(app.message(), Some("Saved to my-reversi.sav"));
    assert!(dir.join("my-reversi.sav").exists());
    app.handle(&ch('u'));
    assert_ne!(moves(&app), after_one);
    // The load dialog offers the name used last.
    let shown = text(&drive(&mut app, &[ctrl('o')], 80, 24));
    assert!(shown.contains("File: my-reversi.sav"), "{shown}");
    app.handle(&key(KeyCode::Enter));
    assert_eq!(app.message(), Some("Loaded my-reversi.sav"));
    assert_eq!(moves(&app), after_one);
}

#[test]
fn a_bad_file_stays_in_the_dialog_and_changes_nothing() {
    let tmp = folder("bad");
    let dir = tmp.path();
    std::fs::write(dir.join("junk.save"), b"not a save").expect("write");
    let mut app = reversi();
    app.set_folder(dir);
    drive(&mut app, &[key(KeyCode::Enter)], 80, 24);
    let before = moves(&app);
    let mut events = vec![ctrl('o'), ctrl('u')];
    events.extend("junk.save".chars().map(ch));
    events.push(key(KeyCode::Enter));
    let shown = text(&drive(&mut app, &events, 80, 24));
    assert!(app.overlay_open(), "the dialog stays open");
    assert!(shown.contains("junk.save: "), "{shown}");
    assert_eq!(moves(&app), before);
    // A missing file too, then Esc closes without loading.
    let mut events = vec![ctrl('u')];
    events.extend("missing".chars().map(ch));
    events.push(key(KeyCode::Enter));
    let shown = text(&drive(&mut app, &events, 80, 24));
    assert!(shown.contains("cannot read"), "{shown}");
    app.handle(&key(KeyCode::Esc));
    assert!(!app.overlay_open());
    assert_eq!(moves(&app), before);
}

/// Issue 31: a message longer than the line was cut mid-word at 80 columns ("…must outflank
/// at least one line of opposing di"). It takes the row above too, broken between words,
/// and the status line comes back with the next key.
#[test]
fn a_message_longer_than_the_line_goes_on_a_second_row() {
    let mut app = reversi();
    let before = frame_text(&mut app);
    // Home: the a-file, where no first move flips anything.
    let shown = text(&drive(
        &mut app,
        &[key(KeyCode::Home), key(KeyCode::Enter)],
        80,
        24,
    ));
    let said = app.message().expect("a refusal").to_owned();
    assert!(said.starts_with("Illegal: a"), "{said}");
    assert!(said.chars().count() > 80, "the case of the issue: {said}");
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 24);
    let bottom = format!("{} {}", lines[22].trim_end(), lines[23].trim_end());
    assert!(bottom.starts_with(&said), "{bottom}");
    // Broken between words, and the status follows where it fits.
    assert!(
        said.starts_with(&format!("{} ", lines[22].trim_end())),
        "{bottom}"
    );
    assert!(lines[23].contains(" · Black ● to move"), "{bottom}");
    // The next key clears the message: the game's row and the status line are back.
    let shown = text(&drive(&mut app, &[key(KeyCode::Right)], 80, 24));
    let lines: Vec<&str> = shown.lines().collect();
    assert!(lines[23].starts_with("Black ● to move"), "{}", lines[23]);
    assert_eq!(lines[22], before.lines().nth(22).expect("a row"));
}

/// Issue 31: the save dialog cut its error at any width ("…No such file or dir"). The
/// error takes two rows, broken between words, and keeps its cause.
#[test]
fn a_long_error_in_the_dialog_keeps_its_cause() {
    let tmp = folder("long-error");
    let dir = tmp.path();
    let cause = std::fs::read(dir.join("missing"))
        .expect_err("no such file")
        .to_string();
    for width in [80, 132] {
        let mut app = reversi();
        app.set_folder(dir);
        let mut events = vec![ctrl('o'), ctrl('u')];
        events.extend("missing".chars().map(ch));
        events.push(key(KeyCode::Enter));
        let shown = text(&drive(&mut app, &events, width, 24));
        assert!(app.overlay_open(), "the dialog stays open");
        let lines: Vec<&str> = shown.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("cannot read"))
            .expect("the error");
        let inside = |line: &str| {
            let (start, end) = (line.find('│').expect("a border"), line.rfind('│'));
            line[start + '│'.len_utf8()..end.expect("a border")]
                .trim()
                .to_owned()
        };
        let error = format!("{} {}", inside(lines[at]), inside(lines[at + 1]));
        assert!(error.ends_with(&cause), "{width}: {error}\n{shown}");
        assert!(error.contains("missing"), "{width}: {error}");
    }
}

#[test]
fn the_games_menu_opens_a_game_and_takes_it_back() {
    let mut app = App::games(GAMES.to_vec(), ThemeKind::Mono);
    let shown = frame_text(&mut app);
    assert!(shown.contains("Choose a game"), "{shown}");
    assert!(shown.contains("4  Reversi"), "{shown}");
    // Down three times to Reversi, Enter.
    let events = [
        key(KeyCode::Down),
        ch('j'),
        key(KeyCode::Down),
        key(KeyCode::Enter),
    ];
    drive(&mut app, &events, 80, 24);
    assert!(app.screen().expect("a game").title().starts_with("Reversi"));
    let shown = text(&drive(&mut app, &[key(KeyCode::Esc)], 80, 24));
    assert!(shown.contains("Back to the games"), "{shown}");
    // Back is the line before Quit.
    drive(
        &mut app,
        &[key(KeyCode::End), key(KeyCode::Up), key(KeyCode::Enter)],
        80,
        24,
    );
    assert!(app.screen().is_none());
    assert!(frame_text(&mut app).contains("Choose a game"));
    // The mouse: click the Sudoku line.
    let shown = frame_text(&mut app);
    let y = shown
        .lines()
        .position(|l| l.contains("2  Sudoku"))
        .expect("a line");
    app.handle(&click(20, y as u16));
    assert!(app.screen().expect("a game").title().starts_with("Sudoku"));
    app.handle(&ch('q'));
    assert!(app.should_quit() || app.overlay_open());
}

#[test]
fn snapshot_games_menu() {
    let mut app = App::games(GAMES.to_vec(), ThemeKind::Dark);
    insta::assert_snapshot!(
        "host_games_menu",
        format!("{:?}", render_app(&mut app, 80, 24))
    );
}

#[test]
fn snapshot_menu_over_a_game() {
    let mut app = reversi();
    app.open_menu();
    insta::assert_snapshot!("host_menu", format!("{:?}", render_app(&mut app, 80, 24)));
}

#[test]
fn snapshot_save_dialog() {
    let mut app = reversi();
    let buffer = drive(&mut app, &[ctrl('s')], 80, 24);
    insta::assert_snapshot!("host_save_dialog", format!("{buffer:?}"));
}

fn any_event() -> impl Strategy<Value = Event> {
    let keys = prop::sample::select(vec![
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Backspace,
        KeyCode::Delete,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Tab,
        KeyCode::F(1),
        KeyCode::F(2),
        KeyCode::Char(' '),
        KeyCode::Char('?'),
        KeyCode::Char('u'),
        KeyCode::Char('U'),
        KeyCode::Char('n'),
        KeyCode::Char('y'),
        KeyCode::Char('t'),
        KeyCode::Char('j'),
        KeyCode::Char('k'),
        KeyCode::Char('h'),
        KeyCode::Char('l'),
        KeyCode::Char('x'),
        KeyCode::Char('1'),
        KeyCode::Char('4'),
    ]);
    prop_oneof![
        8 => keys.prop_map(key),
        1 => prop::sample::select(vec!['s', 'o', 'r', 'a', 'e', 'u']).prop_map(ctrl),
        3 => (0u16..130, 0u16..45).prop_map(|(x, y)| click(x, y)),
        1 => (0u16..130, 0u16..45)
            .prop_map(|(x, y)| crate::tui::testing::right_click(x, y)),
        1 => (0u16..130, 0u16..45).prop_map(|(x, y)| mouse(MouseEventKind::Moved, x, y)),
        1 => (1u16..130, 1u16..45).prop_map(|(w, h)| Event::Resize(w, h)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_events_never_panic_the_host(
        events in prop::collection::vec(any_event(), 0..60),
        sizes in prop::collection::vec((1u16..130, 1u16..45), 1..4),
        which in 0u8..3,
    ) {
        let tmp = folder("proptest");
        let dir = tmp.path();
        let mut app = match which {
            0 => App::new(Box::new(Placeholder("Test")), ThemeKind::Mono),
            1 => reversi(),
            _ => App::games(GAMES.to_vec(), ThemeKind::Light),
        };
        app.set_folder(dir);
        let mut now = Instant::now();
        for (i, event) in events.iter().enumerate() {
            let (w, h) = sizes[i % sizes.len()];
            render_app(&mut app, w, h);
            app.handle(event);
            now += Duration::from_millis(600);
            app.tick(now);
            if app.should_quit() {
                break;
            }
        }
    }
}
