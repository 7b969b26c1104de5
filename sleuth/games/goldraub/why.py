"""Goldraub in plain words for ``sleuth why``: what the setup or one event states.

Each sentence restates the event's tallies (``rules.Search.tallies``, ``rules.Guess.tallies``)
and nothing more, so that a reason built from them is as true as the events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.games.goldraub.rules import Guess, Search

if TYPE_CHECKING:
    from sleuth.record import Record


def listed(words: list[str]) -> str:
    """Words joined as a list is said: "a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def whose(record: Record, player: str) -> str:
    """A player as the subject of a sentence: "I" for me."""
    return "I" if player == record.table.me else player


def searched(record: Record, index: int, search: Search) -> str:
    """A search: how many players but the asker hold a sector of the row (and of those I saw)."""
    table = record.table
    but = "me" if search.by == table.me else search.by
    answering = len(table.others(search.by))
    if search.gold == 0:
        told = f"no one but {but} holds a sector of {search.row}"
    elif search.gold == answering:
        told = f"every player but {but} holds a sector of {search.row}"
    else:
        many = "player" if search.gold == 1 else "players"
        verb = "holds" if search.gold == 1 else "hold"
        told = f"{search.gold} {many} other than {but} {verb} a sector of {search.row}"
    if search.saw is not None and table.me is not None:
        seen = [whose(record, p) for p in table.between(search.by, table.me)]
        told += f", {search.saw or 'none'} of them among {listed(seen)}"
    return f"{told} (event {index})"


def guessed(record: Record, index: int, guess: Guess) -> str:
    """A guess: the owner holds the sector (right) or does not (wrong)."""
    who = "my" if guess.by == record.table.me else f"{guess.by}'s"
    if guess.correct:
        return f"{who} right guess at event {index} showed {guess.owner} holds {guess.sector}"
    return f"{who} wrong guess at event {index} showed {guess.owner} does not hold {guess.sector}"


def plainly(record: Record, index: int) -> str:
    """What the setup (index 0) or event ``index`` states, as a clause of a sentence."""
    if index == 0 and not record.start.hand:
        return "no hand is seen (a game watched)"
    if index == 0:
        return f"my hand is {listed(list(record.start.hand))}"
    event = record.events[index - 1]
    if isinstance(event, Search):
        return searched(record, index, event)
    assert isinstance(event, Guess)  # Goldraub's events: searches and guesses
    return guessed(record, index, event)
