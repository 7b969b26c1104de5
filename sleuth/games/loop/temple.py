"""Loot the Loop: the temple as I see it, followed action by action (rulebook: Gameplay).

``follow`` walks the record and keeps the deck top first, each card face up (its name) or face
down (None), my notes and my score pile, and how the game ended; it refuses the first action
the rules do not allow where it stands, naming the rule. Which card lies under each face-down
place is the belief's (``sleuth.games.loop.tracker``): every order of the unseen cards is
equally likely, since nothing but a look shows a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sleuth.errors import InputError
from sleuth.games.base import Event, Status, Table, refused
from sleuth.games.loop.cards import DECK, EXIT, JEWEL, JEWELS, NOTES, TRAP, TRINKET, kind, value
from sleuth.games.loop.rules import Explore, Look, Mark, Return, Start

PLAYING, WON, LOST, STUCK = "playing", "won", "lost", "stuck"
Place = str | None  # a card face up, or None: face down


@dataclass(frozen=True)
class Action:
    """A legal action now: ("look", None), ("explore", 4), ("mark", "7C"), ("return", "9H")."""

    action: str
    what: int | str | None = None

    def __str__(self) -> str:
        return self.action if self.what is None else f"{self.action} {self.what}"

    def event(self) -> Event:
        """The record's event for a certain action: an explore, a mark, a return (not a look)."""
        if self.action == "explore":
            return Explore(int(self.what or 0))
        return (Mark if self.action == "mark" else Return)(str(self.what))


@dataclass(frozen=True)
class Temple:
    """The game after some actions: the deck top first, notes, score, and how it stands.

    ``seen``: every card turned up so far. ``status``: PLAYING, WON, LOST (a trap), STUCK (no
    legal action: the rulebook's "can't move"); ``ending`` says why it ended.
    """

    deck: tuple[Place, ...] = (None,) * len(DECK)
    notes: tuple[str, ...] = ()
    score: tuple[str, ...] = ()
    seen: frozenset[str] = frozenset()
    status: str = PLAYING
    ending: str | None = None

    @property
    def unseen(self) -> tuple[str, ...]:
        """The cards not yet seen: those under the face-down places, in the deck's order."""
        return tuple(c for c in DECK if c not in self.seen)

    def turned_up(self) -> int:
        """How many cards a look turns up: the top two, or the top alone when the second is up."""
        return 2 if len(self.deck) > 1 and self.deck[1] is None else 1

    def explores(self) -> tuple[int, ...]:
        """The values an explore may take: face-up trinkets among the top two, low to high."""
        return tuple(sorted({value(c) or 0 for c in self.deck[:2] if c and kind(c) == TRINKET}))

    def actions(self) -> tuple[Action, ...]:
        """Every legal action now (none once the game has ended)."""
        if self.status != PLAYING:
            return ()
        out = []
        if self.deck and self.deck[0] is None:
            out.append(Action("look"))
        out += [Action("explore", n) for n in self.explores()]
        top = self.deck[0] if self.deck else None
        if top is not None and kind(top) == TRINKET and len(self.notes) < NOTES:
            out.append(Action("mark", top))
        out += [Action("return", c) for c in self.notes]
        return tuple(out)

    def landing(self, n: int) -> tuple[int, Place]:
        """Where an explore of ``n`` lands: the place (``n`` mod the deck's length) and its card."""
        k = n % len(self.deck)
        return k, self.deck[k]

    def jewels(self) -> int:
        """How many jewels are in my score pile."""
        return sum(kind(c) == JEWEL for c in self.score)


def outcome(temple: Temple, n: int) -> str:
    """What an explore of ``n`` does: safe, nab, trap, exit or win.

    Safe: it lands face down; exit: on the exit with jewels still missing (nothing happens).
    """
    _, lands = temple.landing(n)
    if lands is None:
        return "safe"
    what = kind(lands)
    if what == TRAP:
        return "trap"
    if what == EXIT:
        return "win" if temple.jewels() >= JEWELS else "exit"
    return "nab"


def follow(events: Sequence[Event], table: Table, start: Start) -> list[Temple]:
    """The temple after the setup and after each action; an InputError at the first refused."""
    now = Temple()
    out = [now]
    for index, event in enumerate(events, 1):
        try:
            now = step(now, event)
        except InputError as error:
            raise error.located(event=index) from None
        out.append(now)
    return out


def step(now: Temple, event: Event) -> Temple:
    """The temple after one more action, or an InputError naming the rule it breaks."""
    if now.status != PLAYING:
        raise InputError("", "", f"the game is over: {now.ending}")
    if isinstance(event, Look):
        now = _look(now, event)
    elif isinstance(event, Explore):
        now = _explore(now, event)
    elif isinstance(event, Mark):
        now = _mark(now, event)
    else:
        assert isinstance(event, Return)  # the game's four actions
        now = _return(now, event)
    if now.status == PLAYING and not now.actions():
        return replace(now, status=STUCK, ending="no legal action is left (rulebook: Game End)")
    return now


def _look(now: Temple, look: Look) -> Temple:
    """Turn the top two face up, or the top alone when the second is face up (1 Look Around)."""
    if not now.deck or now.deck[0] is not None:
        raise InputError("", "cards", "the top card is face up: no look (rulebook: Look Around)")
    down = now.turned_up()
    if len(look.cards) != down:
        said = "the top two are face down" if down == 2 else "only the top card is face down"
        raise InputError("", "cards", f"{said}: a look turns up {down}, not {len(look.cards)}")
    for name in look.cards:
        if name in now.seen:
            raise InputError("", "cards", f"{name} was already seen: a card turns up once")
    deck = (*look.cards, *now.deck[down:])
    return replace(now, deck=deck, seen=now.seen | set(look.cards))


def _explore(now: Temple, explore: Explore) -> Temple:
    """Move N cards from the top to the bottom, then land on the new top (2 Explore)."""
    allowed = now.explores()
    if explore.n not in allowed:
        by = ", ".join(map(str, allowed)) or "none: no face-up trinket is among the top two"
        raise InputError("", "n", f"an explore goes by a face-up trinket of the top two: {by}")
    k, lands = now.landing(explore.n)
    deck = now.deck[k:] + now.deck[:k]
    if lands is None:
        return replace(now, deck=deck)
    what = kind(lands)
    if what == TRAP:
        return replace(now, deck=deck, status=LOST, ending=f"landed on the trap {lands}")
    if what == EXIT:
        if now.jewels() >= JEWELS:
            return replace(now, deck=deck, status=WON, ending="landed on the exit with four jewels")
        return replace(now, deck=deck)
    return replace(now, deck=deck[1:], score=(*now.score, lands))  # nabbed


def _mark(now: Temple, mark: Mark) -> Temple:
    """The top card, a face-up trinket, goes to my notes (3 Mark a Path)."""
    top = now.deck[0] if now.deck else None
    if top is None or kind(top) != TRINKET:
        raise InputError("", "card", "only a face-up trinket on top can be marked (Mark a Path)")
    if mark.card != top:
        raise InputError("", "card", f"the top card is {top}, not {mark.card}")
    if len(now.notes) >= NOTES:
        raise InputError("", "card", f"my notes hold {NOTES} paths already (Mark a Path)")
    return replace(now, deck=now.deck[1:], notes=(*now.notes, top))


def _return(now: Temple, back: Return) -> Temple:
    """A card of my notes goes back on top, face up (4 Return to a Marked Path)."""
    if back.card not in now.notes:
        held = ", ".join(now.notes) or "none"
        raise InputError("", "card", f"{back.card} is not in my notes (they hold: {held})")
    notes = tuple(c for c in now.notes if c != back.card)
    return replace(now, deck=(back.card, *now.deck), notes=notes)


def forbidden(events: list[Event], table: Table, start: Start) -> InputError | None:
    """The first action the rules do not allow where it stands, as an error; None if none."""
    return refused(follow, events, table, start)


def temple(record: Any) -> Temple:
    """Where the record's game stands after all its actions (a record the rules allow)."""
    return follow(record.events, record.table, record.start)[-1]


def turn_note(record: Any, index: int) -> str | None:
    """No turn order: one plays alone."""
    return None


def status(record: Any) -> Status:
    """The action to come (the actions so far, and one), or the last, and how the game ended.

    Ended, it says how in a word or two ("won", "lost on QS", "stuck"): the line keeps room
    for the score, and the report and the update say it whole.
    """
    now = temple(record)
    notes = (f"deck {len(now.deck)}", f"score {len(now.score)}", f"jewels {now.jewels()}/{JEWELS}")
    if now.status == PLAYING:
        return Status(len(record.events) + 1, None, notes=notes, counting="action")
    over = f"lost on {now.deck[0]}" if now.status == LOST else now.status
    return Status(len(record.events), None, over=over, notes=notes, counting="action")
