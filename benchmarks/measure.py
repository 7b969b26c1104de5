"""One measurement, run in its own process by ``benchmarks/run.py``.

Usage: ``python benchmarks/measure.py '<json spec>'``; prints one JSON object on stdout.
The parent reads this process's peak memory from ``os.wait4``; nothing here measures memory.

Every timing is a list of runs: at least ``MIN_RUNS``, up to ``runs`` while the total stays
under ``spend`` seconds. The parent reports their median.

A report here is ``sleuth.analysis.report`` without the game's details for its screens (Lima:
every treasure pair) unless the measurement needs them (``check --best``), as the commands make
it: since 395cbad ``report`` makes the details unless told not to, before it when first read.
``compare.py`` runs the current tree's copy of this file in both trees: both time the same work.
"""

from __future__ import annotations

import inspect
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

MIN_RUNS = 3


def repeat(fn: Callable[[], Any], runs: int, spend: float) -> tuple[list[float], Any]:
    """Times of ``fn`` (seconds) over at least MIN_RUNS runs, and its last result."""
    times, result = [], None
    while len(times) < max(runs, MIN_RUNS):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
        if len(times) >= MIN_RUNS and sum(times) > spend:
            break
    return times, result


def load(spec: dict):
    """The parsed record of the spec's file."""
    from sleuth.store import load as load_record

    return load_record(Path(spec["file"]))[0]


def analysed(record, budget: float, details: bool = False):
    """The report of ``record``, with the game's details only when ``details``, in any tree."""
    from sleuth.analysis import report

    if "details" in inspect.signature(report).parameters:  # 395cbad on: made unless told not
        return report(record, budget, details=details)
    found = report(record, budget)  # before: made when first read
    if details:
        found.details  # noqa: B018
    return found


def idle(spec: dict) -> dict:
    """Import sleuth and parse the record, nothing else: the memory baseline."""
    import sleuth.analysis  # noqa: F401

    load(spec)
    return {}


def report(spec: dict) -> dict:
    """Median-ready times of ``sleuth.analysis.report`` (no details) on a parsed record."""
    record = load(spec)
    times, result = repeat(lambda: analysed(record, spec["budget"]), spec["runs"], spec["spend"])
    return {
        "events": len(record.events),
        "consistent": result.consistent,
        "worlds": result.worlds,
        "exact": result.odds.exact,
        "interval": result.odds.interval,
        "times": times,
    }


def check(spec: dict) -> dict:
    """Times of what ``sleuth check`` computes: the report (its details for ``--best`` alone, as
    the command makes them), then the game's advice."""
    record = load(spec)
    best = spec["what"] == "best"
    advise = ADVICE[record.game][best]
    budget = spec["budget"]

    def once():
        result = analysed(record, budget, details=best)
        return advise(result, spec["what"], budget) and result.odds.exact

    times, exact = repeat(once, spec["runs"], spec["spend"])
    return {"events": len(record.events), "exact": bool(exact), "times": times}


def _guess_one(result, what, budget) -> bool:
    from sleuth.games.goldraub.advice import check_guess

    return check_guess(result, *what).exact


def _guess_best(result, what, budget) -> bool:
    from sleuth.games.goldraub.advice import best_guesses

    return all(g.exact for g in best_guesses(result))


def _accuse_one(result, what, budget) -> bool:
    from sleuth.games.lima.advice import check_accusation

    return check_accusation(result, *what, budget=budget).exact


def _accuse_best(result, what, budget) -> bool:
    from sleuth.games.lima.advice import best_accusation

    pairs = result.details  # the treasure pairs, made once, as ``sleuth check --best`` reads them
    best_accusation(result, pairs)
    return all(p.exact for p in pairs)


ADVICE = {"goldraub": (_guess_one, _guess_best), "lima": (_accuse_one, _accuse_best)}


def replay(spec: dict) -> dict:
    """A report (no details) after every event of a whole game, ``runs`` times while they fit in
    ``spend``."""
    from sleuth.record import Record

    record = load(spec)
    totals, per_event, fallbacks = [], [], set()
    began = time.perf_counter()
    while len(totals) < spec["runs"]:
        if totals and time.perf_counter() - began + max(totals) > spec["spend"]:
            break
        started = time.perf_counter()
        for k in range(1, len(record.events) + 1):
            prefix = Record(record.game, record.table, record.start, record.events[:k])
            before = time.perf_counter()
            result = analysed(prefix, spec["budget"])
            per_event.append(time.perf_counter() - before)
            if not result.odds.exact:
                fallbacks.add(k)
        totals.append(time.perf_counter() - started)
    return {
        "events": len(record.events),
        "totals": totals,
        "per_event": per_event,
        "fallbacks": sorted(fallbacks),
    }


def brute(spec: dict) -> dict:
    """Times of the independent brute-force counter of tests/ on the same record."""
    record = load(spec)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the oracles
    if record.game == "goldraub":
        from oracles.brute import brute_count

        model = record.model()
        times, (total, _) = repeat(lambda: brute_count(model), spec["runs"], spec["spend"])
    else:
        from oracles.lima import brute as brute_lima

        from sleuth.document import parse_yaml, read_text

        doc = _plain(parse_yaml(read_text(Path(spec["file"])), spec["file"]))
        times, result = repeat(lambda: brute_lima(doc), spec["runs"], spec["spend"])
        total = result.total
    return {"worlds": total, "times": times}


def _plain(node):
    """A ruamel document as plain dicts, lists and scalars."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def enumerate_z3(model, limit: float) -> tuple[int, bool]:
    """Count worlds by plain z3 model enumeration, blocking each deal found: (count, finished)."""
    import z3

    from sleuth.solve.entail import Entailment

    entail = Entailment(model)
    solver, deadline, found = entail.solver, time.monotonic() + limit, 0
    while (left := deadline - time.monotonic()) > 0:
        solver.set("timeout", max(int(left * 1000), 1))
        verdict = solver.check(entail.guards)
        if verdict == z3.unsat:
            return found, True
        if verdict != z3.sat:
            break
        m = solver.model()
        held = [var for var in entail.x.values() if z3.is_true(m.eval(var))]
        solver.add(z3.Not(z3.And(held)))
        found += 1
    return found, False


def z3_enum(spec: dict) -> dict:
    """Plain z3 enumeration within ``limit`` s; when it finishes, timed again (>= MIN_RUNS)."""
    model = load(spec).model()
    limit = spec["limit"]
    started = time.perf_counter()
    found, finished = enumerate_z3(model, limit)
    times = [time.perf_counter() - started]
    if finished:
        times, _ = repeat(lambda: enumerate_z3(model, limit), spec["runs"], spec["spend"])
    return {"worlds": found, "finished": finished, "times": times}


KINDS = {
    "idle": idle,
    "report": report,
    "check": check,
    "replay": replay,
    "brute": brute,
    "z3": z3_enum,
}


if __name__ == "__main__":
    job = json.loads(sys.argv[1])
    print(json.dumps(KINDS[job["kind"]](job)))
