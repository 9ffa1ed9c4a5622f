//! Tests of the battleship screen in battle: shots by keys and clicks, the computer's pace,
//! undo, whole games, the host's keys, settings and saves.

use std::time::{Duration, Instant};

use battleship_core::ai::Level;
use battleship_core::{Coord, Mark, Player, Rules};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::BattleshipScreen;
use super::placer::Button;
use super::tests::{
    SEED, battle, cell, click_button, click_cell, draw, game, go, hover, midgame,
    play_to_end_by_keys, screen_with, send, settle, ship, snake,
};
use crate::tui::testing::{ch, key, right_click, text};
use crate::tui::{Ctx, GameScreen, Handled, Theme};

// ------------------------------------------------------------------ battle input

#[test]
fn a_shot_by_key_and_by_click() {
    let mut s = battle(1, SEED);
    send(&mut s, key(KeyCode::Enter));
    assert_eq!(game(&s).history()[0].0, Player::First);
    assert_eq!(game(&s).history()[0].1, cell("a1"));
    settle(&mut s);
    let (handled, said) = click_cell(&mut s, false, cell("e5"));
    assert_eq!(handled, Handled::Yes);
    assert!(said.unwrap().starts_with("You: e5 "));
    assert!(
        game(&s)
            .history()
            .iter()
            .any(|&(p, c, _)| p == Player::First && c == cell("e5"))
    );
    // a cell shot already is refused, the turn is not lost
    settle(&mut s);
    let before = game(&s).history().len();
    let (_, said) = click_cell(&mut s, false, cell("e5"));
    assert_eq!(said.unwrap(), "Illegal: e5 was already shot at");
    assert_eq!(game(&s).history().len(), before);
}

#[test]
fn the_computer_shoots_at_a_readable_pace() {
    let mut s = battle(1, SEED);
    // find a miss (the turn passes)
    for c in snake() {
        go(&mut s, c);
        send(&mut s, key(KeyCode::Enter));
        if game(&s).side_to_move() == Player::Second {
            break;
        }
    }
    let shots = game(&s).history().len();
    let t0 = Instant::now();
    let mut ctx = Ctx::default();
    assert!(!s.tick(t0, &mut ctx));
    assert!(!s.tick(t0 + Duration::from_millis(300), &mut ctx));
    assert_eq!(game(&s).history().len(), shots);
    assert!(s.status().starts_with("Computer aiming"));
    let (_, said) = send(&mut s, key(KeyCode::Enter));
    assert_eq!(said.unwrap(), "Wait: the computer is shooting");
    assert!(s.tick(t0 + Duration::from_millis(500), &mut ctx));
    assert_eq!(game(&s).history().len(), shots + 1);
    assert!(ctx.take_message().unwrap().starts_with("Computer: "));
    // its last shot is highlighted on your grid
    let (_, last, _) = *game(&s).history().last().unwrap();
    let buffer = draw(&mut s);
    let (x, y) = s.layout.mine.unwrap().origin(last);
    assert_eq!(buffer[(x + 1, y)].style().fg, Theme::dark().last.fg);
}

#[test]
fn known_water_is_refused_and_undo_takes_back_your_shot_with_the_answers() {
    let mut s = battle(1, SEED);
    play_until_sunk(&mut s);
    let tracking = game(&s).view(Player::First).tracking();
    let water = Coord::from_index(
        tracking
            .water()
            .indices()
            .find(|&i| tracking.mark(Coord::from_index(i, 10)) == Mark::Water)
            .expect("water around the sunk ship"),
        10,
    );
    go(&mut s, water);
    let before = game(&s).history().len();
    let (_, said) = send(&mut s, key(KeyCode::Enter));
    assert_eq!(said.unwrap(), format!("{water} is known water"));
    assert_eq!(game(&s).history().len(), before);

    // miss somewhere so the computer answers, then undo all of it
    for c in snake() {
        if game(&s).view(Player::First).tracking().mark(c) == Mark::Unknown {
            go(&mut s, c);
            send(&mut s, key(KeyCode::Enter));
            if game(&s).side_to_move() == Player::Second {
                break;
            }
        }
    }
    settle(&mut s);
    let after = game(&s).history().to_vec();
    let mine = after
        .iter()
        .rposition(|&(p, _, _)| p == Player::First)
        .unwrap();
    s.undo(&mut Ctx::default());
    assert_eq!(game(&s).history(), &after[..mine]);
    s.redo(&mut Ctx::default());
    assert_eq!(game(&s).history(), &after[..]);
}

/// Shoots in snake order until an enemy ship is sunk.
fn play_until_sunk(s: &mut BattleshipScreen) {
    for c in snake() {
        go(s, c);
        send(s, key(KeyCode::Enter));
        settle(s);
        if !game(s).view(Player::First).tracking().sunk().is_empty() {
            return;
        }
    }
    panic!("no ship sunk");
}

#[test]
fn a_whole_game_with_keys_alone() {
    let mut s = screen_with(1, false, 11);
    send(&mut s, ch('a'));
    send(&mut s, key(KeyCode::Enter));
    play_to_end_by_keys(&mut s);
    let outcome = game(&s).outcome().expect("the game ends");
    let t = text(&draw(&mut s));
    let line = match outcome.winner {
        Player::First => format!("You win in {} shots!", outcome.shots),
        Player::Second => format!("The computer wins in {} shots.", outcome.shots),
    };
    assert!(t.contains(&line), "{t}");
    // the host's n starts again
    s.new_game(&mut Ctx::default());
    assert!(s.placement().is_some());
}

#[test]
fn a_whole_game_with_the_mouse_alone() {
    let mut s = screen_with(1, false, 12);
    // two ships by hand (one turned by right click), the rest with [auto] after [clear]
    hover(&mut s, cell("b2"));
    click_cell(&mut s, true, cell("b2"));
    draw(&mut s);
    let (x, y) = s.layout.mine.unwrap().origin(cell("j1"));
    send(&mut s, right_click(x, y));
    click_cell(&mut s, true, cell("j1"));
    assert_eq!(
        s.placement().unwrap().ships(),
        &[ship("b2 h 4"), ship("j1 v 3")]
    );
    click_button(&mut s, Button::Auto);
    click_button(&mut s, Button::Start);
    for c in snake() {
        if game(&s).is_over() {
            break;
        }
        if game(&s).view(Player::First).tracking().mark(c) == Mark::Unknown {
            click_cell(&mut s, false, c);
        }
        settle(&mut s);
    }
    assert!(game(&s).is_over());
    assert!(text(&draw(&mut s)).contains("Enemy fleet"));
}

// ------------------------------------------------------------------ host keys, settings, saves

#[test]
fn keys_the_host_owns_are_left_to_it() {
    let ctrl = |c| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    for placing in [true, false] {
        let mut s = if placing {
            screen_with(1, false, SEED)
        } else {
            battle(1, SEED)
        };
        for event in [
            ch('?'),
            key(KeyCode::F(1)),
            key(KeyCode::Esc),
            key(KeyCode::F(2)),
            ch('q'),
            ctrl('c'),
            ch('u'),
            ch('U'),
            ctrl('r'),
            ctrl('s'),
            ctrl('o'),
            ch('n'),
        ] {
            assert_eq!(send(&mut s, event.clone()).0, Handled::No, "{event:?}");
        }
    }
}

#[test]
fn settings_apply_from_the_next_game() {
    let mut s = screen_with(5, false, SEED);
    let choices = s.choices();
    assert_eq!(choices.len(), 4);
    assert_eq!(choices[1].values.len(), 5);
    let mut ctx = Ctx::default();
    s.choose(0, 1, &mut ctx);
    assert!(
        ctx.take_message()
            .unwrap()
            .contains("from the next new game")
    );
    s.choose(1, 1, &mut ctx);
    s.choose(3, 1, &mut ctx);
    s.choose(9, 9, &mut ctx); // out of range: ignored
    assert_eq!(s.rules, Rules::russian());
    assert!(s.title().contains("Russian rules"));
    s.new_game(&mut ctx);
    assert_eq!(s.rules, Rules::classic());
    assert!(s.title().contains("classic rules") && s.title().contains("hunt"));
    assert_eq!(s.placement().unwrap().missing(), vec![5, 4, 3, 3, 2]);
    assert_eq!(s.choices()[0].current, 1);
}

#[test]
fn saves_round_trip_and_bad_bytes_change_nothing() {
    let mut s = midgame();
    let bytes = s.save();
    let mut other = screen_with(1, false, 99);
    other.load(&bytes).expect("loads");
    assert_eq!(other.game(), s.game());
    assert_eq!(other.current.level, Level::new(3).unwrap());
    // a placement saves too, with the ships placed so far, which load into the placement
    let mut p = screen_with(1, false, SEED);
    send(&mut p, key(KeyCode::Enter));
    assert_eq!(p.placement().unwrap().ships().len(), 1);
    let bytes = p.save();
    other.load(&bytes).expect("loads");
    assert!(other.game().is_none());
    assert_eq!(other.placement(), p.placement());
    let err = s.load(b"TTBCjunk").unwrap_err();
    assert!(!err.is_empty());
    assert!(s.game().is_some());
    // the line mode's files are the same format: the table's
    assert!(s.save().starts_with(b"TTPL"));
    assert!(crate::battleship::load_save(&s.save(), Level::MIN).is_ok());
}
