"""Does ``sleuth next`` help at Loot the Loop? Simulated solitaire games, four policies, one deal.

Usage: ``.venv/bin/python benchmarks/loop_help.py [--games 10000] [--planned 500]
[--first-seed 0] [--samples 300] [--workers 2] [--only POLICY] [--markdown]``.

Each seed is one deal of ``sleuth.games.loop.simulate`` (written from the rulebook alone), the
same for every policy. Every policy sees what a player sees (face-up cards, face-down places,
notes, score pile), never the deck:

- ``random``: the simulator's uniform policy, any legal action;
- ``safe``: uniform among the legal actions that do not step onto a trap it sees (any, if
  every one does);
- ``greedy``: the planner's rollout policy (``plan.rollout``): look when it can, else the best
  short route to a jewel, a look, a kept note or a trinket, never onto a seen trap nor into a
  dead end; it gives a game up when no route makes progress;
- ``next``: what ``sleuth next`` names (``plan.advise``'s first option), with ``--samples``
  orders an action (about what its default 1.5 s allows on a mid-game state; it plays every
  order when at most ``plan.EXACT`` cards are unseen). It plays only the first ``--planned``
  seeds (it takes about a second a choice).

A game is cut after ``CUT`` actions, or, for ``greedy`` and ``next`` (functions of what they
see), when it is back in a state it has been in; a cut or given-up game is lost with ``no
progress``. The first table
gives each policy's endings: wins with Wilson 95% intervals, losses to a trap, stuck (no legal
action), no progress; the mean score (cards in the score pile at the end) and jewels with
their Student 95% intervals; ``ms/game``, CPU time of one game. The second pairs two policies
on the seeds both played: the mean difference in wins (points) and score with intervals and
the paired t test's p; the seeds won under one policy only and McNemar's exact p on them.
Progress goes to stderr, tables to stdout.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import NamedTuple

from paired import mean_interval, paired_t_p, sign_p, wilson
from tables import render

from sleuth.games.loop import plan
from sleuth.games.loop.simulate import (
    EXPLORE,
    LOOK,
    LOST,
    PLAYING,
    Action,
    View,
    deal,
    kind,
    lands,
    legal_actions,
    options,
    simulate,
    step,
    view,
)
from sleuth.games.loop.temple import Action as Option
from sleuth.games.loop.temple import Temple
from sleuth.games.loop.tracker import Tracker

POLICIES = ("random", "safe", "greedy", "next")
PAIRS = (("greedy", "next"), ("safe", "next"), ("random", "next"), ("safe", "greedy"))
CUT = 2000  # actions at most in a game; cut, it counts as lost (no progress)
ENDINGS = ("won", "trap", "stuck", "no progress")
Policy = Callable[[View], Action | None]  # None: the policy gives the game up


class Outcome(NamedTuple):
    """One game: how it ended (``ENDINGS``), its score and jewels, seconds of CPU."""

    ending: str
    score: int
    jewels: int
    seconds: float = 0.0


def temple(seen: View) -> Temple:
    """The temple a player seeing ``seen`` knows: every card not face down is seen."""
    cards = {c for c in seen.deck if c is not None} | set(seen.notes) | set(seen.score)
    return Temple(seen.deck, seen.notes, seen.score, frozenset(cards))


def action(option: Option | tuple[str, int]) -> Action:
    """A planner's option, or a rollout's action, as the simulator's action."""
    if isinstance(option, tuple):
        option = plan.named(option)
    if option.action == LOOK:
        return Action(LOOK)
    if option.action == EXPLORE:
        return Action(EXPLORE, int(option.what or 0))
    return Action(option.action, card=str(option.what))


def safe_policy(rng: random.Random) -> Policy:
    """Uniform among the legal actions not onto a seen trap (any, when every one is)."""

    def choose(seen: View) -> Action:
        legal = options(seen)
        safe = [a for a in legal if a.kind != EXPLORE or lands(seen, a.n) != "trap"]
        return rng.choice(safe or legal)

    return choose


def greedy(seen: View) -> Action | None:
    """The planner's rollout policy on what ``seen`` shows (the face-down cards never matter)."""
    now = temple(seen)
    chosen = plan.rollout(plan.fill(now, now.unseen))
    return None if chosen is None else action(chosen)


def advised(samples: int) -> Policy:
    """The ``next`` policy: ``sleuth next``'s first option, on ``samples`` orders an action."""

    def choose(seen: View) -> Action:
        found = Tracker(None, temple(seen))
        return action(plan.advise(found, {}, samples=samples).options[0].action)

    return choose


def played(seed: int, choose: Policy, same: bool = True) -> tuple[str, int, int, list[dict]]:
    """``choose``'s game of ``seed`` (the simulator's deal): ending, score, jewels, events.

    ``same``: the policy is a function of what it sees, so a game back in a state it has been
    in is cut there (it would go round to ``CUT``); a random policy is cut at ``CUT`` only.
    """
    rng = random.Random(seed)
    rng.getrandbits(64)  # the simulator's stream of choices, drawn before the deal
    state = deal(rng)
    visited, events = {state}, []
    for _ in range(CUT):
        if state.status != PLAYING:
            break
        legal = legal_actions(state)
        chosen = choose(view(state)) if len(legal) > 1 else legal[0]
        if chosen is None:
            break
        state, event = step(state, chosen)  # a ValueError if the action is not legal
        events.append(event)
        if same and state in visited:
            break
        visited.add(state)
    jewels = sum(kind(c) == "jewel" for c in state.score)
    if state.status == PLAYING:
        return "no progress", len(state.score), jewels, events
    ending = "trap" if state.status == LOST else state.status
    return ending, len(state.score), jewels, events


def play(job: tuple[int, int, tuple[str, ...]]) -> tuple[int, dict[str, Outcome]]:
    """The named policies' games of one seed (seed, samples, names), each timed."""
    seed, samples, names = job
    out = {}
    for name in names:
        clock = time.process_time()
        if name == "random":
            game = simulate(seed, "random", CUT)
            ending = "no progress" if game.status == PLAYING or game.looped else game.status
            ending = "trap" if ending == LOST else ending
            jewels = sum(kind(c) == "jewel" for c in game.states[-1].score)
            result = (ending, game.score, jewels)
        else:
            choose = {"safe": safe_policy(random.Random(seed)), "greedy": greedy}.get(name)
            result = played(seed, choose or advised(samples), name != "safe")[:3]
        out[name] = Outcome(*result, time.process_time() - clock)
    return seed, out


def warm() -> None:
    """Compile the planner's games in this worker before any game is timed."""
    advised(10)(view(step(deal(random.Random(0)), Action(LOOK))[0]))


# The tables.


def pct(x: float) -> str:
    """A share as a percentage with one decimal."""
    return f"{100 * x:.1f}%"


def share_cell(k: int, n: int) -> str:
    """A count with its share and Wilson interval, e.g. "3 (1.0%, 0.3-2.9)"."""
    low, high = wilson(k, n)
    return f"{k} ({pct(k / n)}, {100 * low:.1f}-{100 * high:.1f})"


def count_cell(k: int, n: int) -> str:
    """A count with its share, e.g. "58 (2.9%)"."""
    return f"{k} ({pct(k / n)})"


def mean_cell(values: list[float], signed: bool = False, scale: float = 1.0) -> str:
    """A mean with its 95% interval, e.g. "3.41 (3.20 to 3.62)"."""
    mean, low, high = (scale * x for x in mean_interval(values))
    sign = "+" if signed else ""
    return f"{mean:{sign}.2f} ({low:{sign}.2f} to {high:{sign}.2f})"


HEAD = ["policy", "games", "won (95%)", "lost: trap", "stuck", "no progress"]
HEAD += ["score (95%)", "jewels (95%)", "ms/game"]


def policy_row(name: str, games: list[Outcome]) -> list[str]:
    """The first table's row for one policy."""
    n = len(games)
    ends = {e: sum(g.ending == e for g in games) for e in ENDINGS}
    return [
        name,
        str(n),
        share_cell(ends["won"], n),
        *(count_cell(ends[e], n) for e in ENDINGS[1:]),
        mean_cell([float(g.score) for g in games]),
        mean_cell([float(g.jewels) for g in games]),
        f"{1000 * statistics.fmean(g.seconds for g in games):.1f}",
    ]


PAIRED = ["a vs b", "games", "d won, points (95%)", "p", "d score (95%)", "p"]
PAIRED += ["won: a only/b only", "McNemar p"]


def paired_row(a: str, b: str, pairs: list[tuple[Outcome, Outcome]]) -> list[str]:
    """The second table's row: ``b`` against ``a`` on the same seeds (b minus a)."""
    wins = [float(y.ending == "won") - float(x.ending == "won") for x, y in pairs]
    scores = [float(y.score - x.score) for x, y in pairs]
    only_a = sum(x.ending == "won" and y.ending != "won" for x, y in pairs)
    only_b = sum(y.ending == "won" and x.ending != "won" for x, y in pairs)
    return [
        f"{a} vs {b}",
        str(len(pairs)),
        mean_cell(wins, signed=True, scale=100.0),
        f"{paired_t_p(wins):.2g}",
        mean_cell(scores, signed=True),
        f"{paired_t_p(scores):.2g}",
        f"{only_a}/{only_b}",
        f"{sign_p(only_a, only_b):.2g}",
    ]


def tables(results: list[dict[str, Outcome]]) -> tuple[list[list[str]], list[list[str]]]:
    """The two tables' rows from every seed's outcomes."""
    first = [
        policy_row(name, [r[name] for r in results if name in r])
        for name in POLICIES
        if any(name in r for r in results)
    ]
    second = [
        paired_row(a, b, [(r[a], r[b]) for r in results if a in r and b in r])
        for a, b in PAIRS
        if any(a in r and b in r for r in results)
    ]
    return first, second


def run(
    seeds: range, planned: int, samples: int, workers: int, only: str | None = None
) -> tuple[list[dict[str, Outcome]], float]:
    """Every seed's outcomes, in seed order, and the wall time they took."""
    started, done = time.monotonic(), {}
    names = (only,) if only else POLICIES[:-1]
    jobs = [(seed, samples, names + ("next",) * (k < planned)) for k, seed in enumerate(seeds)]
    with multiprocessing.Pool(workers, initializer=warm) as pool:
        for k, (seed, out) in enumerate(pool.imap_unordered(play, jobs), 1):
            done[seed] = out
            if k % 25 == 0 or k == len(jobs):
                elapsed = time.monotonic() - started
                print(f"{k}/{len(jobs)} seeds, {elapsed:.0f} s", file=sys.stderr, flush=True)
    return [done[seed] for seed in seeds], time.monotonic() - started


def main() -> None:
    """Play the games asked for and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeds")
    parser.add_argument("--planned", type=int, default=100, help="seeds next plays too")
    parser.add_argument("--only", choices=POLICIES[:-1], help="that policy alone (and next)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=300, help="the planner's orders/action")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    results, elapsed = run(seeds, args.planned, max(args.samples, 1), args.workers, args.only)
    first, second = tables(results)
    print(render(HEAD, first, args.markdown))
    print()
    print(render(PAIRED, second, args.markdown))
    print()
    games = sum(len(r) for r in results)
    print(
        f"seeds {seeds.start}-{seeds.stop - 1} (next: the first {min(args.planned, len(seeds))}),"
        f" {args.samples} samples; {games} games in {elapsed:.0f} s on {args.workers} worker(s)"
    )


if __name__ == "__main__":
    main()
