"""Loot the Loop on screen and in JSON: the deck as a loop, my notes and score, every action."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.text import Text

from sleuth.chance import pct
from sleuth.games.loop.cards import JEWELS, KINDS, order
from sleuth.games.loop.plan import LINE, Plan, Weighed
from sleuth.games.loop.temple import PLAYING, Action, Temple, follow, outcome
from sleuth.games.loop.tracker import Tracker, after_look, kinds, look_odds
from sleuth.render.common import printed

PLURAL = {"trap": "traps", "jewel": "jewels", "trinket": "trinkets", "exit": "exits"}


def counted(n: int, what: str) -> str:
    """``n`` cards of a kind, the noun singular for one: "1 jewel", "8 traps"."""
    return f"{n} {what if n == 1 else PLURAL[what]}"


def deck_line(now: Temple) -> str:
    """The deck top first, face-down runs counted: "9H 4C ?x10 KS ?x39"."""
    words: list[str] = []
    run = 0
    for place in (*now.deck, "end"):
        if place is None:
            run += 1
            continue
        if run:
            words.append("?" if run == 1 else f"?x{run}")
            run = 0
        if place != "end":
            words.append(place)
    return " ".join(words)


def unseen_line(now: Temple) -> str:
    """The cards not yet seen, by kind."""
    n = kinds(now.unseen)
    listed = ", ".join(counted(n[k], k) for k in KINDS if n[k])
    return f"Unseen: {len(now.unseen)} cards" + (f": {listed}" if listed else "")


def action_line(now: Temple, action: Action) -> str:
    """One legal action and what it does."""
    if action.action == "look":
        odds = look_odds(now)
        chances = ", ".join(f"{k} {pct(p)}" for k, p in odds.items() if p)
        line = f"look: turns up {now.turned_up()}; the top is {chances}"
        after = after_look(now)
        if after is not None and (after.stuck or after.trapped):
            line += f"; then stuck {pct(after.stuck)}, only traps {pct(after.trapped)}"
        return line
    if action.action == "explore":
        n = int(action.what or 0)
        _, lands = now.landing(n)
        where = "a face-down card" if lands is None else lands
        return f"explore {n}: lands on {where}: {outcome(now, n)}"
    return str(action)


def show_report(console: Console, found: Tracker) -> None:
    """The deck, notes, score, the unseen cards, every legal action, how the game stands."""
    now = found.temple
    printed(console, f"Deck ({len(now.deck)}, top first): {deck_line(now)}")
    notes = " ".join(now.notes) or "none"
    console.print(Text(f"Notes: {notes} ({len(now.notes)} of 3)"))
    score = " ".join(now.score) or "none"
    printed(console, f"Score: {len(now.score)}, jewels {now.jewels()} of {JEWELS}: {score}")
    printed(console, unseen_line(now))
    if now.status != PLAYING:
        printed(console, f"The game is over: {now.status}: {now.ending}")
        return
    console.print(Text("Actions:"))
    for action in now.actions():
        printed(console, f"  {action_line(now, action)}", indent=4)


def show_update(console: Console, found: Tracker) -> None:
    """After an action: the card nabbed, the top of the deck, my notes, the score, the end."""
    now = found.temple
    record = found.record
    temples = follow(record.events, record.table, record.start)
    if len(temples) > 1 and len(now.score) > len(temples[-2].score):
        console.print(Text(f"  nabbed {now.score[-1]}"))
    if now.status != PLAYING:
        console.print(Text(f"  the game is over: {now.status}: {now.ending}"))
        return
    top = deck_line(Temple(deck=now.deck[:6]))
    more = " ..." if len(now.deck) > 6 else ""
    notes = " ".join(now.notes) or "none"
    scored = f"score {len(now.score)}, jewels {now.jewels()}/{JEWELS}"
    console.print(Text(f"  top: {top}{more}; notes {notes}; {scored}"))


def json_extras(found: Tracker) -> dict[str, Any]:
    """The contract's keys: deck, notes, score, unseen, status, actions."""
    now = found.temple
    return {
        "deck": ["?" if c is None else c for c in now.deck],
        "notes": list(now.notes),
        "score": list(now.score),
        "unseen": sorted(now.unseen, key=order),
        "status": now.status,
        "actions": [action_json(now, a) for a in now.actions()],
    }


def action_json(now: Temple, action: Action) -> dict[str, Any]:
    """One legal action as the contract writes it."""
    if action.action == "look":
        out: dict[str, Any] = {"action": "look"}
        out["p"] = {k: float(p) for k, p in look_odds(now).items()}
        after = after_look(now)
        if after is not None:
            out |= {"stuck": float(after.stuck), "trapped": float(after.trapped)}
        return out
    if action.action == "explore":
        n = int(action.what or 0)
        _, lands = now.landing(n)
        lands_on = "?" if lands is None else lands
        return {"action": "explore", "n": n, "lands": lands_on, "result": outcome(now, n)}
    return {"action": action.action, "card": action.what}


def weighed_line(w: Weighed, exact: bool, best: Fraction | None = None) -> str:
    """One action weighed: "explore 7: won 0 of 2000 (0% to 0.2%), score 9.07".

    ``best``: its exact best chance, when the exact search finished ("; at best 12.5%").
    """
    share = pct(Fraction(w.won, w.games))
    spread = "" if exact else f" ({w.low:.2%} to {w.high:.2%})"
    optimum = "" if best is None else f"; at best {pct(best)}"
    return f"{w.action}: won {w.won} of {w.games}, {share}{spread}; score {w.score:.2f}{optimum}"


def show_advice(console: Console, plan: Plan) -> None:
    """``next``: each action weighed, best first, the method named, greed's other choice."""
    best = plan.options[0]
    route = ", ".join(str(a) for a in plan.line)
    if plan.line[-1].action != "look" and len(plan.line) >= LINE:
        route += ", ..."  # the route goes on past what is shown
    console.print(Text(f"Next: {route}.", style="bold"))
    if plan.doomed:
        console.print(Text("Doomed: no look and no win is within reach; every line loses."))
    if plan.after is not None:
        after = plan.after
        console.print(
            Text(f"After the look: stuck {pct(after.stuck)}, only traps {pct(after.trapped)}.")
        )
    if plan.solved is not None:
        console.print(Text(f"Best chance of winning: {pct(plan.solved.win)} (exact search)."))
    console.print(Text(f"Each action, by the games that follow it: {plan.method}."))
    chances = plan.chances
    for w in plan.options:
        console.print(Text(f"  {weighed_line(w, plan.exact, chances.get(str(w.action)))}"))
    if not best.won:
        console.print(Text("No game played out was won: the actions are ranked by the score."))
    if plan.greed is not None:
        g = plan.greed
        console.print(
            Text(f"For the most cards: {g.action} (score {g.score:.2f}), not {best.action}.")
        )


def advice_json(plan: Plan) -> dict[str, Any]:
    """The contract: ``game``, ``best``, ``win``, ``exact``, ``options``; ours: the method."""
    best = plan.options[0]
    return {
        "game": "loot-the-loop",
        "best": [str(a) for a in plan.line],
        "win": best.win if plan.solved is None else float(plan.solved.win),
        "exact": plan.exact or plan.solved is not None,
        "doomed": plan.doomed,  # None: not decided (no game won, and no proof that none can be)
        "method": plan.method,
        "games": plan.games,
        "options": [weighed_json(w, plan.chances.get(str(w.action))) for w in plan.options],
    } | ({} if plan.after is None else {"after_look": after_json(plan.after)})


def after_json(after: Any) -> dict[str, float]:
    """The chances after a look: stuck (no legal action), only traps."""
    return {"stuck": float(after.stuck), "trapped": float(after.trapped)}


def weighed_json(w: Weighed, best: Fraction | None = None) -> dict[str, Any]:
    """One action weighed, as JSON; ``best_win``: its exact best chance, when it is known."""
    out: dict[str, Any] = {"action": w.action.action}
    if w.action.action == "explore":
        out["n"] = w.action.what
    elif w.action.what is not None:
        out["card"] = w.action.what
    out |= {"win": w.win, "low": w.low, "high": w.high, "score": w.score}
    return out if best is None else out | {"best_win": float(best)}
