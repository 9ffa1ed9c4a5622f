//! Tests of the nardy screen in play: the bot's turns shown step by step, undo and redo,
//! forced passes, bearing off, hints, the menu, saves and whole games.

use crossterm::event::KeyCode;
use nardy_core::{Position, Scoring};
use tabletop_play::Player;

use super::tests::{Driver, settings, snapshot};
use super::*;
use crate::tui::testing::{ch, key, text};

#[test]
fn the_bot_turn_is_shown_step_by_step() {
    let mut d = Driver::new(0);
    let mut ctx = Ctx::default();
    d.s.play_step(24, Some(21), &mut ctx);
    d.s.play_step(21, Some(19), &mut ctx);
    assert_eq!(d.mover(), Color::Black);
    let dice = d.s.game().dice().to_play().len();
    d.tick(10);
    d.tick(300);
    assert!(d.s.anim.is_none(), "the bot waits before its first step");
    d.tick(300);
    let mut shown = Vec::new();
    for _ in 0..100 {
        if d.s.game().history().len() == 2 {
            break;
        }
        if let Some(a) = &d.s.anim {
            shown.push(a.builder.played().len());
        }
        d.tick(100);
    }
    let bot = &d.s.game().history()[1];
    assert_eq!(bot.color, Color::Black);
    // Each step stays on screen for five ticks of 100 ms.
    let steps = bot.mv.steps().len();
    assert!(steps <= dice);
    for k in 1..=steps {
        let n = shown.iter().filter(|&&s| s == k).count();
        assert!((4..=6).contains(&n), "step {k} shown {n} times: {shown:?}");
    }
}

#[test]
fn undo_takes_back_the_turn_and_the_reply_and_redo_replays_them() {
    let mut d = Driver::new(0);
    d.play_until(2, Driver::step_by_keys);
    let game = d.s.game().clone();
    assert_eq!(game.history().len(), 2);
    let mut ctx = Ctx::default();
    d.s.undo(&mut ctx);
    assert!(d.s.game().history().is_empty());
    assert_eq!(d.s.game().dice(), Driver::new(0).s.game().dice());
    assert!(d.s.builder.is_some());
    d.s.redo(&mut ctx);
    assert_eq!(*d.s.game(), game);
    // A step in progress is taken back first, then whole turns.
    d.step_by_keys();
    d.s.undo(&mut ctx);
    assert!(d.played().is_empty());
    assert_eq!(*d.s.game(), game);
}

#[test]
fn keys_are_handled_while_the_bot_thinks_and_undo_drops_its_answer() {
    use std::sync::{Arc, Barrier};
    let mut d = Driver::new(0);
    d.play_until(2, Driver::step_by_keys);
    let mut ctx = Ctx::default();
    d.s.undo(&mut ctx);
    while d.s.game().history().is_empty() {
        d.step_by_keys();
    }
    assert!(d.s.builder.is_none(), "the bot is to move");
    // Hold the worker so the bot's thinking is surely still pending below.
    let gate = Arc::new(Barrier::new(2));
    let g = Arc::clone(&gate);
    d.s.thinker.run(move |_| {
        g.wait();
    });
    let rng = d.s.bot_rng.clone();
    d.s.tick(d.now, &mut ctx);
    assert!(d.s.thinking());
    assert!(d.s.status().ends_with("thinking…"), "{}", d.s.status());
    assert_eq!(
        d.send(key(KeyCode::Esc)),
        Handled::No,
        "the host gets its keys"
    );
    let cursor = d.s.cursor;
    d.send(key(KeyCode::Left));
    assert_ne!(d.s.cursor, cursor, "the cursor moves while the bot thinks");
    d.s.undo(&mut ctx);
    assert!(!d.s.thinking(), "undo drops the pending answer");
    assert!(d.s.game().history().is_empty() && d.s.builder.is_some());
    gate.wait();
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(20));
        d.tick(1000);
    }
    assert!(
        d.s.game().history().is_empty(),
        "the stale answer was not played"
    );
    assert_eq!(d.s.bot_rng, rng, "nor its generator adopted");
}

#[test]
fn a_forced_pass_is_announced_and_played() {
    // White's only checkers are on the head, behind five black points: only a 6 moves.
    let position: Position = "24:15/23:3,22:3,21:3,20:3,19:3 w".parse().unwrap();
    let game = (0..100)
        .map(|seed| Game::from_position(Rules::default(), position, seed).unwrap())
        .find(Game::must_pass)
        .expect("a roll without a 6");
    let mut d = Driver::with(NardyScreen::with_game(settings(0), game));
    assert!(d.s.builder.is_none());
    d.tick(10);
    assert!(
        d.last_message()
            .ends_with("has no legal move: the turn passes")
    );
    d.send(key(KeyCode::Enter));
    assert!(d.last_message().ends_with("the turn passes"));
    d.tick(1000);
    assert!(d.s.game().history()[0].mv.is_pass());
}

#[test]
fn a_forced_pass_after_a_persons_turn_is_shown_from_the_tables_events() {
    // White primes 11 to 7: Black, all on its head (12), moves with a 6 only.
    let position: Position = "11:3,10:3,9:3,8:3,7:3/12:15 w".parse().unwrap();
    let (game, mv) = (0..200)
        .find_map(|seed| {
            let game = Game::from_position(Rules::default(), position, seed).unwrap();
            let mv = game.legal_moves()[0].clone();
            let mut after = game.clone();
            after.play(&mv).unwrap();
            after.must_pass().then_some((game, mv))
        })
        .expect("a reply without a 6");
    let mut d = Driver::with(NardyScreen::with_game(settings(0), game));
    let mut ctx = Ctx::default();
    for step in mv.steps() {
        d.s.play_step(step.from(), step.to(), &mut ctx);
    }
    // The table has played Black's pass; the screen shows it before White's next turn.
    assert_eq!(d.s.table.game().game().history().len(), 2);
    assert_eq!(d.s.game().history().len(), 1);
    assert!(d.s.builder.is_none());
    d.tick(10);
    assert!(
        d.last_message().starts_with("Black rolls ")
            && d.last_message()
                .ends_with("has no legal move: the turn passes"),
        "{}",
        d.last_message()
    );
    d.tick(1000);
    assert!(d.s.game().history()[1].mv.is_pass());
    assert!(d.s.builder.is_some(), "White is to move again");
}

#[test]
fn bearing_off_by_the_tray_and_by_key() {
    let position: Position = "6:3,5:3,4:3,3:3,2:3/12:15 w".parse().unwrap();
    let game = Game::from_position(Rules::default(), position, 0).unwrap();
    let mut d = Driver::with(NardyScreen::with_game(settings(0), game));
    let b = d.s.builder.clone().unwrap();
    let off: Vec<Step> = b
        .legal_steps()
        .into_iter()
        .filter(|s| s.is_bear_off())
        .collect();
    assert!(!off.is_empty(), "{}", b.dice());
    let from = off[0].from();
    d.key_to(Spot::Point(from));
    d.send(key(KeyCode::Enter));
    assert!(d.s.targets().contains(&0));
    d.key_to(Spot::Tray(Color::White));
    d.send(key(KeyCode::Enter));
    assert_eq!(d.s.shown_position().borne_off(Color::White), 1);
    // The second die by `o` on the cursor's checker, or the game's next turn.
    d.send(key(KeyCode::Backspace));
    d.key_to(Spot::Point(from));
    d.send(ch('o'));
    assert_eq!(d.s.shown_position().borne_off(Color::White), 1);
}

#[test]
fn hints_rank_every_legal_turn() {
    let mut d = Driver::new(0);
    d.send(ch('t'));
    let hints = d.s.hints.as_ref().expect("hints");
    assert_eq!(hints.ranked.len(), d.s.info.moves);
    assert_eq!(hints.ranked[0].loss, 0.0);
    assert!(hints.ranked.windows(2).all(|w| w[0].loss <= w[1].loss));
    let best = hints.ranked[0].mv.to_string();
    let t = text(&d.draw());
    assert!(t.contains("Hints (greedy): "), "{t}");
    assert!(t.contains(&format!("  1. {best:<24}")), "{t}");
    d.send(ch('t'));
    assert!(d.s.hints.is_none());
}

#[test]
fn menu_choices_apply_players_now_and_rules_next_game() {
    let mut d = Driver::new(0);
    let choices = d.s.choices();
    assert_eq!(choices[0].label, "White");
    assert_eq!(choices[0].current, 0);
    assert_eq!(choices[1].values[choices[1].current], "bot: random (1)");
    let mut ctx = Ctx::default();
    // White becomes a bot at once: the turn goes to the bot.
    d.s.choose(0, 3, &mut ctx);
    assert_eq!(d.s.settings.white, Level::new(3));
    assert!(d.s.builder.is_none());
    d.s.choose(0, 0, &mut ctx);
    assert!(d.s.builder.is_some());
    d.s.choose(5, 1, &mut ctx);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("Rules changed: they apply from the next game (n)")
    );
    assert_eq!(d.s.game().rules().scoring, Scoring::Standard);
    d.s.new_game(&mut ctx);
    assert_eq!(d.s.game().rules().scoring, Scoring::WithKoks);
    assert_eq!(d.s.choices()[5].current, 1);
}

#[test]
fn save_and_load_round_trip() {
    let mut d = Driver::new(0);
    d.play_until(5, Driver::step_by_keys);
    let bytes = d.s.save();
    let mut other = NardyScreen::new(settings(9));
    other.load(&bytes).unwrap();
    assert_eq!(other.game(), d.s.game());
    assert!(other.load(b"not a save").is_err());
    assert_eq!(other.game(), d.s.game());
}

#[test]
fn a_save_holds_the_steps_of_the_turn_in_progress_and_engine_saves_load() {
    let mut d = Driver::new(0);
    d.play_until(3, Driver::step_by_keys);
    d.step_by_keys();
    assert_eq!(d.played().len(), 1);
    let bytes = d.s.save();
    let mut other = NardyScreen::new(settings(9));
    other.load(&bytes).unwrap();
    assert_eq!(other.table, d.s.table);
    assert_eq!(other.builder.as_ref().map(|b| b.played().len()), Some(1));
    // The engine's own save (whole turns) loads too, as a table at its state.
    other.load(&d.s.game().to_bytes()).unwrap();
    assert_eq!(other.game(), d.s.game());
    assert!(
        other
            .builder
            .as_ref()
            .is_some_and(|b| b.played().is_empty())
    );
    assert_eq!(other.table.players(), [Player::Human, Player::Bot(1)]);
}

#[test]
fn redo_is_refused_while_steps_are_played_and_changes_nothing() {
    let mut d = Driver::new(0);
    d.play_until(2, Driver::step_by_keys);
    let mut ctx = Ctx::default();
    d.s.undo(&mut ctx);
    d.step_by_keys();
    let table = d.s.table.clone();
    d.s.redo(&mut ctx);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("Take back the steps of this turn before redoing")
    );
    assert_eq!(d.s.table, table);
    // Backspace is the table's undo of one step; then redo replays both turns.
    d.send(key(KeyCode::Backspace));
    d.s.redo(&mut ctx);
    assert!(ctx.take_message().unwrap().starts_with("Replayed: White "));
    assert_eq!(d.s.game().history().len(), 2);
}

#[test]
fn mid_game_screen() {
    let mut d = Driver::new(0);
    d.play_until(30, Driver::step_by_keys);
    let buffer = d.draw();
    let t = text(&buffer);
    assert!(t.contains("last: Black"), "{t}");
    snapshot("nardy_mid_game", &buffer);
}

#[test]
fn a_whole_game_with_keys_alone() {
    let mut d = Driver::new(0);
    let steps = d.play_until(usize::MAX, Driver::step_by_keys);
    let outcome = d.s.game().outcome().expect("over");
    assert!(steps > 30);
    let buffer = d.draw();
    let t = text(&buffer);
    assert!(t.contains(&format!("{outcome}.")), "{t}");
    assert!(d.s.status().contains("n: new game"));
    snapshot("nardy_game_over", &buffer);
    // Game over: Enter says so; `n` (the host) starts the next game.
    d.send(key(KeyCode::Enter));
    assert!(d.last_message().ends_with("Press n for a new game."));
    d.s.new_game(&mut Ctx::default());
    assert!(d.s.game().outcome().is_none());
}

#[test]
fn a_whole_game_with_the_mouse_alone() {
    let mut d = Driver::new(2);
    let steps = d.play_until(usize::MAX, Driver::step_by_clicks);
    assert!(steps > 30);
    assert!(d.s.game().outcome().is_some());
}

#[test]
fn title_and_status() {
    let d = Driver::new(0);
    assert_eq!(d.s.title(), "Long Nardy · White: you · Black: bot (random)");
    assert_eq!(d.s.status(), "White (you) to play 3-2 · pips W 360 B 360");
    assert!(!d.s.keys().is_empty());
    assert_eq!(d.s.save_name(), "nardy.save");
    assert!(!d.s.in_progress());
    let mut both = settings(0);
    both.black = None;
    let s = NardyScreen::new(both);
    assert_eq!(s.title(), "Long Nardy · White: human · Black: human");
}
