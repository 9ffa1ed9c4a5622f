//! Golden tests: every example of the spec, and a hand-built position for each rule.

use nardy_core::{
    BlockCheck, Color, Dice, HeadException, Move, Opening, Position, Rules, TurnBuilder, perft,
};

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn dice(a: u8, b: u8) -> Dice {
    Dice::new(a, b).unwrap()
}

/// The resulting positions of every legal turn, as strings, sorted.
fn results(p: &str, d: Dice, rules: &Rules) -> Vec<String> {
    let mut v: Vec<String> = pos(p)
        .legal_moves_with_results(d, rules)
        .into_iter()
        .map(|(_, r)| r.to_string())
        .collect();
    v.sort();
    v
}

/// The result of playing `turn`, checked against the generated list.
fn play(p: &str, d: Dice, turn: &str, rules: &Rules) -> String {
    let t: Move = turn.parse().unwrap();
    let mut r = pos(p);
    r.play(d, &t, rules)
        .unwrap_or_else(|e| panic!("{turn} in {p}: {e}"));
    r.to_string()
}

fn fed() -> Rules {
    Rules::default()
}

// ---- The spec's examples -------------------------------------------------------------

#[test]
fn start_3_1_only_24_21_20() {
    let r = results("24:15/12:15 w", dice(3, 1), &fed());
    assert_eq!(r, ["24:14,20:1/12:15 b"]);
    assert_eq!(play("24:15/12:15 w", dice(3, 1), "24/21/20", &fed()), r[0]);
}

#[test]
fn start_6_6_two_sixes_from_the_head() {
    let r = results("24:15/12:15 w", dice(6, 6), &fed());
    assert_eq!(r, ["24:13,18:2/12:15 b"]);
    let turns = pos("24:15/12:15 w").legal_moves(dice(6, 6), &fed());
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].steps().len(), 2, "only two sixes can be played");
}

#[test]
fn start_3_3_two_turns() {
    let r = results("24:15/12:15 w", dice(3, 3), &fed());
    assert_eq!(r, ["24:13,18:2/12:15 b", "24:13,21:1,15:1/12:15 b"]);
    assert_eq!(play("24:15/12:15 w", dice(3, 3), "24/18(2)", &fed()), r[0]);
    assert_eq!(
        play("24:15/12:15 w", dice(3, 3), "24/21 24/15", &fed()),
        r[1]
    );
}

#[test]
fn the_two_must_be_played_first() {
    let p = "10:1,1:14/12:14,7:1 w";
    let r = results(p, dice(3, 2), &fed());
    assert_eq!(r, ["5:1,1:14/12:14,7:1 b"]);
    assert_eq!(play(p, dice(3, 2), "10/8/5", &fed()), r[0]);
    assert!(
        pos(p)
            .play(dice(3, 2), &"10/7/5".parse().unwrap(), &fed())
            .is_err()
    );
}

#[test]
fn one_die_only_so_the_higher() {
    let p = "10:1,1:14/12:14,4:1 w";
    assert_eq!(results(p, dice(4, 2), &fed()), ["6:1,1:14/12:14,4:1 b"]);
    assert!(
        pos(p)
            .play(dice(4, 2), &"10/8".parse().unwrap(), &fed())
            .is_err()
    );
}

#[test]
fn bear_off_exact_or_move_inside() {
    let p = "8:1,6:14/12:15 w";
    let r = results(p, dice(6, 2), &fed());
    assert_eq!(r, ["6:13,4:1,2:1/12:15 b", "6:14/12:15 b"]);
    assert_eq!(play(p, dice(6, 2), "8/2 6/4", &fed()), r[0]);
    assert_eq!(play(p, dice(6, 2), "8/6 6/off", &fed()), r[1]);
    assert_eq!(play(p, dice(6, 2), "8/2 2/off", &fed()), r[1]);
}

#[test]
fn larger_die_only_from_the_highest_point() {
    let p = "5:1,3:14/12:15 w";
    let r = results(p, dice(4, 1), &fed());
    assert_eq!(r, ["3:13,2:1,1:1/12:15 b", "3:14/12:15 b"]);
    assert_eq!(play(p, dice(4, 1), "5/1 1/off", &fed()), r[1]);
    assert_eq!(play(p, dice(4, 1), "5/4 4/off", &fed()), r[1]);
    assert_eq!(play(p, dice(4, 1), "5/1 3/2", &fed()), r[0]);
    assert!(
        pos(p)
            .play(dice(4, 1), &"3/off 5/4".parse().unwrap(), &fed())
            .is_err()
    );
}

#[test]
fn notation_examples() {
    assert_eq!(Position::start().to_string(), "24:15/12:15 w");
    let t: Move = "24/18 18/13".parse().unwrap();
    assert_eq!(t.to_string(), "24/18 18/13");
    assert_eq!("3/off".parse::<Move>().unwrap().to_string(), "3/off");
}

// ---- Hand-built positions, one per rule ----------------------------------------------

/// Whether `color` holds six or more points in a row along the opponent's route with no
/// opposing checker ahead (and the opponent has borne nothing off) — written independently
/// of the engine, in absolute points.
fn illegal_block(p: &Position, color: Color) -> bool {
    let opp = color.other();
    if p.borne_off(opp) > 0 {
        return false;
    }
    // The opponent's route as absolute points, from its head to its last home point.
    let route: Vec<u8> = match opp {
        Color::White => (1..=24).rev().collect(),
        Color::Black => (1..=12).rev().chain((13..=24).rev()).collect(),
    };
    let mut run = 0;
    for (i, &pt) in route.iter().enumerate() {
        if p.count(color, pt) > 0 {
            run += 1;
            if run >= 6 {
                // Any opposing checker further along the route than the run's end?
                let ahead = route[i + 1..].iter().any(|&q| p.count(opp, q) > 0);
                let end = route[i + 1..]
                    .iter()
                    .take_while(|&&q| p.count(color, q) > 0)
                    .count();
                let ahead_of_whole = route[i + 1 + end..].iter().any(|&q| p.count(opp, q) > 0);
                let _ = ahead;
                if !ahead_of_whole {
                    return true;
                }
            }
        } else {
            run = 0;
        }
    }
    false
}

#[test]
fn block_at_the_wrap_counts_for_black() {
    // White holds 24, 23, 22, 2, 1; 5/3 would make 3-2-1-24-23-22, six in a row on Black's
    // route, with every Black checker behind it.
    let p = "24:5,23:2,22:2,5:2,2:2,1:2/12:15 w";
    let all = pos(p).legal_moves_with_results(dice(2, 1), &fed());
    assert!(!all.is_empty());
    for (t, r) in &all {
        assert!(
            r.count(Color::White, 3) == 0
                || r.count(Color::White, 24) == 0
                || r.count(Color::White, 1) == 0,
            "{t} builds the wrap block"
        );
        assert!(!illegal_block(r, Color::White), "{t}");
    }
    // With a Black checker already past the run (on 15), the same step is fine.
    let q = "24:5,23:2,22:2,5:2,2:2,1:2/15:1,12:14 w";
    let holds_run = |r: &String| {
        let r = pos(r);
        [3, 2, 1, 24, 23, 22]
            .iter()
            .all(|&pt| r.count(Color::White, pt) > 0)
    };
    assert!(results(q, dice(2, 1), &fed()).iter().any(holds_run));
    assert!(!results(p, dice(2, 1), &fed()).iter().any(holds_run));
}

#[test]
fn white_14_to_9_is_not_a_block_but_black_14_to_9_is() {
    // White holds 14..10 and moves a checker to 9: on Black's route these points are
    // 2, 1, 24, 23, 22, 21 — not a run.
    let p = "24:8,15:1,14:2,13:1,12:1,11:1,10:1/20:15 w";
    let r = results(p, dice(6, 5), &fed());
    assert!(r.iter().any(|s| pos(s).count(Color::White, 9) > 0), "{r:?}");
    // Black holds 14, 13, 12, 11, 10; a step to 9 makes six in a row on White's route with
    // every White checker behind (on 24 and 20).
    let b = "24:14,20:1/16:1,14:2,13:2,12:8,11:1,10:1 b";
    let holds_run = |r: &Position| (9..=14).all(|pt| r.count(Color::Black, pt) > 0);
    for (t, res) in pos(b).legal_moves_with_results(dice(1, 3), &fed()) {
        assert!(!illegal_block(&res, Color::Black), "{t}");
        assert!(!holds_run(&res), "{t}");
    }
    // Once White has borne a checker off, blocks are allowed.
    let off = "24:13,20:1/16:1,14:2,13:2,12:8,11:1,10:1 b";
    assert!(
        pos(off)
            .legal_moves_with_results(dice(1, 3), &fed())
            .iter()
            .any(|(_, r)| holds_run(r))
    );
}

#[test]
fn transient_block_under_both_block_checks() {
    // 23/21 completes 21..16 (six for Black's route, nobody ahead); 21/20 breaks it again.
    // The other order, 23/22, is closed by Black.
    let p = "24:9,23:1,20:1,19:1,18:1,17:1,16:1/22:1,12:14 w";
    let target = "24:9,20:2,19:1,18:1,17:1,16:1/22:1,12:14 b".to_string();
    let every = results(p, dice(2, 1), &fed());
    assert!(!every.contains(&target), "{every:?}");
    let end = Rules {
        block_check: BlockCheck::EndOfTurn,
        ..fed()
    };
    let at_end = results(p, dice(2, 1), &end);
    assert!(at_end.contains(&target), "{at_end:?}");
    assert_eq!(play(p, dice(2, 1), "23/21 21/20", &end), target);
    assert!(
        pos(p)
            .play(dice(2, 1), &"23/21 21/20".parse().unwrap(), &fed())
            .is_err()
    );
    // A block left at the end of the turn is illegal under both.
    for r in every.iter().chain(at_end.iter()) {
        assert!(!illegal_block(&pos(r), Color::White), "{r}");
    }
}

#[test]
fn higher_die_unplayable_so_the_lower() {
    // 10/6 is closed; 10/8 is legal but 8/4 is closed: only the 2 can be played.
    let p = "10:1,1:14/12:13,6:1,4:1 w";
    assert_eq!(results(p, dice(4, 2), &fed()), ["8:1,1:14/12:13,6:1,4:1 b"]);
}

#[test]
fn last_checker_comes_home_and_bears_off() {
    let p = "8:1,3:14/12:15 w";
    let r = results(p, dice(5, 3), &fed());
    assert_eq!(r, ["3:14/12:15 b"]);
    assert_eq!(play(p, dice(5, 3), "8/3 3/off", &fed()), r[0]);
    assert_eq!(play(p, dice(5, 3), "8/5 5/off", &fed()), r[0]);
}

#[test]
fn bearing_off_is_never_compulsory() {
    let p = "6:1,2:14/12:15 w";
    let r = results(p, dice(2, 1), &fed());
    assert!(r.contains(&"3:1,2:14/12:15 b".to_string()), "{r:?}");
    assert!(r.contains(&"5:1,2:13/12:15 b".to_string()), "{r:?}");
    assert!(r.contains(&"6:1,2:12,1:1/12:15 b".to_string()), "{r:?}");
}

#[test]
fn winning_ends_the_turn() {
    let p = "2:1,1:1/12:15 w";
    let turns = pos(p).legal_moves_with_results(dice(1, 1), &fed());
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].1.to_string(), "-/12:15 b");
    assert_eq!(turns[0].1.finished(), Some(Color::White));
    assert_eq!(turns[0].0.steps().len(), 3, "the fourth die is ignored");
    let single = pos("1:1/12:15 w").legal_moves(dice(6, 5), &fed());
    assert_eq!(single.len(), 1);
    assert_eq!(single[0].to_string(), "1/off");
}

#[test]
fn forced_pass() {
    let p = "24:1,1:14/23:1,22:1,21:1,20:1,19:1,18:1,12:9 w";
    let turns = pos(p).legal_moves(dice(6, 5), &fed());
    assert_eq!(turns.len(), 1);
    assert!(turns[0].is_pass());
    assert_eq!(
        play(p, dice(6, 5), "pass", &fed()),
        "24:1,1:14/23:1,22:1,21:1,20:1,19:1,18:1,12:9 b"
    );
    let b = TurnBuilder::new(pos(p), dice(6, 5), fed());
    assert!(b.is_complete());
    assert_eq!(b.finish().unwrap(), Move::pass());
}

#[test]
fn one_checker_from_the_head_after_the_first_turn() {
    let p = "24:14,20:1/12:15 w";
    for (t, r) in pos(p).legal_moves_with_results(dice(2, 2), &fed()) {
        assert!(r.count(Color::White, 24) >= 13, "{t}");
    }
    for (t, r) in pos(p).legal_moves_with_results(dice(6, 5), &fed()) {
        assert!(r.count(Color::White, 24) >= 13, "{t}");
    }
}

#[test]
fn head_exception_variants() {
    // White went 24/4 with 5-5; Black's 2-2 runs into White's checker on 4 after three
    // steps. Strict: 2-2 takes one checker from the head (three dice); any-blocked-double:
    // two checkers, all four dice.
    let p = "24:14,4:1/12:15 b";
    assert_eq!(results(p, dice(2, 2), &fed()), ["24:14,4:1/12:14,6:1 w"]);
    let any = Rules {
        head_exception: HeadException::AnyBlockedDouble,
        ..fed()
    };
    assert_eq!(
        results(p, dice(2, 2), &any),
        ["24:14,4:1/12:13,10:1,6:1 w", "24:14,4:1/12:13,8:2 w"]
    );
    // The exception is used only when it lets more dice be played.
    assert_eq!(
        results("24:15/12:15 w", dice(2, 2), &any),
        ["24:14,16:1/12:15 b"]
    );
    assert_eq!(
        results("24:15/12:15 w", dice(5, 5), &any),
        ["24:14,4:1/12:15 b"]
    );
    // 4-4 for Black blocked by White on 4 (Black's 16): two from the head under both.
    let r = results(p, dice(4, 4), &fed());
    assert_eq!(r, ["24:14,4:1/12:13,8:2 w"]);
}

#[test]
fn perft_from_a_custom_position_and_the_start() {
    let reroll = Rules {
        opening: Opening::Reroll,
        ..fed()
    };
    assert_eq!(perft(&Position::start(), 1, &reroll), 22);
    // Black to move at the start is symmetric to White.
    assert_eq!(
        perft(
            &Position::start().with_side_to_move(Color::Black),
            2,
            &reroll
        ),
        484
    );
    // A lone checker each: 21 rolls, one turn per roll.
    assert_eq!(perft(&pos("1:1/13:1 w"), 1, &fed()), 21);
}
