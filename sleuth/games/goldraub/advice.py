"""Should I guess now? Goldraub guesses weighed by probability and the scoring rules."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sleuth.games.goldraub.rules import (
    Guess,
    Search,
    expected_points,
    game_over,
    may_guess,
    round_value,
    scores,
)
from sleuth.model import Holder, Item

if TYPE_CHECKING:
    from sleuth.analysis import Report
    from sleuth.record import Record


@dataclass(frozen=True)
class Timing:
    """Guessing a holding now against one round later: the model of ``rules.TIMING``.

    ``now``: the expected points now; ``later``: the round value once every player has searched
    once more; ``taken``: the chance another player takes the card first; ``wait`` and
    ``least``: what waiting brings at best and at least; ``allowed``: whether the rules let me
    guess now.
    """

    now: Fraction
    later: int
    taken: Fraction
    wait: Fraction
    allowed: bool
    least: Fraction = Fraction(0)

    @property
    def verdict(self) -> str:
        """Not allowed now, guess now, wait, not worth it, or close (``rules.TIMING``).

        Only what the bounds prove: "wait" needs waiting's least to beat now, "guess now" now
        to match waiting's best.
        """
        if not self.allowed:
            return "not allowed now"
        if self.now > 0 and self.now >= self.wait:
            return "guess now"
        if self.least > self.now:
            return "wait"
        if self.now <= 0 and self.wait <= 0:
            return "not worth it"
        return "close"


def taken_first(record: Record) -> Fraction:
    """The chance another player takes one given card of another player within a round.

    The other players' right guesses so far of cards not mine, plus one, per round played (at
    least one), shared evenly over the other players' cards still face down.
    """
    me, n = record.table.me, len(record.table.players)
    right = [e for e in record.events if isinstance(e, Guess) and e.correct and e.owner != me]
    theirs = sum(e.by != me for e in right)
    cards = (n - 1) * record.start.city.hand_size - len(right)
    rounds = max(1, sum(isinstance(e, Search) for e in record.events) // n)
    return min(Fraction(1), Fraction(theirs + 1, rounds * max(cards, 1)))


def timing(record: Record, p: Fraction, allowed: bool) -> Timing:
    """Guessing a holding right with chance ``p`` now against a round later (``rules.TIMING``)."""
    n, rounds = len(record.table.players), record.start.rounds
    searches = sum(isinstance(e, Search) for e in record.events)
    now = Fraction(expected_points(p, round_value(record.events, n, rounds)))
    later = max(0, rounds - (searches + n) // n)
    taken = taken_first(record)
    best = p * (1 - taken) * 10 * later
    least = max(Fraction(0), later * (10 * p * (1 - taken) - 5 * (1 - p)))
    return Timing(now, later, taken, best, allowed, least)


@dataclass(frozen=True)
class GuessCheck:
    """One possible guess: its probability, its expected points now, and whether I may make it."""

    owner: Holder
    sector: Item
    probability: Fraction | None
    exact: bool
    value: int
    expected: Fraction | None
    allowed: bool
    why: str
    revealed: bool
    own: bool = False
    timing: Timing | None = None  # guess now or wait: None for my own or a face-up card

    @property
    def verdict(self) -> str:
        """certain, worth it (expected points above zero), not worth it, or unknown.

        Or, for a guess I may not make: already revealed, my own card, not allowed now.
        """
        if self.revealed:
            return "already revealed"
        if self.own:
            return "my own card"
        if not self.allowed:
            return "not allowed now"
        if self.probability is None or self.expected is None:
            return "unknown"
        if self.probability == 1 and self.exact:
            return "certain"
        return "worth it" if self.expected > 0 else "not worth it"


def _revealed(report: Report) -> dict[Item, tuple[Holder, int]]:
    """Sectors laid face up after a right guess: their owner and the guess's event."""
    events = enumerate(report.record.events, 1)
    return {e.sector: (e.owner, k) for k, e in events if isinstance(e, Guess) and e.correct}


def check_guess(report: Report, owner: Holder, sector: Item) -> GuessCheck:
    """Weigh the guess that ``owner`` holds ``sector`` for me, now, and whether I may make it."""
    record = report.record
    players, rounds = len(record.table.players), record.start.rounds
    value = round_value(record.events, players, rounds)
    size = record.start.city.hand_size
    allowed, why = may_guess(record.events, record.table.players, rounds, record.table.me, size)
    face_up = _revealed(report).get(sector)
    own = owner == record.table.me
    if own:
        held = "is" if sector in record.start.hand else "is not"
        allowed, why = False, f"{sector} {held} my own card: a guess names another player's"
    if face_up is not None:
        allowed, why = False, f"{sector} is face up, {face_up[0]}'s since event {face_up[1]}"
    p = report.odds.probability(owner, sector) if report.consistent else None
    expected = None if p is None else Fraction(expected_points(p, value))
    over = game_over(record.events, record.table.players, rounds, size)
    later = not own and not face_up and not over  # a round to wait for
    weighed = timing(record, p, allowed) if p is not None and later else None
    return GuessCheck(
        owner,
        sector,
        p,
        report.odds.exact,
        value,
        expected,
        allowed,
        why,
        face_up is not None,
        own,
        weighed,
    )


def best_guesses(report: Report, limit: int = 10) -> list[GuessCheck]:
    """The most likely guesses about other players' sectors that are not yet revealed."""
    record = report.record
    revealed = _revealed(report)
    options = [
        check_guess(report, owner, sector)
        for owner in record.table.players
        if owner != record.table.me
        for sector in record.start.city.sectors
        if sector not in revealed
    ]
    options = [o for o in options if o.probability]
    options.sort(key=lambda o: (-(o.probability or 0), o.owner, int(o.sector)))
    return options[:limit]


@dataclass(frozen=True)
class Standing:
    """The round value now and each player's score from the recorded guesses."""

    value: int
    scores: dict[Holder, int]


def standing(report: Report, deadline: Any) -> Standing:
    """The game's standing after the record (``Game.details``: no count needed)."""
    record = report.record
    players, rounds = len(record.table.players), record.start.rounds
    value = round_value(record.events, players, rounds)
    return Standing(value, scores(record.events, record.table.players, rounds))


def best_guess(report: Report) -> tuple[str, Fraction] | None:
    """My likeliest guess now, e.g. ("Bert 33", 2/5): the top of ``best_guesses``, or None."""
    found = best_guesses(report, 1) if report.consistent else []
    if not found:
        return None
    top = found[0]
    assert top.probability is not None  # best_guesses keeps the guesses with a chance
    return f"{top.owner} {top.sector}", top.probability
