"""Propagate what single tallies force: each item's possible holders, and what is left to count.

A tally over terms whose holder cannot hold an item, or surely holds it, reduces to a smaller
tally plus a constant. A tally left at its least or greatest value fixes or excludes items.
A tally that contains every term of a single-valued one keeps only the other terms.
Repeating this to a fixed point gives every item a *domain* (the holders it may go to) and a
list of *residual* tallies over the items still open; both describe exactly the same worlds.

With *tolerable* groups (answers that may be wrong, ``reduce(model, tolerable)``) the worlds
are the deals that break at most one of them: their tallies are reduced to residuals over the
domains that the other groups force, but force nothing themselves, a single-valued tally is
taken out of another only within its group or from a strict one, and a tolerable group that no
deal can satisfy is ``broken``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sleuth.model import Holder, Item, Model, Pair, Tally, Term


class Contradiction(Exception):
    """The tallies admit no deal."""


@dataclass(frozen=True)
class Reduced:
    """Domains per item and the residual tallies; e.g. domains["32"] == frozenset({"Bert"})."""

    domains: dict[Item, frozenset[Holder]]
    tallies: tuple[Tally, ...]
    groups: tuple[int, ...] = ()  # with tolerable groups: each tally's group, 0 if strict
    broken: frozenset[int] = frozenset()  # tolerable groups that no deal satisfies


def _reduce(tally: Tally, domains: dict, sizes: dict) -> tuple[Tally, int]:
    """The tally's residual over undecided items, and the greatest value the residual can take."""
    terms, constant, highest = residual(tally.terms, domains, sizes)
    values = frozenset(v - constant for v in tally.values if 0 <= v - constant <= highest)
    if not values:
        raise Contradiction
    return Tally(terms, values), highest


def residual(terms: tuple[Term, ...], domains: dict, sizes: dict) -> tuple[tuple, int, int]:
    """A sum's terms over undecided items, what the decided ones add, and the most the rest can.

    e.g. ((Term("Cleo", frozenset({"32"}), True),), 1, 1): Bert surely holds a sector of the
    row, and Cleo may hold its one undecided sector.
    """
    left, constant, highest = [], 0, 0
    for term in terms:
        able = frozenset(i for i in term.items if term.holder in domains[i])
        sure = frozenset(i for i in able if domains[i] == {term.holder})
        if term.any:
            if sure:
                constant += 1
            elif able:
                left.append(Term(term.holder, able, True))
                highest += 1
        else:
            constant += len(sure)
            if able - sure:
                left.append(Term(term.holder, able - sure))
                highest += min(len(able - sure), sizes[term.holder])
    return tuple(left), constant, highest


def _narrow(tally: Tally, highest: int, domains: dict, sizes: dict) -> bool:
    """Fix or exclude items when a residual tally sits at its least or greatest value."""
    changed = False
    if tally.values == {0}:
        for term in tally.terms:
            for item in term.items:
                changed |= term.holder in domains[item]
                domains[item] = domains[item] - {term.holder}
    elif tally.values == {highest}:
        for term in tally.terms:
            if (term.any and len(term.items) == 1) or (
                not term.any and len(term.items) <= sizes[term.holder]
            ):
                for item in term.items:
                    changed |= domains[item] != {term.holder}
                    domains[item] = domains[item] & {term.holder}
    if any(not domains[i] for i in tally.items):
        raise Contradiction
    return changed


def _nested(tallies: list[Tally], groups: list[int]) -> tuple[list[Tally], bool]:
    """Each tally that contains every term of a single-valued one, less that one's terms.

    If B = b and A's terms include all of B's, then A = a exactly when (A - B) = a - b: the
    same worlds, with a tally over fewer terms that closes sooner. A search answer and the
    part of it that the recorder saw pass by are nested like this. B must be strict (group
    0) or of A's own group: a deal that breaks B alone would not break A alone.
    """
    out, changed = list(tallies), False
    again = True
    while again:
        again = False
        for k, outer in enumerate(out):
            have = Counter(outer.terms)
            for inner, group in zip(out, groups, strict=True):
                if len(inner.values) != 1 or len(inner.terms) >= len(outer.terms):
                    continue
                if group not in (0, groups[k]):
                    continue
                need = Counter(inner.terms)
                if all(have[t] >= n for t, n in need.items()):
                    (value,) = inner.values
                    terms = []
                    for term in outer.terms:
                        if need[term]:
                            need[term] -= 1
                        else:
                            terms.append(term)
                    values = frozenset(v - value for v in outer.values if v >= value)
                    out[k] = Tally(tuple(terms), values)
                    again = changed = True
                    break
    return out, changed


def reduce(model: Model, tolerable: frozenset[int] = frozenset()) -> Reduced:
    """Domains and residual tallies equivalent to the model; Contradiction if none can hold.

    ``tolerable``: groups of which a deal may break one (see the module's docstring).
    """
    sizes = model.space.sizes
    holders = frozenset(h for h in model.space.holders if sizes[h] > 0)
    domains = dict.fromkeys(model.space.items, holders)
    tallies = [(t, g if g in tolerable else 0) for g, ts in enumerate(model.groups) for t in ts]
    broken: set[int] = set()
    while True:
        residuals, changed = [], False
        for tally, group in tallies:
            try:
                residual, highest = _reduce(tally, domains, sizes)
            except Contradiction:
                if not group:
                    raise
                broken.add(group)
                continue
            if residual.terms and residual.values != frozenset(range(highest + 1)):
                residuals.append((residual, group))
                if not group:
                    changed |= _narrow(residual, highest, domains, sizes)
        fixed: dict[Holder, int] = {}
        for domain in domains.values():
            if len(domain) == 1:
                (holder,) = domain
                fixed[holder] = fixed.get(holder, 0) + 1
        if any(n > sizes[h] for h, n in fixed.items()):
            raise Contradiction
        for item, domain in domains.items():
            full = {h for h in domain if fixed.get(h) == sizes[h]}
            if len(domain) > 1 and full:
                domains[item] = domain - full
                changed = True
                if not domains[item]:
                    raise Contradiction
        if not changed:
            groups = [g for _, g in residuals]
            nested, changed = _nested([t for t, _ in residuals], groups)
            residuals = list(zip(nested, groups, strict=True))
            if not changed:
                kept = list(dict.fromkeys(residuals))
                return Reduced(
                    domains,
                    tuple(t for t, _ in kept),
                    tuple(g for _, g in kept) if tolerable else (),
                    frozenset(broken),
                )
            tallies = residuals


def fixed(model: Model, pairs: set[Pair], holding: bool = True) -> set[Pair]:
    """Those of ``pairs`` that propagation fixes: held (not ``holding``: excluded) in every world.

    Sound, not complete: a pair it leaves out may still be forced. None when it finds no deal.
    """
    try:
        domains = reduce(model).domains
    except Contradiction:
        return set()
    if holding:
        return {(h, i) for h, i in pairs if domains[i] == {h}}
    return {(h, i) for h, i in pairs if h not in domains[i]}
