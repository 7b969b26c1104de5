"""Simulated games of Goldraub: a random deal, turns played by the rules, a record of them."""

from __future__ import annotations

import random
from typing import TypedDict

from sleuth.games.goldraub.board import city
from sleuth.games.goldraub.rules import ASIDE

NAMES = ("Anton", "Bert", "Christl", "Doris", "Elli", "Franz")
START = (1, 5, 9, 13, 17, 21)  # the corner spaces figures start on (Setup)


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
    """A record (as YAML-ready data) of ``turns`` searches in an n-player game, and the deal.

    It stops early where the game ends (rulebook: End of the Game).
    """
    rng = random.Random(seed)
    board = city()
    players = NAMES[:n]
    truth = deal(players, rng)
    me_name = players[me]
    corners = rng.sample(START, n)
    where = dict(zip(players, corners, strict=True))
    events: list[dict] = []
    first = rng.randrange(n)
    revealed: set[str] = set()
    guessed: dict[str, list[tuple[int, bool]]] = {p: [] for p in players}  # (round, right)
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
            if over_early(truth, list(revealed)):
                break  # the cards face down are one player's: the game ends (End of the Game)
    hand = [int(s) for s, h in truth.items() if h == me_name]
    doc = {"game": "goldraub", "players": list(players), "me": me_name, "hand": hand}
    doc["events"] = events
    return doc, truth


# A table's game: every player keeps notes and guesses what its notes make likely.

LIKELY = 0.5  # a player guesses a holding whose chance, by its own notes, is at least this


class Turn(TypedDict):
    """A round's tallies at the table: the guesses each player made, who guessed wrong.

    ``shown``, the cards laid face up by right guesses, is the whole game's, kept from round to
    round; e.g. {"made": {"Anton": 1, "Bert": 0}, "wrong": {"Bert"}, "shown": ["32"]}.
    """

    made: dict[str, int]
    wrong: set[str]
    shown: list[str]


class Notes:
    """What one player can tell from its hand and what it saw and heard: a cheap deduction.

    Each search gives the player counts over groups of players, "``count`` of ``members`` hold
    a sector of ``row``": the asker hears the whole table, any other player the cards that
    reached it and, by difference, the rest. The notes close these counts under two rules: a
    count already made up by members known to hold a sector of the row bars the others from
    it; a count that needs every undecided member makes each of them hold one. A player's
    chance that ``owner`` holds ``sector`` is then 1/k when ``owner`` holds a sector of a row
    in which k sectors are still open to it, else nothing: a proxy for the exact probability
    from its own knowledge, which would cost a count per player and event.
    """

    def __init__(self, me: str, hand: set[str], players: tuple[str, ...]):
        self.me, self.players = me, players
        self.barred = {p: set() if p == me else set(hand) for p in players}
        self.revealed: dict[str, str] = {s: me for s in hand}  # sector -> a holder known to it
        self.groups: list[tuple[frozenset[str], frozenset[str], int]] = []
        self.holds: set[tuple[str, frozenset[str]]] = set()  # (player, row): holds one of it

    def open_to(self, player: str, row: frozenset[str]) -> set[str]:
        """The sectors of ``row`` that ``player`` may still hold."""
        taken = {s for s, p in self.revealed.items() if p != player}
        return set(row) - self.barred[player] - taken

    def hears(self, members, row: frozenset[str], count: int) -> None:
        """``count`` of ``members`` hold at least one sector of ``row``."""
        if members:
            self.groups.append((frozenset(members), row, count))
            self.close()

    def learns(self, owner: str, sector: str, correct: bool) -> None:
        """A guess's outcome: the owner holds the sector (shown to all), or does not."""
        if correct:
            self.revealed[sector] = owner
        else:
            self.barred[owner].add(sector)
        self.close()

    def close(self) -> None:
        """Apply both rules to every group count until nothing changes."""
        changed = True
        while changed:
            changed = False
            for members, row, count in self.groups:
                yes = {p for p in members if self.known(p, row)}
                no = {p for p in members - yes if not self.open_to(p, row)}
                rest = members - yes - no
                if rest and count == len(yes):
                    for p in rest:
                        self.barred[p] |= row
                    changed = True
                elif rest and count == len(yes) + len(rest):
                    self.holds |= {(p, row) for p in rest}
                    changed = True

    def known(self, player: str, row: frozenset[str]) -> bool:
        """Whether ``player`` surely holds a sector of ``row``."""
        shown = any(self.revealed.get(s) == player for s in row)
        return shown or (player, row) in self.holds

    def best(self) -> tuple[float, str, str] | None:
        """The likeliest holding of another player not yet shown: (chance, owner, sector)."""
        found = []
        for player, row in self.holds:
            if player == self.me or any(self.revealed.get(s) == player for s in row):
                continue
            options = self.open_to(player, row)
            found += [(1 / len(options), player, s) for s in options]
        return max(found, key=lambda c: (c[0], c[1], int(c[2])), default=None)


def heard(notes: dict[str, Notes], players, truth, event: dict) -> None:
    """Every player in ``notes`` notes what an event (as in a record) told it."""
    if "guess" in event:
        guess = event["guess"]
        for note in notes.values():
            note.learns(guess["owner"], str(guess["sector"]), guess["correct"])
        return
    by, row, gold = (event["search"][k] for k in ("by", "row", "gold"))
    sectors = frozenset(city().rows[row])
    for p, note in notes.items():
        if p == by:
            note.hears(set(players) - {p}, sectors, gold)
            continue
        seen = between(players, by, p)
        saw = sum(holds_row(truth, q, row) for q in seen)
        rest = set(players) - {by, p} - set(seen)
        note.hears(seen, sectors, saw)
        note.hears(rest, sectors, gold - saw - holds_row(truth, p, row))


def _guesses(notes, players, truth, first: str, turn: Turn, likely: float) -> list[dict]:
    """The guesses made after a search, each player in seating order from the asker.

    The rules (Discovering a Hiding Place): two guesses a round at most, none after one's own
    wrong guess that round, never a card already shown, none once the game is over (End of the
    Game). ``turn`` holds the round's tallies.
    """
    out = []
    start = players.index(first)
    for p in players[start:] + players[:start]:
        while _free(turn, p, truth):
            best = notes[p].best()
            if best is None or best[0] < likely:
                break
            _, owner, sector = best
            correct = truth[sector] == owner
            turn["made"][p] += 1
            if correct:
                turn["shown"].append(sector)
            else:
                turn["wrong"].add(p)
            guess = {"by": p, "owner": owner, "sector": int(sector), "correct": correct}
            out.append({"guess": guess})
            heard(notes, players, truth, out[-1])
    return out


def _free(turn: Turn, player: str, truth: dict[str, str]) -> bool:
    """Whether ``player`` may guess now: under two guesses this round, none wrong, game on."""
    made, wrong = turn["made"][player], player in turn["wrong"]
    return made < 2 and not wrong and not over_early(truth, turn["shown"])


def over_early(truth: dict[str, str], shown: list[str]) -> bool:
    """Whether the game ends early: the cards still face down are one player's, or none."""
    return len({h for s, h in truth.items() if h != ASIDE and s not in shown}) <= 1


def table_game(n: int, rounds: int, seed: int, me: int = 0, likely: float = LIKELY):
    """A record of an n-player game as played at a table, and the deal.

    Figures move by a die along the route, skipping occupied spaces, and search one of the rows
    their space offers; after each search every player guesses, in turn from the asker, each
    holding its notes (``Notes``) give a chance of at least ``likely``, as the rules allow. The
    game ends when the round counter reaches 0 or the cards face down are one player's.
    """
    rng = random.Random(seed)
    players = NAMES[:n]
    truth = deal(players, rng)
    me_name = players[me]
    where = dict(zip(players, rng.sample(START, n), strict=True))
    notes = {p: Notes(p, {s for s, h in truth.items() if h == p}, players) for p in players}
    hand = sorted(int(s) for s, h in truth.items() if h == me_name)
    doc = {"game": "goldraub", "players": list(players), "me": me_name, "rounds": rounds}
    events: list[dict] = []
    doc |= {"hand": hand, "events": events}
    first, shown = rng.randrange(n), list[str]()
    turn: Turn = {"made": dict.fromkeys(players, 0), "wrong": set(), "shown": shown}
    for number in range(rounds * n):
        by = players[(first + number) % n]
        where[by] = move(where[by], rng.randint(1, 6), set(where.values()) - {where[by]})
        row = rng.choice(city().route[where[by]])
        events.append(search_event(truth, players, me_name, by, row, where[by]))
        heard(notes, players, truth, events[-1])
        if number + 1 == rounds * n:
            break
        if (number + 1) % n == 0:  # the round marker moves: a new round's tallies
            turn = {"made": dict.fromkeys(players, 0), "wrong": set(), "shown": shown}
        events += _guesses(notes, players, truth, by, turn, likely)
        if over_early(truth, shown):
            break
    return doc, truth


def move(start: int, steps: int, occupied: set[int]) -> int:
    """The route space ``steps`` spaces on from ``start``, occupied spaces not counted."""
    space, route = start, city().route
    while steps:
        space = space % len(route) + 1
        if space not in occupied:
            steps -= 1
    return space


# A player's turn for the benchmark of the advisor: the search made, its answer as recorded.


def random_search(start: int, die: int, occupied: set[int], rng: random.Random):
    """A search as a random player makes it: move ``die`` spaces, search a row offered there."""
    space = move(start, die, occupied)
    return space, rng.choice(city().route[space])


def search_event(truth: dict[str, str], players, me: str, by: str, row: str, at: int) -> dict:
    """``by``'s search of ``row`` from ``at`` answered truthfully, with what I saw of it."""
    gold = sum(holds_row(truth, p, row) for p in players if p != by)
    event = {"by": by, "row": row, "gold": gold, "at": at}
    seen = between(players, by, me)
    if by != me and seen:
        event["saw"] = sum(holds_row(truth, p, row) for p in seen)
    return {"search": event}
