"""Goldraub replayed: the best guess of each step, the recorded guesses judged, the points let go.

A guess is worth making when its expected points are above zero: right it scores 10 x the
round value, wrong it costs 5 x (rulebook: Discovering a Hiding Place), so when it is right
with a chance above 1/3. A certain card of another player that I did not guess as soon as the
rules let me is a chance missed: the round value only falls (``missed``, as the contract
defines it). Another player's guess of my own card is no gamble of mine: it is "my card".
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from sleuth.chance import certain, impossible
from sleuth.games.goldraub.rules import Guess, guess_points, may_guess, round_value, scores
from sleuth.model import Holder, Item
from sleuth.render.common import pct
from sleuth.replay import Best, Judged, Move, Step, Tick

if TYPE_CHECKING:
    from sleuth.record import Record
    from sleuth.solve import Remembered

WORTH = Fraction(1, 3)  # a guess right with a higher chance has expected points above zero


def revealed(record: Record) -> list[set[tuple[Holder, Item]]]:
    """For each k, the cards laid face up by right guesses among the first k events."""
    shown: set[tuple[Holder, Item]] = set()
    out = [shown]
    for event in record.events:
        if isinstance(event, Guess) and event.correct:
            shown = shown | {(event.owner, event.sector)}
        out.append(shown)
    return out


def best_guess(record: Record, step: Step, shown: set) -> Best | None:
    """The most likely holding of another player not yet face up, after the step."""
    if not step.consistent:
        return None
    me, city = record.table.me, record.start.city
    options = [
        (p, owner, s)
        for owner in record.table.players
        if owner != me
        for s in city.sectors
        if (owner, s) not in shown and (p := step.probability(owner, s))
    ]
    if not options:
        return None
    p, owner, s = min(options, key=lambda o: (-o[0], o[1], int(o[2])))
    data = {"owner": owner, "sector": s, "probability": float(p)}
    return Best(f"{owner} {s}", p, step.exact, data)


def verdict(correct: bool, p: Fraction) -> str:
    """How a guess looks from my side: safe, worth it, lucky; impossible, unlucky, rash."""
    if correct:
        return "safe" if certain(p) else "worth it" if p > WORTH else "lucky"
    return "impossible" if impossible(p) else "unlucky" if p > WORTH else "rash"


def judged_guess(record: Record, index: int, guess: Guess, before: Step) -> Move:
    """A recorded guess, with my chance of it after the events before it."""
    p = before.probability(guess.owner, guess.sector)
    who = (
        f"my guess of {guess.owner}"
        if guess.by == record.table.me
        else (f"{guess.by} guessed {guess.owner}")
    )
    outcome = "right" if guess.correct else "wrong"
    if guess.owner == record.table.me:
        line = f"{who} {guess.sector}: {outcome}, {'' if guess.correct else 'not '}my card"
    else:
        judgement = "" if p is None else f", {verdict(guess.correct, p)}"
        line = f"{who} {guess.sector} at {pct(p)}: {outcome}{judgement}"
    data = {
        "event": index,
        "by": guess.by,
        "owner": guess.owner,
        "sector": guess.sector,
        "correct": guess.correct,
        "probability": None if p is None else float(p),
    }
    return Move(index, line, data)


def missed(record: Record, found: list[Step]) -> list[dict]:
    """The contract's ``missed``: certain cards of others I did not guess once I could, the cost.

    Each holding alone, from the step that made it certain: the first step at which it is still
    face down and the rules let me guess (the game not over, fewer than two guesses of mine in
    the round, none of them wrong); a holding revealed before that step is no chance missed.
    """
    table, events = record.table, record.events
    if table.me is None:  # a spectator makes no guess, so misses none
        return []
    n, rounds, size = len(table.players), record.start.rounds, record.start.city.hand_size
    mine = {
        (e.owner, e.sector): j
        for j, e in enumerate(events, 1)
        if isinstance(e, Guess) and e.correct and e.by == table.me
    }
    free = [
        may_guess(events[:k], table.players, rounds, table.me, size)[0]
        for k in range(len(events) + 1)
    ]
    shown, out = revealed(record), []
    for step in found:
        for owner, s in step.forced:
            if owner not in table.players or owner == table.me:
                continue
            k = _first_chance(step.event, (owner, s), shown, free)
            if k is None:
                continue
            value = round_value(events, n, rounds, k)
            at = mine.get((owner, s))
            later = 0 if at is None else round_value(events, n, rounds, at - 1)
            lost = guess_points(True, value - later)
            if lost > 0:
                out.append(
                    {
                        "event": k,
                        "owner": owner,
                        "sector": s,
                        "value": value,
                        "guessed_at": at,
                        "lost": lost,
                    }
                )
    return sorted(out, key=lambda c: (c["event"], c["owner"], int(c["sector"])))


def _first_chance(k: int, holding: tuple[Holder, Item], shown, free: list[bool]) -> int | None:
    """The first step from ``k`` at which ``holding`` is face down and I may guess, or None."""
    for j in range(k, len(free)):
        if holding in shown[j]:
            return None
        if free[j]:
            return j
    return None


def mark(chance: dict) -> str:
    """A missed chance in words, with the JSON's numbers: its points let go, value and guess."""
    when = (
        "never guessed"
        if chance["guessed_at"] is None
        else (f"guessed at event {chance['guessed_at']}")
    )
    return (
        f"missed {chance['owner']} {chance['sector']}: {chance['lost']} pts let go "
        f"(value {chance['value']} here; {when})"
    )


def hands_known(record: Record, found: list[Step]) -> dict[Holder, int | None]:
    """For each other player, the first step after which all of his cards were certain."""
    size = record.start.city.hand_size
    held: dict[Holder, set] = {p: set() for p in record.table.players if p != record.table.me}
    first: dict[Holder, int | None] = dict.fromkeys(held)
    for step in found:
        for owner, s in step.forced:
            if owner in held:
                held[owner].add(s)
                if len(held[owner]) == size and first[owner] is None:
                    first[owner] = step.event
    return first


def summary(record: Record, chances: list[dict], hands: dict[Holder, int | None]) -> list[str]:
    """My points and the points of the missed chances, each counted alone; the hands known.

    Each chance is counted as if it were the only one (the contract's ``missed``): two of them
    in one round may not both have been takeable with two guesses a round, so their sum is no
    score I could have reached, and the line says so.
    """
    me = record.table.me
    lines = [] if me is None else [points(record, me, chances)]
    known = [f"{p} after event {k}" for p, k in sorted(hands.items(), key=_when) if k is not None]
    unknown = [p for p, k in hands.items() if k is None]
    words = "; ".join(known) if known else "none"
    rest = f"; not known: {', '.join(unknown)}." if unknown else "."
    lines.append(f"Hands known: {words}{rest}")
    return lines


def _when(pair: tuple[Holder, int | None]) -> float:
    """A hand's place in the summary: the event that made it known (unknown ones last)."""
    return math.inf if pair[1] is None else pair[1]


def points(record: Record, me: Holder, chances: list[dict]) -> str:
    """My points, and those I let go in missed chances, each counted alone."""
    mine = scores(record.events, record.table.players, record.start.rounds)[me]
    if not chances:
        return f"My points: {mine}; no chance missed."
    lost = sum(c["lost"] for c in chances)
    missed = f"{len(chances)} missed chance" + ("" if len(chances) == 1 else "s")
    alone = ", each counted alone: two guesses a round may not take them all" * (len(chances) > 1)
    return f"My points: {mine}; {lost} let go in {missed}{alone}."


def judge(
    record: Record, found: list[Step], budget: float, memory: Remembered, tick: Tick | None
) -> Judged:
    """The game's judgement of a replay (its ``judge`` part; it counts nothing more)."""
    shown = revealed(record)
    best = []
    for step in found:
        best.append(best_guess(record, step, shown[step.event]))
        if tick:
            tick()
    moves = [
        judged_guess(record, i, e, found[i - 1])
        for i, e in enumerate(record.events, 1)
        if isinstance(e, Guess)
    ]
    chances = missed(record, found)
    marks: dict[int, list[str]] = {}
    for c in chances:
        marks.setdefault(c["event"], []).append(mark(c))
    extras = {"guesses": [m.data for m in moves], "missed": chances}
    lines = summary(record, chances, hands_known(record, found))
    return Judged(best, moves, {k: "; ".join(v) for k, v in marks.items()}, lines, extras)
