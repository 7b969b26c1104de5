"""Simulated games of Loot of Lima: a deal, the passing, turns played by the rules, a record.

Written from the rulebook, not from ``sleuth.games.lima``: the deal and the passing (Setup),
dice-made questions answered truthfully (Constructing A Question), one Pistol question each
(Special Abilities), accusations that put a wrong accuser out (End of Game and Victory).
Players are listed clockwise, so a player's left neighbour comes next in the list.

Run as a script to print a whole game as a record:
``python -m sleuth.games.lima.simulate 4 7``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from itertools import combinations, permutations

from sleuth.games.lima.board import face_of, island

NAMES = ("Ana", "Ben", "Cy", "Di", "Ed")
TREASURE, PUBLIC = "treasure", "public"

Policy = Callable[[dict], "tuple[str, str] | None"]


def deal(players: tuple[str, ...], rng: random.Random) -> dict[str, str]:
    """Two tokens set aside as the treasure, the rest dealt evenly, the remainder face up."""
    tokens = list(island().locations)
    rng.shuffle(tokens)
    truth = dict.fromkeys(tokens[:2], TREASURE)
    rest = tokens[2:]
    each = len(rest) // len(players)
    for k, player in enumerate(players):
        truth.update(dict.fromkeys(rest[k * each : (k + 1) * each], player))
    truth.update(dict.fromkeys(rest[each * len(players) :], PUBLIC))
    return truth


def pass_tokens(truth: dict[str, str], players: tuple[str, ...], rng: random.Random) -> list:
    """Each player passes tokens of their own deal at once: (giver, receiver, token) moves.

    4 players: one token to the player across. 5 players: one to the right, one to the left.
    """
    n = len(players)
    steps = {4: [2], 5: [-1, 1]}.get(n, [])
    moves = []
    for k, giver in enumerate(players):
        own = sorted(t for t, h in truth.items() if h == giver)
        for token, step in zip(rng.sample(own, len(steps)), steps, strict=True):
            moves.append((giver, players[(k + step) % n], token))
    for _, receiver, token in moves:
        truth[token] = receiver
    return moves


def in_range(token: str, start: str, end: str, terrain: str | None = None) -> bool:
    """Whether ``token`` lies clockwise from point ``start`` to point ``end`` (same: anywhere)."""
    points = island().points
    n = len(points)
    a, b = points.index(start), points.index(end)
    region = int(token[:-1]) - 1  # region r+1 lies from points[r] to points[r+1]
    inside = (region - a) % n < ((b - a) % n or n)
    return inside and terrain in (None, island().terrains[token[-1]])


def count(truth: dict[str, str], player: str, start: str, end: str, terrain=None) -> int:
    """The truthful answer: how many of ``player``'s tokens lie in the range."""
    return sum(h == player and in_range(t, start, end, terrain) for t, h in truth.items())


def roll(rng: random.Random) -> tuple[str, str, str | None]:
    """Roll the three dice, pick one for each end of the range, and a terrain if they agree."""
    faces = [rng.choice(island().dice[d]).split("-") for d in sorted(island().dice)]
    (start, first), (end, second) = rng.sample(faces, 2)
    names = list(island().terrains.values())
    if first == second == "wild":
        terrain = rng.choice(names)
    elif "wild" in (first, second) or first == second:
        terrain = second if first == "wild" else first
    else:
        terrain = None
    if rng.random() < 0.4:
        terrain = None
    return start, end, terrain


def opening(players: tuple[str, ...], me: str, rng: random.Random) -> tuple[dict, dict[str, str]]:
    """The deal and the passing (Setup): a record with no events yet, and the holdings."""
    truth = deal(players, rng)
    known: dict[str, list[str]] = {}
    for giver, receiver, token in pass_tokens(truth, players, rng):
        if giver == me:
            known.setdefault(receiver, []).append(token)
    doc = {
        "game": "lima",
        "players": list(players),
        "me": me,
        "hand": [t for t in island().locations if truth[t] == me],
        "known": known,
        "public": [t for t in island().locations if truth[t] == PUBLIC],
        "events": [],
    }
    return doc, truth


def simulate(
    n: int,
    turns: int,
    seed: int,
    me: int = 0,
    pistol: float = 0.2,
    accuse: float = 0.04,
    policy: Policy | None = None,
) -> tuple[dict, dict[str, str]]:
    """A record (YAML-ready data) of up to ``turns`` turns, and the holdings after the passing.

    Other players make a wrong accusation now and then; ``policy`` (given the record so far)
    names the pair I accuse, if any. The game ends early when an accusation is right.
    """
    rng = random.Random(seed)
    players = NAMES[:n]
    me_name = players[me]
    doc, truth = opening(players, me_name, rng)
    events = doc["events"]
    treasure = sorted(t for t, h in truth.items() if h == TREASURE)
    out, pistols = set(), set(players)
    first = rng.randrange(n)
    for turn in range(turns):
        by = players[(first + turn) % n]
        if by in out:
            continue
        to = rng.choice([p for p in players if p != by])
        if by in pistols and rng.random() < pistol:
            pistols.discard(by)
            start, end = rng.choice(island().points), rng.choice(island().points)
            secret: dict[str, str | int] = {"by": by, "to": to}
            if by == me_name:
                secret.update(range=f"{start}-{end}", answer=count(truth, to, start, end))
            events.append({"secret": secret})
        else:
            start, end, terrain = roll(rng)
            ask: dict[str, str | int] = {"by": by, "to": to, "range": f"{start}-{end}"}
            if terrain is not None:
                ask["terrain"] = terrain
            ask["answer"] = count(truth, to, start, end, terrain)
            events.append({"ask": ask})
        pair = policy(doc) if policy and me_name not in out else None
        accuser = me_name
        if pair is None:
            able = [p for p in players if p not in out and not (policy and p == me_name)]
            if not able or rng.random() > accuse:
                continue
            accuser = rng.choice(able)
            pair = rng.choice(list(combinations(island().locations, 2)))
        correct = sorted(pair) == treasure
        event = {"by": accuser, "locations": list(pair), "correct": correct}
        if accuser == me_name:
            event["treasure"] = treasure
        events.append({"accuse": event})
        out.add(accuser)
        if correct or len(out) >= n - 1:
            break
    return doc, truth


def _certain_pair(doc: dict) -> tuple[str, str] | None:
    """My policy for the example games: accuse once sleuth says one pair is certain."""
    from sleuth.analysis import report
    from sleuth.record import parse

    pairs = report(parse(doc, "simulation")).details
    return pairs[0].locations if pairs and pairs[0].probability == 1 else None


def main(argv: list[str]) -> None:
    """Print a whole game (played until I know the treasure) as a record."""
    from sleuth.document import document, dump
    from sleuth.record import parse

    n, seed = int(argv[0]), int(argv[1])
    doc, _ = simulate(n, 200, seed, me=2, accuse=0.015, policy=_certain_pair)
    made = f"python -m sleuth.games.lima.simulate {n} {seed}"
    print(f"# Loot of Lima, {n} players: simulated by {made}")
    print(dump(document(parse(doc, "simulation"))), end="")


if __name__ == "__main__":
    main(sys.argv[1:])


# A player's turn for the benchmark of the advisor: the dice rolled, a question they allow.

Ask = tuple[str, str, str, "str | None"]  # (to, start point, end point, terrain or None)


def roll_faces(rng: random.Random) -> list[tuple[str, str]]:
    """The three dice rolled: (compass point, terrain or "wild") per die."""
    return [face_of(rng.choice(island().dice[d])) for d in sorted(island().dice)]


def questions(faces: list[tuple[str, str]], opponents) -> list[Ask]:
    """Every way to build a question from the faces (Constructing A Question).

    An opponent, one die for the start and another for the end, and a terrain only when both
    dice show it; a wild shows whichever terrain the player names.
    """
    names = list(island().terrains.values())
    out = []
    for (start, first), (end, second) in permutations(faces, 2):
        shared = [t for t in names if first in (t, "wild") and second in (t, "wild")]
        out += [(to, start, end, kind) for kind in (None, *shared) for to in opponents]
    return out


def ask_event(truth: dict[str, str], by: str, question: Ask) -> dict:
    """``by`` asks ``question`` aloud, answered truthfully."""
    to, start, end, terrain = question
    ask: dict[str, str | int] = {"by": by, "to": to, "range": f"{start}-{end}"}
    if terrain is not None:
        ask["terrain"] = terrain
    ask["answer"] = count(truth, to, start, end, terrain)
    return {"ask": ask}
