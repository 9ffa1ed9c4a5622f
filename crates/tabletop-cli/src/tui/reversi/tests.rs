//! The reversi screen's tests: keys, clicks, bots on the worker, passes, saves, snapshots.

use super::*;
use crate::tui::testing::{ch, click, key, render, render_app, text};
use crate::tui::{App, ThemeKind};
use crossterm::event::MouseEventKind;
use proptest::prelude::*;

fn human_vs_bot(seed: u64) -> ReversiScreen {
    ReversiScreen::new([Side::Human, Side::Bot(Level::MIN)], Rules::default(), seed)
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

/// Ticks far enough in the future for every bot move and pass to be due.
fn let_bots_play(screen: &mut ReversiScreen) {
    let mut now = Instant::now();
    for _ in 0..200 {
        if screen.passes_due == 0 && screen.table.bot_to_act().is_none() {
            return;
        }
        // The first tick of a bot's turn only schedules its move.
        now += BOT_PACE * 2;
        let mut ctx = Ctx::default();
        screen.tick(now, &mut ctx);
        screen.wait_bot();
    }
}

/// The moves the board shows (the passes not yet announced left out).
fn shown_moves(screen: &ReversiScreen) -> &[Move] {
    &screen.game().moves()[..screen.shown()]
}

/// The arrow keys that take the cursor from where it is to `target`.
fn keys_to(screen: &ReversiScreen, target: Square) -> Vec<Event> {
    let (f, r) = screen.cursor;
    let mut keys = Vec::new();
    let dx = i16::from(target.file()) - i16::from(f);
    let dy = i16::from(target.rank()) - i16::from(r);
    let h = if dx > 0 {
        KeyCode::Right
    } else {
        KeyCode::Left
    };
    let v = if dy > 0 { KeyCode::Down } else { KeyCode::Up };
    keys.extend((0..dx.abs()).map(|_| key(h)));
    keys.extend((0..dy.abs()).map(|_| key(v)));
    keys
}

fn feed(screen: &mut ReversiScreen, events: &[Event]) -> Ctx {
    let mut ctx = Ctx::default();
    for event in events {
        screen.handle(event, &mut ctx);
    }
    ctx
}

/// Black (you) to move after twelve moves, the hint shown.
fn mid_game() -> ReversiScreen {
    let record = "f5d6c3d3c4f4f6f3e6e7d7c5";
    let game =
        Game::from_record(Rules::default(), &record.parse().expect("a record")).expect("legal");
    let mut screen = ReversiScreen::with_game(game, [Side::Human, Side::Bot(DEFAULT_LEVEL)], 1);
    feed(&mut screen, &[ch('t')]);
    screen
}

fn app_frame(screen: ReversiScreen) -> (App, String) {
    let mut app = App::new(Box::new(screen), ThemeKind::Dark);
    let buffer = render_app(&mut app, 80, 24);
    (app, format!("{buffer:?}"))
}

#[test]
fn enter_plays_the_square_under_the_cursor() {
    let mut screen = human_vs_bot(1);
    let mut events = keys_to(&screen, sq("f5"));
    events.push(key(KeyCode::Enter));
    let mut ctx = feed(&mut screen, &events);
    assert_eq!(screen.game().moves(), &[Move::Place(sq("f5"))]);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("Black plays f5, flipping 1 disc")
    );
    assert_eq!(screen.game().position().count(Color::Black), 4);
}

#[test]
fn an_illegal_square_is_refused_with_the_engines_reason() {
    let mut screen = human_vs_bot(1);
    let mut events = keys_to(&screen, sq("a1"));
    events.push(ch(' '));
    let mut ctx = feed(&mut screen, &events);
    assert!(screen.game().moves().is_empty());
    let said = ctx.take_message().expect("a message");
    assert!(said.starts_with("Illegal: a1 flips nothing"), "{said}");
}

#[test]
fn the_bot_answers_after_the_pace_and_undo_takes_both_moves_back() {
    let mut screen = human_vs_bot(7);
    screen.cursor = (5, 4);
    feed(&mut screen, &[key(KeyCode::Enter)]);
    let now = Instant::now();
    let mut ctx = Ctx::default();
    screen.tick(now, &mut ctx);
    assert!(screen.thinking(), "the first tick starts the thinking");
    assert!(
        screen.status().ends_with("thinking…"),
        "{}",
        screen.status()
    );
    screen.wait_bot();
    screen.tick(now + BOT_PACE / 2, &mut ctx);
    assert_eq!(screen.game().moves().len(), 1, "too early");
    assert!(screen.tick(now + BOT_PACE, &mut ctx));
    assert_eq!(screen.game().moves().len(), 2);
    screen.undo(&mut ctx);
    assert!(screen.game().moves().is_empty(), "back to Black's turn");
    screen.redo(&mut ctx);
    assert_eq!(screen.game().moves().len(), 2, "redo replays both");
}

#[test]
fn keys_are_handled_while_the_bot_thinks_and_undo_drops_its_answer() {
    use std::sync::{Arc, Barrier};
    let mut screen = human_vs_bot(7);
    screen.cursor = (5, 4);
    feed(&mut screen, &[key(KeyCode::Enter)]);
    // Hold the worker so the bot's thinking is surely still pending below.
    let gate = Arc::new(Barrier::new(2));
    let g = Arc::clone(&gate);
    screen.thinker.run(move |_| {
        g.wait();
    });
    let rng = screen.rng.clone();
    let now = Instant::now();
    let mut ctx = Ctx::default();
    screen.tick(now, &mut ctx);
    assert!(screen.thinking());
    let cursor = screen.cursor;
    assert_eq!(screen.handle(&key(KeyCode::Left), &mut ctx), Handled::Yes);
    assert_ne!(
        screen.cursor, cursor,
        "the cursor moved while the bot thinks"
    );
    screen.undo(&mut ctx);
    assert!(!screen.thinking(), "undo drops the pending answer");
    gate.wait();
    for k in 1..5 {
        std::thread::sleep(Duration::from_millis(20));
        screen.tick(now + BOT_PACE * k, &mut ctx);
    }
    assert!(
        screen.game().moves().is_empty(),
        "the stale answer was not played"
    );
    assert_eq!(screen.rng, rng, "nor its generator adopted");
}

#[test]
fn bots_on_the_worker_play_the_game_they_played_inline() {
    let players = [Side::Bot(Level::ALL[4]), Side::Bot(Level::ALL[2])];
    let mut screen = ReversiScreen::new(players, Rules::default(), 11);
    let_bots_play(&mut screen);
    assert!(screen.game().is_over());
    // The same bots called directly, as the screen did before it had a worker.
    let mut game = Game::new(Rules::default());
    let mut bots = players.map(|s| match s {
        Side::Bot(level) => level.bot(&Rules::default()),
        Side::Human => unreachable!(),
    });
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    while !game.is_over() {
        let pos = *game.position();
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            bots[pos.side_to_move() as usize]
                .choose_move(&pos, &mut rng)
                .expect("a move")
        };
        game.play(mv).expect("legal");
    }
    assert_eq!(screen.game().moves(), game.moves());
}

#[test]
fn a_click_plays_the_square_clicked() {
    let mut screen = human_vs_bot(1);
    render(&mut screen, 80, 22, &Theme::dark());
    let (x, y) = screen.cell_of(sq("d3"));
    feed(&mut screen, &[click(x, y)]);
    assert_eq!(screen.game().moves(), &[Move::Place(sq("d3"))]);
    // A click beside the board does nothing.
    assert_eq!(
        screen.handle(&click(0, 0), &mut Ctx::default()),
        Handled::No
    );
}

#[test]
fn the_hint_is_the_searchs_best_move_and_is_drawn() {
    let mut screen = human_vs_bot(1);
    let mut ctx = feed(&mut screen, &[ch('t')]);
    let said = ctx.take_message().expect("a hint");
    assert!(said.starts_with("Hint: "), "{said}");
    let best = screen.current_hint().expect("a hint");
    assert_eq!(screen.cursor(), best.square);
    assert!(
        screen
            .game()
            .position()
            .legal_squares()
            .contains(best.square)
    );
    let shown = text(&render(&mut screen, 80, 22, &Theme::dark()));
    assert!(shown.contains(&format!("Hint: {}", best.square)), "{shown}");
}

#[test]
fn a_whole_game_with_keys_alone() {
    let mut screen = human_vs_bot(3);
    let mut moves = 0;
    while !screen.game().is_over() {
        if screen.human_to_move() {
            let target = screen
                .game()
                .position()
                .legal_squares()
                .iter()
                .last()
                .expect("a legal move");
            let mut events = keys_to(&screen, target);
            events.push(key(KeyCode::Enter));
            let before = shown_moves(&screen).len();
            feed(&mut screen, &events);
            assert_eq!(shown_moves(&screen).len(), before + 1);
            moves += 1;
        } else {
            let_bots_play(&mut screen);
        }
    }
    assert!(moves >= 10, "{moves}");
    assert!(screen.status().starts_with("Game over: "));
    let outcome = screen.game().outcome().expect("over");
    assert_eq!(outcome.black + outcome.white + outcome.empties(), 64);
}

#[test]
fn a_whole_game_with_the_mouse_alone() {
    let mut screen = human_vs_bot(4);
    while !screen.game().is_over() {
        if screen.human_to_move() {
            render(&mut screen, 100, 30, &Theme::mono());
            let target = screen
                .game()
                .position()
                .legal_squares()
                .iter()
                .next()
                .expect("a legal move");
            let (x, y) = screen.cell_of(target);
            let before = shown_moves(&screen).len();
            feed(&mut screen, &[click(x, y)]);
            assert_eq!(shown_moves(&screen).last(), Some(&Move::Place(target)));
            assert_eq!(shown_moves(&screen).len(), before + 1);
        } else {
            let_bots_play(&mut screen);
        }
    }
    assert!(screen.game().outcome().is_some());
}

#[test]
fn passes_are_played_and_announced() {
    // White to move with no legal move (Black at a1 could take b1 by c1).
    let pos: Position = format!("XO{} O", "-".repeat(62)).parse().expect("a board");
    let game = Game::from_position(Rules::default(), pos);
    let mut screen = ReversiScreen::with_game(game, [Side::Human, Side::Human], 1);
    // The table has played the pass; the board shows it after the pace.
    assert_eq!(screen.game().moves(), &[Move::Pass]);
    assert!(screen.position().must_pass());
    assert!(screen.status().contains("must pass"), "{}", screen.status());
    let now = Instant::now();
    let mut ctx = Ctx::default();
    assert!(!screen.tick(now, &mut ctx));
    assert_eq!(ctx.take_message(), None);
    assert!(screen.tick(now + BOT_PACE, &mut ctx));
    assert_eq!(shown_moves(&screen), &[Move::Pass]);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("White has no legal move and passes")
    );
}

#[test]
fn a_pass_a_move_forces_comes_from_the_table_and_undo_takes_both_back() {
    // Black takes b1 by c1; White's only disc left, e5, flanks nothing: White passes.
    let mut board = ["-"; 64];
    board[0] = "X";
    board[1] = "O";
    board[32..36].fill("X");
    board[36] = "O";
    let pos: Position = format!("{} X", board.concat()).parse().expect("a board");
    let game = Game::from_position(Rules::default(), pos);
    let mut screen = ReversiScreen::with_game(game, [Side::Human, Side::Human], 1);
    screen.cursor = (2, 0);
    let mut ctx = feed(&mut screen, &[key(KeyCode::Enter)]);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("Black plays c1, flipping 1 disc")
    );
    assert_eq!(screen.game().moves(), &[Move::Place(sq("c1")), Move::Pass]);
    assert!(
        screen
            .status()
            .starts_with("White ○ has no legal move and must pass"),
        "{}",
        screen.status()
    );
    assert!(!screen.human_to_move(), "the pass is shown first");
    let now = Instant::now();
    screen.tick(now, &mut ctx);
    assert!(screen.tick(now + BOT_PACE, &mut ctx));
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("White has no legal move and passes")
    );
    assert!(screen.status().starts_with("Black ● to move"));
    screen.undo(&mut ctx);
    assert!(screen.game().moves().is_empty(), "the move and the pass");
    assert_eq!(ctx.take_message().as_deref(), Some("Move taken back"));
    screen.redo(&mut ctx);
    assert_eq!(shown_moves(&screen), &[Move::Place(sq("c1")), Move::Pass]);
}

#[test]
fn the_status_line_says_the_result_once() {
    // Black's last move, h8, takes White's last disc.
    let pos: Position = format!("{}O- X", "X".repeat(62)).parse().expect("a board");
    let game = Game::from_position(Rules::default(), pos);
    let screen = ReversiScreen::with_game(game, [Side::Human, Side::Human], 1);
    let mut app = App::new(Box::new(screen), ThemeKind::Dark);
    app.handle(&key(KeyCode::Enter));
    assert_eq!(app.message(), Some("Game over: Black wins 64-0 (+64)"));
    let shown = text(&render_app(&mut app, 80, 24));
    let status = shown.lines().last().expect("a status line");
    assert_eq!(status.matches("Game over").count(), 1, "{status}");
    assert!(
        status.starts_with("Game over: Black wins 64-0 (+64) · last: Black h8"),
        "{status}"
    );
}

#[test]
fn settings_change_the_players_now() {
    let mut screen = human_vs_bot(1);
    let mut ctx = Ctx::default();
    let choices = screen.choices();
    assert_eq!(choices[1].values[choices[1].current], "bot 1 (random)");
    screen.choose(1, 0, &mut ctx);
    assert_eq!(screen.players, [Side::Human, Side::Human]);
    assert_eq!(screen.title(), "Reversi · Black: human · White: human");
    screen.choose(2, 1, &mut ctx);
    screen.new_game(&mut ctx);
    assert_eq!(screen.game().side_to_move(), Color::White);
}

#[test]
fn saves_load_back_and_a_bad_file_changes_nothing() {
    let mut screen = human_vs_bot(1);
    screen.cursor = (5, 4);
    feed(&mut screen, &[key(KeyCode::Enter)]);
    let bytes = screen.save();
    let mut other = human_vs_bot(2);
    other.load(&bytes).expect("loads");
    assert_eq!(other.table, screen.table);
    let before = other.table.clone();
    assert!(other.load(b"TTRVgarbage").is_err());
    assert!(other.load(b"not a save").is_err());
    assert_eq!(other.table, before);
}

#[test]
fn a_save_of_the_engine_alone_still_loads_with_the_screens_players() {
    let record = "f5d6c3".parse().expect("a record");
    let game = Game::from_record(Rules::default(), &record).expect("legal");
    let mut screen = human_vs_bot(1);
    screen.load(&game.to_bytes()).expect("loads");
    assert_eq!(screen.game().moves(), game.moves());
    assert_eq!(
        screen.table.players(),
        &[Player::Human, Player::Bot(Level::MIN.get())]
    );
    assert!(screen.status().starts_with("White ○ (bot) is thinking"));
    // The next save is the table's, which loads back the same.
    let mut other = human_vs_bot(2);
    other.load(&screen.save()).expect("loads");
    assert_eq!(other.table, screen.table);
}

#[test]
fn snapshot_start() {
    let (_, frame) = app_frame(human_vs_bot(1));
    insta::assert_snapshot!("reversi_start", frame);
}

#[test]
fn snapshot_hint_and_legal_moves() {
    let mut screen = human_vs_bot(1);
    screen.cursor = (5, 4);
    feed(&mut screen, &[key(KeyCode::Enter)]);
    let_bots_play(&mut screen);
    feed(&mut screen, &[ch('t')]);
    let (_, frame) = app_frame(screen);
    insta::assert_snapshot!("reversi_hint", frame);
}

#[test]
fn snapshot_mid_game() {
    let screen = mid_game();
    let (_, frame) = app_frame(screen);
    insta::assert_snapshot!("reversi_mid_game", frame);
}

#[test]
fn snapshot_game_over() {
    let mut screen = ReversiScreen::new(
        [Side::Bot(Level::MIN), Side::Bot(Level::MIN)],
        Rules::default(),
        5,
    );
    let_bots_play(&mut screen);
    assert!(screen.game().is_over());
    let (_, frame) = app_frame(screen);
    assert!(frame.contains("Game over"));
    insta::assert_snapshot!("reversi_game_over", frame);
}

#[test]
fn screen_picture_is_up_to_date() {
    let screen = mid_game();
    let mut app = App::new(Box::new(screen), ThemeKind::Mono);
    crate::tui::testing::check_screen_picture("reversi", &render_app(&mut app, 80, 24));
}

fn any_event() -> impl Strategy<Value = Event> {
    let keys = prop::sample::select(vec![
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Enter,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Char(' '),
        KeyCode::Char('t'),
        KeyCode::Char('h'),
        KeyCode::Char('j'),
        KeyCode::Char('k'),
        KeyCode::Char('l'),
        KeyCode::Char('u'),
        KeyCode::Esc,
    ]);
    prop_oneof![
        4 => keys.prop_map(key),
        2 => (0u16..120, 0u16..40).prop_map(|(x, y)| click(x, y)),
        1 => (0u16..120, 0u16..40)
            .prop_map(|(x, y)| crate::tui::testing::mouse(MouseEventKind::Moved, x, y)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_events_never_panic(
        events in prop::collection::vec(any_event(), 0..40),
        sizes in prop::collection::vec((1u16..120, 1u16..40), 1..4),
        seed in 0u64..1000,
    ) {
        let mut screen = ReversiScreen::new(
            [Side::Human, Side::Bot(Level::MIN)], Rules::default(), seed);
        let mut now = Instant::now();
        for (i, event) in events.iter().enumerate() {
            let (w, h) = sizes[i % sizes.len()];
            render(&mut screen, w, h, &Theme::dark());
            let mut ctx = Ctx::default();
            screen.handle(event, &mut ctx);
            now += BOT_PACE;
            screen.tick(now, &mut ctx);
            let _ = screen.status();
        }
    }
}
