//! Step-by-step play from arbitrary positions: the bytes build a position, dice and rules,
//! then choose steps (legal or not) and undos. Nothing panics, every accepted step keeps the
//! turn completable, and a completed turn is one of the generated turns.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_core::{BlockCheck, Color, Dice, HeadException, Position, Rules, Step, TurnBuilder};

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let (head, rest) = data.split_at(8);
    // A position from the bytes: each byte of `rest` (up to 30) drops one checker.
    let mut w = [0u8; 24];
    let mut b = [0u8; 24];
    let (placement, moves) = rest.split_at(rest.len().min(30));
    for (i, &x) in placement.iter().enumerate() {
        let point = usize::from(x % 24);
        let (mine, other) = if i % 2 == 0 {
            (&mut w, &b)
        } else {
            (&mut b, &w)
        };
        let total: u32 = mine.iter().map(|&n| u32::from(n)).sum();
        if other[point] == 0 && total < 15 {
            mine[point] += 1;
        }
    }
    if head[0] & 1 == 1 {
        w = [0; 24];
        w[23] = 15;
    }
    if head[0] & 2 == 2 {
        b = [0; 24];
        b[11] = 15;
        if w[11] > 0 {
            return;
        }
    }
    let turn = if head[1] & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let Ok(p) = Position::from_boards(w, b, turn) else {
        return;
    };
    let Ok(dice) = Dice::new(head[2] % 6 + 1, head[3] % 6 + 1) else {
        return;
    };
    let rules = Rules {
        head_exception: if head[4] & 1 == 0 {
            HeadException::Strict
        } else {
            HeadException::AnyBlockedDouble
        },
        block_check: if head[5] & 1 == 0 {
            BlockCheck::EveryStep
        } else {
            BlockCheck::EndOfTurn
        },
        ..Rules::default()
    };
    let legal = p.legal_moves_with_results(dice, &rules);
    let mut builder = TurnBuilder::new(p, dice, rules);
    for pair in moves.chunks(2) {
        if pair[0] == 0xFF {
            builder.undo();
            continue;
        }
        let steps = builder.legal_steps();
        let step = if pair[0] & 0x80 == 0 && !steps.is_empty() {
            steps[usize::from(pair[0]) % steps.len()]
        } else {
            let from = pair[0] % 24 + 1;
            let to = pair.get(1).map_or(0, |&t| t % 25);
            match Step::new(from, (to != 0).then_some(to)) {
                Ok(s) => s,
                Err(_) => continue,
            }
        };
        let accepted = builder.play(step).is_ok();
        if steps.contains(&step) {
            assert!(accepted, "a listed step was refused");
        }
        if accepted {
            assert!(builder.is_complete() || !builder.legal_steps().is_empty());
        }
        if builder.is_complete() {
            let result = builder.result().expect("complete");
            assert!(legal.iter().any(|(_, r)| *r == result));
        }
    }
});
