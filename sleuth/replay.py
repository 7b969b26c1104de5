"""A recorded game replayed: the report of every prefix of the record, from the setup alone on.

Step k is what the record's belief says of ``record.upto(k)``: its worlds (or states), whether
they are exact, and the holdings that became certain with event k (and, for a belief whose
state moves, those that stopped being so). A deal-counting game's prefixes are counted by
``sleuth.prefixes``; a game with a belief of its own is believed prefix by prefix. A prefix that
fits nothing makes every longer one fit nothing. The game judges the moves (its ``judge``
part): each step's best move, the recorded guesses or accusations, and what the game lets a
player score or miss.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from sleuth.budget import due
from sleuth.games import part
from sleuth.model import Holder, Item, Pair

if TYPE_CHECKING:
    from sleuth.belief import Belief
    from sleuth.record import Record
    from sleuth.solve import Remembered

STEP_BUDGET = 5.0  # seconds for each step's count, by default
Tick = Callable[[], None]  # called once a step (or a game's pass over a step) is done


class Chances(Protocol):
    """What a step reads of its prefix's numbers: ``Odds``, or a game's own belief, ``Believed``."""

    @property
    def worlds(self) -> int:
        """The number of states that fit."""

    @property
    def exact(self) -> bool:
        """Whether the numbers are exact."""

    def probability(self, holder: Holder, item: Item) -> Fraction | None:
        """The chance that ``holder`` holds ``item``; None when it is not known."""


@dataclass(frozen=True)
class Step:
    """The record after the setup and its first ``event`` events, as its report reads.

    ``forced``: the holdings certain now and not after the step before (step 0: those the setup
    forces beyond what it states). ``ended``: those certain after the step before and not now
    (only a belief whose state moves has any). ``seconds``: the time the step took.
    """

    event: int
    consistent: bool
    odds: Chances
    forced: frozenset[Pair]
    seconds: float = 0.0
    ended: frozenset[Pair] = frozenset()

    @property
    def worlds(self) -> int:
        """The number of worlds (an estimate when not exact)."""
        return self.odds.worlds

    @property
    def exact(self) -> bool:
        """Whether the step's numbers are exact counts."""
        return self.odds.exact

    def probability(self, holder: Holder, item: Item) -> Fraction | None:
        """The chance that ``holder`` holds ``item`` after this step; None with no world."""
        return self.odds.probability(holder, item) if self.consistent else None


@dataclass(frozen=True)
class Best:
    """A step's most likely move, as the game words it; e.g. ("Bert 32", 3/8, True, {...})."""

    words: str
    probability: Fraction
    exact: bool
    data: dict  # the contract's ``steps[k].best``


@dataclass(frozen=True)
class Move:
    """A recorded guess or accusation, judged; e.g. (7, "Doris guessed Bert 32 at 38%: ...")."""

    event: int
    line: str
    data: dict  # one item of the contract's ``guesses`` or ``accusations``


@dataclass(frozen=True)
class Judged:
    """What the game makes of the steps: best moves, recorded moves, marks and a summary."""

    best: list[Best | None]  # one per step
    moves: list[Move]
    marks: dict[int, str]  # step -> a note on its row, e.g. "missed Bert 32: +90"
    summary: list[str]  # lines after the timeline
    extras: dict  # the game's own keys of the JSON replay


@dataclass(frozen=True)
class Replay:
    """The steps of a record, what the game judged of them, and how long the counts took."""

    record: Record
    steps: list[Step]
    judged: Judged
    labels: tuple[str, ...]
    noun: str = "deal"  # what the steps count: "deal", or a game's own belief's states
    ends: bool = False  # whether a certain fact can stop being so (a game's own belief)

    @property
    def fits(self) -> bool:
        """Whether the whole record fits some deal."""
        return self.steps[-1].consistent


def steps(
    record: Record,
    budget: float = STEP_BUDGET,
    memory: Remembered | None = None,
    tick: Tick | None = None,
) -> list[Step]:
    """The report of every prefix of the record, each within ``budget`` seconds.

    A game with a belief of its own (its ``believe`` part) is believed prefix by prefix
    (``believed``); a deal-counting game's prefixes are counted (``sleuth.prefixes``, which loads
    the counting engine: imported only for such a game).
    """
    believe = part(record.rules, "believe", None)
    if believe is not None:
        return believed(record, believe, budget, tick)
    from sleuth.prefixes import counted

    return [Step(*found) for found in counted(record, budget, memory, tick)]


class Unfit:
    """A step's numbers when no state fits its prefix: none."""

    worlds = 0
    exact = True

    def probability(self, holder: Holder, item: Item) -> Fraction | None:
        """No chance: nothing fits."""
        return None


UNFIT = Unfit()


@dataclass(frozen=True)
class Believed:
    """A game's own belief of a prefix, read as a step's numbers (``Chances``)."""

    belief: Belief

    @property
    def worlds(self) -> int:
        """The states left, 0 when none fits or they were not counted."""
        left = self.belief.left
        return int(left.number) if left is not None and self.belief.consistent else 0

    @property
    def exact(self) -> bool:
        """Whether the belief's chances are exact."""
        return self.belief.exact

    def probability(self, holder: Holder, item: Item) -> Fraction | None:
        """The belief's chance of the holding; None when no state fits."""
        return self.belief.chance(holder, item) if self.belief.consistent else None


def believed(
    record: Record, believe: Callable, budget: float, tick: Tick | None = None
) -> list[Step]:
    """The steps of a game with its own belief: ``believe`` of each prefix, each in ``budget``.

    A holding is certain at a step when its chance is 1; step 0 names none (the setup's facts
    are what it states), and a step names the holdings that became certain with its event and
    those that stopped being so. A prefix that fits no state makes every longer one fit none.
    """
    out: list[Step] = []
    before: frozenset[Pair] = frozenset()
    for k in range(len(record.events) + 1):
        began = time.monotonic()
        found = believe(record.upto(k), due(budget)) if not out or out[-1].consistent else None
        if tick:
            tick()
        seconds = time.monotonic() - began
        if found is None or not found.consistent:
            out.append(Step(k, False, UNFIT, frozenset(), seconds))
            continue
        holders, items = found.holdings()
        now = frozenset((h, i) for h in holders for i in items if found.chance(h, i) == 1)
        fresh, gone = (now - before, before - now) if k else (frozenset(), frozenset())
        out.append(Step(k, True, Believed(found), fresh, seconds, gone))
        before = now
    return out


def replay(
    record: Record,
    budget: float = STEP_BUDGET,
    memory: Remembered | None = None,
    tick: Tick | None = None,
) -> Replay:
    """The replay of a record: its steps, then the game's judgement of them.

    A deal-counting game's counts and judgement share ``memory`` (a fresh one if None).
    """
    own = part(record.rules, "believe", None) is not None
    if memory is None and not own:
        from sleuth.solve import Remembered  # the deal count's memory, loaded only for it

        memory = Remembered()
    found = steps(record, budget, memory, tick)
    judge = part(record.rules, "judge", unjudged)
    judged = judge(record, found, budget, memory, tick)
    if own:
        return Replay(record, found, judged, (), noun(found), True)
    return Replay(record, found, judged, record.model().labels)


def noun(found: list[Step]) -> str:
    """What a game's own belief counts, e.g. "state": its first step's word."""
    for step in found:
        if isinstance(step.odds, Believed) and step.odds.belief.left is not None:
            return step.odds.belief.left.noun
    return "state"


def unjudged(
    record: Record, steps: list[Step], budget: float, memory: Remembered | None, tick: Tick | None
) -> Judged:
    """A game's ``judge`` part when it has none: no best move, no recorded move judged.

    It ticks once a step, as a game's pass over the steps would.
    """
    if tick is not None:
        for _ in steps:
            tick()
    return Judged([None] * len(steps), [], {}, [], {})


MOVED = 0.05  # a step that moves a chance by more than this is a move worth showing


def moved(
    found: list[Step], pair: Pair, points: float | None = MOVED
) -> list[tuple[int, Any, Any]]:
    """(event, before, after) for each step that moved the chance of ``pair`` by over ``points``.

    ``points`` None: every step, moved or not. A step whose chance was not counted is left out.
    """
    out = []
    for before, after in zip(found, found[1:], strict=False):
        p, q = before.probability(*pair), after.probability(*pair)
        if p is not None and q is not None and (points is None or abs(q - p) > points):
            out.append((after.event, p, q))
    return out
