"""The race of item orders replayed on recorded layers: what its settings cost, state by state.

Usage::

    .venv/bin/python benchmarks/replay.py record OUT.jsonl SEED/EVENTS ...
    .venv/bin/python benchmarks/replay.py replay OUT.jsonl [NAME=VALUE ...] [-- NAME=VALUE ...]

Timing a change to the race (``sleuth/solve/order.py``) on this shared machine needs many
runs, and each run times every order the race happens to try. So ``record`` counts each state
once in every order the race could take: the first greedy order and every contender
(``order.contenders``), each to its end or until the engine fails, with the compiled kernels,
as a hard count that has turned to them. For each order it keeps, after every step, the states
made so far, the seconds so far and the successors the step made, and the widths the race's
forecast reads. A state is the first EVENTS events of ``simulate(6, 60, SEED)``
(``sleuth.games.goldraub.simulate``), sharpened by z3 as ``report`` does.

``replay`` runs the real ``order.race`` on those states with an engine that replays the
recorded layers instead of counting (``Replayed``): the race decides as it would, and the time
it would have taken is the recorded time of every layer it made, dropped runs included. Each
group of settings (constants of ``sleuth.solve.tuning``, e.g. ``SURE=0 PROBE=300000``,
groups separated by ``--``; none: the shipped settings) gets one column. It leaves out what a
count does besides the forward pass (z3, planning, the backward pass: about a tenth), and a
step that fails for memory costs nothing.
"""

from __future__ import annotations

import json
import math
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent

TARGET = 1.0  # seconds: the target for a 6-player report


def _plan(seed: int, events: int):
    """The plan and reduced record of a state, as a count makes them."""
    from sleuth.games.goldraub.simulate import simulate
    from sleuth.record import Record, parse
    from sleuth.solve import Entailment
    from sleuth.solve.plan import plan
    from sleuth.solve.simplify import reduce

    doc, _ = simulate(6, 60, seed)
    record = parse(doc, "simulate")
    model = Record(record.game, record.table, record.start, record.events[:events]).model()
    sharp = Entailment(model).sharpened()
    reduced = reduce(sharp)
    return plan(sharp, reduced), reduced


def _orders(p) -> list[list]:
    """Every order the race may run: the first greedy one, then the contenders."""
    from sleuth.solve import order

    tracked = p.tracked
    return [order.first_order(p, tracked), *order.contenders(p, tracked)]


def record(out: Path, states: list[tuple[int, int]]) -> None:
    """Count each state in every order, one JSON line per state."""
    from sleuth.solve import vector

    made: list[int] = []
    merged = vector.merged

    def counting(pieces, rows, weights, bits, kernels):
        made.append(sum(len(r) for r in rows))
        return merged(pieces, rows, weights, bits, kernels)

    vector.merged = counting
    try:
        _record(out, states, made)
    finally:
        vector.merged = merged


def _record(out: Path, states: list[tuple[int, int]], made: list[int]) -> None:
    """``record``, with ``made`` filled with the successors of each step as it merges them."""
    from sleuth.solve import vector
    from sleuth.solve.counts import TooBig
    from sleuth.solve.merge import Kernels
    from sleuth.solve.plan import with_order

    with out.open("a") as sink:
        for seed, events in states:
            p, reduced = _plan(seed, events)
            compiled = Kernels()
            compiled.turn()  # every order timed compiled, as once a hard count has turned
            runs = []
            for o in _orders(p):
                run = vector.VectorRun(with_order(p, o, reduced), compiled)
                run.limit = 1 << 40  # only the engine's memory stops it
                made.clear()
                sizes, times, started = [], [], time.perf_counter()
                try:
                    while not run.done:
                        run.advance(run.size, None)  # a step (more only past empty layers)
                        while len(sizes) < len(run.layers) - 1:
                            sizes.append(run.size)
                            times.append(time.perf_counter() - started)
                except TooBig:
                    pass
                runs.append(
                    {
                        "order": list(o),
                        "sizes": sizes,
                        "times": times,
                        "made": made[: len(sizes)],
                        "words": [shape[0] for shape in run.fields.shapes],
                        "width": list(run.steps.width),
                        "done": run.done,
                    }
                )
                print(f"{seed}/{events} {len(runs) - 1}: {run.size:,} states", file=sys.stderr)
            sink.write(json.dumps({"seed": seed, "events": events, "runs": runs}) + "\n")
            sink.flush()


class Replayed:
    """A run of ``vector.VectorRun``'s interface that replays one order's recorded layers.

    It fails where the engine would: past its state bound or limit, at a step whose recorded
    successors do not fit the memory left (``VectorRun._most_successors``, with the states of
    the other runs alive), and where the recorded run failed. Every layer it makes adds its
    recorded time to ``spent``.
    """

    states = 0  # the engine's bounds (``VectorRun``'s): set by ``replay``
    most_edges = 0
    memory = 0
    profiles: dict[tuple, dict] = {}  # recorded runs by order (tracked items)
    spent = 0.0

    def __init__(self, p, kernels=None):
        self.p = p
        self.profile = type(self).profiles[tuple(p.order[: len(p.order) - len(p.loose)])]
        self.steps = SimpleNamespace(width=self.profile["width"])
        self.fields = SimpleNamespace(shapes=[(words,) for words in self.profile["words"]])
        self.layers: list[range] = [range(1)]
        self.size = 1
        self.limit = type(self).states
        self.clock = 0.0

    @property
    def done(self) -> bool:
        return len(self.layers) > len(self.p.order)

    def advance(self, cap: float, deadline) -> None:
        from sleuth.solve.counts import TooBig
        from sleuth.solve.vector import VectorRun

        sizes, times, made = self.profile["sizes"], self.profile["times"], self.profile["made"]
        while not self.done and self.size <= cap:
            k = len(self.layers) - 1
            if self.size > self.limit or k >= len(sizes) or sizes[k] > self.limit:
                raise TooBig
            if made[k] > VectorRun.most_successors(self, k):
                raise TooBig
            Replayed.spent += times[k] - self.clock
            self.clock = times[k]
            self.layers.append(range(sizes[k] - self.size))
            self.size = sizes[k]


@contextmanager
def _settings(pairs: list[str]):
    """Constants of ``sleuth.solve.tuning`` set for a while (NAME=VALUE)."""
    from sleuth.solve import tuning

    old = {}
    for pair in pairs:
        name, value = pair.split("=", 1)
        old[name] = getattr(tuning, name)
        setattr(tuning, name, type(old[name])(float(value)))
    try:
        yield
    finally:
        for name, value in old.items():
            setattr(tuning, name, value)


def replayed(line: dict, pairs: list[str]) -> tuple[float, list | None]:
    """The seconds the race would take on one recorded state, and the order it would finish in.

    ``inf`` and None when every order fails.
    """
    from sleuth.solve import engines, order
    from sleuth.solve.counts import TooBig
    from sleuth.solve.vector import VectorRun

    Replayed.states, Replayed.most_edges = VectorRun.states, VectorRun.most_edges
    Replayed.memory = VectorRun.memory
    Replayed.profiles = {tuple(run["order"]): run for run in line["runs"]}
    Replayed.spent = 0.0
    p, reduced = _plan(line["seed"], line["events"])
    choose = engines.choose
    engines.choose = lambda p: Replayed
    try:
        with _settings(pairs):
            run = order.race(p, reduced, None)
        return Replayed.spent, run.p.order
    except TooBig:
        return math.inf, None
    finally:
        engines.choose = choose


def replay(path: Path, groups: list[list[str]]) -> None:
    """Print, for each state and group of settings, the seconds the race would take."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    names = [" ".join(g) or "shipped" for g in groups]
    totals = [0.0] * len(groups)
    over = [0] * len(groups)
    print("| state | best order | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(groups))
    for line in lines:
        best = min((run["times"][-1] for run in line["runs"] if run["done"]), default=math.inf)
        cells = []
        for g, pairs in enumerate(groups):
            seconds, _ = replayed(line, pairs)
            totals[g] += seconds
            over[g] += seconds > TARGET
            cells.append(f"{seconds:.2f} s")
        state = f"{line['seed']}/{line['events']}"
        print(f"| {state} | {best:.2f} s | " + " | ".join(cells) + " |")
    ends = [f"{t:.1f} s, {n} over {TARGET:g} s" for t, n in zip(totals, over, strict=True)]
    print("| all | | " + " | ".join(ends) + " |")


def main(argv: list[str]) -> None:
    if len(argv) >= 2 and argv[0] == "record":
        states = [tuple(int(x) for x in a.split("/")) for a in argv[2:]]
        record(Path(argv[1]), states)
    elif len(argv) >= 2 and argv[0] == "replay":
        groups, current = [], []
        for arg in argv[2:]:
            if arg == "--":
                groups.append(current)
                current = []
            else:
                current.append(arg)
        groups.append(current)
        replay(Path(argv[1]), groups)
    else:
        raise SystemExit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main(sys.argv[1:])
