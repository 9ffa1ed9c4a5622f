"""Steps per second of random playouts, Tabletop against OpenSpiel, side by side.

Run in a throwaway venv that has the tabletop wheel and, to compare, ``open_spiel``,
``shimmy`` and ``pettingzoo`` (none of them is a dependency of the package)::

    python bench/bench_steps.py --seconds 5

Each measurement plays whole random games (uniform over the legal actions) for about
``--seconds`` and prints steps/s; one core, one process.
"""

import argparse
import random
import time

import numpy as np


def timed(fn, seconds):
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += fn()
    return steps / (time.perf_counter() - start)


def tabletop_reversi_raw(rng):
    from tabletop import reversi

    def game():
        p = reversi.Position()
        n = 0
        while not p.is_over():
            p = p.after(rng.choice(p.legal_moves()))
            n += 1
        return n

    return game


def tabletop_state(kind, rng):
    from tabletop._tabletop import envs

    def game():
        s = envs.ReversiState() if kind == "reversi" else envs.NardyState(rng.randrange(2**63))
        n = 0
        while not s.is_over:
            legal = np.flatnonzero(s.action_mask())
            s.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n

    return game


def aec(env, rng):
    def game():
        env.reset(seed=rng.randrange(2**31))
        n = 0
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            # shimmy's OpenSpiel environments give the mask in info
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n

    return game


def vector(kind, num_envs, rng, numpy_policy=False):
    """Steps every game of a VectorEnv with random legal actions: drawn by the batch
    itself (``random_actions``), or with NumPy from the returned masks."""
    from tabletop.envs import VectorEnv

    v = VectorEnv(kind, num_envs, seed=1)
    _, mask = v.observe()
    gen = np.random.default_rng(1)

    def batch():
        nonlocal mask
        for _ in range(50):
            if numpy_policy:
                actions = (gen.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1).astype(np.int64)
            else:
                actions = v.random_actions()
            _, mask, _, _, _ = v.step(actions)
        return 50 * num_envs

    return batch


def pyspiel_raw(name, rng):
    import pyspiel

    g = pyspiel.load_game(name)

    def game():
        s = g.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(np.random.choice(outcomes, p=probs))
            else:
                la = s.legal_actions()
                s.apply_action(la[rng.randrange(len(la))])
                n += 1
        return n

    return game


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--num-envs", type=int, default=1024)
    ap.add_argument("--no-openspiel", action="store_true")
    args = ap.parse_args()
    rng = random.Random(1)
    rows = []

    def run(label, fn):
        rate = timed(fn, args.seconds)
        rows.append((label, rate))
        print(f"{label:<58} {rate:>12,.0f} steps/s", flush=True)

    from tabletop.envs import long_nardy_v0, random_playouts, reversi_v0

    run("tabletop reversi: Position.legal_moves/after loop", tabletop_reversi_raw(rng))
    run("tabletop reversi: ReversiState mask/step loop", tabletop_state("reversi", rng))
    run("tabletop reversi_v0: PettingZoo AEC (env())", aec(reversi_v0.env(), rng))
    run(f"tabletop reversi: VectorEnv x{args.num_envs}, random_actions", vector("reversi", args.num_envs, rng))
    run(f"tabletop reversi: VectorEnv x{args.num_envs}, NumPy policy", vector("reversi", args.num_envs, rng, True))
    run("tabletop reversi: random_playouts (all in Rust)", lambda: random_playouts("reversi", 200, rng.randrange(2**63)))
    run("tabletop long nardy: NardyState mask/step loop", tabletop_state("nardy", rng))
    run("tabletop long_nardy_v0: PettingZoo AEC (env())", aec(long_nardy_v0.env(), rng))
    run(f"tabletop long nardy: VectorEnv x{args.num_envs}, random_actions", vector("long_nardy", args.num_envs, rng))
    run("tabletop long nardy: random_playouts (all in Rust)", lambda: random_playouts("long_nardy", 20, rng.randrange(2**63)))
    if not args.no_openspiel:
        from pettingzoo.classic import connect_four_v3
        from shimmy import OpenSpielCompatibilityV0

        run("open_spiel othello: pyspiel legal_actions/apply_action", pyspiel_raw("othello", rng))
        run("open_spiel othello: shimmy OpenSpielCompatibilityV0 AEC", aec(OpenSpielCompatibilityV0(game_name="othello"), rng))
        run("pettingzoo connect_four_v3 AEC", aec(connect_four_v3.env(), rng))
        run("open_spiel backgammon: pyspiel legal_actions/apply_action", pyspiel_raw("backgammon", rng))


if __name__ == "__main__":
    main()
