"""Loot of Lima replayed: the likeliest treasure pair of each step, the accusations judged.

P(treasure = {a, b}) = P(a) x P(b | a), the second factor from one more count, of the prefix
with "the treasure holds a" added (``pairs.TreasureOdds``, as the report's pairs), given a
location's twin when it has one. Only the likeliest pair is
wanted, so locations are taken most likely first and the search stops once no pair left can
beat the best one: a pair {x, y} of locations not yet taken has at most the smaller of what
is left of P(x) and P(y) after the pairs already counted with them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from sleuth.budget import Deadline, due
from sleuth.chance import certain, impossible
from sleuth.games.lima.pairs import TreasureOdds
from sleuth.games.lima.rules import TREASURE, Accuse
from sleuth.model import Item, Model, holds
from sleuth.odds import Odds, odds
from sleuth.render.common import pct
from sleuth.replay import Best, Judged, Move, Step, Tick

if TYPE_CHECKING:
    from sleuth.record import Record
    from sleuth.solve import Remembered


def twins(model: Model) -> dict[Item, Item]:
    """Each item and the first item that no tally tells apart from it.

    Swapping two such items keeps every tally, so the two have the same odds.
    """
    where: dict[Item, list] = {x: [] for x in model.space.items}
    for t, tally in enumerate(model.tallies):
        for k, term in enumerate(tally.terms):
            for x in term.items:
                where[x].append((t, k))
    first: dict[tuple, Item] = {}
    return {x: first.setdefault(tuple(sorted(w)), x) for x, w in where.items()}


class Pairs(TreasureOdds):
    """The pair odds of one step, from counts of the prefix with one treasure location given."""

    def __init__(self, prefix: Model, step: Step, budget: float, memory: Remembered):
        super().__init__(step, self.counted_given, twins(prefix))
        self.prefix, self.step, self.budget, self.memory = prefix, step, budget, memory

    def counted_given(self, a: Item, budget: float | Deadline) -> Odds:
        """The odds of the prefix with "the treasure holds a" added."""
        model = self.prefix.with_group(0, self.prefix.groups[0] + (holds(TREASURE, a),))
        return odds(model, due(budget), memory=self.memory, plain=True)

    def best(self, items: tuple[Item, ...]) -> tuple[Fraction, Item, Item] | None:
        """The likeliest pair (any one of equal chance), by the bounded search above."""
        left = {x: self.first(x) for x in items if self.first(x)}
        place = {x: k for k, x in enumerate(items)}
        best: tuple[Fraction, Item, Item] | None = None
        while len(left) >= 2:
            rest = sorted(left, key=lambda x: (-left[x], place[x]))
            if best is not None and best[0] >= left[rest[1]]:
                break
            a = rest[0]
            del left[a]
            for b in rest[1:]:
                q = self.pair(a, b, self.budget)
                left[b] -= q
                if q and (best is None or q > best[0]):
                    best = (q, b, a) if place[b] < place[a] else (q, a, b)
        return best


def best_pair(pairs: Pairs, items: tuple[Item, ...]) -> Best | None:
    """The step's likeliest treasure pair as a ``Best``, or None with no world."""
    if not pairs.step.consistent:
        return None
    found = pairs.best(items)
    if found is None:
        return None
    p, a, b = found
    return Best(f"{a} {b}", p, pairs.exact, {"pair": [a, b], "probability": float(p)})


def verdict(correct: bool, p: Fraction) -> str:
    """How an accusation looks from my side: safe, good odds, lucky; impossible, unlucky, rash."""
    half = Fraction(1, 2)
    if correct:
        return "safe" if certain(p) else "good odds" if p >= half else "lucky"
    return "impossible" if impossible(p) else "unlucky" if p >= half else "rash"


def judged_accusation(record: Record, index: int, accuse: Accuse, pairs: Pairs) -> Move:
    """A recorded accusation, with my chance of its pair after the events before it."""
    a, b = accuse.locations
    p = pairs.pair(a, b, pairs.budget) if pairs.step.consistent else None
    who = "my accusation of" if accuse.by == record.table.me else f"{accuse.by} accused"
    outcome = "right" if accuse.correct else "wrong"
    judgement = "" if p is None else f", {verdict(accuse.correct, p)}"
    line = f"{who} {a} {b} at {pct(p)}: {outcome}{judgement}"
    data = {
        "event": index,
        "by": accuse.by,
        "locations": [a, b],
        "correct": accuse.correct,
        "probability": None if p is None else float(p),
    }
    return Move(index, line, data)


def unchanged(before: Step, after: Step) -> bool:
    """Whether a step kept every world of the step before.

    An event only removes worlds, so two exact counts alike mean the same worlds, and the same
    pair odds.
    """
    return before.exact and after.exact and before.worlds == after.worlds


def judge(
    record: Record, found: list[Step], budget: float, memory: Remembered, tick: Tick | None = None
) -> Judged:
    """The game's judgement of a replay (its ``judge`` part)."""
    model = record.model()
    items = model.space.items
    best: list[Best | None] = []
    tables: list[Pairs] = []
    for step in found:
        same = bool(tables) and unchanged(tables[-1].step, step)
        tables.append(tables[-1] if same else Pairs(model.prefix(step.event), step, budget, memory))
        best.append(best[-1] if same else best_pair(tables[-1], items))
        if tick:
            tick()
    moves = [
        judged_accusation(record, i, e, tables[i - 1])
        for i, e in enumerate(record.events, 1)
        if isinstance(e, Accuse)
    ]
    since = next((k for k, b in enumerate(best) if b and b.probability == 1 and b.exact), None)
    extras = {"accusations": [m.data for m in moves], "certain_since": since}
    marks = {}
    if since is not None:
        first = best[since]
        assert first is not None  # the best pair was certain from then on
        marks[since] = f"treasure certain: {first.words}"
    return Judged(best, moves, marks, [_summary(best, since)], extras)


def _summary(best: list[Best | None], since: int | None) -> str:
    """When the record first determined the treasure pair, or how likely the best one is."""
    if since is not None:
        first = best[since]
        assert first is not None  # since is a step whose best pair was certain
        return f"The treasure pair was certain from event {since}: {first.words}."
    last = best[-1]
    if last is None:
        return "The treasure pair was never certain."
    chance = pct(last.probability)
    return f"The treasure pair was never certain; at the end, {last.words} at {chance}."
