"""Scotland Yard on screen: who holds X (mine and the public's), the field, the clock, a check."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from sleuth.games.scotland.advice import Hunt, glasses_to_go
from sleuth.games.scotland.course import DETECTIVES, MISTER_X, Course
from sleuth.games.scotland.plan import Option, Plan
from sleuth.games.scotland.suspicion import Suspicion
from sleuth.games.scotland.tickets import GLASSES
from sleuth.render.common import pct, show_trouble, status_words

MODEL = (
    "The model: X dealt from the top 10 cards, one at a time from {first}; in a Disappear "
    "Mister X keeps X with chance {keep}, else the cards are dealt back at random; a manhunt "
    "takes each card alike; plays and targets tell nothing of who holds X."
)


def show_report(console: Console, found: Suspicion) -> None:
    """The full report: who holds X, the hands, the field, the glasses, the deck, the facts."""
    if not show_trouble(console, found):
        return
    console.print(suspects(found))
    now = found.course
    console.print(Text(f"Field: {field_line(now)}"))
    console.print(Text(glasses_line(now)))
    console.print(Text(clock_line(now)))
    for fact in [*found.forced, *found.ended]:
        until = "" if fact.until is None else f" until event {fact.until}"
        console.print(Text(f"certain: {fact.holder} holds X since event {fact.since}{until}"))
    start = found.record.start
    model = MODEL.format(first=start.first_dealt, keep=start.keep)
    console.print(Text(model, style="dim"))
    console.print(Text(status_words(found.record.rules.status(found.record))))


def suspects(found: Suspicion) -> Table:
    """A row per player: cards in hand, my chance they hold X, the public's."""
    table = Table(title="Who holds X", title_justify="left")
    for column, justify in (("player", "left"), ("cards", "right"), ("mine", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    table.add_column("public", justify="right")
    mine, public = found.suspicion(), found.suspicion(public=True)
    me = found.record.table.me
    for player in found.record.table.players:
        name = f"{player} (me)" if player == me else player
        if player in found.course.out:
            name += " (out)"
        cards = str(found.course.hands[player])
        table.add_row(name, cards, pct(mine.get(player)), pct(public.get(player)))
    return table


def field_line(now: Course) -> str:
    """The three piles' tops and what each takes: "14b (15-20) | 21y (22-54) | 55r (56+)"."""
    parts = []
    for pile, top in enumerate(now.tops, 1):
        low, high = now.room(pile)
        takes = f"{low}+" if high is None else f"{low}-{high}" if high >= low else "none"
        parts.append(f"{top} ({takes})")
    return " | ".join(parts)


def glasses_line(now: Course) -> str:
    """The glasses face up and how soon an interrogation comes."""
    return f"Glasses: {now.glasses} of {GLASSES} face up: {soon(glasses_to_go(now))}"


def soon(left: int) -> str:
    """When the next interrogation comes, with ``left`` glasses still to turn."""
    if left == 1:
        return "the next interrogation action (any ticket on pile 2) interrogates"
    if left == 2:
        return "an interrogation action with a bus ticket interrogates; any other turns one glass"
    return f"an interrogation in {left} interrogation actions, {left - 1} with a bus ticket"


def clock_line(now: Course) -> str:
    """The deck clock: turns left at most, and what each option costs it."""
    if now.over:
        winner = {DETECTIVES: "the detectives won", MISTER_X: "Mister X won"}[now.over]
        return f"Deck: {now.deck} card(s); {winner}: {now.ending}"
    return (
        f"Deck: {now.deck} card(s), {now.special} special black: at most {now.deck} turns left "
        "(each turn draws 1; a draw takes 1 more, a taxi 2, a refresh 3, buy equipment 4)"
    )


def show_update(console: Console, found: Suspicion) -> None:
    """After an event: who likeliest holds X, the deck, and the end if it came."""
    now = found.course
    if now.over:
        console.print(Text(f"  the game is over: {now.ending}"))
        return
    mine = found.suspicion()
    ranked = sorted(mine.items(), key=lambda e: -e[1])
    listed = ", ".join(f"{p} {pct(q)}" for p, q in ranked if q)
    console.print(Text(f"  X: {listed}; deck {now.deck}, glasses {now.glasses}/{GLASSES}"))


def json_extras(found: Suspicion) -> dict[str, Any]:
    """The contract's keys: who holds X (mine, public), hands, deck, special, field, glasses."""
    now = found.course
    return {
        "mister_x": {p: float(q) for p, q in found.suspicion().items()},
        "public": {p: float(q) for p, q in found.suspicion(public=True).items()},
        "hands": dict(now.hands),
        "deck": now.deck,
        "special": now.special,
        "field": [str(t) for t in now.tops],
        "glasses": now.glasses,
        "over": now.over,
    }


def show_hunt(console: Console, check: Hunt) -> None:
    """The check of one player: my chance and the public's, a manhunt's, an interrogation's."""
    who = check.player
    lines = [
        f"{who} holds X: {pct(check.probability)} (public view: {pct(check.public)})",
        f"a manhunt of {who} ({check.hand} cards) takes X: {pct(check.manhunt)}; "
        f"with a subway ticket (2 cards): {pct(check.red)}",
    ]
    if check.glasses <= 2:
        how = "an interrogation action now" if check.glasses == 1 else "a bus ticket on pile 2 now"
        lines.append(f"{how} interrogates: it finds X with {who} at {pct(check.probability)}")
    else:
        lines.append(f"no interrogation this turn: {soon(check.glasses)}")
    for line in lines:
        console.print(Text(line))


def show_advice(console: Console, plan: Plan) -> None:
    """``next``: my hand, the clock and the glasses, then every option, best first."""
    hand = " ".join(str(c) for c in plan.hand) or "no card I know of"
    unknown = f" and {plan.unknown} card(s) not recorded" if plan.unknown else ""
    console.print(Text(f"My turn ({plan.me}): {hand}{unknown}"))
    if plan.turn is not None and plan.turn != plan.me:
        console.print(Text(f"By the turn order {plan.turn} plays next, not me."))
    console.print(
        Text(
            f"Deck: {plan.deck} card(s), at most {plan.deck} turns left with this one; "
            f"glasses {plan.glasses} of {GLASSES} face up."
        )
    )
    if plan.doubt:
        console.print(Text(f"{plan.doubt} of these may have gone in a Disappear (record --gave)."))
    if plan.mister_x:
        console.print(Text(f"I hold X: the table suspects me {pct(plan.public)}."))
    if plan.last:
        ends = "I escape" if plan.mister_x else "Mister X escapes unless I catch X now"
        console.print(Text(f"My draw empties the deck: the game ends with this turn, {ends}."))
    if not plan.options:
        console.print(Text("No ticket I know of fits a pile, and no refresh: I pass."))
        return
    console.print(Text("Options, best first:"))
    for k, made in enumerate(plan.options, 1):
        console.print(Text(f"{k:>3}. {option_line(made, plan.mister_x)}"))
        if made.note:
            for line in textwrap.wrap(made.note, max(20, console.width - 6)):
                console.print(Text(f"      {line}"))


def option_line(made: Option, mister_x: bool) -> str:
    """One option in words: "52b on pile 2: interrogation of Ann, catch 37.5%; deck 35".

    No catch on Mister X's seat: his hunt cannot find X.
    """
    where = "refresh" if made.pile is None else f"on pile {made.pile}: {made.action}"
    hunted = "" if made.target is None else f" of {made.target}"
    catch = "" if made.catch is None or mister_x else f", catch {pct(made.catch)}"
    verdict = " (wins)" if made.wins else " (loses)" if made.loses else ""
    return f"{made.ticket} {where}{hunted}{catch}{verdict}; deck {made.deck}"


def advice_json(plan: Plan) -> dict[str, Any]:
    """``next --json``: the contract's game and options, each with our optional fields.

    An option: ``ticket``, ``pile``, ``action``, ``target``, ``catch``, ``note``; ours: ``deck``,
    ``glasses``, ``wins``, ``loses``, ``public``, ``targets``.
    """
    return {"game": "scotland-yard", "options": [option_json(o) for o in plan.options]}


def option_json(made: Option) -> dict[str, Any]:
    """One option as JSON (chances as numbers in [0, 1])."""
    out: dict[str, Any] = {
        "ticket": str(made.ticket),
        "pile": made.pile,
        "action": made.action,
        "target": made.target,
        "catch": None if made.catch is None else float(made.catch),
        "note": made.note,
        "deck": made.deck,
        "glasses": made.glasses,
        "wins": made.wins,
        "loses": made.loses,
    }
    if made.public is not None:
        out["public"] = float(made.public)
    if made.targets:
        out["targets"] = {p: float(c) for p, c in made.targets}
    return out
