"""Loot the Loop: the exact best chance of winning from what I see, by expectimax over looks.

Nothing but a look shows a card, so every order of the unseen cards under the face-down places
is equally likely (``tracker``); every chance here is an exact share of those orders.

Explores, marks and returns are certain. Between two looks the player may go from spot to spot
(a spot: the deck, the notes and the jewels scored; the unseen cards stay as they are), and
marks and returns undo each other, so the spots reachable without a look (the closure) are
walked with a seen-set. The value of a state is the best, over its closure, of a win (every
order) or of a look (the orders won after each thing it may turn up, added up). A look turns a
card up, so the search ends. The rules read a card only through its kind and a trinket's value,
so the cards are counted by that class: a look turns up one of at most 12 classes (12 x 12 for
two cards), each as many ways as the unseen cards of it (times those of the second).

A value is an integer: the orders of the state's ``u`` unseen cards that the best play wins,
the chance times ``u!``. A look turning up ``t`` cards leaves states of ``u - t`` unseen, whose
orders, times the ways of the turned cards, add up to the orders of ``u``: no division is made.

Two shortcuts keep the answer exact: the closure is walked with the most jewels first, and stops
at a win; a look stops being weighed once it could not beat the best look of its closure even if
every outcome still to weigh won every order. Memory is kept per state (``Search``), and the
deadline is looked at every ``CHECK`` spots: past it, ``solve`` gives up (None), the planner's
cue to sample. Late in a game of the full deck the player may roam over millions of spots
between two looks; ``benchmarks/loop_exact.py`` measures how far the search reaches.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from sleuth.budget import Deadline
from sleuth.games.base import Event
from sleuth.games.loop.cards import EXIT, JEWEL, JEWELS, NOTES, TRAP, kind, value
from sleuth.games.loop.rules import Explore, Mark, Return
from sleuth.games.loop.temple import LOST, PLAYING, WON, Action, Place, Temple, step

DOWN, TRAPPED, JEWELED, EXITED = 0, 1, 11, 12  # a place's class; a trinket's is its value 2-10
CLASSES = 13  # the classes 0 to 12, as positions in an unseen count
Spot = tuple[bytes, bytes, int]  # deck top first, notes sorted, jewels: e.g. (b"\7\0", b"", 0)
Key = tuple[bytes, bytes, int, bytes]  # a spot and the unseen count of each class
Move = tuple[str, int]  # ("explore", 4), ("mark", 7), ("return", 7): classes, not cards
CHECK = 1024  # spots searched between two looks at the deadline


class TooLarge(Exception):
    """The deadline passed before the search was done."""


def classify(name: Place) -> int:
    """A place's class: DOWN, TRAPPED, a trinket's value, JEWELED or EXITED ("7H" -> 7)."""
    if name is None:
        return DOWN
    what = kind(name)
    if what == TRAP:
        return TRAPPED
    if what == JEWEL:
        return JEWELED
    return EXITED if what == EXIT else value(name) or 0


def key_of(temple: Temple) -> Key:
    """The temple as the search sees it: classes and counts."""
    deck = bytes(map(classify, temple.deck))
    notes = bytes(sorted(map(classify, temple.notes)))
    unseen = bytearray(CLASSES)
    for name in temple.unseen:
        unseen[classify(name)] += 1
    return deck, notes, temple.jewels(), bytes(unseen)


def is_trinket(place: int) -> bool:
    """Whether a place's class is a face-up trinket."""
    return 2 <= place <= 10


def face_down(deck: bytes) -> bool:
    """Whether the top place is face down (a look is legal)."""
    return bool(deck) and deck[0] == DOWN


def explores(deck: bytes) -> list[int]:
    """The values an explore may take: the face-up trinkets among the top two, distinct."""
    return sorted({c for c in deck[:2] if is_trinket(c)})


def moves(spot: Spot) -> Iterator[tuple[Move, Spot | str]]:
    """Each explore, mark and return now, and the spot it leaves, or WON or LOST (Gameplay)."""
    deck, notes, jewels = spot
    for n in explores(deck):
        k = n % len(deck)
        moved = deck[k:] + deck[:k]
        lands = moved[0]
        if lands == TRAPPED:
            yield ("explore", n), LOST
        elif lands == EXITED and jewels >= JEWELS:
            yield ("explore", n), WON
        elif lands in (DOWN, EXITED):
            yield ("explore", n), (moved, notes, jewels)
        else:
            yield ("explore", n), (moved[1:], notes, jewels + (lands == JEWELED))
    if deck and is_trinket(deck[0]) and len(notes) < NOTES:
        yield ("mark", deck[0]), (deck[1:], bytes(sorted(notes + deck[:1])), jewels)
    for c in sorted(set(notes)):
        at = notes.index(c)
        yield ("return", c), (bytes((c,)) + deck, notes[:at] + notes[at + 1 :], jewels)


def looks(deck: bytes, unseen: bytes) -> Iterator[tuple[int, bytes, bytes]]:
    """What a look may turn up: (ways, the deck after, the unseen count after) (Look Around)."""
    two = len(deck) > 1 and deck[1] == DOWN
    for first in range(CLASSES):
        if not unseen[first]:
            continue
        left = bytearray(unseen)
        left[first] -= 1
        if not two:
            yield unseen[first], bytes((first,)) + deck[1:], bytes(left)
            continue
        for second in range(CLASSES):
            if left[second]:
                after = bytearray(left)
                after[second] -= 1
                turned = bytes((first, second)) + deck[2:]
                yield unseen[first] * left[second], turned, bytes(after)


class Search:
    """The memoised search: each state's orders won by the best play, each look's likewise."""

    def __init__(self, deadline: Deadline | None = None):
        """An empty memory; ``deadline``: when to give up (TooLarge)."""
        self.deadline = deadline
        self.values: dict[Key, int] = {}
        self.looked: dict[Key, int] = {}
        self.spots = 0

    def walk(self, spot: Spot) -> Iterator[tuple[Spot, list[tuple[Move, Spot | str]]]]:
        """Each spot reachable from ``spot`` without a look, once, with its moves.

        Those with the most jewels first, and depth first among equals: a win, when there is
        one, is found early, and the spots not yet walked wait on stacks, not in a queue.
        """
        found = {spot}
        stacks: list[list[Spot]] = [[] for _ in range(JEWELS + 1)]
        stacks[spot[2]].append(spot)
        level = spot[2]
        while level >= 0:
            if not stacks[level]:
                level -= 1
                continue
            now = stacks[level].pop()
            self.tick()
            out = list(moves(now))
            yield now, out
            for _, after in out:
                if isinstance(after, tuple) and after not in found:
                    found.add(after)
                    stacks[after[2]].append(after)
                    level = max(level, after[2])

    def closure(self, spot: Spot) -> tuple[list[Spot], bool]:
        """Every spot reachable from ``spot`` without a look, and whether a win is reachable."""
        reached = []
        for now, out in self.walk(spot):
            reached.append(now)
            if any(after == WON for _, after in out):
                return reached, True
        return reached, False

    def tick(self) -> None:
        """Count a spot searched; TooLarge once the deadline has passed."""
        self.spots += 1
        if self.deadline is not None and self.spots % CHECK == 0 and self.deadline.passed():
            raise TooLarge

    def value(self, key: Key) -> int:
        """The orders of the unseen cards that the best play from ``key`` wins."""
        if key in self.values:
            return self.values[key]
        deck, notes, jewels, unseen = key
        every = factorial(sum(unseen))
        reach, won = self.closure((deck, notes, jewels))
        best = every if won else 0
        for spot in reach:
            if best == every:
                break
            if face_down(spot[0]):
                best = max(best, self.look((*spot, unseen), best))
        self.values[key] = best
        return best

    def look(self, key: Key, bound: int = -1) -> int:
        """The orders won by looking now (the top face down) and playing best after it.

        Or, once they cannot exceed ``bound`` (even if every look still to weigh won every
        order), a number no greater than ``bound``, not remembered.
        """
        if key in self.looked:
            return self.looked[key]
        deck, notes, jewels, unseen = key
        turned = list(looks(deck, unseen))
        most = factorial(sum(turned[0][2])) if turned else 0  # the orders after a look
        left = sum(ways for ways, _, _ in turned) * most
        won = 0
        for ways, after, rest in turned:
            left -= ways * most
            won += ways * self.value((after, notes, jewels, rest))
            if won + left <= bound:
                return won + left
        self.looked[key] = won
        return won

    def possible(self, key: Key) -> bool:
        """Whether some play from ``key`` wins in some order (the chance is not 0)."""
        if key in self.values:
            return self.values[key] > 0
        deck, notes, jewels, unseen = key
        reach, won = self.closure((deck, notes, jewels))
        found = won or any(
            self.possible((turned, spot_notes, spot_jewels, left))
            for spot_deck, spot_notes, spot_jewels in reach
            if face_down(spot_deck)
            for _, turned, left in looks(spot_deck, unseen)
        )
        if not found:
            self.values[key] = 0
        return found


@dataclass(frozen=True)
class Option:
    """A legal action and the chance of winning by taking it, then playing best."""

    action: Action
    win: Fraction


@dataclass(frozen=True)
class Solved:
    """The best chance of winning from a temple, exactly, and how to play for it.

    ``options``: every legal action with its own best chance, in the temple's order; ``plan``:
    the best line's certain actions up to and including its next look (or its winning explore);
    empty when nothing wins. ``states``: the public states whose value the search holds.
    """

    win: Fraction
    options: tuple[Option, ...]
    plan: tuple[Action, ...]
    states: int

    @property
    def doomed(self) -> bool:
        """Whether every line loses, in every order of the unseen cards."""
        return self.win == 0


def solve(
    temple: Temple, deadline: Deadline | None = None, *, search: Search | None = None
) -> Solved | None:
    """The best chance of winning from ``temple``; None when ``deadline`` passes first.

    ``search``: a search whose memory to use and keep (for the states of one game, say); its
    deadline becomes ``deadline``.
    """
    if temple.status != PLAYING:
        return Solved(Fraction(temple.status == WON), (), (), 0)
    search = Search() if search is None else search
    search.deadline = deadline
    root = key_of(temple)
    every = factorial(sum(root[3]))
    try:
        win = search.value(root)
        weighed = [(a, _after(search, root, a)) for a in temple.actions()]
        plan = _plan(search, temple, root, win) if win else ()
    except TooLarge:
        return None
    options = tuple(Option(a, Fraction(won, every)) for a, won in weighed)
    return Solved(Fraction(win, every), options, plan, len(search.values))


def doomed(
    temple: Temple, deadline: Deadline | None = None, *, search: Search | None = None
) -> bool | None:
    """Whether every line loses in every order (the best chance is 0); None past ``deadline``."""
    if temple.status != PLAYING:
        return temple.status != WON
    search = Search() if search is None else search
    search.deadline = deadline
    try:
        return not search.possible(key_of(temple))
    except TooLarge:
        return None


def _after(search: Search, root: Key, action: Action) -> int:
    """The orders won by taking ``action`` from ``root``, then playing best."""
    deck, notes, jewels, unseen = root
    if action.action == "look":
        return search.look(root)
    wanted = (action.action, classify(action.what) if isinstance(action.what, str) else action.what)
    after = next(a for m, a in moves((deck, notes, jewels)) if m == wanted)
    if isinstance(after, str):
        return factorial(sum(unseen)) if after == WON else 0
    return search.value((*after, unseen))


def _plan(search: Search, temple: Temple, root: Key, win: int) -> tuple[Action, ...]:
    """The certain actions to the nearest spot whose look (or win) is worth ``win``, named."""
    deck, notes, jewels, unseen = root
    start: Spot = (deck, notes, jewels)
    came: dict[Spot, tuple[Spot, Move] | None] = {start: None}
    queue = [start]
    for now in queue:
        search.tick()
        if face_down(now[0]) and search.look((*now, unseen)) == win:
            return _named(temple, _path(came, now), ending=Action("look"))
        for move, after in moves(now):
            if after == WON:
                return _named(temple, [*_path(came, now), move])
            if isinstance(after, tuple) and after not in came:
                came[after] = (now, move)
                queue.append(after)
    raise AssertionError("the value was found in the closure, so its spot is there")


def _path(came: dict[Spot, tuple[Spot, Move] | None], end: Spot) -> list[Move]:
    """The moves from the search's start to ``end``."""
    path: list[Move] = []
    link = came[end]
    while link is not None:
        end, move = link
        path.append(move)
        link = came[end]
    return path[::-1]


def _named(temple: Temple, path: list[Move], ending: Action | None = None) -> tuple[Action, ...]:
    """The moves as the temple's actions, naming the cards marked and returned."""
    out = []
    event: Event
    for what, arg in path:
        if what == "explore":
            action, event = Action(what, arg), Explore(arg)
        elif what == "mark":
            top = str(temple.deck[0])
            action, event = Action(what, top), Mark(top)
        else:
            note = next(c for c in temple.notes if classify(c) == arg)
            action, event = Action(what, note), Return(note)
        out.append(action)
        temple = step(temple, event)
    return (*out, *([ending] if ending else []))
