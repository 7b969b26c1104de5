"""Loot the Loop: ``sleuth next``: each legal action weighed by the games that follow it.

The method (flat Monte Carlo over determinisations, named in every answer): the face-down
places are filled with the unseen cards in a random order (every order is equally likely, so
this samples the truth), each legal action is played, and then the game is played out by the
rollout policy, ``rollout``, which sees only what a player would see. An action's chance of
winning is the share of those games it won (with its 95% interval); the same orders are used
for every action, so that the comparison between actions is paired. Actions are ranked by that
share, but the first is the rollout policy's own choice unless another action clearly wins more
of the same orders (by more than ``MARGIN`` standard errors, McNemar's; when every order is
played, simply more): a sample that does not tell two actions apart is no reason to leave the
policy, and noise would otherwise send the player round in circles (return a note, mark it
back). When the unseen cards are
few enough, every order is played instead of a sample, and the chances are exact, for this
rollout policy (a better player may win more often: the chance is a lower bound on what the
action allows).

With at most ``SEARCHED`` cards unseen, the exact search over looks (``exact.solve``) goes
first, with a third of the time: when it finishes, the first option is an action of the best
exact chance (the exact line's own), its line the exact plan, ``doomed`` exact, and each
action's best chance is shown beside its sampled games. Without a deadline (the benchmarks'
games) there is no search.

The rollout policy (``rollout``) is a greedy player with a short search: it looks whenever the
top is face down; otherwise it searches the routes of actions that show nothing (explores not
onto a trap it sees, marks, returns: each leads to one game whatever lies face down), breadth
first, ``ROUTES`` games at most, and takes the first action of the best route, ranked by
``worth``: a win; then the jewels nabbed; reaching a look; the notes kept (a note can always be
returned, so it is the way out of a dead end); the trinkets nabbed; the shorter route. A route
never ends in a dead end (the top face up and only explores onto traps left). When no route
makes progress (a win, a nab or a look), it gives the game up, which counts as lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations
from typing import Any

import numpy as np

from sleuth.budget import Deadline
from sleuth.chance import wilson
from sleuth.errors import InputError
from sleuth.games.loop.cards import DECK, EXIT, JEWEL, JEWELS, NOTES, TRAP, TRINKET, kind, value
from sleuth.games.loop.exact import Solved, solve
from sleuth.games.loop.temple import Action, Temple, step
from sleuth.games.loop.tracker import AfterLook, Tracker, after_look

STEPS = 1000  # actions a rollout may take before it counts as lost (a safety: routes progress)
ROUTES = 100  # games a route search reaches at most
WIN = 10**15  # a route that wins: worth more than any other
SAMPLES = 4000  # sampled orders when the unseen cards are too many to play every order
LEAST = 100  # orders played at least, whatever the deadline
CHUNK = 100  # orders played on every action before the deadline is looked at
WHAT = {"look": 0, "explore": 1, "mark": 2, "return": 3}  # rollout's action codes
BUDGET = 1.5  # seconds for ``next`` by default (its advice_budget): the whole answer within 2
LINE = 12  # actions at most in the line shown
CLOSED = 20000  # games at most in the search that proves every line lost
MARGIN = 1.96  # standard errors by which a sampled action must beat the rollout's own choice
EXACT = 7  # play every order when at most this many cards are unseen (7! = 5040 orders)
SEARCHED = 16  # the exact search is tried with at most this many cards unseen

CODE = {name: k for k, name in enumerate(DECK)}
KIND = [kind(name) for name in DECK]
VALUE = [value(name) or 0 for name in DECK]


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
    line: list[Action] = field(default_factory=list)  # the best action, then the route to a look
    doomed: bool | None = None  # every line loses: True proven, False a game won, None unknown
    level: frozenset[str] = frozenset()  # the actions the first does not clearly beat (itself too)
    solved: Solved | None = None  # the exact search's answer, when it finished in its time
    after: AfterLook | None = None  # at the look that ends the line: stuck, or only traps

    @property
    def chances(self) -> dict[str, Fraction]:
        """Each action's exact best chance of winning (by its words), when the search finished."""
        return {} if self.solved is None else {str(o.action): o.win for o in self.solved.options}


def fill(now: Temple, order: tuple[str, ...]) -> Game:
    """The game with the face-down places holding ``order``'s cards, top first."""
    cards = iter(order)
    deck = [CODE[c if c is not None else next(cards)] for c in now.deck]
    up = [c is not None for c in now.deck]
    return Game(deck, up, [CODE[c] for c in now.notes], len(now.score), now.jewels())


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


def safe(game: Game) -> list[tuple[str, int]]:
    """The legal actions that show nothing and do not step onto a trap the player sees."""
    out = []
    for what, arg in legal(game):
        if what == "look":
            continue
        if what == "explore":
            k = arg % len(game.deck)
            if game.up[k] and KIND[game.deck[k]] == TRAP:
                continue
        out.append((what, arg))
    return out


def after(game: Game, action: tuple[str, int]) -> Game:
    """A copy of ``game`` with ``action`` done (a search's next game; ``game`` is left as is)."""
    there = Game(list(game.deck), list(game.up), list(game.notes), game.score, game.jewels)
    play(there, action)
    return there


def seen_key(game: Game) -> tuple:
    """What a player sees of ``game``: two routes to the same sight reach the same game."""
    deck = tuple(c if up else -1 for c, up in zip(game.deck, game.up, strict=True))
    return (deck, tuple(sorted(game.notes)), game.jewels)


def worth(game: Game, before: Game, steps: int) -> int | None:
    """How the rollout ranks the end of a route of ``steps`` actions from ``before``.

    None for a dead end (a trap, or the top face up and no safe action). Else, highest first:
    the win; then the jewels nabbed; reaching a face-down top (a look); the notes kept; the
    trinkets nabbed; the shorter route. ``rollout.worth`` packs the same order in one integer.
    """
    if game.status == "won":
        return WIN
    if game.status != "playing" or (game.up[0] and not safe(game)):
        return None
    jewels = game.jewels - before.jewels
    look = int(not game.up[0])
    trinkets = game.score - before.score - jewels
    return (((jewels * 2 + look) * 4 + len(game.notes)) * 1000 + trinkets) * 1000 + 999 - steps


def progress(worth: int) -> bool:
    """Whether a route's end is worth going to: a win, a nab, or a look."""
    return worth >= 1000 * 1000 * 4 or (worth // 1000) % 1000 > 0


def route(game: Game) -> tuple[str, int] | None:
    """The first action of the best route (``worth``) among the games a search reaches.

    Breadth first over the safe actions (nothing is shown on the way, so the player sees
    every game of the route), from the shortest route, at most ``ROUTES`` games; a route ends
    at a look, a win or a nab-free dead end. None when no route makes progress: the rollout
    gives the game up (a loss: every way on it can see goes round in circles or ends on a trap).
    """
    best, best_worth = None, -1
    known = {seen_key(game)}
    frontier: list[tuple[Game, tuple[str, int] | None, int]] = [(game, None, 0)]
    for here, first, steps in frontier:
        for action in safe(here):
            there = after(here, action)
            value = worth(there, game, steps + 1)
            if value is None:
                continue
            if value > best_worth:
                best, best_worth = first or action, value
            if there.status != "playing" or not there.up[0]:
                continue
            key = seen_key(there)
            if key not in known and len(known) < ROUTES:
                known.add(key)
                frontier.append((there, first or action, steps + 1))
    return best if best is not None and progress(best_worth) else None


def rollout(game: Game) -> tuple[str, int] | None:
    """The rollout policy's action (see the module's text), or None: the game is given up."""
    if not game.up[0]:
        return ("look", 0)
    return route(game)


def finish(game: Game) -> Game:
    """Play the game out with the rollout policy (lost: given up, or after ``STEPS`` actions)."""
    for _ in range(STEPS):
        action = rollout(game) if game.status == "playing" else None
        if action is None:
            break
        play(game, action)
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
    (``loop.rollout``), in chunks of orders, every action on each chunk (two at a time, one a
    core); when the ``deadline`` passes after at least ``LEAST`` orders, the rest are left (a
    sample, then, not every order). ``samples``: the orders sampled when not every order is
    played (default ``SAMPLES``).
    """
    now = found.temple
    actions = now.actions()
    if not actions:
        raise InputError("sleuth next", "", f"no legal action: the game is {now.status}")
    unseen = [CODE[c] for c in now.unseen]
    # the exact search first, with a third of the time: the optimum when it finishes (it
    # rarely does with more unseen cards: docs/loop.md)
    solved = None
    if deadline is not None and len(unseen) <= SEARCHED:
        solved = solve(now, deadline.share(3))
    orders = shuffled(unseen, samples)
    won, cards = weigh(now, actions, orders, deadline)
    played = len(won[0])
    exact = played == len(orders) and len(unseen) <= EXACT
    weighed = [
        Weighed(
            action, int(w.sum()), played, float(c.mean()), *interval(int(w.sum()), played, exact)
        )
        for action, w, c in zip(actions, won, cards, strict=True)
    ]
    own = rollout(fill(now, tuple(now.unseen)))  # the rollout policy's own choice here
    base = [str(a) for a in actions].index(str(named(own))) if own is not None else None
    best = chosen(weighed, won, base, exact)
    ranked = (
        weighed[best],
        *sorted((w for k, w in enumerate(weighed) if k != best), key=lambda w: (-w.win, -w.score)),
    )
    richest = max(range(len(weighed)), key=lambda k: weighed[k].score)
    greed = weighed[richest] if clearly(cards[richest], cards[best], exact) else None
    what_ = "every order" if exact else f"{played} sampled orders"
    method = f"{what_} of the {len(unseen)} unseen cards played out by the rollout policy" + (
        "" if exact else "; flat Monte Carlo, 95% Wilson intervals"
    )
    doomed = True if trapped(now) else False if any(w.won for w in weighed) else None
    level = frozenset(
        str(w.action)
        for k, w in enumerate(weighed)
        if not clearly(won[best], won[k], exact) and not clearly(cards[best], cards[k], exact)
    )
    if solved is not None:  # the exact best action first; the sampled games stay as shown
        ranked, level, doomed = optimal(ranked, solved), exact_level(solved), solved.doomed
        method += f"; the first checked by the exact search over looks (best chance {solved.win})"
    first = list(solved.plan) if solved is not None and solved.plan else line(now, ranked[0].action)
    looked = at_look(now, first)
    after = None if looked is None else after_look(looked)
    return Plan(ranked, exact, played, method, greed, first, doomed, level, solved, after)


def at_look(now: Temple, route: list[Action]) -> Temple | None:
    """The temple where ``route`` ends in a look, its certain actions played; None otherwise."""
    if not route or route[-1].action != "look":
        return None
    for action in route[:-1]:
        now = step(now, action.event())
    return now


def optimal(ranked: tuple[Weighed, ...], solved: Solved) -> tuple[Weighed, ...]:
    """``ranked`` with the exact line's first action first: it has the best chance.

    With no line (nothing wins) every action is as good: ``ranked`` as it is.
    """
    if not solved.plan:
        return ranked
    k = next(k for k, w in enumerate(ranked) if str(w.action) == str(solved.plan[0]))
    return (ranked[k], *ranked[:k], *ranked[k + 1 :])


def exact_level(solved: Solved) -> frozenset[str]:
    """The actions whose exact best chance is the best: each as good as the first."""
    best = max((o.win for o in solved.options), default=Fraction(0))
    return frozenset(str(o.action) for o in solved.options if o.win == best)


def chosen(weighed: list[Weighed], won: list[np.ndarray], base: int | None, exact: bool) -> int:
    """The action to play: the rollout policy's own (``base``), unless another clearly wins more.

    Among the actions that clearly beat it (``clearly``), the one that wins most, then scores
    most; without a ``base``, the one that wins most.
    """
    if base is None:
        return max(range(len(weighed)), key=lambda k: (weighed[k].win, weighed[k].score))
    better = [k for k in range(len(weighed)) if clearly(won[k], won[base], exact)]
    return max(better, key=lambda k: (weighed[k].win, weighed[k].score), default=base)


def shuffled(unseen: list[int], samples: int | None) -> np.ndarray:
    """The orders of the unseen cards to play: every one when few, else a seeded sample."""
    rng = np.random.default_rng(0)
    if len(unseen) <= EXACT:
        every = list(permutations(unseen))  # one empty order when every card is seen
        orders = np.array(every, dtype=np.int64).reshape(len(every), len(unseen))
        return orders[rng.permutation(len(orders))]
    drawn = SAMPLES if samples is None else samples
    return np.array([rng.permutation(unseen) for _ in range(drawn)], dtype=np.int64)


def weigh(
    now: Temple, actions: tuple[Action, ...], orders: np.ndarray, deadline: Deadline | None
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each action's games, order by order: won or not, and the cards scored.

    Over ``orders``, or as many as the deadline left (at least ``LEAST``).
    """
    from concurrent.futures import ThreadPoolExecutor

    from sleuth.games.loop import rollout

    start = arrays(now)
    won: list[list[np.ndarray]] = [[] for _ in actions]
    cards: list[list[np.ndarray]] = [[] for _ in actions]

    def games(action: Action, chunk: np.ndarray) -> np.ndarray:
        what, arg = code(action)
        return rollout.play_out(*start, WHAT[what], arg, chunk, STEPS, ROUTES)

    played = 0
    with ThreadPoolExecutor(max_workers=2) as pool:  # the compiled games leave the GIL
        while played < len(orders):
            chunk = orders[played : played + CHUNK]
            ended = pool.map(games, actions, [chunk] * len(actions))
            for k, each in enumerate(ended):
                won[k].append(each[:, 0] == rollout.WON)
                cards[k].append(each[:, 1])
            played += len(chunk)
            if deadline is not None and played >= LEAST and deadline.passed():
                break
    return [np.concatenate(w) for w in won], [np.concatenate(c) for c in cards]


def clearly(better: np.ndarray, than: np.ndarray, exact: bool) -> bool:
    """Whether the games of ``better`` beat those of ``than`` on the same orders.

    Wins (bool) or cards (int), order by order. Exact (every order played): more in total. A
    sample: by more than ``MARGIN`` standard errors of the paired difference (for wins, the
    orders won by one only: McNemar's; for cards, the paired mean's).
    """
    difference = better.astype(np.int64) - than.astype(np.int64)
    total = int(difference.sum())
    if exact or total <= 0:
        return total > 0
    spread = float(np.sqrt(float((difference.astype(np.float64) ** 2).sum())))
    if better.dtype == np.bool_:  # McNemar's: the discordant orders
        return total > MARGIN * spread
    n = len(difference)
    sd = float(np.std(difference, ddof=1)) if n > 1 else 0.0
    return total / n > MARGIN * sd / np.sqrt(n) if sd else total > 0


def line(now: Temple, first: Action) -> list[Action]:
    """The planner's line: ``first``, then the rollout policy's route up to the next look.

    Only a look shows a card, so until then the route is the same whatever lies face down.
    """
    if first.action == "look":
        return [first]  # what it shows decides the rest
    game = fill(now, tuple(now.unseen))
    out = [first]
    play(game, code(first))
    while game.status == "playing" and len(out) < LINE:
        action = rollout(game)
        if action is None:
            break
        out.append(named(action))
        if action[0] == "look":
            break
        play(game, action)
    return out


def named(action: tuple[str, int]) -> Action:
    """A rollout's action as the temple names it."""
    what, arg = action
    if what == "look":
        return Action("look")
    if what == "explore":
        return Action("explore", arg)
    return Action(what, DECK[arg])


def trapped(now: Temple) -> bool:
    """Whether every line from here is lost: no look and no win within reach, searched whole.

    The search goes over every action but a look (nothing is shown, so each is one game) and
    not onto a trap the player sees; ``CLOSED`` games at most (False past that: not decided).
    """
    if now.actions() and now.deck[0] is None:
        return False
    game = fill(now, tuple(now.unseen))
    known = {seen_key(game)}
    frontier = [game]
    for here in frontier:
        for action in safe(here):
            there = after(here, action)
            if there.status == "won" or (there.status == "playing" and not there.up[0]):
                return False
            key = seen_key(there)
            if there.status == "playing" and key not in known:
                if len(known) >= CLOSED:
                    return False
                known.add(key)
                frontier.append(there)
    return now.status == "playing"


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
