"""Are Looting London's hand chances calibrated against simulated truth? Binned, per table size.

Usage: ``.venv/bin/python benchmarks/london_calibration.py [--players 2,3,4,5] [--games 40]
[--every 7] [--destroy 0.2] [--markdown]``.

Each seed is one whole game of ``sleuth.games.london.simulate`` from seat ``seed % players``;
after every ``--every``-th event the report's belief gives, for each opponent and figure, the
chance that they hold j cards of it, for every j. Each chance strictly between 0 and 1 falls in
a bin of a tenth; per bin: how many, the mean chance stated, how often the simulation's true
hand held exactly that, and z, the difference over its binomial standard deviation (the
chances of one state are not independent, so |z| a little over 2 is no alarm).

The belief's model (every hidden arrangement alike given what was seen; a meld shows only its
cards) is not the simulator's whole truth: a simulated player melds whenever they can, so a
turn without a meld says their hand could pay for no bottom tile, which the model does not use.
This table measures what that costs.
"""

from __future__ import annotations

import argparse
import math

from tables import render

from sleuth.games.london.cards import BOX
from sleuth.games.london.hands import believe
from sleuth.games.london.simulate import simulate
from sleuth.record import parse

BINS = 10


def binned(players: int, games: int, every: int, destroy: float) -> list[list[float]]:
    """Per bin: the chances stated (summed), the times they came true, how many."""
    bins = [[0.0, 0.0, 0.0] for _ in range(BINS)]
    for seed in range(games):
        game = simulate(players, seed, me=seed % players, destroy=destroy)
        for k in range(0, len(game.doc["events"]) + 1, every):
            found = believe(parse({**game.doc, "events": game.doc["events"][:k]}, "sim"))
            for player in game.doc["players"]:
                if player == game.doc["me"]:
                    continue
                for figure, spread in zip(BOX.figures, found.spread(player), strict=True):
                    for j, p in enumerate(spread):
                        if 0 < p < 1:
                            tally = bins[min(BINS - 1, int(BINS * p))]
                            tally[0] += float(p)
                            tally[1] += game.hands[k][player][figure] == j
                            tally[2] += 1
    return bins


def rows(players: int, bins: list[list[float]]) -> list[list[str]]:
    """One row per bin with chances in it."""
    out = []
    for b, (stated, seen, n) in enumerate(bins):
        if not n:
            continue
        sd = math.sqrt(stated * (1 - stated / n)) or 1.0
        out.append(
            [
                str(players),
                f"{b / BINS:.1f}-{(b + 1) / BINS:.1f}",
                str(int(n)),
                f"{stated / n:.3f}",
                f"{seen / n:.3f}",
                f"{(seen - stated) / sd:+.1f}",
            ]
        )
    return out


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--destroy", type=float, default=0.2)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    table = []
    for players in (int(n) for n in args.players.split(",")):
        table += rows(players, binned(players, args.games, args.every, args.destroy))
    head = ["players", "chance", "n", "stated", "seen", "z"]
    print(render(head, table, args.markdown))
    print()
    print(f"seeds 0-{args.games - 1}, every {args.every}th event, destroy {args.destroy}")


if __name__ == "__main__":
    main()
