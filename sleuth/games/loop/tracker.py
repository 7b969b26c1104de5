"""Loot the Loop: the deck as I see it, and the exact chance of what a look turns up.

Nothing but a look shows a card, so every order of the cards not yet seen is equally likely
under the face-down places: the chance that a face-down card is of a kind is that kind's share
of the unseen cards, exactly. ``Tracker`` is the game's belief (``sleuth.belief.Belief``): it
names no holding (the screens are the game's own), and counts the orders left.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from sleuth.belief import Fact, Left
from sleuth.games.loop.cards import KINDS, kind, value
from sleuth.games.loop.temple import Temple, follow, outcome
from sleuth.model import Holder, Item


def kinds(cards: tuple[str, ...]) -> dict[str, int]:
    """How many of each kind: {"trap": 12, "jewel": 4, "trinket": 36, "exit": 1}."""
    counted = Counter(kind(c) for c in cards)
    return {k: counted[k] for k in KINDS}


def look_odds(now: Temple) -> dict[str, Fraction]:
    """The chance of each kind turning up on top in a look: its share of the unseen cards."""
    unseen = now.unseen
    if not unseen:
        return {}
    return {k: Fraction(n, len(unseen)) for k, n in kinds(unseen).items()}


@dataclass(frozen=True)
class AfterLook:
    """What a look leaves, exactly.

    ``stuck``: the chance no action is legal after it; ``trapped``: the chance every legal action
    is an explore onto a trap (the rulebook's other way to lose).
    """

    stuck: Fraction
    trapped: Fraction


def after_look(now: Temple) -> AfterLook | None:
    """The chances of ``AfterLook``, over every card (and second card) the look may turn up.

    None when no look is legal. Each unseen card is equally likely on top, and each other one
    second. What is legal after the look depends on the turned cards only through their class
    (a trinket's value, or its kind), so the classes are enumerated in pairs (at most 12 x 12),
    each weighed by how many cards it holds: exact, and fast.
    """
    if not now.unseen or not now.deck or now.deck[0] is not None:
        return None
    two = now.turned_up() == 2
    classes: dict[tuple[str, int | None], list[str]] = {}
    for name in now.unseen:
        classes.setdefault((kind(name), value(name)), []).append(name)
    members = list(classes.values())
    stuck = trapped = total = 0
    for first in members:
        for second in members if two else [[]]:
            ways = len(first) * (len(second) - (second is first)) if two else len(first)
            if not ways:
                continue
            turned = (first[0], second[1] if second is first else second[0]) if two else (first[0],)
            after = replace(now, deck=(*turned, *now.deck[len(turned) :]))
            actions = after.actions()
            total += ways
            stuck += ways * (not actions)
            onto_traps = all(
                a.action == "explore" and outcome(after, int(a.what or 0)) == "trap"
                for a in actions
            )
            trapped += ways * (bool(actions) and onto_traps)
    return AfterLook(Fraction(stuck, total), Fraction(trapped, total))


@dataclass(frozen=True)
class Tracker:
    """What I know of the temple: where it stands, and the cards not yet seen.

    A record the rules allow always fits (``follow`` refuses any other), and every chance is
    exact.
    """

    record: Any
    temple: Temple

    consistent = True
    fits = True
    exact = True

    @property
    def conflict(self) -> list[int]:
        """None: a record the rules allow fits some order of the unseen cards."""
        return []

    @property
    def forced(self) -> list[Fact]:
        """No holding is named: the screens say what is face up."""
        return []

    @property
    def ended(self) -> list[Fact]:
        """None."""
        return []

    @property
    def left(self) -> Left:
        """The orders of the unseen cards under the face-down places, all equally likely."""
        return Left(float(math.factorial(len(self.temple.unseen))), True, "order")

    def holdings(self) -> tuple[tuple[Holder, ...], tuple[Item, ...]]:
        """None named."""
        return (), ()

    def chance(self, holder: Holder, item: Item) -> Fraction | None:
        """No holding is named."""
        return None


def believe(record: Any, deadline: Any) -> Tracker:
    """The temple after the record (the ``believe`` part; nothing to cut short)."""
    return Tracker(record, follow(record.events, record.table, record.start)[-1])
