"""Loot of Lima's course of play: turns, who is out, the end, and what the rules forbid.

Whose turn it is, who is out after a wrong accusation, when the game is over, and the events
the rules forbid at their place (rulebook: Game Play, End of Game and Victory).
"""

from __future__ import annotations

from typing import Any

from sleuth.errors import InputError
from sleuth.games.base import Event, Status, Table
from sleuth.games.lima.rules import Accuse, QuestionEvent, Start
from sleuth.model import Holder


def out_of_game(events: list[Event], player: Holder | None) -> int | None:
    """The 1-based index of ``player``'s wrong accusation, which put them out, or None.

    None also for no player (a spectator's, who is never out).
    """
    for index, event in enumerate(events, 1):
        if isinstance(event, Accuse) and event.by == player and not event.correct:
            return index
    return None


def status(record: Any) -> Status:
    """The round, who asks next and who is out (rulebook: Game Turn, End of Game and Victory).

    Turns go clockwise from the first recorded asker, whose turns start the rounds; a player out
    after a wrong accusation takes no more turns. The game is over after a right accusation, or
    when one player alone is still in it.
    """
    table, events = record.table, record.events
    out = tuple(p for p in table.players if out_of_game(events, p) is not None)
    right = [e.by for e in events if isinstance(e, Accuse) and e.correct]
    playing = [p for p in table.players if p not in out]
    over = f"{right[0]} found the treasure" if right else None
    if not right and len(playing) == 1:
        over = f"{playing[0]} alone is still in the game"
    askers = [e.by for e in events if isinstance(e, QuestionEvent)]
    if not askers:
        return Status(1, None, out=out, over=over)
    seats = [(table.seat(p) - table.seat(askers[0])) % len(table.players) for p in askers]
    round_ = 1 + sum(b <= a for a, b in zip(seats, seats[1:], strict=False))
    turn = next((p for p in table.others(askers[-1]) + (askers[-1],) if p not in out), None)
    if over or turn is None:
        return Status(round_, None, out=out, over=over)
    later = (table.seat(turn) - table.seat(askers[0])) % len(table.players) <= seats[-1]
    return Status(round_ + later, turn, out=out, over=over)


def forbidden(events: list[Event], table: Table, start: Start) -> InputError | None:
    """The first event the rules forbid at its place, as an error naming it; None if none.

    Rulebook: End of Game and Victory: a right accusation ends the game; a wrong one puts the
    accuser out, who asks and accuses no more (but still answers).
    """
    for index, event in enumerate(events, 1):
        assert isinstance(event, (QuestionEvent, Accuse))  # Lima's events: all name who
        before = events[: index - 1]
        won = game_over(before)
        if won is not None:
            message = f"the game is over: the accusation at event {won} was right"
            return InputError("", "", message, index)
        out = out_of_game(before, event.by)
        if out is not None:
            message = f"{event.by} is out of the game since the wrong accusation at event {out}"
            return InputError("", "by", message, index)
    return None


def turn_note(record: Any, index: int) -> str | None:
    """A note when event ``index`` is a question out of turn, else None.

    Turns go clockwise and skip the players who are out (rulebook: Game Play, End of Game).
    """
    events, table = record.events, record.table
    event = events[index - 1]
    before = events[: index - 1]
    asked = [e for e in before if isinstance(e, QuestionEvent)]
    if not isinstance(event, QuestionEvent) or not asked:
        return None
    playing = [p for p in table.others(asked[-1].by) if out_of_game(before, p) is None]
    if not playing or event.by == playing[0]:
        return None
    return f"event {index}: {event.by} asked out of turn ({playing[0]} was next, clockwise)"


def game_over(events: list[Event]) -> int | None:
    """The 1-based index of the right accusation that ended the game, or None."""
    for index, event in enumerate(events, 1):
        if isinstance(event, Accuse) and event.correct:
            return index
    return None
