"""Loot of Lima: the setup after the passing, and the three recorded events.

Sections cited are those of the rulebook: Setup, Constructing A Question, Special Abilities,
End of Game and Victory. The island (compass points, regions, terrains, deal sizes, passing)
comes from the board file; see ``sleuth.games.lima.board.Island``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from sleuth.errors import InputError, nearest, shown
from sleuth.games.base import Event, Setup, Table, boolean, integer
from sleuth.games.lima.board import Island, island
from sleuth.model import Holder, Item, Space, Tally, Term, holds

TREASURE = "treasure"
PUBLIC = "public"


@dataclass(frozen=True)
class Start:
    """What I know when play begins; e.g. hand ("2F", "5B", "7M", "8F"), known {"Ben": ("3M",)}.

    ``hand`` is behind my screen once the passing is done, ``known`` the tokens I looked at and
    passed on (each now held by its receiver), ``public`` the leftover tokens turned face up.
    A spectator (a record without ``me``) has no hand and passed nothing on.
    """

    island: Island
    players: int
    hand: tuple[Item, ...]
    known: dict[Holder, tuple[Item, ...]]
    public: tuple[Item, ...]

    @property
    def hand_size(self) -> int:
        """Tokens each player holds (rulebook: Setup, from the board file's deal table)."""
        return self.island.deal[self.players][0]

    @property
    def face_up(self) -> int:
        """Tokens left over and turned face up."""
        return self.island.deal[self.players][1]


def location(value: Any, board: Island, field: str) -> Item:
    """``value`` as a location ("3F", any case, or a printed number), or an InputError."""
    text = str(value).strip().upper() if isinstance(value, int | str) else ""
    printed = {str(n): name for name, n in board.numbers.items()}
    text = printed.get(text, text)
    if isinstance(value, bool) or text not in board.locations:
        letters = " ".join(board.terrains)
        form = f"a region 1-{len(board.points)} and a terrain letter {letters}, e.g. 3F"
        raise InputError("", field, f"{shown(value)} is not a location ({form})")
    return text


def locations(value: Any, board: Island, field: str, size: int | None = None) -> tuple[Item, ...]:
    """A list of distinct locations (of ``size`` when given), or an InputError for ``field``."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or (size is not None and len(value) != size):
        wanted = "a list of locations" if size is None else f"a list of {size} locations"
        raise InputError("", field, f"expected {wanted}, got {shown(value)}")
    out = tuple(location(v, board, field) for v in value)
    twice = [x for x, n in Counter(out).items() if n > 1]
    if twice:
        raise InputError("", field, f"{twice[0]} is listed twice")
    return out


def two_locations(value: Any, board: Island, field: str) -> tuple[Item, Item]:
    """The pair of distinct locations an accusation names, e.g. ("3F", "7M"), or an InputError."""
    first, second = locations(value, board, field, board.treasure)
    return first, second


def point_range(value: Any, board: Island, field: str) -> str:
    """``value`` as a range of two compass points, "SE-NW" (any case), or an InputError."""
    text = value.replace(" ", "").upper() if isinstance(value, str) else ""
    parts = text.split("-")
    if len(parts) != 2 or not all(parts):
        raise InputError(
            "", field, f"{shown(value)} is not a range: two compass points, e.g. SE-NW"
        )
    for point in parts:
        if point not in board.points:
            listed = " ".join(board.points)
            hint = nearest(point, board.points)
            raise InputError("", field, f"{point!r} is not a compass point ({listed}){hint}")
    return text


def terrain(value: Any, board: Island, field: str) -> str:
    """``value`` as a terrain name ("forest", or its letter "F"), or an InputError."""
    text = value.strip().casefold() if isinstance(value, str) else ""
    for letter, name in board.terrains.items():
        if text in (name, letter.casefold()):
            return name
    names = ", ".join(board.terrains.values())
    hint = nearest(text, board.terrains.values()) if text else ""
    raise InputError("", field, f"{shown(value)} is not a terrain ({names}){hint}")


def _known(value: Any, board: Island, table: Table, me: Holder) -> dict[Holder, tuple[Item, ...]]:
    """The ``known`` mapping, checked against the passing rules (rulebook: Setup, step 9)."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise InputError("", "known", f"expected a mapping player -> locations, got {shown(value)}")
    n = len(table.players)
    passed = Counter(table.offset(me, step) for step in board.passing[n])
    known = {}
    for key, tokens in value.items():
        player = table.player(key, "known")
        if player not in passed:
            to = f"only to {' and '.join(passed)}" if passed else "no one passes any"
            message = f"I pass no token to {player} in a {n}-player game ({to})"
            raise InputError("", "known", message)
        known[player] = locations(tokens, board, "known")
    for player, count in passed.items():
        got = len(known.get(player, ()))
        if got != count:
            raise InputError(
                "", "known", f"I pass {count} token(s) to {player} in a {n}-player game, got {got}"
            )
    return known


def _once(fields: list[tuple[str, tuple[Item, ...]]]) -> None:
    """An InputError naming the field where a location is listed a second time."""
    seen: dict[Item, str] = {}
    for field, tokens in fields:
        for token in tokens:
            if token in seen:
                raise InputError("", field, f"{token} is listed twice (also in {seen[token]})")
            seen[token] = field


def parse_start(doc: dict, table: Table) -> Start:
    """My hand, what I passed on, and the face-up tokens from the record (rulebook: Setup)."""
    board = island()
    low, high = board.players
    n = len(table.players)
    if not low <= n <= high:
        raise InputError("", "players", f"Loot of Lima is for {low} to {high} players, got {n}")
    each, face_up = board.deal[n]
    public = locations(doc.get("public", []), board, "public", face_up)
    if table.me is None:
        for key, what in (("hand", "has no hand"), ("known", "passed no token")):
            if key in doc:
                raise InputError("", key, f"a record without 'me' (a game watched) {what}")
        return Start(board, n, (), {}, public)
    hand = locations(doc.get("hand"), board, "hand", each)
    known = _known(doc.get("known"), board, table, table.me)
    _once([("hand", hand), *(("known", t) for t in known.values()), ("public", public)])
    return Start(board, n, hand, known, public)


def watched(start: Start) -> Start:
    """The setup as a spectator knows it: the face-up tokens, no hand, nothing passed on."""
    return replace(start, hand=(), known={})


def setup(start: Start, table: Table) -> Setup:
    """Every player holds the same number of tokens, the treasure two, the face-up pile the rest.

    Facts: my hand, each token I passed on is with its receiver, the face-up tokens are public.
    """
    sizes = dict.fromkeys(table.players, start.hand_size)
    sizes[TREASURE] = start.island.treasure
    sizes[PUBLIC] = start.face_up
    space = Space(table.players + (TREASURE, PUBLIC), sizes, start.island.locations)
    facts = [holds(table.me, x) for x in start.hand if table.me is not None]
    facts += [holds(player, x) for player, tokens in start.known.items() for x in tokens]
    facts += [holds(PUBLIC, x) for x in start.public]
    return Setup(space, tuple(facts))


def start_fields(start: Start) -> dict:
    """The setup fields as the record writes them (``known``, ``hand`` left out when empty)."""
    out: dict = {"hand": list(start.hand)} if start.hand else {}
    if start.known:
        out["known"] = {player: list(tokens) for player, tokens in start.known.items()}
    out["public"] = list(start.public)
    return out


def _question(data: dict, table: Table) -> tuple[Holder, Holder]:
    """The asker and the asked, two different players."""
    by = table.player(data["by"], "by")
    to = table.player(data["to"], "to")
    if to == by:
        raise InputError("", "to", f"{by} cannot ask themselves")
    return by, to


def _answer(value: Any, to: Holder, start: Start, items: frozenset[Item]) -> int:
    """The number answered: no more than the target's tokens, nor the locations asked about."""
    answer = integer(value, "answer", 0, 99)
    if answer > start.hand_size:
        raise InputError(
            "", "answer", f"{answer} is more than the {start.hand_size} tokens {to} holds"
        )
    if answer > len(items):
        raise InputError(
            "", "answer", f"{answer} is more than the {len(items)} locations asked about"
        )
    return answer


def _items(start: Start, where: str, kind: str | None = None) -> frozenset[Item]:
    """The locations of a range "SE-NW", of one terrain when ``kind`` is given."""
    first, last = where.split("-")
    return start.island.range_items(first, last, kind)


def _mine(data: dict, table: Table) -> bool:
    """Whether the question's ``to`` names me (the names not yet checked)."""
    to = data.get("to")
    me = table.me
    return isinstance(to, str) and me is not None and to.casefold() == me.casefold()


def _my_count(start: Start, where: str, kind: str | None) -> tuple[int, str]:
    """How many of my own tokens lie in the range, and the sentence that says which."""
    order = start.island.locations
    mine = sorted(set(start.hand) & _items(start, where, kind), key=order.index)
    asked = where if kind is None else f"{where} {kind}"
    if not mine:
        return 0, f"I hold none of {asked}"
    listed = mine[0] if len(mine) == 1 else f"{', '.join(mine[:-1])} and {mine[-1]}"
    return len(mine), f"I hold {listed} in {asked}"


def _filled(data: dict, table: Table, start: Start, kind: Any = None) -> dict:
    """``data`` with the answer to a question put to me counted from my hand, when left out."""
    if data.get("answer") is not None or data.get("range") is None or not _mine(data, table):
        return data
    where = point_range(data["range"], start.island, "range")
    kind = None if kind is None else terrain(kind, start.island, "terrain")
    return dict(data, answer=_my_count(start, where, kind)[0])


def _checked(answer: int, start: Start, where: str, kind: str | None = None) -> int:
    """My own answer, which must be the count of my tokens in the range (an InputError if not)."""
    count, held = _my_count(start, where, kind)
    if answer != count:
        raise InputError("", "answer", f"{held}: the answer is {count}, not {answer}")
    return answer


class QuestionEvent(Event):
    """What a question and a Pistol question share: ``to`` gives the answer to ``by``."""

    by: Holder
    to: Holder
    answers = ("answer",)
    names = ("by", "to")

    def options(self, field: str, table: Table, start: Start) -> tuple[Any, ...]:
        """An answer from 0 to a hand of tokens (when one was heard); a terrain, or none."""
        if field == "answer" and self.fields().get("answer") is not None:
            return tuple(range(start.hand_size + 1))
        if field == "terrain":
            return (None, *start.island.terrains.values())
        return super().options(field, table, start)

    def answerer(self, field: str) -> Holder | None:
        """``to`` gave the answer (aloud, or on paper for a Pistol question)."""
        return self.to if field == "answer" else None


@dataclass(frozen=True)
class Ask(QuestionEvent):
    """A question answered aloud (rulebook: Constructing A Question).

    The asker sets the dial from one compass point clockwise to another, optionally limited to one
    terrain when both dice chosen show it; the asked player says how many of their tokens lie
    there: ``to`` holds exactly ``answer`` of the range's locations.
    """

    by: Holder
    to: Holder
    range: str
    answer: int
    terrain: str | None = None

    kind = "ask"
    required = ("by", "to", "range", "answer")
    optional = ("terrain",)
    heard = ("answer", "terrain")

    @classmethod
    def completed(cls, data: dict, table: Table, start: Start) -> dict:
        """A question put to me: the answer, when left out, is the count of my own tokens."""
        return _filled(data, table, start, data.get("terrain"))

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Ask:
        """Check the players, the range, the terrain and the answer (mine: against my hand)."""
        by, to = _question(data, table)
        where = point_range(data["range"], start.island, "range")
        kind = data.get("terrain")
        kind = None if kind is None else terrain(kind, start.island, "terrain")
        answer = _answer(data["answer"], to, start, _items(start, where, kind))
        if to == table.me:
            answer = _checked(answer, start, where, kind)
        return cls(by, to, where, answer, kind)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """The target's count over the range's locations equals the answer."""
        items = _items(start, self.range, self.terrain)
        return (Tally((Term(self.to, items),), frozenset({self.answer})),)

    def fields(self) -> dict:
        """As written in the record."""
        out: dict[str, str | int] = {"by": self.by, "to": self.to, "range": self.range}
        if self.terrain is not None:
            out["terrain"] = self.terrain
        out["answer"] = self.answer
        return out


@dataclass(frozen=True)
class Secret(QuestionEvent):
    """A Pistol question (rulebook: Special Abilities, Pistol).

    The asker writes any range, never limited to a terrain, and only the asker sees the answer.
    When I asked, ``to`` holds exactly ``answer`` of the range's locations; a secret question
    between others tells me nothing, so only who asked whom is recorded.
    """

    by: Holder
    to: Holder
    range: str | None = None
    answer: int | None = None

    kind = "secret"
    required = ("by", "to")
    optional = ("range", "terrain", "answer")

    @classmethod
    def completed(cls, data: dict, table: Table, start: Start) -> dict:
        """A Pistol question put to me, its range given: the answer is counted from my hand."""
        return _filled(data, table, start)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Secret:
        """Range and answer when I asked or was asked (then checked); never a terrain."""
        by, to = _question(data, table)
        if data.get("terrain") is not None:
            raise InputError("", "terrain", "a Pistol question cannot be limited to a terrain")
        if to == table.me and data.get("range") is not None:
            where = point_range(data["range"], start.island, "range")
            answer = _answer(data["answer"], to, start, _items(start, where))
            return cls(by, to, where, _checked(answer, start, where))
        if to == table.me and data.get("answer") is not None:
            raise InputError("", "range", "give the range of the question put to me")
        if by != table.me:
            for key in ("range", "answer"):
                if data.get(key) is not None:
                    raise InputError("", key, f"only the asker, {by}, learns the {key}")
            return cls(by, to)
        for key in ("range", "answer"):
            if data.get(key) is None:
                raise InputError("", key, f"I asked, so the {key} is known: give it")
        where = point_range(data["range"], start.island, "range")
        return cls(by, to, where, _answer(data["answer"], to, start, _items(start, where)))

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """The target's count over the range equals the answer; nothing when others asked."""
        if self.range is None or self.answer is None:
            return ()
        return (Tally((Term(self.to, _items(start, self.range)),), frozenset({self.answer})),)

    def public(self) -> Secret:
        """The Pistol question as a spectator knows it: who asked whom, never the answer."""
        return Secret(self.by, self.to)

    def fields(self) -> dict:
        """As written in the record."""
        out: dict = {"by": self.by, "to": self.to}
        if self.range is not None:
            out["range"] = self.range
            out["answer"] = self.answer
        return out


@dataclass(frozen=True)
class Accuse(Event):
    """An accusation naming two locations (rulebook: End of Game and Victory).

    The accuser looks at the two set-aside tokens. A right accusation ends the game: the treasure
    is exactly those two. A wrong one only says the treasure is not that pair (and puts the
    accuser out). When I accused, I saw the tokens: ``treasure`` names them.
    """

    by: Holder
    locations: tuple[Item, Item]
    correct: bool
    treasure: tuple[Item, Item] | None = None

    kind = "accuse"
    required = ("by", "locations", "correct")
    optional = ("treasure",)
    answers = ("correct",)
    names = ("by",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Accuse:
        """Two different locations; ``treasure`` only when I accused, and matching if right."""
        by = table.player(data["by"], "by")
        pair = two_locations(data["locations"], start.island, "locations")
        correct = boolean(data["correct"], "correct")
        seen = data.get("treasure")
        if seen is None:
            return cls(by, pair, correct)
        if by != table.me:
            raise InputError("", "treasure", f"only the accuser, {by}, sees the treasure")
        treasure = two_locations(seen, start.island, "treasure")
        if (set(treasure) == set(pair)) != correct:
            verdict = "right" if correct else "wrong"
            message = f"{list(treasure)} does not fit a {verdict} accusation"
            raise InputError("", "treasure", message)
        return cls(by, pair, correct, treasure)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Right: the treasure holds both. Wrong: not both. Seen: the treasure holds those."""
        both = frozenset({2}) if self.correct else frozenset({0, 1})
        named = Tally((Term(TREASURE, frozenset(self.locations)),), both)
        return (named,) + tuple(holds(TREASURE, x) for x in self.treasure or ())

    def public(self) -> Accuse:
        """The accusation as a spectator knows it: the pair and the verdict, not the tokens."""
        return replace(self, treasure=None)

    def fields(self) -> dict:
        """As written in the record."""
        out = {"by": self.by, "locations": list(self.locations), "correct": self.correct}
        if self.treasure is not None:
            out["treasure"] = list(self.treasure)
        return out


EVENTS: dict[str, type[Event]] = {cls.kind: cls for cls in (Ask, Secret, Accuse)}
