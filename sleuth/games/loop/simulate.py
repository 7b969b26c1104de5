"""Simulated solitaire games of Loot the Loop, played by the rulebook, with a record.

Written from the rulebook alone and importing nothing from ``sleuth``, so that it checks the
game's rules core from outside. By the rulebook's sections:

- Components: 52 cards and a joker, named as the record names them (``AS``, ``7H``, ``10D``,
  ``QC``, ``joker``). Aces are jewels, 2 to 10 trinkets worth their rank, J Q K traps, the
  joker the exit.
- Setup: the shuffle; the deck face down, no notes, an empty score pile.
- Gameplay: each turn one of four actions. Look Around (the top card face down): turn the top
  two face up, or only the top when the second is already face up. Explore N (N the value of
  a face-up trinket among the top two): N cards from the top to the bottom in order, then the
  landing: a face-down card, nothing; a face-up trap, lost; a face-up jewel or trinket, nabbed
  to the score pile; the face-up exit with four jewels scored, won, else nothing. Mark a Path
  (the top card a face-up trinket, fewer than three notes): it goes to the notes. Return to a
  Marked Path: a note of my choice goes back on top, face up.
- Game End: won or lost as above; ``stuck`` when no action is legal (the rulebook's "can't
  move"). Its other way to lose, "all movement choices you have will land you on a trap", is
  a judgement over lines of play that the planner makes, not a rule of one turn: the
  simulator plays on, and ``every_explore_is_a_trap`` says when every explore now would lose.

Readings where the rulebook is silent or loose (one choice each):

- an explore of N wraps round the deck, N mod its length (the record format's reading); when
  that is 0 nothing moves and the landing is the top card itself, so a face-up trinket on top
  is nabbed, the one explored by included;
- the explore choices are the distinct values: two face-up 7s among the top two are one action;
- a mark needs the top card face up (the table of actions says so; section 3 only "a number
  card"), and takes only the top card;
- a Look Around with one card left turns that card alone; with no deck only a return is legal;
- a face-down card landed on stays face down; a nabbed card leaves the deck and the card
  under it becomes the top without being landed on;
- landing on the exit with four jewels ends the game at once, won ("you immediately escape");
  the greed the rulebook rewards is staying before that landing;
- a game the rules never end is stopped, its status left ``playing`` and ``Game.looped``
  true: when the policy is bound to repeat itself (greedy, a function of what it sees, back in
  a state it has been in; any policy in a state whose only legal action leaves it unchanged,
  e.g. the exit on top and an explore of the deck's length under it).

Policies see a ``View`` (face-up cards, face-down ones as None, notes, score), never the
true deck. The shuffle comes from ``random.Random(seed)``; every choice from a second stream
seeded by its first draw, so both policies play the same deal.

- ``random``: uniform among the legal actions.
- ``greedy``: look around when it can; else the explore with the best landing that is not a
  trap (the exit with four jewels, then a jewel, a trinket, nothing), the smallest N among
  equals; else a return after which such an explore exists (the best, notes in order); else a
  mark after which a look or such an explore exists; else any mark or return; an explore onto
  a trap only when nothing else is legal.

Over seeds 0 to 1999 (``python -m sleuth.games.loop.simulate rates 2000``), neither policy
wins a game (nor one of 20,000); most end stuck, a face-up card that is no trinket on top,
no face-up trinket under it and no note to return (the rulebook's "unlucky streak"):

======== ===== ============= ============== =============
policy   won   lost, trap    stuck          looped
======== ===== ============= ============== =============
random   0     376 (18.8%)   1624 (81.2%)   0
greedy   0     58 (2.9%)     1874 (93.7%)   68 (3.4%)
======== ===== ============= ============== =============

Greedy's loops are a mark and a return of one card, over and over, with every explore onto a
trap: the rulebook's "all movement choices ... land you on a trap". The longest game had 122
events, far below ``MOVES``, the cap on a game without a ``limit``.

Run as a script to print a record as JSON: ``python -m sleuth.games.loop.simulate 7 greedy``.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

SUITS = "SHDC"
RANKS = ("A", *map(str, range(2, 11)), "J", "Q", "K")
EXIT = "joker"
CARDS = (*(rank + suit for suit in SUITS for rank in RANKS), EXIT)
JEWELS = 4  # aces to score before the exit lets me out
NOTES = 3  # paths marked at most at any one time
PLAYING, WON, LOST, STUCK = "playing", "won", "lost", "stuck"
LOOK, EXPLORE, MARK, RETURN = "look", "explore", "mark", "return"
LANDINGS = ("win", "jewel", "trinket", "safe", "trap")  # an explore's landings, best first
MOVES = 100_000  # events at most in a game without a limit, the loops caught or not

Slot = tuple[str, bool]  # a card of the deck and whether it is face up, e.g. ("7H", True)


def kind(card: str) -> str:
    """What a card is in the temple: ``kind("AS") == "jewel"``, ``kind("QC") == "trap"``."""
    rank = card[:-1]
    if card == EXIT:
        return "exit"
    return "jewel" if rank == "A" else "trap" if rank in "JQK" else "trinket"


def value(card: str) -> int:
    """A trinket's value, its rank: ``value("10D") == 10``."""
    return int(card[:-1])


def is_trinket(card: str | None) -> bool:
    """Whether a seen card is a trinket (None, a face-down card, is not)."""
    return card is not None and kind(card) == "trinket"


@dataclass(frozen=True)
class State:
    """The true state: the deck top first with face-up flags, notes, score pile, status."""

    deck: tuple[Slot, ...]
    notes: tuple[str, ...] = ()
    score: tuple[str, ...] = ()
    status: str = PLAYING


@dataclass(frozen=True)
class View:
    """What the player sees: the deck top first, a face-down card as None; notes; score pile."""

    deck: tuple[str | None, ...]
    notes: tuple[str, ...]
    score: tuple[str, ...]


@dataclass(frozen=True)
class Action:
    """One action: ``Action("look")``, ``Action("explore", 7)``, ``Action("mark", card="7H")``."""

    kind: str
    n: int = 0  # an explore's count
    card: str = ""  # the card marked or returned


def view(state: State) -> View:
    """What the player of ``state`` sees."""
    deck = tuple(card if up else None for card, up in state.deck)
    return View(deck, state.notes, state.score)


def deal(rng: random.Random) -> State:
    """The Setup: the 53 cards shuffled, face down."""
    cards = list(CARDS)
    rng.shuffle(cards)
    return State(tuple((card, False) for card in cards))


def landing(card: str | None, score: Iterable[str]) -> str:
    """What landing on a seen card does (None, face down): one of ``LANDINGS``."""
    if card is None:
        return "safe"
    if kind(card) == "exit":
        return "win" if sum(kind(c) == "jewel" for c in score) == JEWELS else "safe"
    return kind(card)


def lands(seen: View, n: int) -> str:
    """What an explore of ``n`` does, seen from ``seen``: one of ``LANDINGS``."""
    return landing(seen.deck[n % len(seen.deck)], seen.score)


def options(seen: View) -> list[Action]:
    """Every legal action of a player seeing ``seen``: look, explores by N, mark, returns."""
    top = seen.deck[:2]
    actions = [Action(LOOK)] if top and top[0] is None else []
    values = sorted({value(card) for card in top if card is not None and is_trinket(card)})
    actions += [Action(EXPLORE, n) for n in values]
    if top and top[0] is not None and is_trinket(top[0]) and len(seen.notes) < NOTES:
        actions.append(Action(MARK, card=top[0]))
    return actions + [Action(RETURN, card=card) for card in seen.notes]


def legal_actions(state: State) -> list[Action]:
    """Every legal action in ``state``; none once the game is over."""
    return options(view(state)) if state.status == PLAYING else []


def every_explore_is_a_trap(state: State) -> bool:
    """Whether some explore is legal and each lands on a face-up trap.

    A look, a mark or a return may still be legal: the rulebook's "all movement choices you
    have will land you on a trap" is for the planner to judge.
    """
    explores = [a for a in legal_actions(state) if a.kind == EXPLORE]
    seen = view(state)
    return bool(explores) and all(lands(seen, a.n) == "trap" for a in explores)


def land(state: State) -> State:
    """The landing after an explore, on the new top card."""
    card, up = state.deck[0]
    what = landing(card if up else None, state.score)
    if what == "trap":
        return replace(state, status=LOST)
    if what == "win":
        return replace(state, status=WON)
    if what in ("jewel", "trinket"):
        return replace(state, deck=state.deck[1:], score=(*state.score, card))
    return state


def act(state: State, action: Action) -> tuple[State, dict]:
    """The state after a legal action and the action's event, before the stuck check."""
    deck = state.deck
    if action.kind == LOOK:
        flips = 2 if len(deck) > 1 and not deck[1][1] else 1
        turned = [card for card, _ in deck[:flips]]
        return replace(state, deck=tuple((c, True) for c in turned) + deck[flips:]), {LOOK: turned}
    if action.kind == EXPLORE:
        moved = action.n % len(deck)
        return land(replace(state, deck=deck[moved:] + deck[:moved])), {EXPLORE: action.n}
    card = action.card
    if action.kind == MARK:
        return replace(state, deck=deck[1:], notes=(*state.notes, card)), {MARK: card}
    notes = tuple(note for note in state.notes if note != card)
    return replace(state, deck=((card, True), *deck), notes=notes), {RETURN: card}


def step(state: State, action: Action) -> tuple[State, dict]:
    """The state after ``action`` (``stuck`` when no action is left) and its event."""
    if action not in legal_actions(state):
        raise ValueError(f"{action} is not legal now")
    after, event = act(state, action)
    if after.status == PLAYING and not legal_actions(after):
        after = replace(after, status=STUCK)
    return after, event


# Policies


Choose = Callable[[View, random.Random], Action]


def uniform(seen: View, rng: random.Random) -> Action:
    """Any legal action, each as likely."""
    return rng.choice(options(seen))


def best_explore(seen: View) -> tuple[int, int] | None:
    """The best landing of an explore that is not a trap, (its rank, the smallest N), or None."""
    found = [
        (LANDINGS.index(lands(seen, a.n)), a.n)
        for a in options(seen)
        if a.kind == EXPLORE and lands(seen, a.n) != "trap"
    ]
    return min(found, default=None)


def returned(seen: View, card: str) -> View:
    """What I would see after returning ``card`` from my notes."""
    notes = tuple(note for note in seen.notes if note != card)
    return View((card, *seen.deck), notes, seen.score)


def marked(seen: View) -> View:
    """What I would see after marking the top card."""
    return View(seen.deck[1:], (*seen.notes, str(seen.deck[0])), seen.score)


def greedy(seen: View, rng: random.Random) -> Action:
    """Look, else the best safe explore, else a return or mark that leads to one (module doc)."""
    actions = options(seen)
    if Action(LOOK) in actions:
        return Action(LOOK)
    if now := best_explore(seen):
        return Action(EXPLORE, now[1])
    leads = [(best[0], card) for card in seen.notes if (best := after_return(seen, card))]
    if leads:  # the first note of the best landing
        return Action(RETURN, card=min(leads, key=lambda lead: lead[0])[1])
    mark = next((a for a in actions if a.kind == MARK), None)
    if mark and opens(marked(seen)):
        return mark
    return next((a for a in actions if a.kind != EXPLORE), actions[0])


def after_return(seen: View, card: str) -> tuple[int, int] | None:
    """The best explore that is not a trap after returning ``card``, as ``best_explore``."""
    return best_explore(returned(seen, card))


def opens(seen: View) -> bool:
    """Whether a look or an explore that is not a trap is legal in ``seen``."""
    return bool(seen.deck) and (seen.deck[0] is None or best_explore(seen) is not None)


@dataclass(frozen=True)
class Policy:
    """A way of choosing, and whether it is a function of the view alone (no chance)."""

    choose: Choose
    deterministic: bool


POLICIES = {"random": Policy(uniform, False), "greedy": Policy(greedy, True)}


@dataclass
class Game:
    """A simulated game: its record and the true state after the deal (index 0) and each event.

    ``status`` is the last state's; ``playing`` when ``limit`` cut the game short or it was
    stopped going round in circles (``looped``). ``score`` counts the score pile.
    """

    doc: dict
    states: list[State]
    status: str
    score: int
    seed: int
    looped: bool = False
    policy: str = "random"


def circles(before: State, after: State, seen: set[State], policy: Policy) -> bool:
    """Whether ``policy`` is bound to repeat itself forever from ``after``."""
    if policy.deterministic:
        return after in seen
    return after == before and len(legal_actions(before)) == 1


def simulate(seed: int, policy: str = "random", limit: int | None = None) -> Game:
    """A whole game, the same for the same seed and policy; ``limit`` events at most."""
    rng = random.Random(seed)
    choices = random.Random(rng.getrandbits(64))
    chooser = POLICIES[policy]
    state = deal(rng)
    states, seen, looped = [state], {state}, False
    events: list[dict] = []
    cap = MOVES if limit is None else limit
    while state.status == PLAYING and len(events) < cap and not looped:
        after, event = step(state, chooser.choose(view(state), choices))
        looped = circles(state, after, seen, chooser)
        state = after
        states.append(state)
        events.append(event)
        seen.add(state)
    doc = {"game": "loot-the-loop", "events": events}
    return Game(doc, states, state.status, len(state.score), seed, looped, policy)


def outcome(game: Game) -> str:
    """How a game ended: won, trap (lost), stuck, looped, or playing (cut short)."""
    if game.looped:
        return "looped"
    return "trap" if game.status == LOST else game.status


def rates(policy: str, seeds: Iterable[int]) -> Counter[str]:
    """How many games of ``seeds`` ended each way (``outcome``) under ``policy``."""
    return Counter(outcome(simulate(seed, policy)) for seed in seeds)


def main(args: list[str]) -> None:
    """``SEED [POLICY]``: a record as JSON; ``rates N``: each policy's outcomes over N seeds."""
    if args[0] == "rates":
        games = int(args[1])
        for name in POLICIES:
            counts = rates(name, range(games))
            shares = {k: f"{counts[k] / games:.1%}" for k in ("won", "trap", "stuck", "looped")}
            print(name, shares, dict(counts))
        return
    policy = args[1] if len(args) > 1 else "random"
    print(json.dumps(simulate(int(args[0]), policy).doc, indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
