"""Simulated games of Scotland Yard: Das Kartenspiel, played by the rulebook, with a record.

Written from the rulebook alone and importing nothing from ``sleuth``, so that it checks the
game's rules and belief from outside. By the rulebook's sections:

- Contents of the Box: 22 yellow, 22 blue, 21 red and 25 black tickets. Which number has which
  colour is not printed, so each seed draws its own colour table with those counts.
- Setup: with 4 players the tickets with a digit 0 leave the game, with 3 those with a 0 or a
  9; five black tickets become the special deck; the X card is shuffled into the top ten; eight
  cards each, dealt one at a time clockwise from seat 0 (``first_dealt``); three tickets laid
  low to high as the field; magnifying glass 1 face up.
- Gameplay: draw, then cover a pile with a ticket above its top and below the next pile's top
  and do the pile's action (its lower half only for Mister X and only with a black ticket), or
  refresh the field with a ticket below every top.
- Winning the Game: X taken in a manhunt or discarded after an interrogation (detectives); all
  detectives without cards after a feint, or the deck empty at the end of a turn (Mister X).

Readings where the rulebook says nothing (one choice each):

- a player with no legal play and no refresh passes (``pass: {by}``): the turn ends;
- a refresh needs three cards in the deck; other draws take what is left when it runs short;
- a blue ticket always uses both flips; a feint costs ``feint`` tickets (default players - 1),
  and every detective left without cards afterwards sits out and takes no more turns;
- a target is another player still in; Mister X discards three tickets after being found, and
  the X card with them only when fewer than three tickets are left.

Records. Every seat keeps its own record: the public fields in all, and a seat's private ones
(``drawn`` and ``drew``, its ``got`` and ``gave`` in a disappear, the ``special`` black ticket it
drew when found) in its own alone. ``Game.doc``
is the record of seat ``me``, ``Game.records`` every seat's.

Policies. The table's chance (deal, colours, manhunt draws, the shuffle of a disappear) comes
from ``random.Random(seed)``; every choice comes from a second stream seeded by its first draw,
so two policies on one seed share the deal, and every draw while their choices agree.

- A detective picks uniformly among all legal plays, refreshes included. The target of a
  manhunt or of an interrogation is ``hunt(view)`` when ``hunt`` is given, else uniform among
  the other players still in (a manhunt prefers those with cards).
- Mister X plays a feint that wins if he has one, else a buy that empties the deck, else with
  chance ``mister_x_bold`` a random Mister X action when one is legal, else a random general
  play or refresh. His targets are uniform. In a disappear he hands in X with chance
  1 - ``keep`` (always when X is his only card), else a random ticket; after an interrogation
  he discards random tickets.
- A feint's discards are chosen one at a time: a random detective with cards, a random ticket.
- In a disappear each detective hands in a random ticket.

Run as a script to print a record as JSON: ``python -m sleuth.games.scotland.simulate 4 7``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")
X = "X"
COLOURS = {"y": 22, "b": 22, "r": 21, "k": 25}  # yellow taxi, blue bus, red subway, black
REMOVED = {5: "", 4: "0", 3: "09"}  # digits whose tickets leave the game, by player count
HAND, TOP, SPECIAL, GLASSES, FIELD = 8, 10, 5, 3, 3
ACTIONS = {1: ("draw", "feint"), 2: ("interrogation", "buy"), 3: ("manhunt", "disappear")}
PILES = tuple(ACTIONS)
REFRESH = 0  # the pile of a refresh, which covers none
EMPTYING_BUY = 4  # a buy draws four


@dataclass(frozen=True)
class View:
    """What ``hunt`` sees: the records so far (read only), who acts, the action, the targets.

    ``doc`` is ``me``'s record, ``own`` the hunter's (``by``'s: their hand, their draws). Both end
    before this turn: the card ``by`` drew this turn is in neither; ``ticket`` is the one played
    (a red one takes two cards in a manhunt).
    """

    doc: dict
    by: str
    action: str  # "manhunt" or "interrogation"
    targets: tuple[str, ...]
    own: dict
    ticket: str


Hunt = Callable[[View], str]


@dataclass
class Game:
    """A simulated game: its record and the truth after the setup (index 0) and each event.

    ``holders[i]`` holds X after ``i`` events (None once X has left play), ``hands[i]`` every
    player's cards, ``decks[i]`` the main deck's size, ``tops[i]`` its top card (the next one
    drawn; None when it is empty). ``winner`` is ``"detectives"``,
    ``"mister_x"``, or None when the game was cut off by ``limit``. ``doc`` is seat ``me``'s
    record, ``records`` every seat's by name.
    """

    doc: dict
    holders: list[str | None]
    winner: str | None
    hands: list[dict[str, tuple[str, ...]]]
    seed: int
    keep: Fraction
    decks: list[int]
    tops: list[str | None] = field(default_factory=list)
    records: dict[str, dict] = field(default_factory=dict)


def number(card: str) -> int:
    """A ticket's number: ``number("34y") == 34``."""
    return int(card[:-1])


def colour(card: str) -> str:
    """A ticket's colour letter: ``colour("34y") == "y"``."""
    return card[-1]


def tickets(players: int, rng: random.Random) -> list[str]:
    """The tickets in play, low to high, after a random colour table with the box's counts."""
    letters = [letter for letter, count in COLOURS.items() for _ in range(count)]
    rng.shuffle(letters)
    removed = set(REMOVED[players])
    return [f"{k}{c}" for k, c in enumerate(letters, 1) if not removed & set(str(k))]


def order(card: str) -> tuple[bool, int]:
    """Sort key of a hand: tickets low to high, then X."""
    return (card == X, 0 if card == X else number(card))


def fits(ticket: str, pile: int, piles: list[str]) -> bool:
    """Whether ``ticket`` may cover ``pile``: above its top, below the next pile's top."""
    above = number(ticket) > number(piles[pile - 1])
    return above and (pile == PILES[-1] or number(ticket) < number(piles[pile]))


def decimal(chance: Fraction) -> str:
    """A chance in hundredths as a decimal string: ``decimal(Fraction(1, 4)) == "0.25"``."""
    hundredths = chance * 100
    if hundredths.denominator != 1:
        raise ValueError(f"keep must be a multiple of 1/100 to be recorded, not {chance}")
    whole, part = divmod(int(hundredths), 100)
    return f"{whole}.{part:02d}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Play:
    """A ticket on a pile (1 to 3) with its action, or a refresh (pile 0)."""

    ticket: str
    pile: int
    action: str


@dataclass
class Table:
    """The true state: hands, the main deck (top first), special deck, field tops, glasses, out."""

    players: tuple[str, ...]
    hands: dict[str, list[str]]
    deck: list[str]
    special: list[str]
    piles: list[str]
    glasses: int = 1
    out: set[str] = field(default_factory=set)

    def holder(self) -> str | None:
        """Who holds the X card; None once it has left play."""
        return next((p for p, hand in self.hands.items() if X in hand), None)

    def active(self) -> list[str]:
        """The players still in, in seating order."""
        return [p for p in self.players if p not in self.out]

    def take(self, n: int) -> list[str]:
        """The top ``n`` cards of the main deck (fewer when it runs short), taken off it."""
        cards, self.deck = self.deck[:n], self.deck[n:]
        return cards

    def draw(self, player: str, n: int) -> list[str]:
        """``player`` draws ``n`` cards (fewer when the deck runs short); the cards drawn."""
        cards = self.take(n)
        self.hands[player] += cards
        return cards


def deal(players: int, rng: random.Random) -> Table:
    """The Setup: ticket deck, special black deck, X among the top ten, the deal, the field."""
    names = NAMES[:players]
    deck = tickets(players, rng)
    special = rng.sample([t for t in deck if colour(t) == "k"], SPECIAL)
    deck = [t for t in deck if t not in special]
    rng.shuffle(deck)
    deck.insert(rng.randrange(TOP), X)
    dealt, deck = deck[: HAND * players], deck[HAND * players :]
    hands = {p: dealt[seat::players] for seat, p in enumerate(names)}
    return Table(names, hands, deck[FIELD:], special, sorted(deck[:FIELD], key=number))


def general_plays(table: Table, player: str) -> list[Play]:
    """Every ticket on every pile it fits, with the general action, and every refresh allowed."""
    hand = [c for c in table.hands[player] if c != X]
    plays = [Play(t, p, ACTIONS[p][0]) for t in hand for p in PILES if fits(t, p, table.piles)]
    if len(table.deck) >= FIELD:
        low = min(number(top) for top in table.piles)
        plays += [Play(t, REFRESH, "refresh") for t in hand if number(t) < low]
    return plays


def mister_x_plays(table: Table, player: str) -> list[Play]:
    """Every black ticket of Mister X on a pile it fits, with the pile's Mister X action."""
    if table.holder() != player:
        return []
    black = [c for c in table.hands[player] if c != X and colour(c) == "k"]
    return [Play(t, p, ACTIONS[p][1]) for t in black for p in PILES if fits(t, p, table.piles)]


class Simulation:
    """One game being played: the table, the two random streams, the record and the truth."""

    def __init__(
        self,
        players: int,
        seed: int,
        me: int,
        keep: Fraction,
        hunt: Hunt | None,
        feint: int | None,
        bold: float,
    ) -> None:
        self.rng = random.Random(seed)
        self.policy = random.Random(self.rng.getrandbits(64))
        self.table = deal(players, self.rng)
        self.me = NAMES[me]
        self.keep, self.hunt, self.bold = keep, hunt, bold
        self.cost = players - 1 if feint is None else feint  # tickets a feint costs
        self.winner: str | None = None
        self.records = {p: self.record(p, feint) for p in self.table.players}
        self.doc = self.records[self.me]
        self.secrets: dict[str, dict] = {}  # this turn's private fields, by seat
        self.holders: list[str | None] = []
        self.hands: list[dict[str, tuple[str, ...]]] = []
        self.decks: list[int] = []
        self.tops: list[str | None] = []
        self.remember()

    def record(self, seat: str, feint: int | None) -> dict:
        """The record's setup fields, from ``seat``."""
        table = self.table
        doc: dict = {"game": "scotland-yard", "players": list(table.players), "me": seat}
        doc["hand"] = sorted(table.hands[seat], key=order)
        doc |= {"field": list(table.piles), "first_dealt": table.players[0]}
        if self.keep:
            doc["keep"] = decimal(self.keep)
        if feint is not None:
            doc["feint"] = feint
        return doc | {"events": []}

    def remember(self) -> None:
        """Keep the truth after the setup or an event."""
        self.holders.append(self.table.holder())
        self.hands.append({p: tuple(hand) for p, hand in self.table.hands.items()})
        self.decks.append(len(self.table.deck))
        self.tops.append(self.table.deck[0] if self.table.deck else None)

    def play(self, start: int, limit: int | None) -> None:
        """Turns clockwise from seat ``start`` until the game ends or ``limit`` events are made."""
        players, seat = self.table.players, start
        while self.winner is None and (limit is None or len(self.doc["events"]) < limit):
            if players[seat] not in self.table.out:
                self.turn(players[seat])
            seat = (seat + 1) % len(players)

    def turn(self, player: str) -> None:
        """Draw, play (or pass), act; Mister X escapes if the deck is empty at the end."""
        self.secrets = {p: {} for p in self.table.players}
        drawn = self.table.draw(player, 1)
        options = general_plays(self.table, player)
        if options:
            kind, body = self.perform(player, self.choose(player, options))
        else:
            kind, body = "pass", {"by": player}
        if drawn:
            self.secret(player, drawn=drawn[0])
        for seat, doc in self.records.items():
            doc["events"].append({kind: body | self.secrets[seat]})
        if self.winner is None and not self.table.deck:
            self.winner = "mister_x"
        self.remember()

    def choose(self, player: str, options: list[Play]) -> Play:
        """The policy's play: see the module's docstring."""
        bold = mister_x_plays(self.table, player)
        held = sum(len(h) for p, h in self.table.hands.items() if p != player)
        winning = [p for p in bold if p.action == "feint" and self.cost >= held]
        empties = 0 < len(self.table.deck) <= EMPTYING_BUY
        emptying = [p for p in bold if p.action == "buy" and empties]
        if winning or emptying:
            return self.policy.choice(winning or emptying)
        if bold and self.policy.random() < self.bold:
            return self.policy.choice(bold)
        return self.policy.choice(options)

    def perform(self, player: str, play: Play) -> tuple[str, dict]:
        """Play the ticket and do its action: the event's kind and fields."""
        self.table.hands[player].remove(play.ticket)
        if play.pile == REFRESH:
            self.table.piles = sorted(self.table.take(FIELD), key=number)
            return "refresh", {"by": player, "ticket": play.ticket, "field": list(self.table.piles)}
        self.table.piles[play.pile - 1] = play.ticket
        body = {"by": player, "ticket": play.ticket, "pile": play.pile, "action": play.action}
        actions = {
            "draw": self.draw,
            "feint": self.feint,
            "interrogation": self.interrogate,
            "buy": self.buy,
            "manhunt": self.manhunt,
            "disappear": self.disappear,
        }
        return "turn", body | actions[play.action](player, play.ticket)

    def secret(self, player: str, **fields) -> dict:
        """Fields only ``player``'s record holds, kept for this turn's event; none public."""
        self.secrets[player] |= fields
        return {}

    def draw(self, player: str, ticket: str) -> dict:
        """Draw: one card, two with a yellow ticket."""
        return self.secret(player, drew=self.table.draw(player, 2 if colour(ticket) == "y" else 1))

    def buy(self, player: str, ticket: str) -> dict:
        """Buy equipment: four cards."""
        return self.secret(player, drew=self.table.draw(player, EMPTYING_BUY))

    def feint(self, player: str, ticket: str) -> dict:
        """Feint: the detectives discard ``cost`` tickets; those left without cards are out."""
        table, discards = self.table, dict[str, list[str]]()
        detectives = [p for p in table.active() if p != player]
        for _ in range(self.cost):
            holding = [p for p in detectives if table.hands[p]]
            if not holding:
                break
            who = self.policy.choice(holding)
            card = self.policy.choice(table.hands[who])
            table.hands[who].remove(card)
            discards.setdefault(who, []).append(card)
        table.out |= {p for p in detectives if not table.hands[p]}
        if all(p in table.out for p in table.players if p != player):
            self.winner = "mister_x"
        return {"discards": {p: discards[p] for p in table.players if p in discards}}

    def interrogate(self, player: str, ticket: str) -> dict:
        """Interrogation: flip one glass (two with blue); the third face up questions a target."""
        up = self.table.glasses + (2 if colour(ticket) == "b" else 1)
        self.table.glasses = up - GLASSES if up >= GLASSES else up  # a spare flip: glass 1 up
        if up < GLASSES:
            return {}
        target = self.target(player, "interrogation", ticket)
        found = X in self.table.hands[target]
        if not found:
            return {"target": target, "found": False}
        special = self.table.special[-1:]  # the one Mister X draws, if any is left
        body = {"target": target, "found": True, "discarded": self.confess(target)}
        return body | (self.secret(target, special=special[0]) if special else {})

    def confess(self, holder: str) -> list[str]:
        """Mister X, found, draws a special black ticket if any is left and discards three."""
        hand = self.table.hands[holder]
        if self.table.special:
            hand.append(self.table.special.pop())
        own = [c for c in hand if c != X]
        discarded = self.policy.sample(own, 3) if len(own) >= 3 else own + [X]
        for card in discarded:
            hand.remove(card)
        if X in discarded:
            self.winner = "detectives"
        return discarded

    def manhunt(self, player: str, ticket: str) -> dict:
        """Manhunt: take one card at random from a target (two with red); X taken ends it."""
        target = self.target(player, "manhunt", ticket)
        hand = self.table.hands[target]
        taken = self.rng.sample(hand, min(2 if colour(ticket) == "r" else 1, len(hand)))
        for card in taken:
            hand.remove(card)
        if X in taken:
            self.winner = "detectives"
            return {"target": target, "found": True}
        return {"target": target, "took": taken}

    def disappear(self, player: str, ticket: str) -> dict:
        """Disappear: each player in with cards hands one in; shuffled, one dealt back to each."""
        table = self.table
        circle = [p for p in table.active() if table.hands[p]]
        placed = [self.hand_in(p, player) for p in circle]
        given = dict(zip(circle, placed, strict=True))
        self.rng.shuffle(placed)
        for p, card in zip(circle, placed, strict=True):
            table.hands[p].append(card)
            self.secret(p, got=card, gave=given[p])
        return {}

    def hand_in(self, player: str, mister_x: str) -> str:
        """The card ``player`` puts face down: Mister X's X with chance 1 - keep, else a ticket."""
        hand = self.table.hands[player]
        own = [c for c in hand if c != X]
        keeps = player == mister_x and self.policy.random() < self.keep
        card = self.policy.choice(own) if own and (keeps or player != mister_x) else X
        hand.remove(card)
        return card

    def target(self, player: str, action: str, ticket: str) -> str:
        """The player to question or hunt: uniform, or ``hunt``'s choice for a detective."""
        others = [p for p in self.table.active() if p != player]
        if action == "manhunt":
            others = [p for p in others if self.table.hands[p]] or others
        chosen = self.policy.choice(others)
        if self.hunt is None or player == self.table.holder():
            return chosen
        doc, own = (d | {"events": list(d["events"])} for d in (self.doc, self.records[player]))
        chosen = self.hunt(View(doc, player, action, tuple(others), own, ticket))
        if chosen not in others:
            raise ValueError(f"hunt chose {chosen!r}, not one of {others}")
        return chosen


def simulate(
    players: int,
    seed: int,
    me: int = 0,
    keep: Fraction = Fraction(0),
    hunt: Hunt | None = None,
    feint: int | None = None,
    mister_x_bold: float = 0.15,
    start: int = 0,
    limit: int | None = None,
) -> Game:
    """A whole game for 3 to 5 players, the same for the same arguments; ``limit`` cuts it short.

    ``me`` is the seat whose record it is, ``start`` the seat that plays first, ``keep`` the
    chance Mister X keeps X in a disappear (a multiple of 1/100 when not 0, to be recorded).
    """
    if not 3 <= players <= len(NAMES):
        raise ValueError(f"3 to {len(NAMES)} players, not {players}")
    if not (0 <= me < players and 0 <= start < players):
        raise ValueError(f"seats are 0 to {players - 1}: me {me}, start {start}")
    keep = Fraction(keep)
    if not 0 <= keep <= 1:
        raise ValueError(f"keep is a chance, not {keep}")
    game = Simulation(players, seed, me, keep, hunt, feint, mister_x_bold)
    game.play(start, limit)
    made = (game.holders, game.winner, game.hands, seed, keep, game.decks, game.tops)
    return Game(game.doc, *made, game.records)


if __name__ == "__main__":
    print(json.dumps(simulate(int(sys.argv[1]), int(sys.argv[2])).doc, indent=2))
