"""Scotland Yard: ``sleuth next``: every legal play of my hand, what its action is worth.

Plain results from the belief (``scotland.suspicion``) and the course of play
(``scotland.course``); the screens are ``scotland.picture``'s. For each ticket I hold (the
record's known hand, and ``--drawn``) on each pile it fits, and each refresh allowed
(rulebook: Gameplay):

- a manhunt's best target and its catch, P(X with target) x min(k, h) / h;
- an interrogation this play completes: the best target, and whether finding them ends the
  game (fewer than three tickets after the special black one: rulebook, Winning the Game);
- the deck clock: the main deck after my turn; an option that leaves it empty ends the game at
  the end of my turn, Mister X escaping;
- on Mister X's seat (X in my hand): whether a Feint, Buy Equipment or Disappear wins now, how
  the table's suspicion of me (the public view) moves, and whether an interrogation at the
  next turn would take X from me (``Threat``), with the card count of ``playable``.

Options are sorted by catch, highest first; at a tie a win first, a loss last.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import comb
from typing import Any

from sleuth.chance import pct
from sleuth.errors import InputError
from sleuth.games.scotland.advice import catches
from sleuth.games.scotland.course import Course, next_player, taking_part, unknown_cards
from sleuth.games.scotland.rules import Start
from sleuth.games.scotland.suspicion import Suspicion
from sleuth.games.scotland.tickets import (
    BUY,
    DRAW,
    FIELD,
    GLASSES,
    HIGHEST,
    Card,
    Ticket,
    X,
    in_box,
    ticket,
)
from sleuth.model import Holder

GENERAL = {1: "draw", 2: "interrogation", 3: "manhunt"}  # rulebook: the action cards
MISTER_X = {1: "feint", 2: "buy", 3: "disappear"}
INTERROGATION_PILE = 2


@dataclass(frozen=True)
class Threat:
    """An interrogation at the next turn would take X from me: who plays next, their chance.

    ``chance``: that ``player`` can play on pile 2 then (``playable``); None when a bus ticket
    is needed (the colours of unseen tickets are not known).
    """

    player: Holder
    tickets: int
    chance: Fraction | None


@dataclass(frozen=True)
class Option:
    """One play, e.g. 47k on pile 3, a manhunt of Ben that takes X with 3/16.

    ``pile`` None: a refresh. ``targets``: every target's catch, best first (a manhunt, or an
    interrogation this play completes). ``deck``: the main deck after my turn. ``public``: the
    table's suspicion of me after it (on Mister X's seat). ``glasses``: face up after it.
    ``interrogates``: the next player's chance to complete an interrogation after it, when the
    glasses leave one to turn (``playable``).
    """

    ticket: Ticket
    pile: int | None
    action: str
    target: Holder | None = None
    catch: Fraction | None = None
    note: str = ""
    targets: tuple[tuple[Holder, Fraction], ...] = ()
    deck: int = 0
    glasses: int = 0
    wins: bool = False
    loses: bool = False
    public: Fraction | None = None
    threat: Threat | None = None
    interrogates: tuple[Holder, Fraction] | None = None

    @property
    def rank(self) -> tuple:
        """Sort key: catch, highest first; a win, then not a loss; pile (refresh last), ticket."""
        return (-(self.catch or 0), not self.wins, self.loses, self.pile or 4, self.ticket)


@dataclass(frozen=True)
class Plan:
    """My next turn: my hand as known, the deck, the glasses, and every option, best first.

    ``unknown``: cards in my hand sleuth does not know (unrecorded draws); ``doubt``: how many
    of ``hand`` may have left it unseen (a Disappear whose ``gave`` is not recorded). ``turn``:
    who plays next clockwise (not always me). ``mister_x``: X is in my hand; ``public`` the
    table's suspicion of me now. ``last``: my draw empties the deck, so the game ends with this
    turn (Mister X escapes unless it catches X).
    """

    me: Holder
    hand: tuple[Card, ...]
    unknown: int
    deck: int
    glasses: int
    turn: Holder | None
    mister_x: bool
    public: Fraction
    options: tuple[Option, ...] = field(default_factory=tuple)
    doubt: int = 0
    last: bool = False


OPTIONS_TAKEN = ("drawn",)


def check_options(record: Any, given: dict[str, Any]) -> None:
    """An InputError for an option this game does not take."""
    unknown = sorted(set(given) - set(OPTIONS_TAKEN))
    if unknown:
        raise InputError("sleuth next", unknown[0], "this game takes --drawn only")


def advise(found: Suspicion, given: dict[str, Any], deadline: Any = None) -> Plan:
    """Every legal play of my hand now, with its action's value (the ``advise`` part)."""
    record, now = found.record, found.course
    me = record.table.me
    hand = my_hand(now, record.start, given.get("drawn"), me)
    mister_x = X in hand
    public = found.suspicion(public=True).get(me, Fraction(0))
    unknown = unknown_cards(now, me) + (1 if given.get("drawn") is None else 0)
    options = [
        option(found, t, pile, action, mister_x)
        for t in sorted(c for c in hand if isinstance(c, Ticket))
        for pile, action in plays(now, t, mister_x)
    ]
    if any(o.threat for o in options):
        safe = "no interrogation can take X at the next turn"
        options = [
            o if o.threat or o.wins else replace(o, note=join(o.note, safe)) for o in options
        ]
    return Plan(
        me,
        hand,
        unknown,
        now.deck,
        now.glasses,
        next_player(now, record.table),
        mister_x,
        public,
        tuple(sorted(options, key=lambda o: o.rank)),
        now.doubt,
        now.deck == 1,
    )


def safe_now(made: Option) -> bool:
    """Whether an option of Mister X leaves no interrogation able to take X at the next turn.

    Not a Disappear: X may come back to me, and the table's guess is then a chance.
    """
    return made.threat is None and not made.wins and made.action != "disappear"


def my_hand(now: Course, start: Start, drawn: str | None, me: Holder) -> tuple[Card, ...]:
    """The cards I know I hold at my turn: the record's, and the card I drew (``--drawn``)."""
    if drawn is None:
        return now.mine
    try:
        card = ticket(drawn, "drawn", start.players)
    except InputError as error:
        raise InputError("sleuth next", "drawn", error.message) from None
    if card in now.mine:
        raise InputError("sleuth next", "drawn", f"I already hold {card}")
    if card.number in now.spent:
        raise InputError("sleuth next", "drawn", f"{card} has left play: a card is played once")
    colour = now.seen.get(card.number)
    if colour is not None and colour != card.colour:
        raise InputError("sleuth next", "drawn", f"{card} was seen as {card.number}{colour}")
    return (*now.mine, card)


def plays(now: Course, t: Ticket, mister_x: bool) -> list[tuple[int | None, str]]:
    """Where ticket ``t`` may go: each pile it fits, and a refresh.

    A black ticket in Mister X's hand buys his action too; a refresh needs a ticket below every
    top and three cards in the deck after my draw.
    """
    out: list[tuple[int | None, str]] = []
    for pile in range(1, len(now.tops) + 1):
        if now.fits(t, pile):
            out.append((pile, GENERAL[pile]))
            if mister_x and t.black:
                out.append((pile, MISTER_X[pile]))
    if t < min(now.tops) and now.deck - 1 >= FIELD:
        out.append((None, "refresh"))
    return out


def option(found: Suspicion, t: Ticket, pile: int | None, action: str, mister_x: bool) -> Option:
    """The value of playing ``t`` on ``pile`` with ``action``."""
    now = found.course
    deck = max(0, now.deck - 1 - drawn_by(action, t, now.deck - 1))
    glasses, complete = glasses_after(now, action, t)
    after = now if pile is None else replace(now, tops=tuple_at(now.tops, pile - 1, t))
    opening = interrogation_room(after)
    made = Option(t, pile, action, deck=deck, glasses=glasses)
    if action == "manhunt" or (action == "interrogation" and complete):
        made = hunted(found, made, mister_x)
    if action in MISTER_X.values():
        made = mister_x_action(found, made)
    made = _with_clock(made, found, mister_x)
    if mister_x:
        made = _with_threat(found, made, opening)
    elif glasses == GLASSES - 1 and not made.loses:
        made = _with_interrogation(found, made, opening)
    return made


def tuple_at(tops: tuple[Ticket, ...], k: int, t: Ticket) -> tuple[Ticket, ...]:
    """``tops`` with ``t`` in place ``k``: the piles after a play."""
    return (*tops[:k], t, *tops[k + 1 :])


def interrogation_room(after: Course) -> tuple[int, int]:
    """The numbers a ticket on pile 2 may have (``Course.room``), the highest one given."""
    low, high = after.room(INTERROGATION_PILE)
    return low, HIGHEST if high is None else high


def drawn_by(action: str, t: Ticket, deck: int) -> int:
    """Cards the action takes from a deck of ``deck`` cards (after my turn's draw)."""
    wanted = {"draw": DRAW + (t.colour == "y"), "buy": BUY, "refresh": FIELD}.get(action, 0)
    return min(wanted, deck)


def glasses_after(now: Course, action: str, t: Ticket) -> tuple[int, bool]:
    """The glasses face up after ``action`` with ``t``, and whether it interrogates."""
    if action != "interrogation":
        return now.glasses, False
    up = now.glasses + 1 + (t.colour == "b")
    return (up - GLASSES, True) if up >= GLASSES else (up, False)


def targets(
    found: Suspicion, action: str, colour: str, cover: bool = False
) -> tuple[tuple[Holder, Fraction], ...]:
    """Whom my manhunt or interrogation (ticket ``colour``) may target, best first, with catch.

    A manhunt targets a player with cards. ``cover``: by the table's chances (Mister X's seat:
    the target a detective who knows only the table would choose), else by mine. At a tie, by
    name.
    """
    me = found.record.table.me
    by_target = catches(found, me, action, colour, public=cover)
    if action == "manhunt":
        by_target = {p: c for p, c in by_target.items() if found.course.hands[p] > 0}
    return tuple(sorted(by_target.items(), key=lambda e: (-e[1], e[0])))


def hunted(found: Suspicion, made: Option, mister_x: bool) -> Option:
    """A manhunt's or an interrogation's targets, each with its catch; the best one chosen.

    On Mister X's seat the hunt can catch nobody: the target is the one a detective who knows
    only the table would choose (hunting like one keeps the cover).
    """
    me = found.record.table.me
    ranked = targets(found, made.action, made.ticket.colour, cover=mister_x)
    if not ranked:
        return replace(made, note="no one to target")
    best, chance = ranked[0]
    if mister_x:
        public = found.suspicion(public=True)
        after = public[me]
        if made.action == "interrogation" and public[best] < 1:
            after = public[me] / (1 - public[best])  # the table learns best is innocent
        note = "the target a detective would choose (the table's view)"
        if after != public[me]:
            note += f"; the table then suspects me {pct(after)}"
        return replace(made, target=best, catch=Fraction(0), note=note, public=after)
    note = hunt_note(found, made, best, chance)
    return replace(made, target=best, catch=chance, targets=ranked, note=note)


def hunt_note(found: Suspicion, made: Option, best: Holder, chance: Fraction) -> str:
    """What catching ``best`` does: a manhunt ends the game; an interrogation may not."""
    if made.action == "manhunt":
        taken = "2 cards (subway)" if made.ticket.colour == "r" else "1 card"
        hand = found.course.hands[best]
        return f"takes {taken} of {best}'s {hand}: the X card, and the game, with {pct(chance)}"
    now = found.course
    tickets = now.hands[best] - 1 + (1 if now.special else 0)
    if tickets < 3:
        return f"finds X with {pct(chance)}: {best} would have {tickets} ticket(s), X lost: wins"
    return f"finds X with {pct(chance)}: {best} would discard 3 of {tickets} tickets and keep X"


def mister_x_action(found: Suspicion, made: Option) -> Option:
    """Feint, Buy Equipment, Disappear on my seat: do they win, and what the table learns."""
    now, record = found.course, found.record
    me = record.table.me
    if made.action == "feint":
        return feint(found, made)
    if made.action == "buy":
        if made.deck == 0:
            return replace(
                made, wins=True, public=Fraction(1), note="Buy Equipment empties the deck: I win"
            )
        return replace(made, public=Fraction(1), note="draw 4; shows I hold X")
    circle = [p for p in record.table.players if p == me or taking_part(now, record.table, p)]
    keep = record.start.keep
    stay = keep + (1 - keep) / len(circle)
    note = (
        f"shows I hold X, then the table thinks I keep it with {pct(stay)}"
        f" (keep {keep}); hand in X and it comes back with {pct(Fraction(1, len(circle)))}"
    )
    return replace(made, public=stay, note=note)


def feint(found: Suspicion, made: Option) -> Option:
    """A Feint wins when the detectives must discard every ticket they hold."""
    now, record = found.course, found.record
    me = record.table.me
    held = sum(now.hands[p] for p in now.active(record.table) if p != me)
    cost = record.start.feint
    if cost is None:
        note = f"the detectives hold {held} ticket(s); the feint's size is not recorded (--feint)"
        return replace(made, public=Fraction(1), note=note)
    if cost >= held:
        note = f"the detectives must discard all {held} of their tickets: I win"
        return replace(made, wins=True, public=Fraction(1), note=note)
    note = f"the detectives discard {cost} of their {held} tickets; shows I hold X"
    return replace(made, public=Fraction(1), note=note)


def _with_clock(made: Option, found: Suspicion, mister_x: bool) -> Option:
    """An option that leaves the deck empty ends the game: Mister X escapes."""
    if made.deck > 0 or made.wins:
        return made
    if found.course.deck == 1:  # every option ends the game: the plan says it once
        return replace(made, wins=mister_x, loses=not mister_x and not made.catch)
    if mister_x:
        return replace(made, wins=True, note=join(made.note, "the deck runs out: I escape"))
    if made.catch:
        return replace(made, note=join(made.note, "last chance: the deck runs out after it"))
    return replace(made, loses=True, note=join(made.note, "the deck runs out: Mister X escapes"))


def _with_threat(found: Suspicion, made: Option, opening: tuple[int, int]) -> Option:
    """On Mister X's seat: what an interrogation at the next turn would do to me.

    When the glasses after my play leave one to turn (any ticket on pile 2 then interrogates)
    or two (a bus ticket does): the next player's chance to play on pile 2 (``opening``: the
    numbers it takes after my play), the table's suspicion of me (now, or after the play), and
    whether being found would take X (fewer than three tickets with the special black one: a
    ``Threat``) or cost three tickets.
    """
    if made.wins:
        return made
    now, record = found.course, found.record
    me = record.table.me
    upcoming = following(found)
    if made.glasses < GLASSES - 2 or upcoming is None:
        return made
    into_hand = made.action != "refresh"  # a refresh's cards go to the field
    drawn = drawn_by(made.action, made.ticket, max(0, now.deck - 1)) if into_hand else 0
    hand = now.hands[me] + drawn  # and one drawn, one played
    tickets = hand - 1 + (1 if now.special else 0)
    chance = None
    if made.glasses == GLASSES - 1:
        chance = playable(found, upcoming, *opening)
    if chance == 0:
        note = f"then {upcoming} cannot interrogate: no unseen ticket fits pile 2"
        return replace(made, note=join(made.note, note))
    able = "with a bus ticket" if chance is None else f"if able ({pct(chance)})"
    public = found.suspicion(public=True)[me] if made.public is None else made.public
    suspected = pct(public)
    costs = (
        f"takes X ({tickets} ticket(s) left)" if tickets < 3 else f"costs me 3 of {tickets} tickets"
    )
    note = f"then {upcoming} interrogates {able}: picking me ({suspected}) {costs}"
    threat = Threat(upcoming, tickets, chance) if tickets < 3 else None
    return replace(made, threat=threat, note=join(made.note, note))


def _with_interrogation(found: Suspicion, made: Option, opening: tuple[int, int]) -> Option:
    """On a detective's seat: the next player's chance to complete the interrogation."""
    upcoming = following(found)
    if upcoming is None:
        return made
    chance = playable(found, upcoming, *opening)
    said = (
        f"then {upcoming} interrogates if able to play on pile 2: {pct(chance)}"
        if chance
        else f"then {upcoming} cannot interrogate: no unseen ticket fits pile 2"
    )
    note = join(made.note, said)
    return replace(made, interrogates=(upcoming, chance), note=note)


def following(found: Suspicion) -> Holder | None:
    """Who plays after me, clockwise, among those still in."""
    table, now = found.record.table, found.course
    return next((p for p in table.others(table.me) if p not in now.out), None)


def playable(found: Suspicion, player: Holder, low: int, high: int, draws: int = 1) -> Fraction:
    """The chance ``player`` holds a ticket numbered ``low`` to ``high`` once they draw ``draws``.

    The card count: every ticket I have not seen is as likely as any other to be any one of
    their cards (their hand as it stands, and the cards they draw); their tickets are their
    cards but X, which they hold with my chance of it: a mixture over who holds X. Tickets I
    handed on in a Disappear count as seen.
    """
    now, record = found.course, found.record
    players = record.start.players
    unseen = [n for n in range(1, HIGHEST + 1) if in_box(n, players) and n not in now.seen]
    fitting = sum(low <= n <= high for n in unseen)
    p = found.suspicion().get(player, Fraction(0))
    cards = now.hands[player] + draws

    def some(k: int) -> Fraction:
        k = min(k, len(unseen))
        return 1 - Fraction(comb(len(unseen) - fitting, k), comb(len(unseen), k))

    return p * some(cards - 1) + (1 - p) * some(cards)


def join(first: str, second: str) -> str:
    """Two parts of a note."""
    return f"{first}; {second}" if first else second
