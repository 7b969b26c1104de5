"""The tolerance counted the old way, one count per answer left out: for tests only.

``per_event`` is what ``sleuth.mistakes.tolerant`` computed before it counted in one pass: the
union over answers e of the worlds of the record without e, added up part by part (a deal that
breaks e alone is in that part only). Tests assert that both give the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.model import Holder, Item, Model
from sleuth.odds import NO_DEAL, Odds, odds, scaled
from sleuth.solve import Entailment


@dataclass(frozen=True)
class PerEvent:
    """The strict odds, each part's odds (its event, the odds without it), their union, robust."""

    strict: Odds
    parts: tuple[tuple[int, Odds], ...]
    odds: Odds
    robust: frozenset[tuple[Holder, Item]]


def _certain(result: Odds, keys: list, entail: Entailment, groups: set[int]) -> set:
    """The holdings true in every world: read off exact counts, else asked of z3."""
    if result.exact:
        return {k for k in keys if result.held[k] == result.worlds}
    return entail.forced(groups)


def union(model: Model, strict: Odds, parts: list[Odds]) -> Odds:
    """Odds over the union of the parts' worlds: W = W(strict) + sum of (W(part) - W(strict))."""
    keys = [(h, i) for h in model.space.holders for i in model.space.items]
    base = scaled(strict)
    held = {k: base.get(k, 0) for k in keys}
    total, exact = strict.worlds, strict.exact
    for part in parts:
        counts = scaled(part)
        total += part.worlds - strict.worlds
        exact = exact and part.exact
        for k in keys:
            held[k] += counts[k] - base.get(k, 0)
    return Odds(total, exact, held, total)


def per_event(model: Model, budget: float = 60.0) -> PerEvent:
    """The deals contradicting at most one answer, by one count per answer left out.

    When the record fits no deal, only the answers in its conflict are left out; a part with
    no world is not counted and makes no fact uncertain.
    """
    entail = Entailment(model)
    groups = set(range(len(model.groups)))
    answers = [g for g in range(1, len(model.groups)) if model.groups[g]]
    fits = entail.consistent()
    dropped = answers if fits else [g for g in entail.conflict() if g > 0]
    strict = odds(model, budget) if fits else NO_DEAL
    keys = [(h, i) for h in model.space.holders for i in model.space.items]
    certain = [_certain(strict, keys, entail, groups)] if fits else []
    parts = []
    for e in dropped:
        if entail.consistent(groups - {e}):
            part = odds(model.restrict(groups - {e}), budget)
            parts.append((e, part))
            certain.append(_certain(part, keys, entail, groups - {e}))
    robust = frozenset(set.intersection(*certain)) if certain else frozenset()
    return PerEvent(strict, tuple(parts), union(model, strict, [p for _, p in parts]), robust)
