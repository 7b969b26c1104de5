"""Brute force for Scotland Yard: Das Kartenspiel: who holds the X card, every world listed.

Written from the rulebook and the record contract, independent of sleuth and of the simulator.
A world is one outcome of every random choice the record leaves hidden; its weight is its
chance, and nothing is ever merged or filtered forward:

- the deal: the X card's place k among the top ten cards, each 1/10; it goes to seat k mod P
  counted clockwise from ``first_dealt``;
- a manhunt taking k cards from a hand of h: each k-subset of the h cards, 1/C(h, k), the X
  card being one of the h when the target holds it;
- a disappear: Mister X hands in X with chance 1 - ``keep`` or a ticket with chance ``keep``
  (X for sure when it is his only card), then each of the n! ways of dealing the n cards back
  to the n players with cards, 1/n! each.

The evidence, and nothing else, drops worlds: my hand holds X or not; a Mister X action
(feint, buy, disappear) is by the holder; an interrogation's ``found`` says whether the target
holds X; a manhunt's ``found`` says X was taken, its ``took`` that it was not; a disappear's
``got`` says whether X came to me, and my ``gave``, when I am Mister X, what I handed in; a
player with no cards holds no X. ``public`` leaves out what is mine (my hand, got, gave).

Hand sizes, the main deck and the special deck are public; they are derived here from the
events alone. Records should be small: the worlds multiply with every manhunt and disappear.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations, permutations
from math import comb, factorial

X = "X"
TOP, HAND, SPECIAL, FIELD, BUY = 10, 8, 5, 3, 4
TICKETS = {5: 90, 4: 81, 3: 72}  # tickets in play by player count
MISTER_X = {"feint", "buy", "disappear"}


@dataclass(frozen=True)
class Public:
    """What everyone knows: each player's number of cards, the main and special decks' sizes."""

    hands: dict[str, int]
    deck: int
    special: int


@dataclass(frozen=True)
class World:
    """One outcome of the hidden choices so far: who holds X (None: out of play), its chance."""

    holder: str | None
    weight: Fraction


@dataclass(frozen=True)
class Seat:
    """Whose record it is, the chance Mister X keeps X in a disappear, whether mine is unused."""

    me: str
    keep: Fraction
    public: bool


def colour(ticket: str) -> str:
    """A ticket's colour letter: ``colour("57r") == "r"``."""
    return ticket[-1]


def unpack(event: dict) -> tuple[str, dict]:
    """An event's kind and fields: ``{"pass": {"by": "Ann"}}`` -> ``("pass", {"by": "Ann"})``."""
    ((kind, body),) = event.items()
    return kind, body


def action(kind: str, body: dict) -> str:
    """A turn's action, or the kind of a refresh or pass."""
    return body["action"] if kind == "turn" else kind


# Public state


def dealt(doc: dict) -> Public:
    """After the setup: eight cards each; the deck less the special five, the deal and the field."""
    players = doc["players"]
    deck = TICKETS[len(players)] - SPECIAL - (HAND * len(players) - 1) - FIELD
    return Public(dict.fromkeys(players, HAND), deck, SPECIAL)


def drawn(state: Public, player: str, n: int) -> Public:
    """``player`` draws ``n`` cards from the main deck, or what is left of it."""
    k = min(n, state.deck)
    return lost(replace(state, deck=state.deck - k), player, -k)


def lost(state: Public, player: str, n: int) -> Public:
    """``player`` gives up ``n`` cards (gains them when ``n`` is negative)."""
    return replace(state, hands=state.hands | {player: state.hands[player] - n})


def opened(state: Public, kind: str, body: dict) -> Public:
    """A turn's first steps: the draw, while the deck has cards; the ticket played (not a pass)."""
    state = drawn(state, body["by"], 1)
    return state if kind == "pass" else lost(state, body["by"], 1)


def taken(state: Public, body: dict) -> int:
    """How many cards a manhunt took: those of ``took``, or (found) 1, 2 with red, at most h."""
    if body.get("found"):
        return min(2 if colour(body["ticket"]) == "r" else 1, state.hands[body["target"]])
    return len(body.get("took", []))


def after_interrogation(state: Public, body: dict) -> Public:
    """A found interrogation: Mister X draws a special ticket while any is left, discards three."""
    if not body.get("found"):
        return state
    if state.special:
        state = lost(replace(state, special=state.special - 1), body["target"], -1)
    return lost(state, body["target"], len(body.get("discarded", [None] * 3)))


def after_feint(state: Public, body: dict) -> Public:
    """A feint: each detective gives up the tickets listed."""
    for player, tickets in body["discards"].items():
        state = lost(state, player, len(tickets))
    return state


def closed(state: Public, kind: str, body: dict) -> Public:
    """The action's effect on the public state, after ``opened``."""
    what, by = action(kind, body), body["by"]
    if what == "refresh":
        return replace(state, deck=state.deck - min(FIELD, state.deck))
    if what in ("draw", "buy"):
        return drawn(state, by, BUY if what == "buy" else 2 if colour(body["ticket"]) == "y" else 1)
    if what == "manhunt":
        return lost(state, body["target"], taken(state, body))
    if what == "interrogation":
        return after_interrogation(state, body)
    return after_feint(state, body) if what == "feint" else state


def turns(doc: dict, upto: int | None = None) -> list[tuple[str, dict, Public, Public]]:
    """Each event's kind, fields, public state when it acts, and public state after it."""
    state, out = dealt(doc), []
    for event in doc["events"][:upto]:
        kind, body = unpack(event)
        during = opened(state, kind, body)
        state = closed(during, kind, body)
        out.append((kind, body, during, state))
    return out


def publics(doc: dict, upto: int | None = None) -> list[Public]:
    """The public state after the setup and after each event."""
    return [dealt(doc)] + [after for *_, after in turns(doc, upto)]


# Worlds


def prior(doc: dict) -> list[World]:
    """X's place among the top ten, each 1/10: seat k mod P from ``first_dealt``."""
    players = doc["players"]
    first = players.index(doc.get("first_dealt", players[0]))
    return [World(players[(first + k) % len(players)], Fraction(1, TOP)) for k in range(TOP)]


def my_hand(world: World, doc: dict, seat: Seat) -> bool:
    """My hand as dealt holds X exactly when I do."""
    return seat.public or (X in doc["hand"]) == (world.holder == seat.me)


def mister_x_acts(world: World, kind: str, body: dict) -> bool:
    """A Mister X action (only with a black ticket) is played by the holder of X."""
    return kind != "turn" or body["action"] not in MISTER_X or world.holder == body["by"]


def holds_a_card(world: World, state: Public) -> bool:
    """X is a card: its holder has at least one."""
    return world.holder is None or state.hands[world.holder] > 0


def interrogated(world: World, body: dict) -> Iterator[World]:
    """Found when the target holds X; X among the discards leaves play."""
    if "found" not in body:
        yield world
    elif body["found"] == (world.holder == body["target"]):
        yield replace(world, holder=None) if X in body.get("discarded", []) else world


def hunted(world: World, body: dict, state: Public) -> Iterator[World]:
    """Each k-subset of the target's h cards, 1/C(h, k); card 0 is X when the target holds it."""
    h, k = state.hands[body["target"]], taken(state, body)
    for cards in combinations(range(h), k):
        caught = world.holder == body["target"] and 0 in cards
        if caught == bool(body.get("found")):
            yield World(None if caught else world.holder, world.weight / comb(h, k))


def handed_in(state: Public, by: str, keep: Fraction) -> list[tuple[bool, Fraction]]:
    """Mister X's card in a disappear: (X?, chance); X for sure when it is his only card."""
    if state.hands[by] < 2:
        return [(True, Fraction(1))]
    return [(x, chance) for x, chance in ((True, 1 - keep), (False, keep)) if chance]


def my_gift(body: dict, seat: Seat, placed_x: bool) -> bool:
    """My ``gave`` is X exactly when I am Mister X and hand X in."""
    if seat.public or "gave" not in body:
        return True
    return (body["gave"] == X) == (seat.me == body["by"] and placed_x)


def my_gain(body: dict, seat: Seat, placed_x: bool, receiver: str) -> bool:
    """My ``got`` is X exactly when X was handed in and dealt to me."""
    if seat.public or "got" not in body:
        return True
    return (body["got"] == X) == (placed_x and receiver == seat.me)


def vanished(world: World, body: dict, state: Public, seat: Seat) -> Iterator[World]:
    """Mister X's choice, then each of the n! deals of the n cards back to the n with cards."""
    by = body["by"]
    circle = [p for p, n in state.hands.items() if n > 0]
    for placed_x, chance in handed_in(state, by, seat.keep):
        if not my_gift(body, seat, placed_x):
            continue
        for deal in permutations(circle):
            receiver = deal[circle.index(by)]  # who gets the card Mister X handed in
            if my_gain(body, seat, placed_x, receiver):
                holder = receiver if placed_x else by
                yield World(holder, world.weight * chance / factorial(len(circle)))


def outcomes(world: World, kind: str, body: dict, state: Public, seat: Seat) -> Iterable[World]:
    """The worlds one world becomes through an event, each fitting its evidence."""
    if not mister_x_acts(world, kind, body):
        return []
    what = action(kind, body)
    if what == "interrogation":
        return interrogated(world, body)
    if what == "manhunt":
        return hunted(world, body, state)
    if what == "disappear":
        return vanished(world, body, state, seat)
    return [world]


def worlds(doc: dict, upto: int | None = None, public: bool = False) -> list[World]:
    """Every world that fits the first ``upto`` events (all when None)."""
    seat = Seat(doc["me"], Fraction(str(doc.get("keep", 0))), public)
    alive = [w for w in prior(doc) if my_hand(w, doc, seat)]
    for kind, body, during, after in turns(doc, upto):
        alive = [
            w
            for world in alive
            for w in outcomes(world, kind, body, during, seat)
            if holds_a_card(w, after)
        ]
    return alive


def posterior(
    doc: dict, upto: int | None = None, public: bool = False
) -> dict[str, Fraction] | None:
    """Each player's chance to hold X after ``upto`` events; None when no world fits.

    Once X has left play (the game is over) the chances sum to less than 1.
    """
    alive = worlds(doc, upto, public)
    total = sum(w.weight for w in alive)
    if not total:
        return None
    return {p: sum(w.weight for w in alive if w.holder == p) / total for p in doc["players"]}


def size(doc: dict, upto: int | None = None) -> int:
    """An upper bound on the worlds listed: 10 x C(h, k) per manhunt x 2 n! per disappear."""
    bound = TOP
    for kind, body, during, _ in turns(doc, upto):
        if action(kind, body) == "manhunt":
            bound *= comb(during.hands[body["target"]], taken(during, body))
        elif action(kind, body) == "disappear":
            bound *= 2 * factorial(sum(n > 0 for n in during.hands.values()))
    return bound
