"""Generate the Goldraub example records from fixed deals: ``python examples/make_goldraub.py``.

goldraub-rulebook.yaml: the rulebook's table (Anton, Bert, Christl, Doris, Elli; me Christl with
22, 45 and 63). Anton searches 31-36 first; Bert holds 32 and Elli 36, so two GOLD BARS cards
reach Anton and Christl sees Bert's one. The game then runs until it ends: its 10 rounds, or
earlier once the sector cards still face down are all one player's (rulebook: End of the Game).
goldraub-watched.yaml: the same game as one watching the table records it: no ``me``, no
hand, no ``saw`` (``Record.public``).
goldraub-6p.yaml: six players, a deal from a fixed seed, stopped after 4 rounds.
goldraub-5p-table-1.yaml, goldraub-5p-table-5.yaml: five players as at a table, the first 24
events of ``sleuth.games.goldraub.simulate.table_game(5, 10, seed)`` (seeds 1 and 5): every
player guesses what its own notes make likely, so guesses go right and wrong.

Every answer is the truthful one for the fixed deal, so both records are consistent. Moves
follow ``sleuth.games.goldraub.simulate``: a die roll along the route, skipping occupied spaces,
one of the rows the space offers. Other players now and then guess (half the time a card the
owner really holds); I guess only what z3 says is certain. Two guesses a round at most, none
after a wrong one that round, none once the game is over.
"""

from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).resolve().parent

from sleuth.document import document, dump  # noqa: E402
from sleuth.games.goldraub.board import city  # noqa: E402
from sleuth.games.goldraub.rules import ASIDE  # noqa: E402
from sleuth.games.goldraub.simulate import (  # noqa: E402
    NAMES,
    deal,
    move,
    over_early,
    search_event,
    table_game,
)
from sleuth.record import parse  # noqa: E402
from sleuth.solve.entail import Entailment  # noqa: E402

RULEBOOK = {
    "Anton": (12, 54, 66),
    "Bert": (32, 57, 74),
    "Christl": (22, 45, 63),
    "Doris": (11, 47, 77),
    "Elli": (24, 36, 53),
}
RULEBOOK_CORNERS = {"Anton": 5, "Bert": 9, "Christl": 13, "Doris": 17, "Elli": 21}
GUESS_CHANCE = 0.2


def fixed_deal(hands: dict[str, tuple[int, ...]]) -> dict[str, str]:
    """Sector -> holder for the given hands, every other sector aside."""
    truth = dict.fromkeys(city().sectors, ASIDE)
    for player, sectors in hands.items():
        truth.update(dict.fromkeys((str(s) for s in sectors), player))
    return truth


def certain_guess(doc: dict, revealed: set) -> tuple[str, str] | None:
    """A holding of another player that the record makes certain and no one has revealed."""
    model = parse(doc, "generator").model()
    forced = Entailment(model).forced()
    options = sorted(
        (owner, item)
        for owner, item in forced
        if owner not in (doc["me"], ASIDE) and (owner, item) not in revealed
    )
    return options[0] if options else None


def other_guess(rng, players, truth, me, revealed) -> tuple[str, str, str] | None:
    """Now and then a guess by another player: a card the owner holds, or a hunch."""
    if rng.random() > GUESS_CHANCE:
        return None
    guesser = rng.choice([p for p in players if p != me])
    owner = rng.choice([p for p in players if p != guesser])
    own = {s for s, h in truth.items() if h == guesser}
    if rng.random() < 0.5:
        choices = [s for s, h in truth.items() if h == owner]
    else:
        choices = list(city().sectors)
    choices = [s for s in choices if s not in own and (owner, s) not in revealed]
    return (guesser, owner, rng.choice(choices)) if choices else None


def play(players, truth, me, corners, first, rounds, rng, opening=None) -> dict:
    """A record of ``rounds`` rounds; ``opening`` forces the first move: (steps, row)."""
    doc = {"game": "goldraub", "players": list(players), "me": me, "rounds": 10}
    doc["hand"] = sorted(int(s) for s, h in truth.items() if h == me)
    doc["events"] = events = []
    where, revealed = dict(corners), set()
    n = len(players)
    for turn in range(rounds * n):
        if turn % n == 0:
            made, wrong = dict.fromkeys(players, 0), set()
        by = players[(first + turn) % n]
        steps, row = opening if turn == 0 and opening else (rng.randint(1, 6), None)
        where[by] = move(where[by], steps, set(where.values()) - {where[by]})
        row = row or rng.choice(city().route[where[by]])
        events.append(search_event(truth, players, me, by, row, where[by]))
        if turn == 10 * n - 1:
            continue
        guesses = []
        mine = certain_guess(doc, revealed)
        if mine and made[me] < 2:
            guesses.append((me, *mine))
        other = other_guess(rng, players, truth, me, revealed)
        if other and made[other[0]] < 2 and other[0] not in wrong:
            guesses.append(other)
        for guesser, owner, sector in guesses:
            if over_early(truth, [s for _, s in revealed]):
                break
            correct = truth[sector] == owner
            made[guesser] += 1
            if correct:
                revealed.add((owner, sector))
            else:
                wrong.add(guesser)
            guess = {"by": guesser, "owner": owner, "sector": int(sector), "correct": correct}
            events.append({"guess": guess})
        if over_early(truth, [s for _, s in revealed]):
            break
    return doc


def rulebook() -> dict:
    """The rulebook's example situation, played out until the game ends."""
    players = tuple(RULEBOOK)
    truth = fixed_deal(RULEBOOK)
    rng = random.Random(31)
    return play(players, truth, "Christl", RULEBOOK_CORNERS, 0, 10, rng, opening=(3, "31-36"))


def six_players(seed: int = 6) -> dict:
    """Six players, a seeded deal, stopped after 4 of 10 rounds."""
    rng = random.Random(seed)
    players = NAMES[:6]
    truth = deal(players, rng)
    corners = dict(zip(players, rng.sample([1, 5, 9, 13, 17, 21], 6), strict=True))
    return play(players, truth, "Christl", corners, rng.randrange(6), 4, rng)


def at_table(seed: int, events: int = 24) -> dict:
    """The first ``events`` events of a 5-player game as played at a table."""
    doc, _ = table_game(5, 10, seed)
    doc["events"] = doc["events"][:events]
    return doc


def write(path: Path, doc: dict, about: str) -> None:
    """Write a record with a header saying how it was made."""
    header = (
        f"# {about}\n"
        "# Generated by examples/make_goldraub.py (python examples/make_goldraub.py);\n"
        "# a fixed true deal and truthful answers. Edit the generator, not this file.\n"
    )
    path.write_text(header + dump(document(parse(doc, str(path)))))


def main() -> None:
    """Write the example records next to this script."""
    write(
        HERE / "goldraub-rulebook.yaml",
        rulebook(),
        "Goldraub in London: the rulebook's example situation, played out until the game ends.",
    )
    write(
        HERE / "goldraub-watched.yaml",
        parse(rulebook(), "generator").public().fields(),
        "Goldraub in London: the rulebook's game as a spectator records it (no me, no hand).",
    )
    write(
        HERE / "goldraub-6p.yaml",
        six_players(),
        "Goldraub in London: a 6-player game (deal from seed 6), stopped after 4 rounds.",
    )
    for seed in (1, 5):
        write(
            HERE / f"goldraub-5p-table-{seed}.yaml",
            at_table(seed),
            f"Goldraub in London: 5 players at a table (seed {seed}), the first 24 events.",
        )


if __name__ == "__main__":
    main()
