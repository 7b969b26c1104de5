"""Rendering shared by both games: percentages, colours, the update line, contradictions."""

from __future__ import annotations

import copy
import textwrap
from fractions import Fraction
from typing import TYPE_CHECKING, cast

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sleuth.belief import Left
from sleuth.beliefs import counted
from sleuth.chance import Estimated, pct
from sleuth.games.base import yaml_word
from sleuth.model import Holder, Item

if TYPE_CHECKING:
    from sleuth.analysis import Report
    from sleuth.belief import Belief
    from sleuth.beliefs import Update
    from sleuth.games.base import Status
    from sleuth.mistakes import Repair
    from sleuth.odds import Odds


def whole_pct(p: Fraction | None) -> str:
    """A probability in whole percents, for a narrow board: 44%, <1%, >99%, 100%."""
    if p is None or p in (0, 1) or isinstance(p, Estimated):
        return pct(p)
    if p < Fraction(1, 200) or p > Fraction(199, 200):
        return "<1%" if p < Fraction(1, 2) else ">99%"
    return f"{float(p):.0%}"


def bits(value: float | None) -> str:
    """Bits of information to two places, or ? when they were not counted."""
    return "?" if value is None else f"{value:.2f}"


def tags(players: tuple[Holder, ...]) -> dict[Holder, str]:
    """The shortest unique prefix (at most 3 letters) naming each player on the board."""
    out = {}
    for name in players:
        for n in range(1, 4):
            tag = name[:n]
            if sum(p.casefold().startswith(tag.casefold()) for p in players) == 1 or n == 3:
                out[name] = tag
                break
    return out


def shade_rgb(p: float) -> tuple[int, int, int]:
    """A background colour from dark (no chance) to gold (certain), as red, green, blue."""
    r, g, b = (int(40 + (c - 40) * p) for c in (255, 200, 0))
    return r, g, b


def shade(p: float) -> str:
    """A background colour from dark (no chance) to gold (certain)."""
    r, g, b = shade_rgb(p)
    return f"rgb({r},{g},{b})"


INKS = {"#000000": (0, 0, 0), "#ffffff": (255, 255, 255)}  # black, white (not the palette's)


def luminance(rgb: tuple[int, int, int]) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours, from 1 to 21."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink(p: float) -> str:
    """The text colour, black or white, that reads best on the shade of ``p`` (at least 4.58:1)."""
    return max(INKS, key=lambda name: contrast(INKS[name], shade_rgb(p)))


def shaded(p: float) -> str:
    """The style of a cell shaded by ``p``: the better ink on its shade."""
    return f"{ink(p)} on {shade(p)}"


def legend(console: Console, lines: str) -> Text:
    """A board picture's legend, dim; "shade, " leads it only where the console shows colour."""
    colour = console.color_system is not None and not console.no_color
    return Text(f"shade, {lines}" if colour else lines, style="dim")


UNBOUNDED = 10_000  # columns: wide enough to measure any rendering at its natural width


class Phrases:
    """Phrases joined by a separator, lines broken only between phrases, never inside one.

    e.g. Phrases(["34 (73.7%)", "54 (17.4%)"]) prints "34 (73.7%), 54 (17.4%)" on one line, or
    on two where it does not fit; a phrase wider than the line alone is folded. While a
    ``Fitting`` weighs its choices (``gauging``), a list of phrases counts as its widest phrase:
    it may wrap, and only the rest of a rendering decides whether it fits.
    """

    gauging = False

    def __init__(self, phrases: list[str], sep: str = ", ") -> None:
        """The phrases in order, and what comes between two of them on a line."""
        self.pieces = [phrase + sep.rstrip() for phrase in phrases[:-1]] + phrases[-1:]
        self.gap = sep[len(sep.rstrip()) :]

    def lines(self, width: int) -> list[str]:
        """The phrases packed into lines of at most ``width`` columns, where each fits."""
        lines: list[str] = []
        for piece in self.pieces:
            if lines and cell_len(lines[-1] + self.gap + piece) <= width:
                lines[-1] += self.gap + piece
            else:
                lines.append(piece)
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The lines for the width given."""
        yield Text("\n".join(self.lines(options.max_width)), overflow="fold")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """At least the widest phrase, at most all of them on one line."""
        widest = max(map(cell_len, self.pieces), default=0)
        whole = cell_len(self.gap.join(self.pieces))
        return Measurement(widest, widest if Phrases.gauging else whole)


class Fitting:
    """The first of several renderings that fits the width it is given, else the last one.

    e.g. Fitting(board, narrow_board, sector_list): a board where it fits, a compact form below.
    """

    def __init__(self, *choices: RenderableType) -> None:
        """The renderings, widest first."""
        self.choices = choices

    def chosen(self, console: Console, options: ConsoleOptions) -> RenderableType:
        """The first rendering whose natural width (phrases wrapped) fits, else the last."""
        unbounded = options.update(max_width=UNBOUNDED)
        gauging, Phrases.gauging = Phrases.gauging, True
        try:
            for choice in self.choices[:-1]:
                if Measurement.get(console, unbounded, choice).maximum <= options.max_width:
                    return choice
            return self.choices[-1]
        finally:
            Phrases.gauging = gauging

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Render the chosen rendering."""
        yield self.chosen(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """The width of the chosen rendering."""
        return Measurement.get(console, options, self.chosen(console, options))


def fitted(table: Table) -> Fitting:
    """A table as it is where it fits, else with light rules (two columns fewer per column)."""
    light = copy.copy(table)
    light.box, light.show_edge, light.padding = box.SIMPLE_HEAD, False, (0, 1, 0, 0)
    return Fitting(table, light)


def certain_holder(report: Report, item: Item, holders: tuple[Holder, ...]) -> Holder | None:
    """The holder among ``holders`` certain to hold ``item`` (exact counts only)."""
    if not report.odds.exact:
        return None
    for holder in holders:
        if report.odds.held.get((holder, item)) == report.odds.base:
            return holder
    return None


def facts(report: Report, noun: str) -> Fitting:
    """The certain facts, each with the event's text where it fits, else its number alone."""
    return Fitting(facts_table(report, noun), facts_table(report, noun, short=True))


def facts_table(report: Report, noun: str, short: bool = False) -> Table:
    """Certain holdings: item, holder, the event since which they are certain, robustness.

    ``short``: the events by their numbers alone (``sleuth log`` lists them).
    """
    table = Table(title="Certain", title_justify="left")
    columns = [noun, "holder", "since event"]
    if report.tolerance:
        columns.append("robust (stays certain if any one answer is wrong)")
    for column in columns:
        table.add_column(column)
    players = report.record.table.players
    for fact in report.forced:
        if fact.holder in players:
            robust = ["yes" if fact.robust else "no"] if report.tolerance else []
            table.add_row(fact.item, fact.holder, _since(report, fact.since, short), *robust)
    for holder in dict.fromkeys(f.holder for f in report.forced if f.holder not in players):
        facts = [f for f in report.forced if f.holder == holder]
        since = list(dict.fromkeys(_since(report, f.since, short=True) for f in facts))
        robust = ["yes" if all(f.robust for f in facts) else "some"] if report.tolerance else []
        items = Phrases([f.item for f in facts], " ")
        table.add_row(items, holder, Phrases(since), *robust)
    if not report.forced:
        table.add_row("-", "-", "nothing certain beyond the setup", *[""] * (len(columns) - 3))
    return table


def _since(report: Report, since: int | None, short: bool = False) -> str:
    """The event since which a fact holds: its number and a short text ("14: search by Bert")."""
    if since is None:
        return "-"
    if since == 0 or short:
        return str(since)
    event = report.record.events[since - 1]
    fields = event.fields()
    who = ", ".join(f"{name} {fields[name]}" for name in event.names if name in fields)
    return f"{since}: {event.kind} {who}"


def status_words(status: Status) -> str:
    """Where the game stands: "round 3, value 8, Doris to play; out: Ben" or that it is over."""
    words = f"{status.counting} {status.round}"
    if status.value is not None:
        words += f", value {status.value}"
    if status.over:
        words += f", game over: {status.over}"
    elif status.turn:
        words += f", {status.turn} to play"
    if status.out:
        words += f"; out: {', '.join(status.out)}"
    if status.notes:
        words += f"; {', '.join(status.notes)}"
    return words


def status_json(status: Status) -> dict:
    """The game's status as the report's optional ``status`` key."""
    keys = ("round", "turn", "value", "out", "over")
    out = {key: getattr(status, key) for key in keys}
    out["out"] = list(status.out)
    if status.notes:
        out["notes"] = list(status.notes)
    return out


def tolerance_line(report: Report) -> str:
    """What a report that tolerates one wrong answer counts."""
    tolerance = report.tolerance
    if tolerance is None:
        return ""
    line = (
        f"Tolerating one wrong answer: odds over the deals that contradict at most one of the "
        f"{tolerance.answers} recorded answers ({tolerance.strict.worlds:,} fit them all)"
    )
    if tolerance.skipped:
        events = ", ".join(map(str, tolerance.skipped))
        line += f"; NOT COUNTED in the budget: the deals wrong only at event {events} (too few)"
    return line


def worlds_line(report: Report) -> str:
    """How many deals fit, exact or estimated."""
    odds = report.odds
    one = odds.worlds == 1 and odds.exact
    fit = "contradict at most one answer" if report.tolerance else "fit the record"
    if one:
        fit = "contradicts at most one answer" if report.tolerance else "fits the record"
    if odds.exact:
        return f"{odds.worlds:,} {'deal' if one else 'deals'} {fit} (exact count)"
    if odds.interval is None:
        return f"ESTIMATE: about {odds.worlds:.3g} deals {fit} (some counts were sampled)"
    low, high = odds.interval
    if not odds.base:
        return (
            f"NO ESTIMATE: the exact count ran out of its budget and none of {odds.samples:,} "
            f"sampled deals fitted the record; z3 shows that at least one does (at most "
            f"{high:.3g}). Probabilities are unknown (?); try a larger --budget."
        )
    line = (
        f"ESTIMATE by sampling: about {odds.worlds:.3g} deals {fit} "
        f"(95% interval {low:.3g} to {high:.3g}, {odds.samples:,} samples; a larger --budget "
        "may count exactly)"
    )
    if odds.thin:
        line += f". Only {odds.base:,} sampled deals fitted, too few to estimate a probability (?)."
    return line


def not_counted(noun: str, names: list[str], nothing: bool) -> str:
    """The advice left out by the budget, in a line; ``nothing``: the record was not counted."""
    if nothing:
        return (
            "NOT COUNTED: the deals that fit the record were not counted exactly within the "
            "budget, so no advice is given; try a larger --budget."
        )
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return f"NOT COUNTED within the budget: {noun} {shown}; a larger --budget may count them."


def repair_text(report: Report, repair: Repair) -> str:
    """One repair in words: "event 7: with gold 1 instead of 2: 120 deals"."""
    deals = f"{repair.worlds:,} deals"
    if not repair.exact:
        deals = f"about {repair.worlds:.3g} deals (ESTIMATE)"
    return f"event {repair.event}: {_change(report, repair)}: {deals}"


def _change(report: Report, repair: Repair) -> str:
    """What a repair changes: "if Ben answered 2, not 1", "with gold 1, saw 1 (not 0, 0)"."""
    event = report.record.events[repair.event - 1]
    ((name, new, old), *more) = repair.changes
    answerer = event.answerer(name)
    if more:
        changes = repair.changes
        now = ", ".join(f"no {f}" if v is None else f"{f} {_word(v)}" for f, v, _ in changes)
        was = ", ".join(_word(v) for _, _, v in repair.changes)
        return f"with {now} (not {was})"
    if answerer is not None:
        return f"if {answerer} answered {yaml_word(new)}, not {yaml_word(old)}"
    if isinstance(new, bool):
        return f"if the {event.kind} was {_verdict(new)}, not {_verdict(old)}"
    return f"with {name} {_word(new)} instead of {_word(old)}"


def _word(value: object) -> str:
    """A field's value in words, "none" when it is left out."""
    return "none" if value is None else yaml_word(value)


def repair_command(repair: Repair) -> str:
    """The command that makes a repair: "sleuth edit 7 gold=1 saw=1" (``at=`` drops ``at``)."""
    fields = " ".join(f"{f}={'' if v is None else yaml_word(v)}" for f, v, _ in repair.changes)
    return f"sleuth edit {repair.event} {fields}"


def _verdict(correct: bool) -> str:
    """The word for a verdict: right or wrong."""
    return "right" if correct else "wrong"


SETUP = "the setup (my hand, and what I knew before the first event)"


def conflict_panel(report: Report) -> Panel:
    """The smallest set of events that cannot all hold."""
    lines = ["No deal fits the record. These cannot all hold together:"]
    lines += [f"  {i}: {report.labels[i] if i else SETUP}" for i in report.conflict]
    return Panel(Text("\n".join(lines)), title="Contradiction", border_style="red")


def show_repairs(console: Console, report: Report, limit: int = 6) -> None:
    """The changes of one event that fix the record, each with its command on a line of its own."""
    if report.repairs:
        console.print(Text("Most likely mistakes, the likeliest first (each fixes the record):"))
        for repair in report.repairs[:limit]:
            console.print(Padding(Text(repair_text(report, repair)), (0, 0, 0, 2), expand=False))
            console.print(f"      {repair_command(repair)}", soft_wrap=True, markup=False)
        if len(report.repairs) > limit:
            console.print(Text(f"  ... and {len(report.repairs) - limit} more (see --json)"))
    elif not report.repairs_cut:
        console.print(Text("No change of one event makes it consistent: check these events."))
    if report.repairs_cut:
        console.print(Text("The search for repairs ran out of its time: some may be missing."))


def show_conflict(console: Console, report: Report) -> None:
    """The contradiction and its repairs."""
    console.print(conflict_panel(report))
    show_repairs(console, report)


def show_trouble(console: Console, report: Belief) -> bool:
    """The contradiction and the tolerance, if any; whether there are states left to show."""
    if not report.fits:
        show_unfit(console, report)
    if counted(report) and cast("Report", report).tolerance:  # only a deal count tolerates
        console.print(Text(tolerance_line(cast("Report", report))))
    return report.consistent


def show_unfit(console: Console, report: Belief) -> None:
    """No state fits the record: the events of a minimal set that cannot all hold together."""
    if counted(report):
        show_conflict(console, cast("Report", report))
        return
    events = report.record.events
    lines = ["Nothing fits the record. These cannot all hold together:"]
    lines += [f"  {i}: {events[i - 1].text()}" for i in report.conflict]
    console.print(Panel(Text("\n".join(lines)), title="Contradiction", border_style="red"))


def show_edit(
    console: Console,
    report: Belief,
    index: int,
    texts: tuple[str, str],
    changed: tuple[list[tuple[Holder, Item]], list[tuple[Holder, Item]]] | None = None,
) -> None:
    """The event before and after an edit, whether the record fits now, and what it changed.

    ``changed``: the holdings the edit made certain, and those it made no longer certain; None
    when the record before the edit fitted no deal.
    """
    console.print(Text(f"event {index} was: {texts[0]}"))
    console.print(Text(f"event {index} now: {texts[1]}"))
    if not show_trouble(console, report):
        return
    became, stopped = changed or ([], [])
    for holder, item in became:
        console.print(Text(f"  now certain: {holder} holds {item}"))
    for holder, item in stopped:
        console.print(Text(f"  no longer certain: {holder} holds {item}"))
    if changed is not None and not became and not stopped:
        console.print("  what is certain is as before")
    console.print(Text(f"  {amount(report.left)} fit the record"))


def show_update(console: Console, update: Update, what: str, where: str = "") -> None:
    """The compact lines after recording an event (``where``: " as event 2 of 5", or nothing)."""
    report = update.report
    console.print(Text(f"recorded{where}: {what}"))
    if not report.consistent:
        show_unfit(console, report)
        return
    holders, items = report.holdings()
    if not holders or not items:  # a belief that names no holding: the game's own lines tell
        return
    for fact in update.new:
        console.print(Text(f"  now certain: {fact.holder} holds {fact.item}"))
    for fact in report.ended:
        if fact.until == len(report.record.events):
            console.print(Text(f"  no longer certain: {fact.holder} holds {fact.item}"))
    if not update.new:
        console.print("  nothing new is certain")
    console.print(Text(f"  {amount(report.left)} still possible"))


def deals(odds: Odds) -> str:
    """How many deals: "1 deal", "1,024 deals", "about 5.35e+08 deals (ESTIMATE)", or unknown."""
    return amount(Left(odds.worlds, odds.exact, "deal") if odds.known else None)


def amount(left: Left | None) -> str:
    """How many states are left: "1 deal", "3 holders", "about 5.35e+08 deals (ESTIMATE)"."""
    if left is None:
        return "deals not counted within the budget: how many is unknown, at least one"
    if left.exact:
        return f"{left.number:,} {left.noun if left.number == 1 else left.noun + 's'}"
    return f"about {left.number:.3g} {left.noun}s (ESTIMATE)"


def _share(p: Fraction | None) -> float | None:
    """A probability for JSON: null when unknown (no sampled deal fitted the record)."""
    return None if p is None else float(p)


def report_json(report: Report) -> dict:
    """The contract's keys common to both games, plus optional counts, since, interval, status."""
    odds = report.odds
    space = report.record.model().space
    out: dict = {"game": report.record.game, "consistent": report.fits}
    out["worlds"] = odds.worlds if odds.known else None  # z3 found a deal; none was counted
    out["exact"] = odds.exact
    out["probability"] = {}
    if report.consistent:
        out["probability"] = {
            h: {i: _share(odds.probability(h, i)) for i in space.items} for h in space.holders
        }
        if not odds.base:
            out["estimate_failed"] = True
    certain = [f for f in report.forced if f.robust or not report.tolerance]
    out["forced"] = [[f.holder, f.item] for f in certain]
    out["since"] = [[f.holder, f.item, f.since] for f in certain]
    if not report.fits:
        out["conflict"] = report.conflict
        out["repairs"] = [repair_json(r) for r in report.repairs]
        if report.repairs_cut:
            out["repairs_complete"] = False
    if report.tolerance:
        out["tolerate"] = report.tolerance.wrong
        out["answers"] = report.tolerance.answers
        out["strict_worlds"] = report.tolerance.strict.worlds
        out["strict_forced"] = [[f.holder, f.item] for f in report.forced if f.since is not None]
        if report.tolerance.skipped:
            out["tolerate_skipped"] = list(report.tolerance.skipped)
    if report.consistent and odds.exact:
        out["counts"] = {h: {i: odds.held[h, i] for i in space.items} for h in space.holders}
    if not odds.exact:
        out["interval"] = list(odds.interval or (0, 0))
        out["samples"] = odds.samples
        out["kept"] = odds.base  # the sampled deals that fit: below THIN, no probability given
    out["status"] = status_json(report.record.rules.status(report.record))
    return out


def contradiction_json(report: Report) -> dict:
    """A record no deal fits, for a JSON that needs deals (``next --json``): the report's keys.

    ``game``, ``consistent``, ``conflict`` and ``repairs``, as ``report --json`` gives them.
    """
    whole = report_json(report)
    keys = ("game", "consistent", "conflict", "repairs", "repairs_complete")
    return {key: whole[key] for key in keys if key in whole}


def repair_json(repair: Repair) -> dict:
    """A repair as the contract's object, plus whether its count is exact and each change.

    Several fields changed: ``field`` joins their names ("gold,saw"), ``value`` lists the new
    values in that order, and ``changes`` maps each field to its new value (null: left out).
    """
    keys = ("event", "field", "value", "worlds", "exact")
    out = {key: getattr(repair, key) for key in keys}
    out["changes"] = {name: new for name, new, _ in repair.changes}
    return out


def signed(value: float) -> str:
    """Points with their sign, one decimal: "+16.7", "-2.5"; a loss under 0.05 is "+0.0"."""
    return f"{round(value, 1) + 0.0:+.1f}"  # -0.0 + 0.0 is 0.0: no "-0.0"


def printed(console: Console, line: str, indent: int = 2) -> None:
    """One line, wrapped at words within the console, its later lines indented by ``indent``."""
    for part in textwrap.wrap(line, console.width, subsequent_indent=" " * indent) or [""]:
        console.print(Text(part))
