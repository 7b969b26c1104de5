"""Scotland Yard: Das Kartenspiel: the setup and the three recorded events, each checked alone.

What an event may say at its place in the game (a ticket that fits its pile, the glasses, the
hand sizes) is checked by ``sleuth.games.scotland.course``; here, what it may say at all.
Sections cited are the rulebook's: Setup, Play a ticket, Perform the action, Winning the Game.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sleuth.errors import InputError, shown
from sleuth.games.base import Event, Table, boolean, integer
from sleuth.games.scotland.tickets import (
    BOX,
    DEALT,
    FIELD,
    PLAYERS,
    Card,
    Ticket,
    X,
    card,
    cards,
    ticket,
    written,
)
from sleuth.model import Holder, Tally

GENERAL = dict(enumerate(BOX["actions"]["general"], 1))  # pile -> its general action
MISTER_X = dict(enumerate(BOX["actions"]["mister_x"], 1))  # pile -> Mister X's (black only)
PILE = {action: pile for table in (GENERAL, MISTER_X) for pile, action in table.items()}
MORE = {  # action -> the fields it may carry beyond by, ticket, pile, action and drawn
    "draw": ("drew",),
    "interrogation": ("target", "found", "discarded", "special"),
    "manhunt": ("target", "took", "found"),
    "feint": ("discards",),
    "buy": ("drew",),
    "disappear": ("got", "gave"),
}


@dataclass(frozen=True)
class Start:
    """What I know at the deal; e.g. hand (12y, ..., X), field (14b, 21y, 55r), first_dealt Ann.

    ``keep``: the chance that Mister X keeps the X card in a Disappear and hands in a ticket
    (default 0: the rulebook does not say how he chooses). ``feint``: how many tickets the
    detectives discard together in a Feint (printed on action card 1; None when not given).
    """

    players: int
    hand: tuple[Card, ...]
    field: tuple[Ticket, ...]
    first_dealt: Holder
    keep: Fraction = Fraction(0)
    feint: int | None = None


def parse_start(doc: dict, table: Table) -> Start:
    """The setup fields (rulebook: Setup): my 8 cards, the field, who was dealt first, keep."""
    n = len(table.players)
    low, high = PLAYERS
    if not low <= n <= high:
        raise InputError("", "players", f"Scotland Yard is for {low} to {high} players, got {n}")
    hand = cards(doc.get("hand"), "hand", n)
    if len(hand) != DEALT:
        raise InputError("", "hand", f"expected my {DEALT} dealt cards, got {len(hand)}")
    field = cards(doc.get("field"), "field", n, tickets_only=True)
    if len(field) != FIELD:
        raise InputError("", "field", f"expected the {FIELD} tickets laid out, got {len(field)}")
    laid = tuple(sorted(t for t in field if isinstance(t, Ticket)))
    both = set(laid) & set(hand)
    if both:
        raise InputError("", "field", f"{min(both, key=str)} is in my hand too")
    first = table.player(doc.get("first_dealt", table.players[0]), "first_dealt")
    feint = doc.get("feint")
    return Start(
        n,
        hand,
        laid,
        first,
        chance(doc.get("keep", 0), "keep"),
        None if feint is None else integer(feint, "feint", 1, 40),
    )


def chance(value: Any, field: str) -> Fraction:
    """A chance in [0, 1], exactly: 0.25, "1/4" or 0."""
    try:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ValueError
        found = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise InputError("", field, f"{shown(value)} is not a chance such as 0.25 or 1/4") from None
    if not 0 <= found <= 1:
        raise InputError("", field, f"{value} is not between 0 and 1")
    return found


def start_fields(start: Start) -> dict:
    """The setup as the record writes it (``keep`` and ``feint`` only when given)."""
    out: dict = {
        "hand": [written(c) for c in start.hand],
        "field": [written(t) for t in start.field],
        "first_dealt": start.first_dealt,
    }
    if start.keep:
        decimal = float(start.keep)
        out["keep"] = decimal if Fraction(str(decimal)) == start.keep else str(start.keep)
    if start.feint is not None:
        out["feint"] = start.feint
    return out


def _cards_field(data: dict, key: str, start: Start, tickets_only: bool = True) -> tuple:
    """The list in ``key`` as cards, or () when absent."""
    value = data.get(key)
    return () if value is None else cards(value, key, start.players, tickets_only)


def _one(data: dict, key: str, start: Start) -> Card | None:
    """The one card in ``key`` (a ticket or X), or None when absent."""
    value = data.get(key)
    return None if value is None else card(value, key, start.players)


@dataclass(frozen=True)
class Turn(Event):
    """``by`` played ``ticket`` on ``pile`` and did its ``action`` (rulebook: Gameplay).

    The general actions (any ticket): 1 draw, 2 interrogation, 3 manhunt; Mister X's (a black
    ticket, and they show that ``by`` holds X): 1 feint, 2 buy, 3 disappear. What the action
    showed: an interrogation's ``target`` and ``found`` on the turn the third glass turns (with
    ``discarded``, Mister X's three cards, when found, and ``special``, the special black ticket
    he drew first, when he is me: ours); a manhunt's ``target`` and ``took`` (the
    tickets taken) or ``found``; a feint's ``discards``; a disappear's ``got`` and ``gave`` (mine);
    ``drew`` the cards I drew by the action, ``drawn`` the card I drew at the start of my turn.
    """

    by: Holder
    ticket: Ticket
    pile: int
    action: str
    target: Holder | None = None
    found: bool | None = None
    took: tuple[Ticket, ...] | None = None
    discarded: tuple[Card, ...] | None = None
    discards: tuple[tuple[Holder, tuple[Ticket, ...]], ...] | None = None
    drew: tuple[Ticket, ...] | None = None
    got: Card | None = None
    gave: Card | None = None
    drawn: Ticket | None = None
    special: Ticket | None = None

    kind = "turn"
    required = ("by", "ticket")
    optional = (
        *("pile", "action", "target", "found", "took", "discarded", "discards"),
        *("drew", "got", "gave", "drawn", "special"),
    )
    answers = ("found",)
    names = ("by", "target")

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Turn:
        """Check the fields the action takes; the pile and the action name each other."""
        by = table.player(data["by"], "by")
        played = ticket(data["ticket"], "ticket", start.players)
        pile, action = _pile_and_action(data, played)
        allowed = MORE[action]
        for key in cls.optional:
            if key in ("pile", "action", "drawn") or data.get(key) is None:
                continue
            if key not in allowed:
                raise InputError("", key, f"a {action} has no '{key}'")
        target = None if data.get("target") is None else table.player(data["target"], "target")
        if target == by:
            raise InputError("", "target", f"{by} cannot {action} themselves")
        found = None if data.get("found") is None else boolean(data["found"], "found")
        took = _cards_field(data, "took", start) if data.get("took") is not None else None
        discarded = (
            _cards_field(data, "discarded", start, False)
            if data.get("discarded") is not None
            else None
        )
        _action_fields(action, target, found, took, discarded)
        drawn = _one(data, "drawn", start)
        if drawn == X:
            raise InputError("", "drawn", "the X card is never drawn from the deck")
        special = _one(data, "special", start)
        if special is not None and (not isinstance(special, Ticket) or not special.black):
            raise InputError("", "special", f"{special} is not a black ticket (rulebook: Setup)")
        return cls(
            by,
            played,
            pile,
            action,
            target,
            found,
            took if took is None else tuple(t for t in took if isinstance(t, Ticket)),
            discarded,
            _discards(data.get("discards"), table, start, by),
            _drew(data, start),
            _one(data, "got", start),
            _one(data, "gave", start),
            drawn if isinstance(drawn, Ticket) else None,
            special if isinstance(special, Ticket) else None,
        )

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal: the game's belief is its own (``scotland.suspicion``)."""
        return ()

    def fields(self) -> dict:
        """As written in the record, in the contract's order."""
        out: dict[str, Any] = {
            "by": self.by,
            "ticket": str(self.ticket),
            "pile": self.pile,
            "action": self.action,
        }
        optional = {
            "target": self.target,
            "found": self.found,
            "took": None if self.took is None else [str(t) for t in self.took],
            "discarded": None if self.discarded is None else [written(c) for c in self.discarded],
            "discards": None
            if self.discards is None
            else {p: [str(t) for t in ts] for p, ts in self.discards},
            "drew": None if self.drew is None else [str(t) for t in self.drew],
            "got": None if self.got is None else written(self.got),
            "gave": None if self.gave is None else written(self.gave),
            "drawn": None if self.drawn is None else str(self.drawn),
            "special": None if self.special is None else str(self.special),
        }
        out.update({k: v for k, v in optional.items() if v is not None})
        return out

    @property
    def mister_x(self) -> bool:
        """Whether the action is one of Mister X's: it shows that ``by`` holds X."""
        return self.action in MISTER_X.values()

    def options(self, field: str, table: Table, context: Any) -> tuple[Any, ...]:
        """The values a repair may try: a found manhunt is a ``took`` one too."""
        if field == "found":
            return (True, False)
        return super().options(field, table, context)


def _pile_and_action(data: dict, played: Ticket) -> tuple[int, str]:
    """The pile and the action: either names the other (a pile alone: its general action)."""
    pile = None if data.get("pile") is None else integer(data["pile"], "pile", 1, FIELD)
    action = data.get("action")
    if action is None:
        if pile is None:
            raise InputError("", "pile", "a turn needs its pile (1 to 3) or its action")
        action = GENERAL[pile]
    if not isinstance(action, str) or action.strip().lower() not in PILE:
        raise InputError("", "action", f"{shown(action)} is not one of {', '.join(PILE)}")
    action = action.strip().lower()
    if pile is not None and PILE[action] != pile:
        raise InputError("", "pile", f"a {action} is the action of pile {PILE[action]}, not {pile}")
    if action in MISTER_X.values() and not played.black:
        raise InputError(
            "", "ticket", f"a {action} needs a black ticket (Mister X action), not {played}"
        )
    return PILE[action], action


def _action_fields(
    action: str,
    target: Holder | None,
    found: bool | None,
    took: tuple | None,
    discarded: tuple | None,
) -> None:
    """What an interrogation and a manhunt must say together."""
    if action == "manhunt":
        if target is None:
            raise InputError("", "target", "a manhunt names its target")
        if (took is None) == (found is None or not found):
            raise InputError("", "took", "a manhunt says what it took (took) or found: true")
        if found is False:
            raise InputError("", "found", "a manhunt that missed X says what it took instead")
    if action == "interrogation":
        if (target is None) != (found is None):
            raise InputError(
                "",
                "found" if target else "target",
                "an interrogation names its target and whether X was found",
            )
        if discarded is not None and not found:
            raise InputError(
                "", "discarded", "only a found Mister X discards (rulebook: Interrogation)"
            )


def _discards(value: Any, table: Table, start: Start, by: Holder) -> tuple | None:
    """A feint's discards: player -> the tickets they discarded, each player once."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InputError("", "discards", f"expected PLAYER: [tickets], got {shown(value)}")
    out = []
    for who, listed in value.items():
        player = table.prefix(who, "discards")  # a prefix typed on the command line
        if player == by:
            raise InputError("", "discards", f"{by} played the feint: only the detectives discard")
        found = cards(listed, "discards", start.players, tickets_only=True)
        out.append((player, tuple(t for t in found if isinstance(t, Ticket))))
    return tuple(sorted(out, key=lambda e: table.seat(e[0])))


def _drew(data: dict, start: Start) -> tuple[Ticket, ...] | None:
    """The cards I drew by the action, when given."""
    if data.get("drew") is None:
        return None
    return tuple(
        t for t in cards(data["drew"], "drew", start.players, True) if isinstance(t, Ticket)
    )


@dataclass(frozen=True)
class Refresh(Event):
    """``by`` discarded ``ticket`` (lower than every top) and laid ``field``, three new tops.

    Rulebook: Refresh the ticket field, a turn's special action in place of a play.
    """

    by: Holder
    ticket: Ticket
    field: tuple[Ticket, ...]
    drawn: Ticket | None = None

    kind = "refresh"
    required = ("by", "ticket", "field")
    optional = ("drawn",)
    names = ("by",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Refresh:
        """Check the player, the ticket and the three new tickets."""
        by = table.player(data["by"], "by")
        played = ticket(data["ticket"], "ticket", start.players)
        laid = _cards_field(data, "field", start)
        if len(laid) != FIELD:
            raise InputError("", "field", f"expected the {FIELD} tickets laid, got {len(laid)}")
        if played in laid:
            raise InputError("", "field", f"{played} was discarded, not laid")
        drawn = _one(data, "drawn", start)
        return cls(by, played, tuple(sorted(laid)), drawn if isinstance(drawn, Ticket) else None)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        out: dict[str, Any] = {
            "by": self.by,
            "ticket": str(self.ticket),
            "field": [str(t) for t in self.field],
        }
        if self.drawn is not None:
            out["drawn"] = str(self.drawn)
        return out


@dataclass(frozen=True)
class Pass(Event):
    """``by`` drew and could play no ticket, nor refresh: the turn ends.

    The rulebook has no rule for a hand that fits no pile; this is our reading, an event the
    contract adds so that the turn order and the deck stay right.
    """

    by: Holder
    drawn: Ticket | None = None

    kind = "pass"
    required = ("by",)
    optional = ("drawn",)
    names = ("by",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Pass:
        """Check the player."""
        drawn = _one(data, "drawn", start)
        by = table.player(data["by"], "by")
        return cls(by, drawn if isinstance(drawn, Ticket) else None)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"by": self.by} | ({} if self.drawn is None else {"drawn": str(self.drawn)})


EVENTS: dict[str, type[Event]] = {"turn": Turn, "refresh": Refresh, "pass": Pass}
