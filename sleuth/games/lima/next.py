"""Which question to ask next: every question the roll allows, split exactly by its answer.

The legal questions (rulebook: Constructing A Question, Special Abilities): an opponent (also one
out of the game, who still answers), one die's point for the start and another's for the end,
and one terrain when both dice show it (a wild shows any); the Shovel makes one die any terrain;
the Pistol asks any range, never one terrain, in secret. What matters is the treasure pair, so
questions are sorted by the expected fall of the pair's entropy (``sleuth.advisor.PairSplit``).
With the Barrel, the questions of every re-roll are counted in the same batch (``barrel``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from sleuth.advisor import (
    answer_splits,
    chances,
    information,
    pair_split,
    pair_splits,
    shares,
    within,
)
from sleuth.errors import InputError
from sleuth.games.lima import barrel as lima_barrel
from sleuth.games.lima.board import Face, Island
from sleuth.games.lima.rules import TREASURE, Secret
from sleuth.model import Holder, Item, Term
from sleuth.render.common import Phrases, bits, fitted, not_counted, pct

if TYPE_CHECKING:
    from sleuth.analysis import Report
    from sleuth.budget import Deadline
    from sleuth.record import Record

WILD = "wild"
NUMBERS = ("bits", "public", "pair bits", "gain")  # the table's right-justified columns
ABILITIES = ("shovel", "pistol")  # the abilities a question may spend (Special Abilities)
PLACES = 12  # pair information is kept to 12 places: equal falls summed apart stay equal


def parse_roll(text: str, board: Island) -> list[Face]:
    """``SW-beach,N-wild,E-beach`` as one face per die, or an InputError naming ``roll``."""
    faces = [part.strip() for part in text.split(",") if part.strip()]
    if len(faces) != len(board.dice):
        raise InputError("sleuth next", "roll", f"give {len(board.dice)} faces, e.g. SW-beach")
    out = []
    for face in faces:
        point, _, kind = face.partition("-")
        point, kind = point.upper(), kind.casefold()
        if point not in board.points or kind not in (*board.terrains.values(), WILD):
            kinds = ", ".join((*board.terrains.values(), WILD))
            message = f"{face!r} is not a face: a compass point and one of {kinds}, e.g. SW-beach"
            raise InputError("sleuth next", "roll", message)
        out.append((point, kind))
    return out


def rolled(faces: list[Face], board: Island, barrel: bool) -> list[Face]:
    """The faces if the board's dice can show them together, in die order with the Barrel.

    A re-roll draws from a die's faces, so the Barrel needs to know which face is on which die;
    the questions do not, so without it a roll that fits the dice in several orders is kept.
    """
    dice = lima_barrel.die_faces(board)
    placed = lima_barrel.placed(faces, dice)
    if isinstance(placed, str):
        if barrel or not lima_barrel.orders(faces, dice):
            raise InputError("sleuth next", "roll", placed)
        return faces
    return placed if barrel else faces


@dataclass(frozen=True)
class Question:
    """A question I may ask: to whom, the range, the terrain (None: any), secret or aloud."""

    to: Holder
    range: str
    terrain: str | None
    secret: bool
    uses: str | None  # "shovel", "pistol" or None


def terrains(first: str, second: str, board: Island) -> list[str | None]:
    """The terrains two dice allow: none, and the one they share (a wild shares any)."""
    names = list(board.terrains.values())
    shared = [t for t in names if first in (t, WILD) and second in (t, WILD)]
    return [None, *shared]


def roll_questions(faces: list[Face], opponents: tuple[Holder, ...], board: Island):
    """(to, range, terrain) of every question the faces allow, start and end from two dice."""
    out = []
    for (a, first), (b, second) in permutations(faces, 2):
        for kind in terrains(first, second, board):
            out += [(to, f"{a}-{b}", kind) for to in opponents]
    return out


def items(board: Island, where: str, kind: str | None) -> frozenset[Item]:
    """The locations a range (and terrain) covers."""
    first, last = where.split("-")
    return board.range_items(first, last, kind)


def legal(record: Record, faces: list[Face], shovel: bool, pistol: bool) -> list[Question]:
    """Every question I may ask, each once (same player, locations and secrecy: one)."""
    board = record.start.island
    opponents = record.table.opponents()
    found: dict[tuple, Question] = {}

    def add(to: Holder, where: str, kind: str | None, secret: bool, uses: str | None) -> None:
        key = (to, items(board, where, kind), secret)
        found.setdefault(key, Question(to, where, kind, secret, uses))

    for to, where, kind in roll_questions(faces, opponents, board):
        add(to, where, kind, False, None)
    if shovel:
        for k in range(len(faces)):
            changed = [(p, WILD) if j == k else (p, t) for j, (p, t) in enumerate(faces)]
            for to, where, kind in roll_questions(changed, opponents, board):
                add(to, where, kind, False, "shovel")
    if pistol and pistol_used(record) is None:
        for to in opponents:
            for a in board.points:
                for b in board.points:
                    add(to, f"{a}-{b}", None, True, "pistol")
    return list(found.values())


def pistol_used(record: Record) -> int | None:
    """The event at which I asked my Pistol question, or None while it is unused."""
    me = record.table.me
    mine = (k for k, e in enumerate(record.events, 1) if isinstance(e, Secret) and e.by == me)
    return next(mine, None)


@dataclass(frozen=True)
class QuestionOption:
    """A question and what its answer would teach: about the deal, and about the treasure."""

    question: Question
    answers: dict[int, Fraction]
    information: float
    pair_information: float
    certain: Fraction
    public: float | None


@dataclass(frozen=True)
class QuestionAdvice:
    """Every question I may ask, best first, and the treasure pairs as they stand."""

    worlds: int | None
    pairs: int
    options: list[QuestionOption]
    barrel: list[lima_barrel.Reroll] | None = None
    uncounted: list[Question] = dataclasses.field(default_factory=list)
    barrel_cut: bool = False  # --barrel given, but its splits were not all counted in time
    spent: int | None = None  # the event of my Pistol question, when --pistol asked for it

    def free(self) -> QuestionOption | None:
        """The best question that spends no ability (None: the roll allows none)."""
        return next((o for o in self.options if not o.question.uses), None)

    def free_best(self) -> float:
        """The pair information of the best question that spends no ability."""
        free = self.free()
        return 0.0 if free is None else free.pair_information

    def gain(self, ability: str) -> float | None:
        """How much more the ability's best question tells about the pair than the best free one."""
        spent = [o.pair_information for o in self.options if o.question.uses == ability]
        return max(spent) - self.free_best() if spent else None

    def pistol_gain(self) -> float | None:
        """How much more a Pistol question tells about the pair than the best free one."""
        return self.gain("pistol")


def canonical(board: Island, to: Holder, where: str, kind: str | None, size: int):
    """The key of a question's split, and a map of its answers to the key's answers.

    A range with no terrain and its complement split the worlds alike (answers a and size - a).
    """
    covered = items(board, where, kind)
    if kind is not None:
        return (to, covered), lambda a: a
    other = frozenset(board.locations) - covered
    if sorted(other) < sorted(covered):
        return (to, other), lambda a: size - a
    return (to, covered), lambda a: a


def wanted(record: Record, given: dict[str, Any]) -> list[Face]:
    """The dice as rolled from ``next``'s options, checked before any count.

    An InputError for an option this game does not take, or a roll missing or not the dice's.
    """
    unknown = set(given) - {"roll", "shovel", "pistol", "public", "barrel"}
    if unknown:
        name = sorted(unknown)[0]
        takes = "this game takes --roll, --shovel, --pistol, --public and --barrel"
        raise InputError("sleuth next", name, takes)
    if not given.get("roll"):
        example = "e.g. SW-beach,N-wild,E-beach"
        raise InputError("sleuth next", "roll", f"give the dice as rolled, {example}")
    board = record.start.island
    return rolled(parse_roll(given["roll"], board), board, bool(given.get("barrel")))


def advise(
    report: Report, given: dict[str, Any], deadline: Deadline | None = None
) -> QuestionAdvice:
    """Every question of my next turn, each split exactly; best first (by pair information).

    A question not counted by the ``deadline`` (if any) is left out and named (``uncounted``),
    and so is the Barrel's advice when one of its questions is.
    """
    record = report.record
    board = record.start.island
    faces = wanted(record, given)
    shovel = bool(given.get("shovel"))
    questions = legal(record, faces, shovel, bool(given.get("pistol")))
    model = record.model()
    whole = within(deadline, pair_split, model, TREASURE, ()) if report.odds.exact else None
    if whole is None:
        cut = bool(given.get("barrel"))
        return QuestionAdvice(None, 0, [], uncounted=questions, barrel_cut=cut)
    worlds, now = whole
    public = record.public().model() if given.get("public") else None
    size = model.space.sizes
    keys = [canonical(board, q.to, q.range, q.terrain, size[q.to]) for q in questions]
    distinct = list(dict.fromkeys(key for key, _ in keys))
    paired = barrel_pairs(record, faces, shovel, size) if given.get("barrel") else {}
    counted = list(dict.fromkeys([*distinct, *(k for ks in paired.values() for k in ks)]))
    terms = [(Term(to, covered),) for to, covered in counted]
    found = dict(zip(counted, pair_splits(model, TREASURE, terms, deadline), strict=True))
    asked = terms[: len(distinct)]
    heard = answer_splits(public, asked, deadline) if public is not None else [None] * len(distinct)
    done = {
        key: (found[key], None if said is None else information(said))
        for key, said in zip(distinct, heard, strict=True)
    }
    options, uncounted = [], []
    for q, (key, back) in zip(questions, keys, strict=True):
        pair, public_bits = done[key]
        if pair is None:
            uncounted.append(q)
            continue
        split, fall = pair
        answers = {back(a): p for a, p in chances(split).items()}
        said = 0.0 if q.secret and public_bits is not None else public_bits
        options.append(
            QuestionOption(
                q,
                dict(sorted(answers.items())),
                information(split),
                round(fall.fall(), PLACES),
                fall.certain(),
                said,
            )
        )
    options.sort(key=rank)
    total = sum(c.total for c in worlds.values())
    rerolls, cut = None, any(found[k] is None for ks in paired.values() for k in ks)
    if paired and not cut:
        falls = {pair: max(found[k][1].fall() for k in ks) for pair, ks in paired.items()}
        dice = lima_barrel.die_faces(board)
        rerolls = lima_barrel.rerolls(faces, dice, falls.__getitem__)
    spent = pistol_used(record) if given.get("pistol") else None
    return QuestionAdvice(
        total, len(now.before), options, rerolls, uncounted=uncounted, barrel_cut=cut, spent=spent
    )


def rank(option: QuestionOption) -> tuple:
    """The sort key: pair information first; at a tie, a question that spends no ability.

    An ability serves once a game, so it is worth spending only for a real gain.
    """
    spends = option.question.uses is not None
    return (-option.pair_information, spends, -option.information)


def barrel_pairs(record: Record, faces: list[Face], shovel: bool, size: dict) -> dict:
    """The split keys of every pair of faces a Barrel re-roll may leave (``canonical``).

    A pair's questions are those two dice allow, with the Shovel when given, never the Pistol.
    """
    board = record.start.island
    dice = lima_barrel.die_faces(board)
    return {
        pair: list(
            dict.fromkeys(
                canonical(board, q.to, q.range, q.terrain, size[q.to])[0]
                for q in legal(record, list(pair), shovel, False)
            )
        )
        for pair in lima_barrel.every_pair(faces, dice)
    }


def advice_json(advice: QuestionAdvice) -> dict:
    """The contract's ``next --json`` object; ``public_information`` added when computed."""
    gain, free = advice.pistol_gain(), advice.free_best()
    return (
        {
            "game": "lima",
            "options": [
                {
                    "to": o.question.to,
                    "range": o.question.range,
                    "terrain": o.question.terrain,
                    "secret": o.question.secret,
                    "answers": {str(a): float(p) for a, p in o.answers.items()},
                    "information": o.information,
                    "pair_information": o.pair_information,
                    "certain": float(o.certain),
                    "uses": o.question.uses,
                }
                | ({} if o.public is None else {"public_information": o.public})
                | ({"gain": o.pair_information - free} if o.question.uses else {})
                for o in advice.options
            ],
        }
        | ({} if gain is None else {"pistol_gain": gain})
        | ({} if advice.spent is None else {"pistol_spent": advice.spent})
        | ({} if advice.barrel is None else {"barrel": lima_barrel.barrel_json(advice.barrel)})
        | uncounted_json(advice)
    )


def uncounted_json(advice: QuestionAdvice) -> dict:
    """The optional keys of questions left out by the budget: ``uncounted``, ``barrel_counted``."""
    out: dict = {}
    if advice.uncounted:
        left = [{"to": q.to, "range": q.range, "terrain": q.terrain} for q in advice.uncounted]
        out |= {"complete": False, "uncounted": left, "worlds": advice.worlds}
    if advice.barrel_cut:
        out |= {"complete": False, "barrel_counted": False}
    return out


def show_advice(console: Console, advice: QuestionAdvice, limit: int = 12) -> None:
    """The best questions of my next turn, and what each ability gains over the best free one."""
    shown = advice.options[:limit]
    public = any(o.public is not None for o in advice.options)
    spends = any(o.question.uses for o in shown)
    table = Table(title="Questions for my next turn, best first", title_justify="left")
    columns = ("to", "range", "terrain", "answers %", "bits") + ("public",) * public
    for column in columns + ("pair bits",) + ("gain",) * spends + ("certain",):
        table.add_column(column, justify="right" if column in NUMBERS else "left")
    if spends:
        table.caption = "gain: pair bits an ability's question adds to the best free one's"
        table.caption_justify = "left"
    free = advice.free_best()
    for o in shown:
        q = o.question
        where = q.range + (f" ({q.uses})" if q.uses else "")
        heard = (bits(o.public),) if public else ()
        gain = (f"{o.pair_information - free:+.3f}" if q.uses else "",) if spends else ()
        answers = Phrases(shares(o.answers).split(), " ")
        row = (q.to, where, q.terrain or "-", answers, f"{o.information:.2f}", *heard)
        table.add_row(*row, f"{o.pair_information:.2f}", *gain, pct(o.certain))
    if advice.uncounted:
        names = [f"{q.to} {q.range} {q.terrain or ''}".strip() for q in advice.uncounted]
        console.print(Text(not_counted("questions", names, advice.worlds is None)))
    if advice.barrel_cut:
        console.print(Text("NOT COUNTED within the budget: the Barrel's re-rolls (--barrel)."))
    if advice.worlds is None:
        return
    console.print(fitted(table))
    console.print(Text(f"{advice.pairs} possible treasure pairs in {advice.worlds:,} deals"))
    if advice.spent is not None:
        console.print(Text(f"my Pistol is spent (event {advice.spent}): no secret question listed"))
    for ability in ABILITIES:
        added = advice.gain(ability)
        if added is not None:
            console.print(Text(spending(ability, added, advice.free())))
    if advice.barrel is not None:
        lima_barrel.show_barrel(console, advice.barrel)


def spending(ability: str, gain: float, free: QuestionOption | None) -> str:
    """One line: what the ability's best question gains over the best free one, and if it pays."""
    worth = "worth spending it" if gain >= lima_barrel.WORTH else "not worth spending it"
    best = "" if free is None else f" ({asked(free.question)}, {free.pair_information:.2f})"
    return (
        f"the {ability.title()}'s best question gains {gain:+.3f} pair bits over the best "
        f"free one{best}: {worth}"
    )


def asked(q: Question) -> str:
    """A question in a few words: "Ed N-E beach"."""
    return " ".join([q.to, q.range, *([q.terrain] if q.terrain else [])])
