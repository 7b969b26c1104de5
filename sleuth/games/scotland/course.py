"""Scotland Yard: Das Kartenspiel: the course of play, as everyone at the table sees it.

``follow`` walks the record event by event and keeps what is public (the three piles, every
hand's size, the main deck and the special black deck, the magnifying glasses, who sits out,
how the game ended) and what I know of my own hand, and refuses the first event the rules do
not allow where it stands (rulebook: Play a ticket, Perform the action, Refresh the ticket
field, Winning the Game). Who holds X is not followed here: that is the belief's
(``sleuth.games.scotland.suspicion``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sleuth.errors import InputError
from sleuth.games.base import Event, Status, Table, refused
from sleuth.games.scotland.rules import Pass, Refresh, Start, Turn
from sleuth.games.scotland.tickets import (
    BUY,
    DEALT,
    DRAW,
    GLASSES,
    SPECIAL,
    Card,
    Ticket,
    X,
    main_deck,
)
from sleuth.model import Holder

DETECTIVES, MISTER_X = "detectives", "mister_x"  # who won


@dataclass(frozen=True)
class Course:
    """The game after some events: e.g. tops (14b, 21y, 55r), hands {"Ann": 8, ...}, deck 42.

    ``glasses``: how many magnifying glasses are face up. ``mine``: the cards I know I hold;
    ``doubt``: how many of them may have left my hand unseen (a Disappear whose ``gave`` is not
    recorded). ``over``: DETECTIVES or MISTER_X once the game has ended, ``ending`` why.
    ``seen``: every ticket number seen so far, with its colour; ``spent``: those that left play
    (on a pile, discarded), each with the event that spent it (0: the setup's field).
    """

    tops: tuple[Ticket, ...]
    hands: dict[Holder, int]
    deck: int
    special: int = SPECIAL
    glasses: int = 1
    mine: tuple[Card, ...] = ()
    doubt: int = 0
    out: tuple[Holder, ...] = ()
    over: str | None = None
    ending: str | None = None
    seen: dict[int, str] = field(default_factory=dict)
    spent: dict[int, int] = field(default_factory=dict)
    turns: tuple[Holder, ...] = ()  # who took each turn so far

    def fits(self, ticket: Ticket, pile: int) -> bool:
        """Whether ``ticket`` may cover pile ``pile`` (1-3): above its top, below the next top."""
        above = ticket.number > self.tops[pile - 1].number
        return above and (pile == len(self.tops) or ticket.number < self.tops[pile].number)

    def room(self, pile: int) -> tuple[int, int | None]:
        """The numbers a ticket on ``pile`` may have: (lowest, highest or None)."""
        low = self.tops[pile - 1].number + 1
        return low, None if pile == len(self.tops) else self.tops[pile].number - 1

    def active(self, table: Table) -> tuple[Holder, ...]:
        """The players still in the game, clockwise from the first."""
        return tuple(p for p in table.players if p not in self.out)


def unknown_cards(course: Course, me: Holder) -> int:
    """How many cards in my hand I do not know (drawn unrecorded, received unrecorded)."""
    return course.hands[me] - (len(course.mine) - course.doubt)


def setup(table: Table, start: Start) -> Course:
    """The table after the deal (rulebook: Setup): 8 cards each, the field, glass 1 face up."""
    seen: dict[int, str] = {}
    for ticket in (*start.field, *(c for c in start.hand if isinstance(c, Ticket))):
        seen[ticket.number] = ticket.colour
    return Course(
        start.field,
        dict.fromkeys(table.players, DEALT),
        main_deck(start.players),
        mine=start.hand,
        seen=seen,
        spent={t.number: 0 for t in start.field},
    )


def follow(events: Sequence[Event], table: Table, start: Start) -> list[Course]:
    """The course after the setup and after each event; an InputError at the first refused.

    The error names the event (1-based) and the field, and the rule.
    """
    now = setup(table, start)
    out = [now]
    for index, event in enumerate(events, 1):
        try:
            now = step(now, event, table, start, index)
        except InputError as error:
            raise error.located(event=index) from None
        out.append(now)
    return out


def step(now: Course, event: Event, table: Table, start: Start, index: int) -> Course:
    """The course after one more turn (``Turn``, ``Refresh`` or ``Pass``)."""
    assert isinstance(event, Turn | Refresh | Pass)
    if now.over:
        raise InputError("", "", f"the game is over: {now.ending}")
    if event.by in now.out:
        raise InputError("", "by", f"{event.by} sits out since a feint left them no ticket")
    now = _begin(now, event, table)
    if isinstance(event, Turn):
        now = _play(now, event.ticket, table, index, by=event.by, pile=event.pile)
        now = ACTIONS[event.action](now, event, table, start, index)
    elif isinstance(event, Refresh):
        now = _refresh(now, event, table, index)
    if now.deck == 0 and not now.over:
        ending = "the main deck is empty at the end of a turn: Mister X escapes"
        now = replace(now, over=MISTER_X, ending=f"{ending} (event {index})")
    return now


def _begin(now: Course, event: Turn | Refresh | Pass, table: Table) -> Course:
    """The draw that starts every turn (rulebook: Draw a ticket); my ``drawn`` card if given."""
    hands = dict(now.hands)
    hands[event.by] += 1
    now = replace(now, hands=hands, deck=now.deck - 1, turns=(*now.turns, event.by))
    if event.drawn is not None:
        if event.by != table.me:
            raise InputError("", "drawn", f"only my own drawn card is recorded, not {event.by}'s")
        now = _gain(now, (event.drawn,), "drawn")
    return now


def _gain(now: Course, cards: Iterable[Card], field: str) -> Course:
    """I got ``cards``: they are known in my hand, each a ticket seen for the first time."""
    mine = list(now.mine)
    for card in cards:
        if isinstance(card, Ticket):
            now = _seen(now, card, field)
            if card in mine:
                raise InputError("", field, f"I already hold {card}")
        mine.append(card)
    return replace(now, mine=tuple(mine))


def _seen(now: Course, ticket: Ticket, field: str, spend: int | None = None) -> Course:
    """``ticket`` seen: its colour as before, never after it left play; ``spend``: it leaves."""
    colour = now.seen.get(ticket.number)
    if colour is not None and colour != ticket.colour:
        raise InputError("", field, f"{ticket} was seen as {ticket.number}{colour} before")
    when = now.spent.get(ticket.number)
    if when is not None:
        where = (
            "laid in the field at the setup"
            if when == 0
            else f"played or discarded at event {when}"
        )
        raise InputError("", field, f"{ticket} was already {where}: a card is played once")
    seen = now.seen | {ticket.number: ticket.colour}
    spent = now.spent if spend is None else now.spent | {ticket.number: spend}
    return replace(now, seen=seen, spent=spent)


def _lose(
    now: Course,
    who: Holder,
    cards: Iterable[Card],
    table: Table,
    field: str,
    index: int,
    spend: bool = True,
) -> Course:
    """``who`` gave up ``cards`` from their hand (played, taken, discarded, handed in)."""
    listed = list(cards)
    if now.hands[who] < len(listed):
        raise InputError("", field, f"{who} holds {now.hands[who]} card(s), not {len(listed)}")
    for card in listed:
        if isinstance(card, Ticket):
            now = _seen(now, card, field, index if spend else None)
        now = _from_mine(now, who, card, table, field)
        now = replace(now, hands=now.hands | {who: now.hands[who] - 1})
    return now


def _from_mine(now: Course, who: Holder, card: Card, table: Table, field: str) -> Course:
    """My known hand as ``who`` gives up ``card``: mine, or never one I know I hold."""
    mine = list(now.mine)
    if who == table.me:
        if card in mine:
            mine.remove(card)
        elif unknown_cards(now, table.me) < 1:
            held = ", ".join(str(c) for c in now.mine) or "no card I know of"
            raise InputError("", field, f"I do not hold {card} (my hand: {held})")
        return replace(now, mine=tuple(mine))
    if card in mine:
        if not now.doubt:
            raise InputError("", field, f"I hold {card}, so {who} cannot")
        mine.remove(card)
        return replace(now, mine=tuple(mine), doubt=now.doubt - 1)
    return now


def _play(now: Course, ticket: Ticket, table: Table, index: int, by: Holder, pile: int) -> Course:
    """``by`` covers pile ``pile`` with ``ticket`` (rulebook: Play a ticket)."""
    if not now.fits(ticket, pile):
        low, high = now.room(pile)
        between = f"{low} or more" if high is None else f"{low} to {high}"
        if high is not None and high < low:
            between = "none: the next pile's top is too close"
        raise InputError(
            "",
            "ticket",
            f"{ticket} does not fit pile {pile}: it takes {between} (rulebook: Play a ticket)",
        )
    now = _lose(now, by, (ticket,), table, "ticket", index)
    tops = list(now.tops)
    tops[pile - 1] = ticket
    return replace(now, tops=tuple(tops))


def _draws(
    now: Course, by: Holder, wanted: int, drew: tuple[Ticket, ...] | None, table: Table
) -> Course:
    """``by`` draws ``wanted`` cards from the main deck, as many as it has; my ``drew``."""
    got = min(wanted, now.deck)
    hands = dict(now.hands)
    hands[by] += got
    now = replace(now, hands=hands, deck=now.deck - got)
    if drew is not None:
        if by != table.me:
            raise InputError("", "drew", f"only my own drawn cards are recorded, not {by}'s")
        if len(drew) != got:
            raise InputError("", "drew", f"I drew {got} card(s) here, not {len(drew)}")
        now = _gain(now, drew, "drew")
    return now


def _draw(now: Course, event: Turn, table: Table, start: Start, index: int) -> Course:
    """Draw 1, 2 with a taxi ticket (rulebook: (1) Draw)."""
    return _draws(now, event.by, DRAW + (event.ticket.colour == "y"), event.drew, table)


def _buy(now: Course, event: Turn, table: Table, start: Start, index: int) -> Course:
    """Mister X draws 4 (rulebook: Buy equipment)."""
    return _draws(now, event.by, BUY, event.drew, table)


def _interrogation(now: Course, event: Turn, table: Table, start: Start, index: int) -> Course:
    """Turn 1 glass, 2 with a bus ticket; the third brings the interrogation (rulebook: (2))."""
    up = now.glasses + 1 + (event.ticket.colour == "b")
    if up < GLASSES:
        if event.target is not None:
            message = f"no interrogation yet: {up} of {GLASSES} glasses face up after this turn"
            raise InputError("", "target", message)
        return replace(now, glasses=up)
    if event.target is None:
        message = "this turn turns the third glass: name the target and whether X was found"
        raise InputError("", "target", message)
    now = replace(now, glasses=up - GLASSES)
    return _found(now, event, table, index) if event.found else now


def _found(now: Course, event: Turn, table: Table, index: int) -> Course:
    """Mister X, found, draws a special black ticket if any is left, then discards 3 cards.

    With fewer than 3 tickets the X card goes too, and the detectives win (rulebook: Winning).
    """
    target = event.target
    assert target is not None
    hands = dict(now.hands)
    extra = 1 if now.special else 0
    hands[target] += extra
    now = replace(now, hands=hands, special=now.special - extra)
    if event.special is not None:
        if target != table.me:
            raise InputError(
                "", "special", f"only my own special ticket is recorded, not {target}'s"
            )
        if not extra:
            raise InputError("", "special", "no special black ticket is left to draw")
        now = _gain(now, (event.special,), "special")
    tickets = hands[target] - 1  # Mister X's hand holds X
    loses = tickets < 3
    count = min(3, hands[target])
    said = event.discarded
    if said is not None:
        if len(said) != count:
            raise InputError(
                "", "discarded", f"Mister X discards {count} card(s) here, not {len(said)}"
            )
        if (X in said) != loses:
            why = f"{tickets} ticket(s) left" + (": X must go" if loses else ": X may stay")
            raise InputError("", "discarded", f"Mister X has {why}")
        now = _lose(now, target, said, table, "discarded", index)
    else:
        hands = dict(now.hands)
        hands[target] -= count
        now = replace(now, hands=hands)
    if loses:
        ending = f"{target} had to discard the X card after {event.by}'s interrogation"
        return replace(now, over=DETECTIVES, ending=f"{ending} (event {index})")
    return now


def _manhunt(now: Course, event: Turn, table: Table, start: Start, index: int) -> Course:
    """Take 1 card at random from the target, 2 with a subway ticket (rulebook: (3) Manhunt)."""
    target = event.target
    assert target is not None
    most = min(2 if event.ticket.colour == "r" else 1, now.hands[target])
    if event.found:
        if not now.hands[target]:
            raise InputError("", "found", f"{target} holds no card to take")
        ending = f"{event.by}'s manhunt took the X card from {target} (event {index})"
        hands = now.hands | {target: now.hands[target] - most}  # as many as it could take
        if target == table.me:  # X left my hand, and with a subway ticket one card unsaid
            mine = list(now.mine)
            if X in mine:
                mine.remove(X)
            now = replace(now, mine=tuple(mine), doubt=now.doubt + most - 1)
        return replace(now, hands=hands, over=DETECTIVES, ending=ending)
    took = event.took or ()
    least = min(1, now.hands[target])
    if not least <= len(took) <= most:
        wanted = str(most) if least == most else f"{least} or {most}"
        raise InputError(
            "", "took", f"this manhunt takes {wanted} card(s) from {target}, not {len(took)}"
        )
    return _lose(now, target, took, table, "took", index)


def _feint(now: Course, event: Turn, table: Table, start: Start, index: int) -> Course:
    """The detectives together discard tickets; one left with none sits out (rulebook: Feint)."""
    if event.discards is None:
        raise InputError("", "discards", "a feint says who discarded which tickets")
    detectives = [p for p in now.active(table) if p != event.by]
    total = sum(len(ts) for _, ts in event.discards)
    if start.feint is not None:
        due = min(start.feint, sum(now.hands[p] for p in detectives))
        if total != due:
            raise InputError(
                "", "discards", f"the detectives discard {due} ticket(s) in all, not {total}"
            )
    for player, tickets in event.discards:
        if player not in detectives:
            raise InputError("", "discards", f"{player} is not a detective in the game")
        now = _lose(now, player, tickets, table, "discards", index)
    left = [p for p in detectives if now.hands[p] == 0]
    now = replace(now, out=(*now.out, *left))
    if len(left) == len(detectives):
        ending = f"{event.by}'s feint left no detective a ticket: Mister X wins (event {index})"
        return replace(now, over=MISTER_X, ending=ending)
    return now


def _disappear(now: Course, event: Turn, table: Table, start: Start, index: int) -> Course:
    """Every player in the game hands in a card and gets one back (rulebook: Disappear)."""
    me = table.myself()
    if (event.got is not None or event.gave is not None) and not taking_part(now, table, me):
        raise InputError("", "got", "I take no part: I sit out or hold no card")
    if event.gave is not None:
        if event.gave == X and event.by != me:
            raise InputError("", "gave", "only Mister X, who played the disappear, can hand in X")
        now = _from_mine(now, me, event.gave, table, "gave")
    elif taking_part(now, table, me):
        now = replace(now, doubt=now.doubt + 1)  # one of my cards went, I did not say which
    if event.got is not None:
        mine = [*now.mine, event.got]
        now = replace(now, mine=tuple(mine))
        if isinstance(event.got, Ticket):
            now = _seen(now, event.got, "got")
    return now


def taking_part(now: Course, table: Table, player: Holder) -> bool:
    """Whether ``player`` hands in a card in a Disappear: in the game, with a card."""
    return player not in now.out and now.hands[player] > 0


def _refresh(now: Course, event: Refresh, table: Table, index: int) -> Course:
    """Discard a ticket below every top, lay three new ones (rulebook: Refresh)."""
    lowest = min(now.tops)
    if event.ticket.number >= lowest.number:
        message = f"{event.ticket} is not lower than the lowest ticket shown, {lowest}"
        raise InputError("", "ticket", f"{message} (rulebook: Refresh the ticket field)")
    if now.deck < len(event.field):
        raise InputError("", "field", f"the main deck has {now.deck} card(s): a refresh lays 3")
    now = _lose(now, event.by, (event.ticket,), table, "ticket", index)
    for laid in event.field:
        now = _seen(now, laid, "field", index)
    return replace(now, tops=event.field, deck=now.deck - len(event.field))


ACTIONS = {
    "draw": _draw,
    "buy": _buy,
    "interrogation": _interrogation,
    "manhunt": _manhunt,
    "feint": _feint,
    "disappear": _disappear,
}


def forbidden(events: list[Event], table: Table, start: Start) -> InputError | None:
    """The first event the rules do not allow where it stands, as an error; None if none."""
    return refused(follow, events, table, start)


def course(record: Any) -> Course:
    """Where the record's game stands after all its events (a record the rules allow)."""
    return follow(record.events, record.table, record.start)[-1]


def next_player(now: Course, table: Table) -> Holder | None:
    """Who plays next: clockwise after the last turn, skipping those who sit out."""
    if not now.turns or now.over:
        return None
    return next(
        (p for p in table.others(now.turns[-1]) + (now.turns[-1],) if p not in now.out), None
    )


def turn_note(record: Any, index: int) -> str | None:
    """A note when event ``index`` is a turn out of order (turns go clockwise), else None."""
    events = record.events
    try:
        before = follow(events[: index - 1], record.table, record.start)[-1]
    except InputError:
        return None
    due = next_player(before, record.table)
    by = getattr(events[index - 1], "by", None)
    if due is None or by == due:
        return None
    return f"event {index}: {by} played out of turn ({due} was next, clockwise)"


def status(record: Any) -> Status:
    """The round, who plays next, who sits out and how the game ended."""
    now = course(record)
    table = record.table
    first = now.turns[0] if now.turns else None
    rounds = 1
    if first is not None:
        seats = [(table.seat(p) - table.seat(first)) % len(table.players) for p in now.turns]
        rounds = 1 + sum(b <= a for a, b in zip(seats, seats[1:], strict=False))
    notes = (f"deck {now.deck}", f"glasses {now.glasses}/{GLASSES}")
    return Status(rounds, next_player(now, table), out=now.out, over=now.ending, notes=notes)
