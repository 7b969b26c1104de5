"""The application layer: what each command asks of one record, as plain results.

A ``Session`` is a record's file and the memory kept for it (the order of its last hard count
and its dated facts, ``sleuth.solve.memory``). Each command parses its input, asks its session
(load, report, record, edit, check, advise, replay, why) and draws what comes back; none of
them counts or deduces. A session keeps the last belief it made of the whole record, so that
``sleuth play`` reads it for its status line instead of counting the record again.

A session raises ``InputError`` for input it cannot use (the command line words it); it prints
nothing and knows no terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sleuth.errors import InputError
from sleuth.games import part

if TYPE_CHECKING:
    from sleuth.belief import Belief
    from sleuth.beliefs import Update
    from sleuth.budget import Deadline
    from sleuth.games.base import Event
    from sleuth.model import Holder, Item, Pair
    from sleuth.record import Record
    from sleuth.replay import Replay, Step, Tick
    from sleuth.solve import Remembered
    from sleuth.why import Proof

STATUS = 5.0  # seconds for the belief of the setup alone, to name a game's holders and items
Memory = Callable[[], AbstractContextManager["Remembered"]]  # opens the record's memory
Warn = Callable[[str], None]


@dataclass(frozen=True)
class Edited:
    """An edit's belief, and the holdings it made certain and no longer certain (None: unfit)."""

    report: Belief
    changed: tuple[list[Pair], list[Pair]] | None


@dataclass(frozen=True)
class Advised:
    """``next``: the belief of the record, and the game's advice (None: no state fits)."""

    report: Belief
    advice: Any


@dataclass(frozen=True)
class Why:
    """Why a fact is what it is: a proof, or the steps that moved its chance.

    ``proof`` is (the smallest proof, an earlier one or None) when the fact is certain and the
    game's belief has proofs (the deal count); else ``steps`` are the record's prefixes, for
    how the chance moved. ``fits`` is False when no state fits the record (neither is given).
    """

    pair: Pair
    fits: bool = True
    proof: tuple[Proof, Proof | None] | None = None
    steps: list[Step] | None = None
    noun: str = "deal"  # what fits the record: a deal, or a state of the game's own belief


class Session:
    """One record file, the memory its counts share, and the last belief made of it."""

    def __init__(self, path: Path, memory: Memory):
        self.path = path
        self.memory = memory
        self.last: Belief | None = None

    def memory_for(self, record: Record) -> AbstractContextManager[Remembered | None]:
        """The memory the record's counts share; none for a game with a belief of its own."""
        from sleuth.beliefs import own

        return nullcontext() if own(record) else self.memory()

    def load(self) -> Record:
        """The record as it stands in its file, whatever its rules say of it."""
        from sleuth.store import load

        return load(self.path, keep=False)[0]

    def analysable(self, upto: int | None = None, public: bool = False) -> Record:
        """The record for an analysis (``upto``: its first N events), if no rule forbids one.

        The rules are checked on the whole record, whatever ``upto`` keeps. ``public``: the
        record as a spectator knows it (``Record.public``).
        """
        record = self.load()
        error = record.forbidden()
        if error is not None:
            error.message += " (edit or delete the event to repair the record)"
            raise error.located(source=str(self.path))
        record = record if upto is None else record.upto(upto)
        return record.public() if public else record

    def believe(
        self,
        record: Record,
        deadline: Deadline,
        tolerate: int = 0,
        dating: bool = True,
        estimating: bool = True,
        details: bool = True,
    ) -> Belief:
        """What the record's game believes of it (``beliefs.belief``), kept as the last.

        With the game's ``details`` for its screens (``beliefs.detailed``) unless not wanted
        (``next`` and a check of one move read none).
        """
        from sleuth.beliefs import belief

        with self.memory_for(record) as memory:
            found = belief(record, deadline, tolerate, memory, dating, estimating, details)
        return self.kept(found, tolerate)

    def kept(self, found: Any, tolerate: int = 0) -> Any:
        """``found``, kept as the last belief unless it tolerates a wrong answer."""
        if not tolerate:
            self.last = found
        return found

    def latest(self, record: Record) -> Belief | None:
        """The last belief made, with its details, if it is of ``record`` as it stands."""
        from sleuth.beliefs import detailed

        last = self.last
        if last is None or last.record.fields() != record.fields():
            return None
        self.last = detailed(last)
        return self.last

    def append(
        self, kind: str, fields: dict, source: str, warn: Warn, before: int | None = None
    ) -> Record:
        """Add one event atomically (``before``: ahead of that event); the record with it."""
        from sleuth.store import append

        return append(self.path, kind, fields, source, warn, before)

    def update(self, record: Record, deadline: Deadline, at: int | None = None) -> Update:
        """What event ``at`` (default: the last) changed: the belief, and the facts it made."""
        from sleuth.beliefs import update

        with self.memory_for(record) as memory:
            result = update(record, deadline, memory, at)
        self.kept(result.report)
        return result

    def change(
        self, index: int, fields: dict, source: str, warn: Warn
    ) -> tuple[Record, Event, Event]:
        """Change event ``index`` in place: the record, the old event and the new.

        When the event already said so, the file is left as it was (the two are equal).
        """
        from sleuth.store import change

        return change(self.path, index, fields, source, warn)

    def edited(self, record: Record, index: int, old: Event, deadline: Deadline) -> Edited:
        """What the edit of event ``index`` from ``old`` changed (``beliefs.edited``).

        The belief has no game's details (``sleuth edit`` shows none; ``latest`` makes them).
        """
        from sleuth.beliefs import edited

        with self.memory_for(record) as memory:
            found, changed = edited(record, index, old, deadline, memory)
        return Edited(self.kept(found), changed)

    def advise(self, record: Record, options: dict, deadline: Deadline) -> Advised:
        """``next``: the questions of my next turn, from exact counts alone.

        An InputError when the game has no advice, an option is not the game's, the game is
        over or I am out of it.
        """
        advise = part(record.rules, "advise", None)
        if advise is None:
            raise InputError("sleuth next", "", f"{record.rules.title} has no advice")
        seated(record, "sleuth next")
        part(record.rules, "check_options", no_options)(record, options)
        found = self.believe(record, deadline, dating=False, estimating=False, details=False)
        if not found.consistent:
            return Advised(found, None)
        playing(found.record)
        return Advised(found, advise(found, options, deadline))

    def replay(self, record: Record, budget: float, tick: Tick | None = None) -> Replay:
        """Every prefix of the record, and what the game judges of them."""
        from sleuth.replay import replay

        with self.memory_for(record) as memory:
            return replay(record, budget, memory, tick)

    def holdings(self, record: Record) -> tuple[tuple[Holder, ...], tuple[Item, ...]]:
        """The holders and the items of the record's game: its deal's, or its own belief's."""
        if part(record.rules, "deal", None) is not None:
            space = record.model().space
            return space.holders, space.items
        from sleuth.beliefs import belief
        from sleuth.budget import due

        return belief(record.upto(0), due(STATUS)).holdings()

    def why(self, record: Record, holder: str, item: str, budget: float) -> Why:
        """Why the holder (named as ``why.fact`` takes it) holds ``item`` or not.

        Its proof when certain, else how its chance moved. The chance is counted first: an
        exact count that leaves it open needs no z3.
        """
        from sleuth.replay import noun, steps
        from sleuth.why import fact

        holdings = self.holdings(record)
        if not all(holdings):
            title = record.rules.title
            raise InputError("sleuth why", "", f"{title} names no holding to explain (see report)")
        pair = fact(record, holder, item, holdings)
        holder, item = pair
        if part(record.rules, "deal", None) is None:  # a belief of its own: its chance's moves
            found = steps(record, budget)
            return Why(pair, found[-1].consistent, None, found, noun(found))
        from sleuth.budget import due
        from sleuth.odds import odds

        with self.memory() as memory:
            now = odds(record.model(), due(budget), memory=memory, plain=True)
            if now.exact and now.worlds and 0 < now.held[pair] < now.worlds:
                return Why(pair, True, None, steps(record, budget, memory))
        from sleuth.solve import Entailment
        from sleuth.why import proof

        entail = Entailment(record.model())
        if not entail.consistent():
            return Why(pair, False)
        found_proof = proof(record, holder, item, entail)
        if found_proof is not None:
            return Why(pair, True, found_proof)
        with self.memory() as memory:
            return Why(pair, True, None, steps(record, budget, memory))


def no_options(record: Record, given: dict) -> None:
    """A game's ``check_options`` part when it has none: it takes no ``next`` option."""
    if given:
        option = next(iter(given))
        raise InputError("sleuth next", option, f"{record.rules.title} takes no --{option}")


def seated(record: Record, command: str) -> None:
    """An InputError when the record has no ``me`` (a game watched): ``command`` weighs my move."""
    if record.table.me is None:
        message = "a record without 'me' (a game watched) has no move of mine: see 'sleuth report'"
        raise InputError(command, "me", message)


def playing(record: Record) -> None:
    """An InputError when I have no next turn: the game is over, or I am out of it."""
    status = record.rules.status(record)
    if status.over:
        raise InputError("sleuth next", "", f"the game is over ({status.over}): no turn to plan")
    if record.table.me in status.out:
        raise InputError("sleuth next", "", "I am out of the game: no turn to plan")
