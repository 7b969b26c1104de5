"""Looting London replayed: each turn of mine weighed as ``next`` weighed it, against its best.

At the step before each of my turns, ``next``'s best turn is the step's best move (its chance:
that I can meld some tile at my next turn), and the turn I played is weighed the same way
(``advice.weigh_turn``: my own payment, my own draw, the deck's card as its chances, not as it
fell). A turn is as good as the best when its value is; else it let go the difference in
expected points. A turn with a clear in it is not judged (``next`` does not weigh clears).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sleuth.errors import InputError
from sleuth.games.london.advice import DECK, Turn, advise, weigh_turn
from sleuth.games.london.hands import Hands
from sleuth.games.london.picture import turn_words
from sleuth.games.london.rules import Clear, Destroy, Draw, Meld
from sleuth.replay import Best, Judged, Move, Step, Tick

WORST = 3  # turns named in the summary as those that let go the most


def my_turns(record: Any) -> list[tuple[int, list[Any]]]:
    """Each turn of mine: the events before it, and its own events (its draw last)."""
    out: list[tuple[int, list[Any]]] = []
    current: list[Any] | None = None
    for k, event in enumerate(record.events):
        if event.by != record.table.me:
            current = None
            continue
        if current is None:
            current = []
            out.append((k, current))
        current.append(event)
        if isinstance(event, Draw):
            current = None
    return [(k, events) for k, events in out if isinstance(events[-1], Draw)]


def belief_of(step: Step) -> Hands | None:
    """The step's belief, when some hidden state fits it."""
    found = getattr(step.odds, "belief", None)
    return found if isinstance(found, Hands) and found.consistent else None


def best_of(best: Turn) -> Best:
    """``next``'s best turn at a step, its chance that I can meld some tile at my next turn."""
    data = {"move": turn_words(best), "value": float(best.value), "ready": float(best.ready)}
    return Best(turn_words(best, paid=False), best.ready, True, data)


def judged_turn(index: int, events: list[Any], found: Hands, best: Turn) -> Move | None:
    """My turn as played, against ``next``'s best at the step before it."""
    if any(isinstance(e, Clear) for e in events):
        return None
    first = tuple(e for e in events if isinstance(e, Destroy | Meld))
    draw: Draw = events[-1]
    card = DECK if draw.deck else draw.card
    if card is None:
        return None
    try:
        mine = weigh_turn(found, first, card)
    except InputError:  # a step the course refuses there: the record says so elsewhere
        return None
    lost = max(Fraction(0), best.value - mine.value)
    verdict = "the best" if not lost else f"best {turn_words(best)} ({float(best.value):.2f})"
    line = f"my turn, {turn_words(mine)}: value {float(mine.value):.2f}; {verdict}"
    data = {
        "event": index,
        "move": turn_words(mine),
        "value": float(mine.value),
        "best": turn_words(best),
        "best_value": float(best.value),
        "lost": float(lost),
    }
    return Move(index, line, data)


def judge(record: Any, found: list[Step], budget: float, memory: Any, tick: Tick | None) -> Judged:
    """The game's judgement of a replay (its ``judge`` part)."""
    best: list[Best | None] = [None] * len(found)
    moves: list[Move] = []
    for k, events in my_turns(record):
        belief = belief_of(found[k]) if k < len(found) else None
        if belief is None or belief.course.over:
            continue
        try:
            options = advise(belief, {}).options
        except InputError:  # not my turn by the course (a turn out of order): not weighed
            continue
        if not options:
            continue
        best[k] = best_of(options[0])
        move = judged_turn(k + 1, events, belief, options[0])
        if move is not None:
            moves.append(move)
        if tick:
            tick()
    return Judged(best, moves, {}, summary_lines(moves), {"turns": [m.data for m in moves]})


def summary_lines(moves: list[Move]) -> list[str]:
    """How many of my turns were as good as ``next``'s best, and those that let go the most."""
    if not moves:
        return []
    at_best = sum(m.data["lost"] == 0 for m in moves)
    lost = sum(m.data["lost"] for m in moves)
    lines = [
        f"My turns weighed: {len(moves)}, {at_best} as good as next's best; "
        f"{lost:.2f} expected points let go in all (points now + the best meld next turn)."
    ]
    worst = sorted((m for m in moves if m.data["lost"] > 0), key=lambda m: -m.data["lost"])
    for m in worst[:WORST]:
        lines.append(
            f"  event {m.event}: {m.data['move']} let go {m.data['lost']:.2f}"
            f" against {m.data['best']}"
        )
    return lines
