"""Goldraub in London: the setup, the two recorded events, the round counter and scoring.

Sections cited are those of the rulebook: Setup, Course of Play, Discovering a Hiding Place.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from sleuth.errors import InputError, nearest, shown
from sleuth.games.base import Event, Setup, Table, boolean, integer
from sleuth.games.goldraub.board import City, city
from sleuth.model import Holder, Item, Space, Tally, Term, holds

ASIDE = "aside"


@dataclass(frozen=True)
class Start:
    """What I know when the game starts: my three sectors and the round counter's start.

    A spectator (a record without ``me``) holds no sectors: ``hand`` is empty.
    """

    city: City
    hand: tuple[Item, ...]
    rounds: int


def sector(value: Any, board: City, field: str) -> Item:
    """``value`` as a sector of the city, or an InputError for ``field``."""
    text = str(value).strip() if isinstance(value, int | str) else ""
    if isinstance(value, bool) or text not in board.sectors:
        hint = nearest(text, board.sectors) if text else ""
        raise InputError("", field, f"{shown(value)} is not a sector{hint}")
    return text


def row(value: Any, board: City, field: str, at: int | None = None) -> str:
    """``value`` as one of the 21 rows (ends in either order), or an InputError for ``field``.

    ``at``: the route space the searcher stood on, when known: the hint then names only the
    rows that space offers.
    """
    text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    name = board.row_name(text)
    if name is None:
        hint = _row_hint(text, board, at)
        raise InputError("", field, f"{shown(value)} is not one of the 21 rows{hint}")
    return name


def _row_hint(text: str, board: City, at: int | None) -> str:
    """The row that both written sectors lie on, else the row name spelt most alike.

    With ``at``, among the rows route space ``at`` offers, and if none is alike, those rows.
    """
    rows = board.rows if at is None else {name: board.rows[name] for name in board.route[at]}
    ends = text.replace(" ", "").split("-")
    lines = [name for name, members in rows.items() if len(ends) == 2 and set(ends) <= set(members)]
    if len(lines) == 1:
        return f" (did you mean {lines[0]}? {' and '.join(ends)} lie on it; name a row by its ends)"
    alike = nearest(text, rows) if text else ""
    if alike or at is None:
        return alike
    return f" (route space {at} offers {', '.join(rows)})"


def parse_start(doc: dict, table: Table) -> Start:
    """My hand and the rounds from the record's setup fields (rulebook: Setup)."""
    board = city()
    low, high = board.players
    if not low <= len(table.players) <= high:
        raise InputError("", "players", f"Goldraub is for {low} to {high} players")
    rounds = integer(doc.get("rounds", board.rounds), "rounds", 1, 99)
    if table.me is None:
        if "hand" in doc:
            raise InputError("", "hand", "a record without 'me' (a game watched) has no hand")
        return Start(board, (), rounds)
    hand = doc.get("hand")
    if not isinstance(hand, list) or len(hand) != board.hand_size:
        wanted = f"expected a list of {board.hand_size} sectors"
        raise InputError("", "hand", f"{wanted}, got {shown(hand)}")
    sectors = tuple(sector(s, board, "hand") for s in hand)
    if len(set(sectors)) != len(sectors):
        raise InputError("", "hand", f"a sector is listed twice in {shown(hand)}")
    return Start(board, sectors, rounds)


def watched(start: Start) -> Start:
    """The setup as a spectator knows it: the round counter, no hand."""
    return replace(start, hand=())


def setup(start: Start, table: Table) -> Setup:
    """The deal's space and my hand: every player holds 3 sectors, the rest lie aside."""
    sizes = {p: start.city.hand_size for p in table.players}
    sizes[ASIDE] = len(start.city.sectors) - start.city.hand_size * len(table.players)
    space = Space(table.players + (ASIDE,), sizes, start.city.sectors)
    mine = () if table.me is None else tuple(holds(table.me, s) for s in start.hand)
    return Setup(space, mine)


def start_fields(start: Start) -> dict:
    """The setup fields as the record writes them (a spectator's without ``hand``)."""
    hand = {"hand": [int(s) for s in start.hand]} if start.hand else {}
    return hand | {"rounds": start.rounds}


@dataclass(frozen=True)
class Search(Event):
    """A search of one row, answered with tip cards (rulebook: Course of Play).

    "If a player has one or more hiding places in the searched row, he holds ready the GOLD BARS
    card", and the asker announces how many GOLD BARS cards reached him, not counting his own:
    ``gold`` players other than ``by`` hold at least one sector of the row. The cards travel
    clockwise from the asker's left, so I see those of the players strictly between the asker
    and me: ``saw`` of them hold at least one sector of the row.
    """

    by: Holder
    row: str
    gold: int
    saw: int | None = None
    at: int | None = None

    kind = "search"
    required = ("by", "row", "gold")
    optional = ("saw", "at")
    answers = ("gold", "saw")
    names = ("by",)
    asked = ("row",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Search:
        """Check each field against the board and the seating."""
        by = table.player(data["by"], "by")
        at = data.get("at")
        if at is not None:
            at = integer(at, "at", min(start.city.route), max(start.city.route))
        name = row(data["row"], start.city, "row", at)
        answering = len(table.players) - 1  # every player but the asker
        gold = integer(data["gold"], "gold", 0, answering)
        saw = data.get("saw")
        if saw is not None and table.me is None:
            raise InputError("", "saw", "a record without 'me' (a game watched) sees no tip card")
        if saw is not None and table.me is not None:
            seen = table.between(by, table.me)
            if by == table.me:
                raise InputError("", "saw", "I asked, so there is nothing seen in the pass")
            if not seen:
                raise InputError("", "saw", "I sit right after the asker and see no tip card")
            saw = integer(saw, "saw", 0, min(len(seen), gold))
        if table.me is not None and by != table.me:
            _my_tip(name, gold, saw, table.between(by, table.me), table, start)
        if at is not None and name not in start.city.route[at]:
            offered = ", ".join(start.city.route[at])
            raise InputError("", "at", f"route space {at} offers {offered}, not {name}")
        return cls(by, name, gold, saw, at)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Gold over the answering players; saw over the players between the asker and me."""
        items = frozenset(start.city.rows[self.row])
        answer = Tally(
            tuple(Term(p, items, True) for p in table.others(self.by)), frozenset({self.gold})
        )
        if self.saw is None or table.me is None:
            return (answer,)
        seen = table.between(self.by, table.me)
        return answer, Tally(tuple(Term(p, items, True) for p in seen), frozenset({self.saw}))

    def options(self, field: str, table: Table, start: Start) -> tuple[Any, ...]:
        """Gold from 0 to the players answering, saw up to those I see, any of the 21 rows."""
        if field == "gold":
            return tuple(range(len(table.players)))
        if field == "saw" and self.saw is not None and table.me is not None:
            return tuple(range(len(table.between(self.by, table.me)) + 1))
        if field == "row":
            return tuple(start.city.rows)
        return super().options(field, table, start)

    def public(self) -> Search:
        """The search as a spectator knows it: the answer announced, not what I saw pass."""
        return replace(self, saw=None)

    def changes(self, table: Table, start: Start) -> Iterator[dict[str, Any]]:
        """As for every event; a row not offered at ``at`` drops ``at`` (then it was wrong too).

        ``at`` constrains no deal, so dropping it leaves as many deals as a right ``at`` would.
        """
        for change in super().changes(table, start):
            row = change.get("row")
            if row is not None and self.at is not None and row not in start.city.route[self.at]:
                change["at"] = None
            yield change

    def fields(self) -> dict:
        """As written in the record."""
        out = {"by": self.by, "row": self.row, "gold": self.gold}
        if self.saw is not None:
            out["saw"] = self.saw
        if self.at is not None:
            out["at"] = self.at
        return out


def _my_tip(name: str, gold: int, saw: int | None, seen: tuple, table: Table, start: Start):
    """An InputError when my own TIP card rules out ``gold`` or ``saw`` (rulebook: Course of Play).

    I answer every search but my own: my GOLD BARS card is among those announced exactly when I
    hold a sector of the row; I see the cards of ``seen`` only, and after mine come the cards of
    the players between me and the asker.
    """
    mine = sorted(set(start.hand) & set(start.city.rows[name]), key=int)
    held = f"I hold {' and '.join(mine)} in {name}" if mine else f"I hold no sector of {name}"
    others = len(table.players) - 2  # the answering players but me
    if mine and gold == 0:
        raise InputError("", "gold", f"{held} and answered GOLD BARS: gold is at least 1")
    if not mine and gold > others:
        raise InputError("", "gold", f"{held} and answered FALSE TRAIL: gold is at most {others}")
    if saw is None:
        return
    own = 1 if mine else 0
    after = others - len(seen)  # the players after me, whose cards I did not see
    if saw > gold - own:
        raise InputError("", "saw", f"{held} and gold is {gold}: saw is at most {gold - own}")
    if saw < gold - own - after:
        low = gold - own - after
        answer = {0: "no player answers", 1: "only 1 answers"}.get(after, f"only {after} answer")
        raise InputError("", "saw", f"{held} and {answer} after me: saw is at least {low}")


@dataclass(frozen=True)
class Guess(Event):
    """A guess that ``owner`` holds ``sector`` (rulebook: Discovering a Hiding Place).

    A right guess makes the owner lay the card face up; a wrong one tells everyone that the
    owner does not hold that sector.
    """

    by: Holder
    owner: Holder
    sector: Item
    correct: bool

    kind = "guess"
    required = ("by", "owner", "sector", "correct")
    answers = ("correct",)
    names = ("by", "owner")

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Guess:
        """Check the players, the sector and the outcome."""
        by = table.player(data["by"], "by")
        owner = table.player(data["owner"], "owner")
        if owner == by:
            raise InputError("", "owner", f"{by} cannot guess about his own cards")
        place = sector(data["sector"], start.city, "sector")
        return cls(by, owner, place, boolean(data["correct"], "correct"))

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """The owner holds the sector, or does not."""
        return (holds(self.owner, self.sector, self.correct),)

    def fields(self) -> dict:
        """As written in the record."""
        return {
            "by": self.by,
            "owner": self.owner,
            "sector": int(self.sector),
            "correct": self.correct,
        }


EVENTS: dict[str, type[Event]] = {cls.kind: cls for cls in (Search, Guess)}


# Rounds and scoring (rulebook: Course of Play, Discovering a Hiding Place).


def round_value(events: list[Event], players: int, rounds: int, upto: int | None = None) -> int:
    """The round counter after ``upto`` events: it moves down once every player has searched."""
    done = sum(isinstance(e, Search) for e in events[:upto])
    return max(rounds - done // players, 0)


def guess_points(correct: bool, value: int) -> int:
    """Points for a guess at round value ``value``: +10 x value right, -5 x value wrong."""
    return 10 * value if correct else -5 * value


def expected_points(probability, value: int):
    """Expected points of a guess that is right with ``probability``, at round value ``value``."""
    return probability * guess_points(True, value) + (1 - probability) * guess_points(False, value)


# The model by which ``next`` and ``check`` weigh a guess now against one a round later
# (``advice.timing``), as their help states it.
TIMING = (
    "guess now or wait a round: now = round value x (15 p - 5), the expected points of the "
    "guess now. Waiting a round brings, with L the round value a round later, at best "
    "wait = p x (1 - taken) x 10 x L (I then know the holding, and guess it if it is true, "
    "unless another player took it first) and at least "
    "least = max(0, L x (10 p (1 - taken) - 5 (1 - p))) (I learn nothing more and guess then "
    "if it pays); taken = (the other players' right guesses of cards not mine, plus one) per "
    "round played, shared over the other players' cards still face down. It says not allowed "
    "now when the rules forbid me to guess; guess now when now > 0 and now >= wait (waiting "
    "cannot do better); wait when least > now (waiting does better whatever I learn); not worth "
    "it when now <= 0 and wait <= 0; else close: now lies between what waiting brings at least "
    "and at best, and the next answers decide."
)


def scores(events: list[Event], players: tuple[Holder, ...], rounds: int) -> dict[Holder, int]:
    """Each player's score from the recorded guesses."""
    total = dict.fromkeys(players, 0)
    for index, event in enumerate(events):
        if isinstance(event, Guess):
            value = round_value(events, len(players), rounds, index)
            total[event.by] += guess_points(event.correct, value)
    return total


def face_down(events: list[Event], players: tuple[Holder, ...], size: int) -> dict[Holder, int]:
    """Each player's sector cards still face down: ``size`` less those right guesses revealed."""
    left = dict.fromkeys(players, size)
    for event in events:
        if isinstance(event, Guess) and event.correct:
            left[event.owner] -= 1
    return left


def game_over(events: list[Event], players: tuple[Holder, ...], rounds: int, size: int):
    """Why the game is over after ``events``, or None (rulebook: End of the Game).

    It ends when the round counter reaches 0, and early when the sector cards still face down
    all belong to one player, or none is left.
    """
    if round_value(events, len(players), rounds) == 0:
        return "the round counter is at 0"
    left = [p for p, k in face_down(events, players, size).items() if k]
    if not left:
        return "every card is face up"
    if len(left) == 1:
        return f"only {left[0]}'s cards are face down"
    return None


def may_guess(
    events: list[Event], players: tuple[Holder, ...], rounds: int, who: Holder | None, size: int
) -> tuple[bool, str]:
    """Whether ``who`` may guess now: two guesses a round, none after a wrong one that round.

    ``who`` None: a spectator, who never guesses.
    """
    if who is None:
        return False, "a spectator makes no guess"
    over = game_over(events, players, rounds, size)
    if over:
        return False, f"the game is over: {over}"
    n = len(players)
    searches = sum(isinstance(e, Search) for e in events)
    start = searches - searches % n
    seen, this_round = 0, list[Guess]()
    for event in events:
        if isinstance(event, Search):
            seen += 1
        elif isinstance(event, Guess) and seen >= start and event.by == who:
            this_round.append(event)
    if any(not g.correct for g in this_round):
        return False, "a wrong guess this round: wait until the round marker moves"
    if len(this_round) >= 2:
        return False, "already two guesses this round"
    left = 2 - len(this_round)
    return True, f"{left} guess{'es' if left > 1 else ''} left this round"
