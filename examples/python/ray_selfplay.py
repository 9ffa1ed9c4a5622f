"""Self-play and puzzle generation spread over a Ray cluster, reproducible task by task.

Each task is a pure function of ``(seed, index)``: task ``i`` plays its games with
``tabletop.sudoku.item_seed(seed, i)`` as its batch seed, so a task Ray retries on another
node returns exactly the same output, and the gathered summary equals a single-process
run with the same arguments (``--local``).

    python examples/python/ray_selfplay.py --tasks 8 --games 4              # a local Ray
    python examples/python/ray_selfplay.py --local --tasks 8 --games 4      # no Ray at all
    python examples/python/ray_selfplay.py --address auto ...               # a real cluster

On a real cluster, install the same ``tabletop`` wheel on every node (``pip install
./crates/tabletop-py``, or a ``runtime_env``), start Ray there (``ray start --head`` on one
machine, ``ray start --address=HEAD:6379`` on the others) and run the script on the head
with ``--address auto``. The output is a JSON summary on stdout.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from tabletop import nardy, sudoku


def selfplay_task(seed: int, index: int, games: int, white: str, black: str) -> dict:
    """One task's games: a dict of tallies and a digest of every game's save."""
    batch_seed = sudoku.item_seed(seed, index)
    played = nardy.play_games(white, black, games, seed=batch_seed)
    digest = hashlib.sha256(b"".join(g.to_bytes() for g in played)).hexdigest()
    points = {"white": 0, "black": 0}
    for g in played:
        o = g.outcome()
        if o.winner:
            points[o.winner] += o.points
    return {
        "index": index,
        "games": len(played),
        "points": points,
        "turns": sum(len(g.history()) for g in played),
        "digest": digest,
    }


def puzzle_task(seed: int, index: int, count: int, difficulty: str | None) -> dict:
    """One task's puzzles with their ratings."""
    batch = sudoku.generate_batch(count, seed=sudoku.item_seed(seed ^ 0x5EED, index), difficulty=difficulty)
    return {"index": index, "puzzles": [p for p in batch if p is not None]}


def summarise(selfplay: list[dict], puzzles: list[dict]) -> dict:
    selfplay = sorted(selfplay, key=lambda r: r["index"])
    puzzles = sorted(puzzles, key=lambda r: r["index"])
    all_puzzles = [p for r in puzzles for p in r["puzzles"]]
    return {
        "games": sum(r["games"] for r in selfplay),
        "points": {c: sum(r["points"][c] for r in selfplay) for c in ("white", "black")},
        "turns": sum(r["turns"] for r in selfplay),
        "digests": [r["digest"] for r in selfplay],
        "puzzles": len(all_puzzles),
        "mean_rating": round(sum(p[1] for p in all_puzzles) / max(1, len(all_puzzles)), 3),
        "puzzle_digest": hashlib.sha256(json.dumps(all_puzzles).encode()).hexdigest(),
    }


def run_local(args) -> dict:
    sp = [selfplay_task(args.seed, i, args.games, args.white, args.black) for i in range(args.tasks)]
    pz = [puzzle_task(args.seed, i, args.puzzles, args.difficulty) for i in range(args.tasks)]
    return summarise(sp, pz)


def run_ray(args, ray) -> dict:
    """The same tasks as Ray tasks, spread over the cluster's nodes; each also reports
    the node it ran on (``nodes_used`` in the summary)."""

    def on_node(fn):
        def run(*a):
            return fn(*a), ray.get_runtime_context().get_node_id()

        return ray.remote(max_retries=3, scheduling_strategy="SPREAD")(run)

    sp_remote, pz_remote = on_node(selfplay_task), on_node(puzzle_task)
    sp = ray.get([sp_remote.remote(args.seed, i, args.games, args.white, args.black) for i in range(args.tasks)])
    pz = ray.get([pz_remote.remote(args.seed, i, args.puzzles, args.difficulty) for i in range(args.tasks)])
    summary = summarise([r for r, _ in sp], [r for r, _ in pz])
    summary["nodes_used"] = len({node for _, node in sp + pz})
    return summary


def parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=int, default=8)
    ap.add_argument("--games", type=int, default=4, help="nardy games per task")
    ap.add_argument("--puzzles", type=int, default=4, help="sudoku puzzles per task")
    ap.add_argument("--difficulty", default=None)
    ap.add_argument("--white", default="greedy")
    ap.add_argument("--black", default="learned")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--local", action="store_true", help="run in this process, without Ray")
    ap.add_argument("--address", default=None, help="a Ray cluster's address (default: start a local Ray)")
    return ap


def main(argv=None):
    args = parser().parse_args(argv)
    if args.local:
        summary = run_local(args)
    else:
        import ray

        ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
        summary = run_ray(args, ray)
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
