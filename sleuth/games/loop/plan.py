"""Loot the Loop: ``sleuth next``: each legal action weighed by the games that follow it.

The method (flat Monte Carlo over determinisations, named in every answer): the face-down
places are filled with the unseen cards in a random order (every order is equally likely, so
this samples the truth), each legal action is played, and then the game is played out by the
rollout policy, ``rollout``, which sees only what a player would see. An action's chance of
winning is the share of those games it won (with its 95% interval); the same orders are used
for every action, so that the comparison between actions is paired. When the unseen cards are
few enough, every order is played instead of a sample, and the chances are exact, for this
rollout policy (a better player may win more often: the chance is a lower bound on what the
action allows).

The rollout policy, in order: look when the top is face down; else the explore that lands best
(the exit with four jewels, a jewel, a trinket, a face-down card; never a trap); else return the
note that opens such an explore; else mark the top trinket; else any explore (onto a trap: the
game is lost); else stuck. A game that goes round in circles (marks and returns) is cut after
``STEPS`` actions and counts as lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

import numpy as np

from sleuth.budget import Deadline
from sleuth.chance import wilson
from sleuth.errors import InputError
from sleuth.games.loop.cards import DECK, EXIT, JEWEL, JEWELS, NOTES, TRAP, TRINKET, kind, value
from sleuth.games.loop.temple import Action, Temple
from sleuth.games.loop.tracker import Tracker

STEPS = 400  # actions a rollout may take before it counts as lost (going round in circles)
SAMPLES = 10000  # sampled orders when the unseen cards are too many to play every order
LEAST = 500  # orders played at least, whatever the deadline
CHUNK = 500  # orders played on every action before the deadline is looked at
WHAT = {"look": 0, "explore": 1, "mark": 2, "return": 3}  # rollout's action codes
EXACT = 7  # play every order when at most this many cards are unseen (7! = 5040 orders)

CODE = {name: k for k, name in enumerate(DECK)}
KIND = [kind(name) for name in DECK]
VALUE = [value(name) or 0 for name in DECK]
WORTH = {JEWEL: 3, TRINKET: 2}  # how the rollout ranks a landing (a face-down one: 1)


@dataclass
class Game:
    """A determinised game: every card known; ``up`` says which the player can see."""

    deck: list[int]
    up: list[bool]
    notes: list[int]
    score: int = 0
    jewels: int = 0
    status: str = "playing"


@dataclass(frozen=True)
class Weighed:
    """One legal action and the games that followed it: won, their share, the interval."""

    action: Action
    won: int
    games: int
    score: float  # cards in the score pile at the end, on average
    low: float
    high: float

    @property
    def win(self) -> float:
        """The share of the games won."""
        return self.won / self.games if self.games else 0.0


@dataclass(frozen=True)
class Plan:
    """The actions weighed, best first (chance to win, then score), and how they were."""

    options: tuple[Weighed, ...]
    exact: bool
    games: int
    method: str
    greed: Weighed | None = None  # the best by score, when it is not the best by winning
    notes: list[str] = field(default_factory=list)


def fill(now: Temple, order: tuple[str, ...]) -> Game:
    """The game with the face-down places holding ``order``'s cards, top first."""
    cards = iter(order)
    deck = [CODE[c if c is not None else next(cards)] for c in now.deck]
    up = [c is not None for c in now.deck]
    return Game(deck, up, [CODE[c] for c in now.notes], len(now.score), now.jewels())


def landing(game: Game, n: int) -> int:
    """How the rollout ranks an explore of ``n``: -1 a trap, 0 nothing, 1 safe, 2-3 a nab, 9 win."""
    k = n % len(game.deck)
    if not game.up[k]:
        return 1
    what = KIND[game.deck[k]]
    if what == TRAP:
        return -1
    if what == EXIT:
        return 9 if game.jewels >= JEWELS else 0
    return WORTH[what]


def explores(game: Game) -> list[int]:
    """The values an explore may take now."""
    return sorted(
        {
            VALUE[c]
            for c, up in zip(game.deck[:2], game.up[:2], strict=False)
            if up and KIND[c] == TRINKET
        }
    )


def legal(game: Game) -> list[tuple[str, int]]:
    """Every legal action: ("look", 0), ("explore", n), ("mark", card), ("return", card)."""
    out: list[tuple[str, int]] = []
    if game.deck and not game.up[0]:
        out.append(("look", 0))
    out += [("explore", n) for n in explores(game)]
    if game.deck and game.up[0] and KIND[game.deck[0]] == TRINKET and len(game.notes) < NOTES:
        out.append(("mark", game.deck[0]))
    return out + [("return", c) for c in game.notes]


def play(game: Game, action: tuple[str, int]) -> None:
    """Do ``action`` (legal) in place, landing included (rulebook: Gameplay)."""
    what, arg = action
    if what == "look":
        turned = 2 if len(game.up) > 1 and not game.up[1] else 1
        for k in range(turned):
            game.up[k] = True
    elif what == "mark":
        game.notes.append(game.deck.pop(0))
        game.up.pop(0)
    elif what == "return":
        game.notes.remove(arg)
        game.deck.insert(0, arg)
        game.up.insert(0, True)
    else:
        k = arg % len(game.deck)
        game.deck = game.deck[k:] + game.deck[:k]
        game.up = game.up[k:] + game.up[:k]
        if game.up[0]:
            land(game)
    if game.status == "playing" and not legal(game):
        game.status = "stuck"


def land(game: Game) -> None:
    """Land on the face-up top card: a trap loses, a jewel or trinket is nabbed, the exit wins."""
    what = KIND[game.deck[0]]
    if what == TRAP:
        game.status = "lost"
    elif what == EXIT:
        if game.jewels >= JEWELS:
            game.status = "won"
    else:
        game.deck.pop(0)
        game.up.pop(0)
        game.score += 1
        game.jewels += what == JEWEL


def rollout(game: Game) -> tuple[str, int]:
    """The rollout policy's action (see the module's text): from what a player sees only."""
    if not game.up[0]:
        return ("look", 0)
    ranked = sorted(((landing(game, n), n) for n in explores(game)), reverse=True)
    if ranked and ranked[0][0] >= 1:
        return ("explore", ranked[0][1])
    for note in game.notes:
        trial = Game([note, *game.deck], [True, *game.up], [], jewels=game.jewels)
        if any(landing(trial, n) >= 1 for n in explores(trial)):
            return ("return", note)
    top = game.deck[0]
    if KIND[top] == TRINKET and len(game.notes) < NOTES:
        return ("mark", top)
    if ranked:
        return ("explore", ranked[0][1])
    return legal(game)[0]


def finish(game: Game) -> Game:
    """Play the game out with the rollout policy; cut after ``STEPS`` actions (lost)."""
    for _ in range(STEPS):
        if game.status != "playing":
            return game
        play(game, rollout(game))
    if game.status == "playing":
        game.status = "lost"
    return game


def code(action: Action) -> tuple[str, int]:
    """A temple's action in the rollout's terms."""
    if action.action in ("mark", "return"):
        return (action.action, CODE[str(action.what)])
    return (action.action, int(action.what or 0))


def advise(
    found: Tracker,
    given: dict[str, Any],
    deadline: Deadline | None = None,
    *,
    samples: int | None = None,
) -> Plan:
    """Each legal action weighed by the games that follow it (the ``advise`` part).

    The games are played by the compiled twin of this module's rules and policy
    (``loop.rollout``), in chunks of orders, every action on each chunk; when the ``deadline``
    passes after at least ``LEAST`` orders, the rest are left (a sample, then, not every order).
    ``samples``: the orders sampled when not every order is played (default ``SAMPLES``).
    """
    from sleuth.games.loop import rollout

    now = found.temple
    actions = now.actions()
    if not actions:
        raise InputError("sleuth next", "", f"no legal action: the game is {now.status}")
    unseen = [CODE[c] for c in now.unseen]
    rng = np.random.default_rng(0)
    if len(unseen) <= EXACT:
        every = list(permutations(unseen))  # one empty order when every card is seen
        orders = np.array(every, dtype=np.int64).reshape(len(every), len(unseen))
        orders = orders[rng.permutation(len(orders))]
    else:
        drawn = SAMPLES if samples is None else samples
        orders = np.array([rng.permutation(unseen) for _ in range(drawn)], dtype=np.int64)
    start = arrays(now)
    tallies = [[0, 0] for _ in actions]  # games won, cards scored
    played = 0
    while played < len(orders):
        chunk = orders[played : played + CHUNK]
        for tally, action in zip(tallies, actions, strict=True):
            what, arg = code(action)
            ended = rollout.play_out(*start, WHAT[what], arg, chunk, STEPS)
            tally[0] += int((ended[:, 0] == rollout.WON).sum())
            tally[1] += int(ended[:, 1].sum())
        played += len(chunk)
        if deadline is not None and played >= LEAST and deadline.passed():
            break
    exact = played == len(orders) and len(unseen) <= EXACT
    weighed = [
        Weighed(action, won, played, cards / played, *interval(won, played, exact))
        for action, (won, cards) in zip(actions, tallies, strict=True)
    ]
    ranked = tuple(sorted(weighed, key=lambda w: (-w.win, -w.score)))
    greedy = max(weighed, key=lambda w: w.score)
    greed = greedy if greedy.action != ranked[0].action and greedy.score > ranked[0].score else None
    what_ = "every order" if exact else f"{played} sampled orders"
    method = f"{what_} of the {len(unseen)} unseen cards played out by the rollout policy" + (
        "" if exact else "; flat Monte Carlo, 95% Wilson intervals"
    )
    return Plan(ranked, exact, played, method, greed)


def arrays(now: Temple) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The temple as ``rollout.play_out`` takes it.

    Cards (the face-down ones to be filled), face-up flags, notes, and the scalars: deck size,
    notes, score, jewels, status.
    """
    deck = np.array([CODE[c] if c is not None else -1 for c in now.deck], dtype=np.int64)
    up = np.array([c is not None for c in now.deck], dtype=np.bool_)
    notes = np.array([CODE[c] for c in now.notes], dtype=np.int64)
    counts = [len(now.deck), len(now.notes), len(now.score), now.jewels(), 0]
    scalars = np.array(counts, dtype=np.int64)
    return deck, up, notes, scalars


def interval(won: int, games: int, exact: bool) -> tuple[float, float]:
    """The 95% interval of a share of games won (the share itself when every order was played)."""
    return (won / games, won / games) if exact else wilson(won, games)
