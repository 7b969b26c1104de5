"""Scotland Yard replayed: who likeliest held X at each step, and every hunt judged at its odds.

A hunt (a manhunt, an interrogation that interrogated) is judged at the chances of the step
before it: mine for my own hunts, the public's for another player's (what anyone could know
from the table; their own hand may have told them more). Its catch is the chance it found X
(a manhunt: P(X with target) x min(k, h) / h), and the best target is the player it would have
found X with most often, by the same chances.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sleuth.chance import pct
from sleuth.games.scotland.advice import catches, likeliest
from sleuth.games.scotland.rules import Turn
from sleuth.games.scotland.suspicion import Suspicion
from sleuth.model import Holder
from sleuth.replay import Best, Judged, Move, Step, Tick


def belief_of(step: Step) -> Suspicion | None:
    """The step's belief, when some holder of X fits it."""
    found = getattr(step.odds, "belief", None)
    return found if isinstance(found, Suspicion) and found.consistent else None


def best_of(step: Step) -> Best | None:
    """The other player likeliest to hold X at this step, from my seat (``advice.likeliest``)."""
    found = belief_of(step)
    best = None if found is None else likeliest(found)
    if best is None:
        return None
    words, p = best
    return Best(words, p, True, {"player": words.removeprefix("X "), "probability": float(p)})


def judged_hunt(index: int, turn: Turn, before: Step) -> Move | None:
    """A hunt at its odds: its catch, whether it found X, and the best target then."""
    found = belief_of(before)
    if found is None or turn.target is None:
        return None
    me = found.record.table.me
    mine = turn.by == me
    if mine and found.suspicion().get(me) == 1:
        return None  # Mister X's own hunt is no hunt for X
    by_target = catches(found, turn.by, turn.action, turn.ticket.colour, public=not mine)
    got = by_target.get(turn.target, Fraction(0))
    best = max(by_target, key=lambda p: by_target[p])
    kind = "manhunt" if turn.action == "manhunt" else "interrogation"
    who = f"my {kind} of" if mine else f"{turn.by}'s {kind} of"
    outcome = "found X" if turn.found else "missed"
    verdict = (
        "the best target"
        if by_target[best] <= got
        else (f"best was {best} at {pct(by_target[best])}")
    )
    line = f"{who} {turn.target} caught X at {pct(got)}: {outcome}; {verdict}"
    data = {
        "event": index,
        "by": turn.by,
        "action": turn.action,
        "target": turn.target,
        "found": bool(turn.found),
        "catch": float(got),
        "best": best,
        "best_catch": float(by_target[best]),
    }
    return Move(index, line, data)


def judge(record: Any, found: list[Step], budget: float, memory: Any, tick: Tick | None) -> Judged:
    """The game's judgement of a replay (its ``judge`` part)."""
    best = []
    for step in found:
        best.append(best_of(step))
        if tick:
            tick()
    moves = [
        move
        for k, event in enumerate(record.events, 1)
        if isinstance(event, Turn) and k - 1 < len(found)
        for move in [judged_hunt(k, event, found[k - 1])]
        if move is not None
    ]
    summary = summary_lines(moves, record.table.me)
    return Judged(best, moves, {}, summary, {"hunts": [m.data for m in moves]})


def summary_lines(moves: list[Move], me: Holder) -> list[str]:
    """How many hunts went for the best target, mine and the others'."""
    out = []
    for label, mine in (("My hunts", True), ("Others' hunts", False)):
        chosen = [m for m in moves if (m.data["by"] == me) == mine]
        if chosen:
            best = sum(m.data["catch"] >= m.data["best_catch"] for m in chosen)
            caught = sum(m.data["found"] for m in chosen)
            line = f"{label}: {len(chosen)}, {best} at the best target, {caught} found X."
            out.append(line)
    return out
