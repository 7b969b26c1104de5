"""Does ``sleuth next`` help at Loot the Loop? Simulated solitaire games, three policies, one deal.

Usage: ``.venv/bin/python benchmarks/loop_help.py [--games 300] [--first-seed 0] [--samples 1000]
[--workers 2] [--markdown]``.

Each seed is one deal of ``sleuth.games.loop.simulate`` (written from the rulebook alone), the
same for every policy, played three times:

- ``random`` and ``greedy``: the simulator's policies (its module docstring), played by its
  ``simulate``; a game its loop guard stops (the policy bound to repeat itself) counts as lost,
  under ``cut``.
- ``next``: what ``sleuth next`` names. At each decision with more than one legal action, the
  ``Temple`` the player sees (face-up cards by name, face-down ones as None, notes, score pile,
  and every card not face down as seen) goes to ``plan.advise``, and its first option is played;
  ``--samples`` sets the orders it samples per action (it plays every order when at most
  ``plan.EXACT`` cards are unseen). With one legal action, that one. A game is cut after ``CUT``
  actions and counts as lost, under ``cut``; the planner is a function of what it sees (its
  sampled orders are seeded), so a game back in a state it has been in would go round to the cut,
  and is stopped there, the same outcome sooner.

The first table gives each policy's endings: wins with Wilson 95% intervals, losses to a trap,
stuck (no legal action), cut; the mean score (cards in the score pile at the end) with its
Student 95% interval; ``choices/game``, the actions taken where more than one was legal;
``next = greedy``, the share of ``next``'s choices that greedy would have made in its place;
``ms/game``, the CPU time of one game in a worker. The second pairs ``next`` with each other
policy on the same seeds: the mean score difference (next minus the other) with its interval and
the paired t test's p; the seeds on which next scored more, equal, less; the seeds won under one
policy only and McNemar's exact p on them. Progress goes to stderr, tables to stdout.
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
    Game,
    State,
    View,
    deal,
    greedy,
    legal_actions,
    simulate,
    step,
    view,
)
from sleuth.games.loop.temple import Action as Option
from sleuth.games.loop.temple import Temple
from sleuth.games.loop.tracker import Tracker

POLICIES = ("random", "greedy", "next")
CUT = 400  # actions at most in a ``next`` game; cut, it counts as lost
ENDINGS = ("won", "trap", "stuck", "cut")


class Outcome(NamedTuple):
    """One game: how it ended (``ENDINGS``), its score, its choices, seconds of CPU."""

    ending: str
    score: int
    choices: int  # actions taken where more than one was legal
    greedy: int = 0  # next: of those, the ones greedy would have taken
    seconds: float = 0.0


def temple(seen: View) -> Temple:
    """The temple a player seeing ``seen`` knows: every card not face down is seen."""
    cards = {c for c in seen.deck if c is not None} | set(seen.notes) | set(seen.score)
    return Temple(seen.deck, seen.notes, seen.score, frozenset(cards))


def action(option: Option) -> Action:
    """A planner's option as the simulator's action."""
    if option.action == LOOK:
        return Action(LOOK)
    if option.action == EXPLORE:
        return Action(EXPLORE, int(option.what or 0))
    return Action(option.action, card=str(option.what))


def advised(seen: View, samples: int) -> Action:
    """The ``next`` policy: ``sleuth next``'s first option."""
    return action(plan.advise(Tracker(None, temple(seen)), {}, samples=samples).options[0].action)


Chosen = Callable[[View, Action], None]  # told each choice of ``next`` and what it saw


def next_game(seed: int, samples: int, told: Chosen | None = None) -> Game:
    """The ``next`` policy's game of ``seed``: the simulator's deal; cut as the module says."""
    rng = random.Random(seed)
    rng.getrandbits(64)  # the simulator's stream of choices, drawn before the deal
    state = deal(rng)
    states, visited, looped, events = [state], {state}, False, []
    while state.status == PLAYING and len(events) < CUT and not looped:
        legal = legal_actions(state)
        chosen = advised(view(state), samples) if len(legal) > 1 else legal[0]
        if told and len(legal) > 1:
            told(view(state), chosen)
        state, event = step(state, chosen)  # a ValueError if the action is not legal
        looped = state in visited
        visited.add(state)
        states.append(state)
        events.append(event)
    doc = {"game": "loot-the-loop", "events": events}
    return Game(doc, states, state.status, len(state.score), seed, looped, "next")


def choices(states: list[State]) -> int:
    """How many of a game's actions were taken where more than one was legal."""
    return sum(len(legal_actions(s)) > 1 for s in states[:-1])


def ending(game: Game) -> str:
    """Won, trap, stuck, or cut (looped, or stopped by a cap)."""
    if game.status == PLAYING or game.looped:
        return "cut"
    return "trap" if game.status == LOST else game.status


def outcome(game: Game, seconds: float, same: int = 0) -> Outcome:
    """A game's ``Outcome``."""
    return Outcome(ending(game), game.score, choices(game.states), same, seconds)


def play(job: tuple[int, int]) -> tuple[int, dict[str, Outcome]]:
    """The three policies' games of one seed (seed, samples), each timed."""
    seed, samples = job
    out = {}
    for name in POLICIES:
        same = [0]

        def told(seen: View, chosen: Action, same: list[int] = same) -> None:
            same[0] += chosen == greedy(seen, random.Random(0))

        clock = time.process_time()
        game = next_game(seed, samples, told) if name == "next" else simulate(seed, name)
        out[name] = outcome(game, time.process_time() - clock, same[0])
    return seed, out


def warm() -> None:
    """Compile the planner's games in this worker before any game is timed."""
    advised(view(step(deal(random.Random(0)), Action(LOOK))[0]), 10)


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


def mean_cell(values: list[float], signed: bool = False) -> str:
    """A mean with its 95% interval, e.g. "3.41 (3.20 to 3.62)"."""
    mean, low, high = mean_interval(values)
    sign = "+" if signed else ""
    return f"{mean:{sign}.2f} ({low:{sign}.2f} to {high:{sign}.2f})"


HEAD = [
    "policy",
    "games",
    "won (95%)",
    "lost: trap",
    "stuck",
    "cut",
    "score (95%)",
    "choices/game",
    "next = greedy",
    "ms/game",
]


def policy_row(name: str, games: list[Outcome]) -> list[str]:
    """The first table's row for one policy."""
    n = len(games)
    ends = {e: sum(g.ending == e for g in games) for e in ENDINGS}
    made = sum(g.choices for g in games)
    same = pct(sum(g.greedy for g in games) / made) if name == "next" and made else "-"
    return [
        name,
        str(n),
        share_cell(ends["won"], n),
        *(count_cell(ends[e], n) for e in ENDINGS[1:]),
        mean_cell([float(g.score) for g in games]),
        f"{made / n:.1f}",
        same,
        f"{1000 * statistics.fmean(g.seconds for g in games):.1f}",
    ]


PAIRED = [
    "next vs",
    "games",
    "d score (95%)",
    "paired t p",
    "next more/equal/less",
    "won: other only/next only",
    "McNemar p",
]


def paired_row(other: str, pairs: list[tuple[Outcome, Outcome]]) -> list[str]:
    """The second table's row: ``next`` against ``other`` on the same seeds."""
    differences = [float(b.score - a.score) for a, b in pairs]
    more = sum(d > 0 for d in differences)
    less = sum(d < 0 for d in differences)
    only_other = sum(a.ending == "won" and b.ending != "won" for a, b in pairs)
    only_next = sum(b.ending == "won" and a.ending != "won" for a, b in pairs)
    return [
        other,
        str(len(pairs)),
        mean_cell(differences, signed=True),
        f"{paired_t_p(differences):.2g}",
        f"{more}/{len(pairs) - more - less}/{less}",
        f"{only_other}/{only_next}",
        f"{sign_p(only_other, only_next):.2g}",
    ]


def tables(results: list[dict[str, Outcome]]) -> tuple[list[list[str]], list[list[str]]]:
    """The two tables' rows from every seed's outcomes."""
    first = [policy_row(name, [r[name] for r in results]) for name in POLICIES]
    second = [
        paired_row(other, [(r[other], r["next"]) for r in results]) for other in POLICIES[:-1]
    ]
    return first, second


def run(seeds: range, samples: int, workers: int) -> tuple[list[dict[str, Outcome]], float]:
    """Every seed's outcomes, in seed order, and the wall time they took."""
    started, done = time.monotonic(), {}
    jobs = [(seed, samples) for seed in seeds]
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
    parser.add_argument("--games", type=int, default=300, help="seeds")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=1000, help="the planner's orders/action")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    results, elapsed = run(seeds, max(args.samples, 1), args.workers)
    first, second = tables(results)
    print(render(HEAD, first, args.markdown))
    print()
    print(render(PAIRED, second, args.markdown))
    print()
    print(
        f"seeds {seeds.start}-{seeds.stop - 1}, {args.samples} samples; "
        f"{len(POLICIES) * len(results)} games in {elapsed:.0f} s on {args.workers} worker(s)"
    )


if __name__ == "__main__":
    main()
