"""Simple deductions: what follows from some groups of a model by counting alone.

Three kinds of step, each sound, repeated until nothing new follows (unit propagation):
a tally whose terms can reach its value only one way (every term as low as it can be, or
every term as high); a holder whose hand is full of known items, or whose items still open
are just enough for it; an item whose holder is known, or all of whose holders but one are
ruled out. It is not complete: a fact z3 proves may not follow this way. When it does, the
facts the groups state plainly are a short reason for it (``sleuth why``).
"""

from __future__ import annotations

from sleuth.model import Holder, Item, Model, Tally

Known = dict[tuple[Holder, Item], bool]  # e.g. {("Bert", "32"): True}: the facts found so far
ROUNDS = 6  # passes over the tallies and the hands before giving up


def bounds(tally: Tally, known: Known) -> tuple[int, int]:
    """The least and the most the tally's sum can be, given the known facts."""
    low = high = 0
    for term in tally.terms:
        facts = [known.get((term.holder, i)) for i in term.items]
        held, open_ = facts.count(True), facts.count(None)
        if term.any:
            low += held > 0
            high += held > 0 or open_ > 0
        else:
            low, high = low + held, high + held + open_
    return low, high


def settle(tally: Tally, known: Known) -> Known:
    """The facts a tally forces, when only its least or only its most sum is allowed."""
    low, high = bounds(tally, known)
    allowed = [v for v in tally.values if low <= v <= high]
    if len(allowed) != 1 or allowed[0] not in (low, high) or low == high:
        return {}
    top = allowed[0] == high
    out: Known = {}
    for term in tally.terms:
        open_ = [i for i in term.items if (term.holder, i) not in known]
        held = any(known.get((term.holder, i)) for i in term.items)
        if not term.any:
            out |= {(term.holder, i): top for i in open_}
        elif not held and not top:  # "holds one of them" at 0: none of them
            out |= {(term.holder, i): False for i in open_}
        elif not held and len(open_) == 1:  # at 1 with a single item open: that one
            out[term.holder, open_[0]] = True
    return out


def counted(model: Model, known: Known) -> Known:
    """The facts that hand sizes and "one holder an item" force."""
    space = model.space
    out: Known = {}
    for h in space.holders:
        open_ = [i for i in space.items if (h, i) not in known]
        held = sum(known.get((h, i), False) for i in space.items)
        if open_ and held == space.sizes[h]:
            out |= {(h, i): False for i in open_}
        elif open_ and held + len(open_) == space.sizes[h]:
            out |= {(h, i): True for i in open_}
    for i in space.items:
        open_ = [h for h in space.holders if (h, i) not in known and (h, i) not in out]
        if any(known.get((h, i)) for h in space.holders):
            out |= {(h, i): False for h in open_}
        elif len(open_) == 1 and not any(out.get((h, i)) for h in space.holders):
            out[open_[0], i] = True
    return out


def follows(model: Model, groups: list[int], pair: tuple[Holder, Item], yes: bool) -> bool:
    """Whether the groups force ``pair`` (held, or with ``yes`` False not held) by these steps.

    The groups are taken to fit some deal, so the steps find no two facts at odds.
    """
    return propagated(model, groups, pair).get(pair) == yes


def propagated(model: Model, groups: list[int], until: tuple[Holder, Item] | None = None) -> Known:
    """Every fact the groups force by these steps, in at most ROUNDS passes.

    With ``until``, the passes stop once that pair is among them: a fact, once found, is never
    changed by a later pass, so what they say of it is already final.
    """
    tallies = [t for g in groups for t in model.groups[g]]
    known: Known = {}
    for _ in range(ROUNDS):
        new: Known = {}
        for tally in tallies:
            new |= {k: v for k, v in settle(tally, known | new).items() if k not in known}
        new |= {k: v for k, v in counted(model, known | new).items() if k not in known}
        known |= new
        if not new or (until is not None and until in known):
            break
    return known
