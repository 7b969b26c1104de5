"""``sleuth next`` as a whole process, the current tree against a git revision, in the same run.

Usage: ``.venv/bin/python benchmarks/next.py [--against REV] [--games N] [--states N]``.

The states are records of simulated games cut after some of their events: Goldraub games as
played at a table (``goldraub.simulate.table_game``, 5 and 6 players), and 5-player Lima games
(``lima.simulate.simulate``) asked with ``--roll`` and ``--pistol``. Each state runs ``sleuth
next --json`` once in each tree, the two in turn (which goes first alternates), each in its own
process with ``PYTHONPATH`` set to its tree (as ``compare.py``), after a first command in each
tree that is not counted (numba's cache). Each row prints the median, the slowest and the
median ratio new/old of the wall times, and the medians and ratio of the processes' CPU times
(steadier on a shared machine); the JSON outputs are checked to agree.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import worktree  # noqa: E402

from sleuth.games.goldraub.simulate import table_game  # noqa: E402
from sleuth.games.lima.simulate import simulate as lima_game  # noqa: E402

SLEUTH = Path(sys.executable).with_name("sleuth")
ROLL = ["--roll", "SW-beach,N-wild,E-beach", "--pistol"]


def cut(doc: dict, events: int) -> dict:
    """The record after its first ``events`` events."""
    return doc | {"events": doc["events"][:events]}


def states(game: str, players: int, games: int, per: int) -> list[dict]:
    """``per`` states of each of ``games`` simulated games, evenly through each game."""
    out = []
    for seed in range(games):
        if game == "goldraub":
            doc = table_game(players, 4, seed)[0]
        else:
            doc = lima_game(players, 4 * players, seed)[0]
        n = len(doc["events"])
        out += [cut(doc, round(n * (k + 1) / (per + 1))) for k in range(per)]
    return out


def timed(tree: Path, path: Path, extra: list[str]) -> tuple[float, float, object]:
    """One ``sleuth next --json`` of the record in ``tree``: wall and CPU seconds, its options."""
    env = os.environ | {"PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [str(SLEUTH), "next", "--json", "--file", str(path), *extra],
        capture_output=True, text=True, env=env, check=False,
    )
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode not in (0, 3):
        raise SystemExit(f"{tree}: exit {done.returncode}: {done.stderr.strip()}")
    options = json.loads(done.stdout)["options"]
    key = ("space", "row", "to", "range", "terrain", "secret")
    return took, cpu, {tuple(o.get(k) for k in key): o for o in options}


def same(a, b) -> bool:
    """Whether two outputs agree, floats within 1e-9 (the trees may sum in another order)."""
    if isinstance(a, float) or isinstance(b, float):
        return abs(a - b) < 1e-9
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def main() -> None:
    """Measure every set of states in both trees and print one row per set."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="HEAD")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--states", type=int, default=4)
    args = parser.parse_args()
    new = Path(__file__).resolve().parent.parent
    sets = [("goldraub", 5, []), ("goldraub", 6, []), ("lima", 5, ROLL)]
    yaml = YAML()
    with worktree(args.against) as old, tempfile.TemporaryDirectory() as tmp:
        rows = []
        for game, players, extra in sets:
            times = {"new": [], "old": []}
            cpus = {"new": [], "old": []}
            for k, doc in enumerate(states(game, players, args.games, args.states)):
                path = Path(tmp) / f"{game}-{players}-{k}.yaml"
                with path.open("w") as f:
                    yaml.dump(doc, f)
                if k == 0:  # not counted: numba's cache in each tree
                    timed(new, path, extra), timed(old, path, extra)
                trees = [("new", new), ("old", old)][:: 1 if k % 2 else -1]
                outs = {}
                for name, tree in trees:
                    took, cpu, outs[name] = timed(tree, path, extra)
                    times[name].append(took)
                    cpus[name].append(cpu)
                if not same(outs["new"], outs["old"]):
                    raise SystemExit(f"{path.name}: the trees disagree")
            rows.append((f"{game} {players}p", times, cpus))
        show(rows)


def show(rows) -> None:
    """One line per set: wall medians and maxima of both trees, the median ratio; CPU too."""
    print(f"{'set':<13} {'states':>6} {'new med':>8} {'new max':>8} {'old med':>8} "
          f"{'old max':>8} {'new/old':>8} {'cpu new':>8} {'cpu old':>8} {'cpu n/o':>8}")
    for label, times, cpus in rows:
        n, o = times["new"], times["old"]
        ratio = statistics.median([a / b for a, b in zip(n, o, strict=True)])
        cn, co = cpus["new"], cpus["old"]
        cpu = statistics.median([a / b for a, b in zip(cn, co, strict=True)])
        print(f"{label:<13} {len(n):>6} {statistics.median(n):>8.2f} {max(n):>8.2f} "
              f"{statistics.median(o):>8.2f} {max(o):>8.2f} {ratio:>8.2f} "
              f"{statistics.median(cn):>8.2f} {statistics.median(co):>8.2f} {cpu:>8.2f}")


if __name__ == "__main__":
    main()
