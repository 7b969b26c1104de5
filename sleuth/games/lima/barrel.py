"""The Barrel (rulebook: Special Abilities): whether re-rolling some of the dice pays.

The Barrel re-rolls any of the three dice, once a game. For each choice of dice, the expected
best pair information of the roll it gives (every face of a re-rolled die equally likely, the
dice independent: each outcome of ``outcomes`` equally likely), against keeping this roll. A
question takes two of the dice (Constructing A Question; the Shovel changes one of those two),
so a roll's questions are those of its three pairs of dice, and its best is its best pair's:
each pair of faces is counted once, however many outcomes show it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, permutations, product

from rich.console import Console
from rich.table import Table
from rich.text import Text

from sleuth.games.lima.board import Face, Island, face_of
from sleuth.render.common import fitted

WORTH = 0.01  # pair bits an ability (Barrel, Shovel, Pistol) must add to be worth its one use
Choice = tuple[int, ...]  # the dice re-rolled, by their place in the roll, e.g. (1, 2)
FacePair = tuple[Face, Face]  # two dice's faces, sorted, e.g. (("E", "forest"), ("N", "wild"))


def die_faces(board: Island) -> list[tuple[Face, ...]]:
    """Each die's faces in roll order (the board's dice in order), a face once per side."""
    return [tuple(face_of(f) for f in board.dice[d]) for d in sorted(board.dice)]


def placed(faces: list[Face], dice: list[tuple[Face, ...]]) -> list[Face] | str:
    """The roll's faces in die order, or why they cannot be put so (a line for the player).

    As given when each face is on its die; else the one order in which each is; the roll
    cannot have come up with no such order, and is unclear with several.
    """
    if all(face in die for face, die in zip(faces, dice, strict=True)):
        return list(faces)
    fits = orders(faces, dice)
    if len(fits) == 1:
        return list(fits.pop())
    shown = ", ".join(named(f) for f in faces)
    if not fits:
        return f"{shown} cannot come up together: each must be on a die of its own (board.toml)"
    return f"{shown} fits the dice in more than one order: give die 1's face first, then 2's, 3's"


def orders(faces: list[Face], dice: list[tuple[Face, ...]]) -> set[tuple[Face, ...]]:
    """Every order of the roll's faces in which each face is on its die (none: cannot come up)."""
    return {
        tuple(faces[k] for k in order)
        for order in permutations(range(len(faces)))
        if all(faces[k] in die for k, die in zip(order, dice, strict=True))
    }


def choices(dice: int) -> list[Choice]:
    """Every non-empty set of dice to re-roll, fewest first: (0,), (1,), (2,), (0, 1), ..."""
    return [c for k in range(1, dice + 1) for c in combinations(range(dice), k)]


def outcomes(faces: list[Face], dice: list[tuple[Face, ...]], chosen: Choice) -> list[list]:
    """Every roll re-rolling the ``chosen`` dice may give, once per equally likely way."""
    sides = [dice[k] if k in chosen else (face,) for k, face in enumerate(faces)]
    return [list(roll) for roll in product(*sides)]


def pairs(roll: list[Face]) -> list[FacePair]:
    """The roll's pairs of dice, each sorted (a pair's questions do not depend on its order)."""
    return [(b, a) if b < a else (a, b) for a, b in combinations(roll, 2)]


def every_pair(faces: list[Face], dice: list[tuple[Face, ...]]) -> list[FacePair]:
    """Every pair of faces two dice may show, kept or re-rolled, each once."""
    sides = [(face, *die) for face, die in zip(faces, dice, strict=True)]
    found = {
        (b, a) if b < a else (a, b)
        for i, j in combinations(range(len(sides)), 2)
        for a in sides[i]
        for b in sides[j]
    }
    return sorted(found)


@dataclass(frozen=True)
class Reroll:
    """A choice of dice to re-roll: the expected best pair bits after it, and keeping's best."""

    dice: Choice
    faces: tuple[Face, ...]  # the re-rolled dice's faces in this roll
    expected: float
    keep: float

    @property
    def gain(self) -> float:
        """How many pair bits the re-roll adds, on average, to keeping this roll."""
        return self.expected - self.keep

    def worth(self) -> bool:
        """Whether the re-roll beats keeping this roll by ``WORTH`` bits or more."""
        return self.gain >= WORTH


def rerolls(
    faces: list[Face], dice: list[tuple[Face, ...]], best: Callable[[FacePair], float]
) -> list[Reroll]:
    """The seven re-rolls, best first; ``best``: the best pair information a pair allows."""
    keep = roll_best(faces, best)
    found = []
    for chosen in choices(len(faces)):
        rolls = outcomes(faces, dice, chosen)
        mean = math.fsum(roll_best(roll, best) for roll in rolls) / len(rolls)
        found.append(Reroll(chosen, tuple(faces[k] for k in chosen), mean, keep))
    return sorted(found, key=lambda r: (-r.expected, len(r.dice), r.dice))


def roll_best(roll: list[Face], best: Callable[[FacePair], float]) -> float:
    """The best pair information of a roll: its best pair's."""
    return max(best(pair) for pair in pairs(roll))


def barrel_json(found: list[Reroll]) -> list[dict]:
    """The ``barrel`` field of ``next --json``: each re-roll, best first."""
    return [
        {
            "reroll": list(r.dice),
            "faces": [named(face) for face in r.faces],
            "expected": r.expected,
            "keep": r.keep,
            "gain": r.gain,
        }
        for r in found
    ]


def named(face: Face) -> str:
    """A face as it is written on the die: "N-wild"."""
    return "-".join(face)


def show_barrel(console: Console, found: list[Reroll]) -> None:
    """The re-rolls, best first for each number of dice, and whether the best one pays."""
    table = Table(title="Barrel re-rolls, best first per number of dice", title_justify="left")
    table.caption = f"expected pair bits; gain over keeping this roll ({found[0].keep:.2f})"
    table.caption_justify = "left"
    for column in ("dice", "re-roll", "expected", "gain", "worth it"):
        table.add_column(column, justify="right" if column in ("expected", "gain") else "left")
    for count in sorted({len(r.dice) for r in found}):
        group = [r for r in found if len(r.dice) == count]
        for k, r in enumerate(group):
            dice = "" if k else f"{count} {'die' if count == 1 else 'dice'}"
            worth = "yes" if r.worth() else "no"
            table.add_row(dice, listed(r, ", "), f"{r.expected:.2f}", f"{r.gain:+.3f}", worth)
    console.print(fitted(table))
    console.print(Text(verdict(found)))


def listed(r: Reroll, sep: str) -> str:
    """The re-rolled dice by their faces, or "all three"."""
    return "all three" if len(r.dice) == 3 else sep.join(named(f) for f in r.faces)


def verdict(found: list[Reroll]) -> str:
    """One line: the best re-roll if it beats keeping this roll, else keep."""
    top = found[0]
    if top.worth():
        return f"Barrel: re-roll {listed(top, ' and ')}: {top.gain:+.3f} bits, worth it"
    return f"Barrel: keep this roll ({top.keep:.2f} pair bits; best re-roll {top.gain:+.3f})"
