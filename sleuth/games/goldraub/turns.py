"""Goldraub in London's course of play: turns, rounds, the end, and what the rules forbid.

Whose turn it is, the round and its value, and the events the rules forbid at their place
(rulebook: Course of Play, Discovering a Hiding Place).
"""

from __future__ import annotations

from typing import Any

from sleuth.errors import InputError
from sleuth.games.base import Event, Status, Table
from sleuth.games.goldraub.rules import Guess, Search, Start, game_over, may_guess, round_value
from sleuth.model import Item


def status(record: Any) -> Status:
    """The round being played, its value, and who searches next (rulebook: Course of Play).

    A round ends once every player has searched; the next searcher sits to the left of the last
    one (None before the first search, and once the game is over: End of the Game).
    """
    table, rounds = record.table, record.start.rounds
    players = len(table.players)
    searches = [e for e in record.events if isinstance(e, Search)]
    value = round_value(record.events, players, rounds)
    over = game_over(record.events, table.players, rounds, record.start.city.hand_size)
    turn = record.table.offset(searches[-1].by, 1) if searches and not over else None
    return Status(min(len(searches) // players + 1, rounds), turn, value, over=over)


def forbidden(events: list[Event], table: Table, start: Start) -> InputError | None:
    """The first event the rules forbid at its place, as an error naming it; None if none.

    Rulebook: End of the Game (the round counter at 0, or the cards face down all one player's
    or none) and Discovering a Hiding Place (a revealed card stays face up; two guesses a
    round, none after a wrong one).
    """
    size = start.city.hand_size
    revealed: dict[Item, int] = {}  # a face-up sector: the event of its right guess
    for index, event in enumerate(events, 1):
        before = events[: index - 1]
        over = game_over(before, table.players, start.rounds, size)
        if over:
            message = f"the game is over before this {event.kind}: {over}"
            return InputError("", "", message, index)
        if not isinstance(event, Guess):
            continue
        if event.sector in revealed:
            since = revealed[event.sector]
            message = f"{event.sector} is face up since the right guess at event {since}"
            return InputError("", "sector", message, index)
        allowed, why = may_guess(before, table.players, start.rounds, event.by, size)
        if not allowed:
            return InputError("", "by", f"{event.by} may not guess now: {why}", index)
        if event.correct:
            revealed[event.sector] = index
    return None


def turn_note(record: Any, index: int) -> str | None:
    """A note when event ``index`` is a search out of turn (turns go clockwise), else None."""
    events, table = record.events, record.table
    event = events[index - 1]
    last = [e for e in events[: index - 1] if isinstance(e, Search)]
    if not isinstance(event, Search) or not last:
        return None
    due = table.offset(last[-1].by, 1)
    if event.by == due:
        return None
    return f"event {index}: {event.by} searched out of turn ({due} was next, clockwise)"
