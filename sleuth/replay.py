"""A recorded game replayed: the report of every prefix of the record, from the setup alone on.

Step k is what ``sleuth.analysis.report`` says of ``record.upto(k)``: its worlds, whether they
are exact, and the holdings that became certain with event k. Consecutive prefixes share work:
one count after another carries the remembered item order (``sleuth.solve.memory``), certain
facts are read off each exact count instead of being dated by z3, and one z3 solver, with a
guard literal per event, answers for any step whose count falls back to an estimate. An event
that tells nothing (a question whose answer I did not hear) keeps the step before; a prefix that
fits no deal makes every longer one fit none, whatever their counts (made in the same batch) say.
The game judges the moves (its ``judge`` part): each step's best move, the recorded guesses or
accusations, and what the game lets a player score or miss.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from sleuth.budget import Deadline, due
from sleuth.games import part
from sleuth.model import Holder, Item, Model, Pair
from sleuth.odds import NO_DEAL, Odds, odds
from sleuth.parallel import batch
from sleuth.solve import Entailment, Remembered

if TYPE_CHECKING:
    from sleuth.belief import Belief
    from sleuth.record import Record

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


def stated(model: Model) -> set[Pair]:
    """The holdings the setup states outright (my hand, tokens I saw, face-up tokens)."""
    out = set()
    for tally in model.groups[0]:
        if tally.values == {1} and len(tally.terms) == 1 and len(tally.terms[0].items) == 1:
            term = tally.terms[0]
            out.add((term.holder, next(iter(term.items))))
    return out


def certain(result: Odds) -> set[Pair]:
    """The holdings of an exact count that hold in every world."""
    return {pair for pair, n in result.held.items() if n == result.worlds and n}


def steps(
    record: Record,
    budget: float = STEP_BUDGET,
    memory: Remembered | None = None,
    tick: Tick | None = None,
) -> list[Step]:
    """The report of every prefix of the record, each count within ``budget`` seconds.

    The prefixes are counted as one batch (``sleuth.parallel``): in forked workers, each
    carries its own copy of ``memory``; then the steps are put together in order. A game with
    a belief of its own (its ``believe`` part) is believed prefix by prefix (``believed``).
    """
    believe = part(record.rules, "believe", None)
    if believe is not None:
        return believed(record, believe, budget, tick)
    model = record.model()
    memory = memory if memory is not None else Remembered()
    solver = _Solver(model)
    counted = [k for k in range(len(model.groups)) if k == 0 or model.groups[k]]

    def one(k: int) -> tuple[Odds, frozenset[Pair], float]:
        began = time.monotonic()
        result = _odds(model.prefix(k), solver, k, due(budget), memory)
        now = certain(result) if result.exact else solver.get().forced(range(k + 1))
        return result, frozenset(now), time.monotonic() - began

    found = dict(zip(counted, batch(one, counted, tick), strict=True))
    known = stated(model)
    out: list[Step] = []
    for k in range(len(model.groups)):
        fits = not out or out[-1].consistent
        if k not in found:  # an event that tells nothing: the step before, again
            result, now, seconds = out[-1].odds, known, 0.0
            if tick:
                tick()
        else:
            result, now, seconds = found[k]
        if not fits or result.worlds == 0:
            out.append(Step(k, False, NO_DEAL, frozenset(), seconds))
            continue
        out.append(Step(k, True, result, frozenset(now - known), seconds))
        known |= now
    return out


class _Solver:
    """One z3 solver for the record, with a guard per event, made the first time it is asked.

    Only a step whose count falls short asks it (each worker makes its own).
    """

    def __init__(self, model: Model):
        self.model = model
        self.made: Entailment | None = None

    def get(self) -> Entailment:
        """The solver, made now if it is not yet."""
        if self.made is None:
            self.made = Entailment(self.model)
        return self.made


def _odds(prefix: Model, solver: _Solver, k: int, deadline: Deadline, memory) -> Odds:
    """The odds of a prefix as its report has them: exact, or an estimate of at least one world."""
    result = odds(prefix, deadline, memory=memory, plain=True)
    if result.exact:
        return result
    if not solver.get().consistent(range(k + 1)):
        return NO_DEAL
    low, high = result.interval or (result.worlds, result.worlds)
    worlds = max(result.worlds, 1)  # z3 found a deal that fits: there is at least one
    return Odds(worlds, False, result.held, result.base, (max(low, 1), high), result.samples)


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
            out.append(Step(k, False, NO_DEAL, frozenset(), seconds))
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
    """The replay of a record: its steps, then the game's judgement of them."""
    memory = memory if memory is not None else Remembered()
    found = steps(record, budget, memory, tick)
    judge = part(record.rules, "judge", unjudged)
    judged = judge(record, found, budget, memory, tick)
    if part(record.rules, "believe", None) is not None:
        return Replay(record, found, judged, (), noun(found), True)
    return Replay(record, found, judged, record.model().labels)


def noun(found: list[Step]) -> str:
    """What a game's own belief counts, e.g. "state": its first step's word."""
    for step in found:
        if isinstance(step.odds, Believed) and step.odds.belief.left is not None:
            return step.odds.belief.left.noun
    return "state"


def unjudged(
    record: Record, steps: list[Step], budget: float, memory: Remembered, tick: Tick | None
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
