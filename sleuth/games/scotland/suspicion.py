"""Who holds the X card: an exact forward filter over the player who holds it.

The model, stated once (and in the README):

- The deal (rulebook: Setup): X is shuffled among the top 10 cards, every place equally
  likely, and the cards are dealt one at a time clockwise from ``first_dealt``; so the player
  ``j`` seats after ``first_dealt`` holds X with chance |{k < 10 : k mod P = j}| / 10.
- What shows who holds X, and nothing else does: a Mister X action (feint, buy, disappear)
  shows that its player holds X; an interrogation shows whether its target does; a manhunt
  that took k tickets from a hand of h cards is (h - k) / h as likely if the target holds X as
  if not (each card equally likely taken), and one that took X shows it; which ticket a player
  plays and whom they target tell nothing.
- X is a card: a player with no card does not hold it.
- A Disappear: X goes back to the player who handed it in with chance ``keep`` + (1 - ``keep``)
  / n and to each other player taking part with (1 - ``keep``) / n (n players take part: those
  in the game with a card; with chance ``keep`` Mister X hands in a ticket and keeps X, unless
  X is his only card; otherwise the n cards are dealt back at random).
- From my seat: my hand (X in it or not), what I got in a Disappear, and what I gave in mine.
  The public view leaves those out: what a player with no cards of their own can know, which
  is what the detectives can know about me when I am Mister X.

Every chance is an exact fraction: the states are the (at most five) players.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from sleuth.belief import Fact, Filtered, Kernel, Left, core, filtered
from sleuth.games.base import Event, Table
from sleuth.games.scotland.course import DETECTIVES, Course, follow, taking_part
from sleuth.games.scotland.rules import Start, Turn
from sleuth.games.scotland.tickets import TOP, X
from sleuth.model import Holder, Item

ONE = Fraction(1)
NOUN = "holder"  # what the filter's states are


def deal(table: Table, start: Start) -> dict[Hashable, Fraction]:
    """The chance each player was dealt X (rulebook: Setup), from who was dealt first."""
    n = len(table.players)
    first = table.seat(start.first_dealt)
    share: dict[Hashable, Fraction] = {p: Fraction(0) for p in table.players}
    for k in range(TOP):
        share[table.players[(first + k) % n]] += Fraction(1, TOP)
    return share


def my_hand(table: Table, start: Start) -> Kernel:
    """What my hand shows: X is mine if I was dealt it, else someone else's."""
    mine = X in start.hand
    return lambda holder: [(holder, ONE)] if (holder == table.me) == mine else []


def kernel(event: Event, before: Course, table: Table, start: Start, public: bool) -> Kernel:
    """Where X goes at ``event`` from each holder, weighed by what the event showed."""
    if not isinstance(event, Turn):
        return stays
    if event.action == "disappear":
        return disappear(event, before, table, start, public)
    if event.mister_x:
        return only(event.by)
    if event.action == "interrogation" and event.target is not None:
        return only(event.target) if event.found else never(event.target)
    if event.action == "manhunt" and event.target is not None:
        if event.found:
            return only(event.target)
        return missed(event.target, before.hands[event.target], len(event.took or ()))
    return stays


def stays(holder: Hashable) -> list[tuple[Hashable, Fraction]]:
    """Nothing moves and nothing is shown."""
    return [(holder, ONE)]


def only(player: Holder) -> Kernel:
    """The event shows that ``player`` holds X."""
    return lambda holder: [(holder, ONE)] if holder == player else []


def never(player: Holder) -> Kernel:
    """The event shows that ``player`` does not hold X."""
    return lambda holder: [] if holder == player else [(holder, ONE)]


def missed(target: Holder, hand: int, took: int) -> Kernel:
    """A manhunt took ``took`` cards of ``hand``, none of them X: (h - k) / h if held."""
    if not hand:
        return stays
    miss = Fraction(hand - took, hand)
    return lambda holder: [(holder, miss if holder == target else ONE)]


def disappear(event: Turn, before: Course, table: Table, start: Start, public: bool) -> Kernel:
    """Mister X (``by``) hands in X or keeps it, the cards are dealt back; my own cards if seen."""
    players = [p for p in table.players if p == event.by or taking_part(before, table, p)]
    me, by = table.me, event.by
    keep = start.keep if before.hands[by] > 1 else Fraction(0)  # X alone: X goes
    if not public and me == by and event.gave is not None:
        keep = Fraction(event.gave != X)  # I know what I handed in
    share = (1 - keep) / len(players)
    seen = None if public or event.got is None else event.got == X

    def moves(holder: Hashable) -> list[tuple[Hashable, Fraction]]:
        if holder != by:
            return []
        kept: list[tuple[Hashable, Fraction]] = [(by, keep)] if keep and seen is not True else []
        dealt = [(p, share) for p in players if seen is None or (p == me) == seen]
        return kept + dealt  # my ``got`` is X only when X was handed in and dealt to me

    return moves


def steps(
    record: Any, public: bool = False, courses: list[Course] | None = None
) -> tuple[dict[Hashable, Fraction], list[Kernel]]:
    """The prior and one kernel per event: from my seat (my hand in the prior) or the public's.

    ``courses``: the record's course (``follow``), when it is already followed.
    """
    table, start = record.table, record.start
    courses = courses or follow(record.events, table, start)
    kernels = [
        carded(kernel(e, courses[k], table, start, public), courses[k + 1])
        for k, e in enumerate(record.events)
    ]
    prior = deal(table, start)
    if not public:
        hand = my_hand(table, start)
        prior = {h: w for h, w in prior.items() for _, _ in hand(h)}
    return prior, kernels


def carded(moves: Kernel, after: Course) -> Kernel:
    """``moves``, then X only with a player who holds a card (not once X was caught)."""
    if after.over == DETECTIVES:
        return moves
    return lambda holder: [(h, w) for h, w in moves(holder) if after.hands[str(h)] > 0]


def held(holder: Hashable) -> frozenset[tuple[Holder, Item]]:
    """The holding true when ``holder`` holds X."""
    return frozenset({(str(holder), X)})


def view(record: Any, public: bool, courses: list[Course] | None = None) -> Filtered:
    """The filter's belief from my seat, or the public's (``courses``: as ``steps``)."""
    prior, kernels = steps(record, public, courses)
    found = filtered(record, prior, kernels, held, (record.table.players, (X,)), NOUN)
    if found.consistent or public:
        return found
    deal_prior = deal(record.table, record.start)
    blamed = core(deal_prior, [my_hand(record.table, record.start), *kernels])
    return replace(found, conflict=[k - 1 for k in blamed])  # my hand is the setup: 0


@dataclass(frozen=True)
class Suspicion:
    """Who holds X, from my seat (the ``Belief`` every screen reads) and from the public's.

    ``course``: where the game stands (``scotland.course``).
    """

    mine: Filtered
    public: Filtered
    course: Course

    @property
    def record(self) -> Any:
        """The record believed."""
        return self.mine.record

    @property
    def consistent(self) -> bool:
        """Whether some holder of X fits the record, from my seat."""
        return self.mine.consistent

    @property
    def fits(self) -> bool:
        """As ``consistent``: a filter tolerates no wrong answer."""
        return self.mine.fits

    @property
    def exact(self) -> bool:
        """Always: the chances are exact fractions."""
        return True

    @property
    def conflict(self) -> list[int]:
        """When no holder fits: a minimal set of events (0: my hand) that cannot all hold."""
        return self.mine.conflict

    @property
    def forced(self) -> list[Fact]:
        """Who holds X for certain now, since when (not when my own hand alone says so)."""
        return self.mine.forced

    @property
    def ended(self) -> list[Fact]:
        """Who held X for certain and may not any more (a Disappear)."""
        return self.mine.ended

    @property
    def left(self) -> Left:
        """How many players may hold X."""
        return self.mine.left

    def holdings(self) -> tuple[tuple[Holder, ...], tuple[Item, ...]]:
        """The players and the one card that matters, X."""
        return self.mine.holdings()

    def chance(self, holder: Holder, item: Item) -> Fraction | None:
        """The chance from my seat that ``holder`` holds ``item`` (X)."""
        return self.mine.chance(holder, item)

    def suspicion(self, public: bool = False) -> dict[Holder, Fraction]:
        """Each player's chance of holding X (empty when no holder fits)."""
        found = self.public if public else self.mine
        if not found.consistent:
            return {}
        return {p: found.chance(p, X) or Fraction(0) for p in self.record.table.players}


def believe(record: Any, deadline: Any) -> Suspicion:
    """Who holds X after the record, exactly, from my seat and the public's (no count to cut)."""
    courses = follow(record.events, record.table, record.start)
    mine, public = view(record, False, courses), view(record, True, courses)
    return Suspicion(mine, public, courses[-1])
