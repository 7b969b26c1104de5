"""Loot the Loop on a small deck, worked out from the rulebook alone: a test oracle.

It shares nothing with ``sleuth.games.loop`` but the cards' names (``cards.kind``, ``value``,
``JEWELS``, ``NOTES``): its own public states, its own transitions, another method.

- ``work(cards)``: the best chance of winning from every public state reachable from the start
  (every card face down), and of each legal action there, by value iteration over them all. V
  starts at 0 everywhere and each state is updated to the best, over its legal actions, of the
  chance-weighted V after the action (a win 1, a loss 0), until nothing changes; a state whose
  V changes puts the states that lead to it back on the list. Exact Fractions. Every order of
  the cards being equally likely, so is every ordered choice of distinct unseen cards for what
  a look turns up.
- ``clairvoyant(cards)``: the share of the orders of ``cards`` in which some line of play wins,
  each order searched with every card known: a bound no player who sees only the face-up cards
  can beat.

A public state is the deck top first (a card's label face up, None face down), the notes (sorted
labels), the jewels scored and the unseen cards (sorted labels). A label is what the rules read
of a card: "trap", "jewel", "exit", or a trinket's value as digits ("7").
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

from sleuth.games.loop.cards import JEWELS, NOTES, TRINKET, kind, value

WON, LOST = "won", "lost"
Label = str  # e.g. "jewel", "7"
State = tuple[tuple[Label | None, ...], tuple[Label, ...], int, tuple[Label, ...]]
Outcomes = list[tuple[Fraction, "State | str"]]  # an action: its chance of each result
Act = str  # an action, its card as a label: "look", "explore 4", "mark 7", "return 7"


def label(name: str) -> Label:
    """What the rules read of a card (rulebook: Components): "7H" -> "7", "KS" -> "trap"."""
    return str(value(name)) if kind(name) == TRINKET else kind(name)


def start(cards: list[str]) -> State:
    """The Setup: every card face down, no notes, no jewels."""
    return ((None,) * len(cards), (), 0, tuple(sorted(map(label, cards))))


def moves(state: State) -> dict[Act, Outcomes]:
    """Each legal action's outcomes (rulebook: Gameplay, the table of actions)."""
    deck, notes, jewels, unseen = state
    out = {"look": look(state)} if deck and deck[0] is None else {}
    for n in sorted({int(c) for c in deck[:2] if c is not None and c.isdigit()}):
        out[f"explore {n}"] = [(Fraction(1), explore(state, n))]
    top = deck[0] if deck else None
    if top is not None and top.isdigit() and len(notes) < NOTES:
        marked = (deck[1:], tuple(sorted((*notes, top))), jewels, unseen)
        out[f"mark {top}"] = [(Fraction(1), marked)]
    for note in sorted(set(notes)):
        rest = list(notes)
        rest.remove(note)
        out[f"return {note}"] = [(Fraction(1), ((note, *deck), tuple(rest), jewels, unseen))]
    return out


def look(state: State) -> Outcomes:
    """Look Around: the top two turned up, or the top alone when the second is face up."""
    deck, notes, jewels, unseen = state
    turned = 2 if len(deck) > 1 and deck[1] is None else 1
    picks = list(permutations(range(len(unseen)), turned))
    after: Counter[State] = Counter()
    for pick in picks:
        up = tuple(unseen[i] for i in pick)
        rest = tuple(c for i, c in enumerate(unseen) if i not in pick)
        after[((*up, *deck[turned:]), notes, jewels, rest)] += 1
    return [(Fraction(ways, len(picks)), s) for s, ways in after.items()]


def explore(state: State, n: int) -> State | str:
    """Explore: n cards from the top to the bottom (n mod the deck's length), then the landing."""
    deck, notes, jewels, unseen = state
    k = n % len(deck)
    deck = deck[k:] + deck[:k]
    top = deck[0]
    if top is None:
        return (deck, notes, jewels, unseen)
    if top == "trap":
        return LOST
    if top == "exit":
        return WON if jewels >= JEWELS else (deck, notes, jewels, unseen)
    return (deck[1:], notes, jewels + (top == "jewel"), unseen)  # nabbed


def reachable(first: State) -> dict[State, dict[Act, Outcomes]]:
    """Every public state reachable from ``first``, with its actions' outcomes."""
    found = {first: moves(first)}
    queue = [first]
    for state in queue:
        for outcomes in found[state].values():
            for _, after in outcomes:
                if isinstance(after, tuple) and after not in found:
                    found[after] = moves(after)
                    queue.append(after)
    return found


@dataclass(frozen=True)
class Worked:
    """A small deck worked out: every public state from its start, and each one's best chance."""

    first: State
    graph: dict[State, dict[Act, Outcomes]]
    v: dict[State, Fraction]

    @property
    def optimum(self) -> Fraction:
        """The best chance of winning from the start."""
        return self.v[self.first]

    def chances(self, state: State) -> dict[Act, Fraction]:
        """Each legal action's chance of winning, playing best after it."""
        return {act: expected(o, self.v) for act, o in self.graph[state].items()}


def work(cards: list[str], first: State | None = None) -> Worked:
    """Every public state of ``cards`` from ``first`` (default: the start), each valued."""
    first = start(cards) if first is None else first
    graph = reachable(first)
    return Worked(first, graph, values(graph))


def values(graph: dict[State, dict[Act, Outcomes]]) -> dict[State, Fraction]:
    """The least fixed point of V = max over actions of the expected V after, by a worklist."""
    leads: defaultdict[State, set[State]] = defaultdict(set)
    for state, actions in graph.items():
        for outcomes in actions.values():
            for _, after in outcomes:
                if isinstance(after, tuple):
                    leads[after].add(state)
    v = dict.fromkeys(graph, Fraction(0))
    todo = deque(sorted(graph, key=lambda s: len(s[3])))  # fewest unseen first
    waiting = set(todo)
    while todo:
        state = todo.popleft()
        waiting.discard(state)
        best = max((expected(o, v) for o in graph[state].values()), default=Fraction(0))
        if best != v[state]:
            v[state] = best
            for before in leads[state] - waiting:
                todo.append(before)
                waiting.add(before)
    return v


def expected(outcomes: Outcomes, v: dict[State, Fraction]) -> Fraction:
    """An action's chance of winning under V: its outcomes' V (a win 1, a loss 0), weighed."""
    return sum(
        (p * (v[a] if isinstance(a, tuple) else int(a == WON)) for p, a in outcomes), Fraction(0)
    )


CODE = {"trap": 1, "jewel": 11, "exit": 12} | {str(v): v for v in range(2, 11)}
DOWN = 16  # added to a card's code while it is face down
Known = tuple[bytes, bytes, int]  # the deck (codes, top first), notes (sorted codes), jewels


def clairvoyant(cards: list[str]) -> Fraction:
    """The share of the orders of ``cards`` in which a player who knew them all could win."""
    orders = list(arrangements(Counter(map(label, cards))))
    return Fraction(sum(wins(bytes(CODE[c] + DOWN for c in o)) for o in orders), len(orders))


def arrangements(left: Counter[Label]) -> Iterator[tuple[Label, ...]]:
    """Every distinct order of the labels: each as likely as any other, when cards are shuffled."""
    if not +left:
        yield ()
        return
    for c in sorted(+left):
        left[c] -= 1
        for rest in arrangements(left):
            yield (c, *rest)
        left[c] += 1


def wins(deck: bytes) -> bool:
    """Whether some line of play wins from ``deck`` (codes, face down), every card known."""
    first: Known = (deck, b"", 0)
    found = {first}
    stack = [first]
    while stack:
        for after in known_moves(stack.pop()):
            if after == WON:
                return True
            if isinstance(after, tuple) and after not in found:
                found.add(after)
                stack.append(after)
    return False


def known_moves(state: Known) -> Iterator[Known | str]:
    """Every action's result with every card known: the rules of ``moves``, on codes."""
    deck, notes, jewels = state
    if deck and deck[0] > DOWN:
        turned = 2 if len(deck) > 1 and deck[1] > DOWN else 1
        yield (bytes(c - DOWN for c in deck[:turned]) + deck[turned:], notes, jewels)
    for n in sorted({c for c in deck[:2] if 2 <= c <= 10}):
        k = n % len(deck)
        moved = deck[k:] + deck[:k]
        top = moved[0]
        if top > DOWN or (top == CODE["exit"] and jewels < JEWELS):
            yield (moved, notes, jewels)
        elif top in (CODE["trap"], CODE["exit"]):
            yield LOST if top == CODE["trap"] else WON
        else:
            yield (moved[1:], notes, jewels + (top == CODE["jewel"]))
    if deck and 2 <= deck[0] <= 10 and len(notes) < NOTES:
        yield (deck[1:], bytes(sorted(notes + deck[:1])), jewels)
    for note in sorted(set(notes)):
        at = notes.index(note)
        yield (bytes((note,)) + deck, notes[:at] + notes[at + 1 :], jewels)
