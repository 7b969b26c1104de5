"""Looting London on screen and in JSON: the tiles, the row and deck, each hand, the races."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from sleuth.games.london.advice import Advice, Hold, Turn, reason
from sleuth.games.london.cards import Box, Tile
from sleuth.games.london.course import Course
from sleuth.games.london.hands import Hands
from sleuth.games.london.rules import Destroy, Meld
from sleuth.render.common import pct, printed, show_trouble, status_words

MODEL = (
    "The model: every order of each deck alike (the first: the cards not seen at the setup; "
    "then the discard pile at each reshuffle); a meld shows only that its cards were held."
)


def columns_table(now: Course) -> Table:
    """A row per column: its tiles top to bottom, the bottom one (a meld's) last."""
    table = Table(title="Tiles (top to bottom; a meld takes the bottom one)", title_justify="left")
    table.add_column("column", justify="right")
    table.add_column("tiles")
    for c, tiles in enumerate(now.columns, 1):
        table.add_row(str(c), " | ".join(map(str, tiles)) or "empty")
    return table


def counted(box: Box, counts: tuple[int, ...]) -> str:
    """Cards per figure in words: "2 waif, 1 dame", or "none"."""
    return ", ".join(f"{n} {f}" for f, n in box.named(counts).items()) or "none"


def hands_table(found: Hands) -> Table:
    """A row per player: cards, those I saw, unseen ones, and the expected count of each figure."""
    box, now = found.box, found.course
    table = Table(title="Hands (expected cards of each figure)", title_justify="left")
    for column in ("player", "cards", "seen", "unseen", *box.figures):
        table.add_column(column, justify="left" if column in ("player", "seen") else "right")
    me = found.record.table.me
    for player in found.record.table.players:
        spread = found.spread(player)
        means = [sum((j * p for j, p in enumerate(s)), Fraction(0)) for s in spread]
        name = f"{player} (me)" if player == me else player
        row = [name, str(now.hand(player)), counted(box, now.known[player])]
        table.add_row(*row, str(now.blind[player]), *(f"{float(m):.2f}" for m in means))
    return table


def spread_table(found: Hands, player: str) -> Table:
    """One opponent: the chance of holding j cards of each figure."""
    spread = found.spread(player)
    most = max(len(s) for s in spread)
    title = f"{player}: chance of holding j cards of a figure"
    table = Table(title=title, title_justify="left", min_width=len(title))  # the title unbroken
    table.add_column("figure")
    for j in range(most):
        table.add_column(str(j), justify="right")
    for figure, s in zip(found.box.figures, spread, strict=True):
        table.add_row(figure, *(pct(s[j]) if j < len(s) else "" for j in range(most)))
    return table


def take_table(found: Hands) -> Table:
    """A row per player, a column per bottom tile: the chance they can meld it now."""
    now = found.course
    bottoms = [(c, now.bottom(c)) for c in range(1, len(now.columns) + 1)]
    table = Table(title="Could meld the bottom tile now", title_justify="left")
    table.add_column("player")
    for c, tile in bottoms:
        if tile is not None:
            table.add_column(f"{c}: {tile}", justify="right")
    for player in found.record.table.players:
        cells = [pct(found.can_take(player, t)) for _, t in bottoms if t is not None]
        table.add_row(player, *cells)
    return table


def race_lines(found: Hands) -> list[str]:
    """Each case: the players' tile totals in its colour, and its disk once decided."""
    now, start = found.course, found.record.start
    decided = {d.colour: d for d in now.disks}
    lines = []
    for colour, points in start.bonus.items():
        sums = {p: sum(t.number for t in now.taken[p] if t.colour == colour) for p in now.taken}
        standing = ", ".join(f"{p} {n}" for p, n in sums.items())
        left = sum(t.colour == colour for column in now.columns for t in column)
        disk = decided.get(colour)
        state = (
            f"{left} tile(s) left"
            if disk is None
            else f"solved: {disk.winner} won it"
            if disk.winner
            else "solved: tie, discarded"
        )
        lines.append(f"{colour} ({points}): {standing}; {state}")
    return lines


def show_report(console: Console, found: Hands) -> None:
    """The full report: tiles, row and deck, unseen cards, hands, odds, races, scores."""
    now, box = found.course, found.box
    console.print(columns_table(now))
    row = ", ".join(now.row) or "empty"
    console.print(Text(f"Row: {row}; deck {now.deck}; reshuffles {now.pool}"))
    console.print(Text(f"Discard pile: {sum(now.discard)}: {counted(box, now.discard)}"))
    console.print(Text(f"Unseen (deck and unseen draws): {counted(box, now.unseen(box))}"))
    if show_trouble(console, found):
        console.print(hands_table(found))
        me = found.record.table.me
        for player in found.record.table.players:
            if player != me and now.blind[player]:
                console.print(spread_table(found, player))
        if any(now.columns):
            console.print(take_table(found))
    console.print(Text("Cases:"))
    for line in race_lines(found):
        console.print(Text(f"  {line}"))
    scores = ", ".join(f"{p} {now.points(p, found.record.start)}" for p in now.taken)
    console.print(Text(f"Scores: {scores}"))
    console.print(Text(MODEL, style="dim"))
    console.print(Text(status_words(found.record.rules.status(found.record))))


def show_update(console: Console, found: Hands) -> None:
    """After an event: the row and deck, and the end if it came."""
    now = found.course
    if now.over:
        console.print(Text(f"  the game is over: {now.over}"))
        return
    row = ", ".join(now.row) or "empty"
    console.print(Text(f"  row: {row}; deck {now.deck}, discard {sum(now.discard)}"))


def tile_json(tile: Tile) -> dict[str, Any]:
    """A tile as JSON, as the record writes it."""
    return tile.fields()


def json_extras(found: Hands) -> dict[str, Any]:
    """The contract's keys; ours: discard, reshuffles, taken, disks, over."""
    now, box, start = found.course, found.box, found.record.start
    players = found.record.table.players

    def hand(player: str) -> dict[str, Any]:
        dist = {}
        if found.consistent:
            spread = found.spread(player)
            dist = {f: [float(p) for p in s] for f, s in zip(box.figures, spread, strict=True)}
        known = dict(zip(box.figures, now.known[player], strict=True))
        return {"known": known, "blind": now.blind[player], "dist": dist}

    can_take = {}
    if found.consistent:
        can_take = {
            p: {
                str(c): float(found.can_take(p, tile))
                for c in range(1, len(now.columns) + 1)
                if (tile := now.bottom(c)) is not None
            }
            for p in players
        }
    return {
        "unseen": dict(zip(box.figures, now.unseen(box), strict=True)),
        "deck": now.deck,
        "row": list(now.row),
        "hands": {p: hand(p) for p in players},
        "can_take": can_take,
        "tiles": {str(c): [tile_json(t) for t in tiles] for c, tiles in enumerate(now.columns, 1)},
        "scores": {p: now.points(p, start) for p in players},
        "solved": [d.colour for d in now.disks],
        "disks": [{"colour": d.colour, "points": d.points, "winner": d.winner} for d in now.disks],
        "discard": dict(zip(box.figures, now.discard, strict=True)),
        "reshuffles": now.pool,
        "taken": {p: [tile_json(t) for t in now.taken[p]] for p in players},
        "over": now.over,
    }


SHOWN = 8  # options listed on screen; --json has them all


def turn_words(turn: Turn, paid: bool = True) -> str:
    """A turn in words: "destroy 2 x1 (2 dame), meld 2 (1 waif), draw waif".

    ``paid``: with the cards each step turns in.
    """
    words = []
    if turn.destroy is not None:
        cost = f" ({_paid(turn.destroy)})" if paid else ""
        words.append(f"destroy {turn.destroy.column} x{turn.destroy.tiles}{cost}")
    if turn.meld is not None:
        words.append(f"meld {turn.meld.column}" + (f" ({_paid(turn.meld)})" if paid else ""))
    words.append(f"draw {turn.draw}")
    return ", ".join(words)


def _paid(event: Meld | Destroy) -> str:
    """The cards an event pays, in short: "2 dame, 2 waif"."""
    return ", ".join(f"{n} {f}" for f, n in event.paid.items())


def show_advice(console: Console, advice: Advice) -> None:
    """``next``: my turns best first, each with its value and one line of reason."""
    if not advice.options:
        console.print(Text("No turn is open to me."))
        return
    best = advice.options[0]
    console.print(Text(f"Next: {turn_words(best)}.", style="bold"))
    order = ", ".join(advice.order)
    printed(
        console,
        f"Value: points now + the best tile I can expect to meld next turn ({order} play first).",
    )
    for k, turn in enumerate(advice.options[:SHOWN], 1):
        head = f"{k}. {turn_words(turn)}"
        value = f"{float(turn.value):.2f}"
        console.print(Text(f"{head} {'.' * max(1, 72 - len(head) - len(value))} {value}"))
        printed(console, f"   {reason(turn)}", 3)
    more = len(advice.options) - SHOWN
    if more > 0:
        console.print(Text(f"{more} more turns in --json."))
    printed(console, f"The model: {advice.model}.")


def advice_json(advice: Advice) -> dict[str, Any]:
    """The contract: ``game``, ``options`` (mine and before per column); ours: the rest."""

    def step(event: Meld | Destroy | None) -> dict | None:
        return None if event is None else {k: v for k, v in event.fields().items() if k != "by"}

    def option(turn: Turn) -> dict[str, Any]:
        return {
            "move": turn_words(turn),
            "destroy": step(turn.destroy),
            "meld": step(turn.meld),
            "draw": turn.draw,
            "points": turn.points,
            "best": float(turn.best),
            "value": float(turn.value),
            "mine": {str(c): float(p) for c, p in turn.mine.items()},
            "before": {
                str(c): {o: float(p) for o, p in by.items()} for c, by in turn.before.items()
            },
            "tiles": {str(c): tile_json(t) for c, t in turn.tiles.items()},
            "reason": reason(turn),
        }

    return {
        "game": "looting-london",
        "model": advice.model,
        "order": list(advice.order),
        "options": [option(t) for t in advice.options],
    }


def show_hold(console: Console, hold: Hold) -> None:
    """``check COLUMN``: what taking, destroying and waiting are worth, and the verdict."""
    if hold.tile is None:
        console.print(Text(f"Column {hold.column} has no tile left."))
        return
    above = f"; above it {hold.above}" if hold.above else "; the last tile of its column"
    console.print(Text(f"Column {hold.column}: the bottom tile is {hold.tile}{above}."))
    if hold.now:
        console.print(Text(f"Take it now: +{hold.now.points} ({turn_words(hold.now)})."))
    elif hold.melded:
        console.print(Text("Take it now: I melded this turn already (one meld a turn)."))
    else:
        console.print(Text("Take it now: my hand cannot pay for it."))
    if hold.destroy:
        console.print(
            Text(f"Destroy for one above: +{hold.destroy.points} ({turn_words(hold.destroy)}).")
        )
    printed(console, f"Wait: {wait_words(hold)}.")
    verdict = {
        "take": "take it now",
        "destroy": "destroy and take the tile above now",
        "wait": "wait",
        "none": "nothing to gain in this column",
    }[hold.verdict]
    console.print(Text(f"Verdict: {verdict}.", style="bold"))


def wait_words(hold: Hold) -> str:
    """What waiting leaves in the column at my next turn, with the draw that leaves most."""
    wait, c = hold.wait, hold.column
    if wait is None or not hold.later:
        return "nothing expected from this column at my next turn"
    return (
        f"{float(hold.later):.2f} expected from this column at my next turn after "
        f"{turn_words(wait)}: {hold.tile} still mine {pct(wait.mine[c])}{wait.threat(c)}"
    )


def hold_json(hold: Hold) -> dict[str, Any]:
    """``check COLUMN --json``: the tiles, each way's points, the verdict."""

    def turn(t: Turn) -> dict:
        return {"move": turn_words(t), "points": t.points}

    return {
        "column": hold.column,
        "tile": None if hold.tile is None else tile_json(hold.tile),
        "above": None if hold.above is None else tile_json(hold.above),
        "now": None if hold.now is None else turn(hold.now),
        "destroy": None if hold.destroy is None else turn(hold.destroy),
        "wait": None if hold.wait is None else {**turn(hold.wait), "expected": float(hold.later)},
        "verdict": hold.verdict,
    }


def short(event: Any) -> str:
    """An event in a few words: "Ann takes dame", "Ben deck waif", "Cy meld 3", "Dee clear"."""
    fields = event.fields()
    by = fields["by"]
    if event.kind == "draw":
        if fields.get("from") == "deck":
            return f"{by} deck {fields['card']}" if fields.get("card") else f"{by} deck"
        return f"{by} takes {fields['card']}"
    if event.kind == "meld":
        return f"{by} meld {fields['column']}"
    if event.kind == "destroy":
        return f"{by} destroy {fields['column']}x{fields['tiles']}"
    return f"{by} clear"
