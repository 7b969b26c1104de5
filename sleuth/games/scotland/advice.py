"""Scotland Yard: what a hunt is worth: the chance to catch X, and the deck's clock.

Plain results for ``check`` and ``next``, from the belief (``scotland.suspicion``) and the
course of play (``scotland.course``); the screens are ``scotland.picture``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sleuth.games.scotland.course import Course
from sleuth.games.scotland.suspicion import Suspicion
from sleuth.games.scotland.tickets import GLASSES
from sleuth.model import Holder

RED = 2  # cards a manhunt takes with a subway ticket (rulebook: Manhunt, bonus)


def catch(p: Fraction, hand: int, taken: int) -> Fraction:
    """The chance that a manhunt taking ``taken`` cards of ``hand`` takes X, held with ``p``."""
    return p * Fraction(min(taken, hand), hand) if hand else Fraction(0)


def glasses_to_go(now: Course) -> int:
    """How many glasses must still turn before an interrogation (a bus ticket turns two)."""
    return GLASSES - now.glasses


@dataclass(frozen=True)
class Hunt:
    """What I would learn or win by hunting ``player`` now, e.g. Ben: 3/8 mine, 3/10 public.

    ``manhunt`` and ``red``: the chance a manhunt takes X with one card or with two (a subway
    ticket); ``interrogation``: the chance an interrogation finds them, and ``glasses`` the
    glasses still to turn before one (0: none, as the game stands; 1: one interrogation
    action, 2: two, or one with a bus ticket).
    """

    player: Holder
    probability: Fraction
    public: Fraction
    hand: int
    manhunt: Fraction
    red: Fraction
    glasses: int

    @property
    def data(self) -> dict[str, Any]:
        """As JSON: numbers in [0, 1]."""
        return {
            "player": self.player,
            "probability": float(self.probability),
            "public": float(self.public),
            "hand": self.hand,
            "manhunt": float(self.manhunt),
            "manhunt_red": float(self.red),
            "glasses_to_go": self.glasses,
            "interrogation": float(self.probability),
        }


def hunt(found: Suspicion, player: Holder) -> Hunt:
    """The check of ``player``: my chance they hold X, and what a hunt of them would catch."""
    p = found.suspicion().get(player, Fraction(0))
    public = found.suspicion(public=True).get(player, Fraction(0))
    hand = found.course.hands[player]
    return Hunt(
        player, p, public, hand, catch(p, hand, 1), catch(p, hand, RED), glasses_to_go(found.course)
    )


def catches(found: Suspicion, by: Holder, action: str, colour: str, public: bool = False) -> dict:
    """What a hunt by ``by`` would catch with each other player still in the game.

    An interrogation: the chance the target holds X; a manhunt: ``catch`` with one card, or
    two with a subway ticket (``colour`` "r"). Chances from my seat, or the public's.
    """
    chances = found.suspicion(public)
    now = found.course
    targets = [p for p in found.record.table.players if p != by and p not in now.out]
    if action == "interrogation":
        return {p: chances[p] for p in targets}
    taken = RED if colour == "r" else 1
    return {p: catch(chances[p], now.hands[p], taken) for p in targets}


def likeliest(found: Suspicion) -> tuple[str, Fraction] | None:
    """The status line's best: the other player likeliest to hold X (None when it is me)."""
    chances = found.suspicion()
    me = found.record.table.me
    if not chances or chances.get(me) == 1:
        return None
    holder = max((p for p in chances if p != me), key=lambda p: chances[p])
    return f"X {holder}", chances[holder]
