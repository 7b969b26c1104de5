"""Simulated games of Goldraub: a random deal, turns played by the rules, a record of them."""

from __future__ import annotations

import random

from sleuth.games.goldraub.board import city
from sleuth.games.goldraub.rules import ASIDE

NAMES = ("Anton", "Bert", "Christl", "Doris", "Elli", "Franz")


def deal(players: tuple[str, ...], rng: random.Random) -> dict[str, str]:
    """A random deal: three sectors each, the rest aside."""
    sectors = list(city().sectors)
    rng.shuffle(sectors)
    out = dict.fromkeys(sectors, ASIDE)
    for k, player in enumerate(players):
        for s in sectors[3 * k : 3 * k + 3]:
            out[s] = player
    return out


def holds_row(truth: dict[str, str], player: str, row: str) -> bool:
    """Whether ``player`` holds a sector of ``row`` in the true deal."""
    return any(truth[s] == player for s in city().rows[row])


def between(players: tuple[str, ...], first: str, last: str) -> list[str]:
    """Players strictly between ``first`` and ``last``, clockwise."""
    n, a = len(players), players.index(first)
    gap = (players.index(last) - a) % n or n
    return [players[(a + k) % n] for k in range(1, gap)]


def simulate(n: int, turns: int, seed: int, me: int = 0, guesses: float = 0.15):
    """A record (as YAML-ready data) of ``turns`` searches in an n-player game, and the deal."""
    rng = random.Random(seed)
    board = city()
    players = NAMES[:n]
    truth = deal(players, rng)
    me_name = players[me]
    corners = rng.sample([1, 5, 9, 13, 17, 21], n)
    where = dict(zip(players, corners, strict=True))
    events = []
    first = rng.randrange(n)
    revealed, guessed = set(), {p: [] for p in players}  # guessed: (round, right) per player
    for turn in range(turns):
        if turn >= board.rounds * n:  # the round counter is at 0: the game is over
            break
        by = players[(first + turn) % n]
        steps, space = rng.randint(1, 6), where[by]
        while steps:
            space = space % len(board.route) + 1
            if space not in where.values():
                steps -= 1
        where[by] = space
        row = rng.choice(board.route[space])
        gold = sum(holds_row(truth, p, row) for p in players if p != by)
        event = {"by": by, "row": row, "gold": gold, "at": space}
        seen = between(players, by, me_name)
        if by != me_name and seen:
            event["saw"] = sum(holds_row(truth, p, row) for p in seen)
        events.append({"search": event})
        if rng.random() < guesses:
            guesser = rng.choice(players)
            owner = rng.choice([p for p in players if p != guesser])
            if rng.random() < 0.5:
                sector = rng.choice([s for s, h in truth.items() if h == owner])
            else:
                sector = rng.choice(board.sectors)
            done = (turn + 1) // n  # rounds completed: the round counter moved so often
            mine = [right for when, right in guessed[guesser] if when == done]
            over = done >= board.rounds
            if over or sector in revealed or len(mine) >= 2 or not all(mine):
                continue  # the rules forbid this guess (Discovering a Hiding Place)
            guessed[guesser].append((done, truth[sector] == owner))
            if truth[sector] == owner:
                revealed.add(sector)
            events.append(
                {
                    "guess": {
                        "by": guesser,
                        "owner": owner,
                        "sector": int(sector),
                        "correct": truth[sector] == owner,
                    }
                }
            )
    hand = [int(s) for s, h in truth.items() if h == me_name]
    doc = {"game": "goldraub", "players": list(players), "me": me_name, "hand": hand}
    doc["events"] = events
    return doc, truth
