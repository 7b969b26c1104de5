"""What the benchmarks measure: records of simulated games, ``sleuth`` command lines, targets.

``run.py`` times them in the current tree against their targets; ``compare.py`` times the same
in the tree and in a git revision. Every record is written into a temporary folder as ``sleuth``
writes one. A Goldraub state "seed S, E events" is the first E events of
``simulate(players, 60, S)`` (``sleuth.games.goldraub.simulate``, 10 rounds of 6 players), as
``survey.py`` names them; a table state is a game as played at a table (``table_game``: figures
on the route, every player guessing what its own notes make likely, right or wrong).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bench import PYTHON, ROOT, SLEUTH

from sleuth.document import document, dump
from sleuth.games.goldraub import simulate
from sleuth.games.goldraub.simulate import table_game
from sleuth.games.lima import simulate as simulate_lima
from sleuth.games.scotland import simulate as simulate_scotland
from sleuth.record import parse
from sleuth.solve import Entailment

SEED = 1
RULEBOOK = ROOT / "examples" / "goldraub-rulebook.yaml"


@dataclass(frozen=True)
class Case:
    """One record to measure in process; e.g. Goldraub, 5 players, "3 rounds", its YAML file."""

    game: str
    players: int
    point: str
    path: Path
    truth: dict = field(compare=False, repr=False)


@dataclass(frozen=True)
class Command:
    """One whole command to time; e.g. group "next goldraub 5p", label "seed 0 @9", its argv."""

    group: str
    label: str
    argv: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """A share of the times under ``limit`` seconds, and none over ``cap``."""

    limit: float
    share: float = 1.0
    cap: float | None = None

    def text(self) -> str:
        """e.g. "90% < 0.6 s, none > 2 s"."""
        words = f"{self.share:.0%} < {self.limit:g} s"
        return words + (f", none > {self.cap:g} s" if self.cap else "")

    def under(self, times: list[float]) -> float:
        """The share of ``times`` under the limit."""
        return sum(t < self.limit for t in times) / len(times)

    def met(self, times: list[float]) -> bool:
        """Whether ``times`` meet the target."""
        return self.under(times) >= self.share and (self.cap is None or max(times) <= self.cap)


# The issues' targets, by group of measurements (whole processes, but play's entries).
TARGETS = {
    "sleuth --help": Target(0.2),  # issue 19, item 5
    "sleuth report (small)": Target(0.35),
    "play: every entry": Target(0.3, 0.5),  # issue 20: the median under 0.3 s
    "goldraub 5p": Target(0.5),  # issue 19: states met at a table
    "goldraub 6p": Target(0.6, 0.9, 2.0),
    "lima 5p": Target(0.5),
    "goldraub 5p --tolerate 1": Target(3.0),
    "cold report 5p @24": Target(1.0),  # issue 33, item 4
    "replay goldraub 6p": Target(20.0),
    "replay goldraub 5p": Target(8.0),
    "replay lima 5p": Target(5.0),
    # issue 30: every Scotland Yard command within 0.3 s beyond a start-up of about 0.2 s
    **{f"scotland {c}": Target(0.5) for c in ("report", "check", "next", "replay", "log")},
    "next goldraub 6p": Target(2.0),  # issue 33: every state
    "next goldraub 5p": Target(1.0),
    "why (certain)": Target(1.0),
    "why (open)": Target(1.0),
}


def target(group: str) -> Target | None:
    """A group's target; a group "... --budget B" promises an answer within B + 0.5 s."""
    if "--budget " in group:
        return Target(float(group.split("--budget ")[1].split()[0]) + 0.5)
    return TARGETS.get(group)


def write(folder: Path, name: str, doc: dict) -> Path:
    """Write a record as the CLI would, and return its path."""
    path = folder / f"{name}.yaml"
    path.write_text(dump(document(parse(doc, name))), encoding="utf-8")
    return path


def cut(doc: dict, events: int) -> dict:
    """The record after its first ``events`` events."""
    return doc | {"events": doc["events"][:events]}


# In process: the game tables, the slowest surveyed states, check, a report after every event.


def goldraub_cases(folder: Path, players: int, rounds: tuple[int, ...], seed=SEED) -> list[Case]:
    """One simulated 10-round game, cut after each of ``rounds`` rounds (and its guesses)."""
    doc, truth = simulate.simulate(players, 10 * players, seed)
    cases = []
    for r in rounds:
        events, searches = [], 0
        for event in doc["events"]:
            searches += "search" in event
            if searches > r * players:
                break
            events.append(event)
        path = write(folder, f"goldraub-{players}p-{r}r", doc | {"events": events})
        label = f"{r} round" + "s" * (r > 1)
        cases.append(Case("goldraub", players, label, path, truth))
    return cases


def state_case(folder: Path, players: int, seed: int, events: int) -> Case:
    """The first ``events`` events of a simulated 10-round game (as the survey names states)."""
    doc, truth = simulate.simulate(players, 10 * players, seed)
    path = write(folder, f"goldraub-{players}p-seed{seed}-{events}e", cut(doc, events))
    return Case("goldraub", players, f"seed {seed}, {events} events", path, truth)


def lima_cases(folder: Path, players: int, points: tuple[int, ...], seed=SEED) -> list[Case]:
    """One simulated game of up to 30 turns, cut after each of ``points`` events."""
    doc, truth = simulate_lima.simulate(players, 30, seed)
    cases = []
    for k in points:
        events = doc["events"][:k]
        path = write(folder, f"lima-{players}p-{len(events)}e", doc | {"events": events})
        cases.append(Case("lima", players, f"{len(events)} events", path, truth))
    return cases


GAMES = {  # players: cut points (Goldraub: rounds; Lima: events), in the full run and quick
    "goldraub": ({3: (1, 3, 6, 10), 5: (1, 3, 6, 10), 6: (1, 3, 6, 10)}, {3: (3,), 5: (6,)}),
    "lima": ({3: (3, 8, 15, 30), 4: (3, 8, 15, 30), 5: (3, 8, 15, 30)}, {3: (15,), 5: (28,)}),
}

# The slowest 6-player states that survey.py found in seeds 0-19: (players, seed, events).
SLOWEST = [(6, 11, 19), (6, 16, 13), (6, 11, 15), (6, 16, 12), (6, 2, 18), (6, 9, 21)]
SLOWEST += [(6, 29, 17)]  # the slowest of seeds 20-29


def game_cases(folder: Path, game: str, quick: bool) -> list[tuple[Case, bool]]:
    """A game's records, each with whether brute force runs on it (not on 5 or 6 players)."""
    sizes = GAMES[game][quick]
    if game == "goldraub":
        made = [goldraub_cases(folder, n, rounds) for n, rounds in sizes.items()]
        return [(case, case.players == 3) for cases in made for case in cases]
    return [(case, True) for n, ks in sizes.items() for case in lima_cases(folder, n, ks)]


def tail_cases(folder: Path, quick: bool) -> list[Case]:
    """The slowest surveyed states (quick: the first)."""
    return [state_case(folder, *state) for state in SLOWEST[: 1 if quick else None]]


def check_cases(folder: Path, quick: bool) -> list[tuple[Case, list[str]]]:
    """A true guess (Goldraub) and a true accusation (Lima), and ``--best`` (not quick)."""
    case = goldraub_cases(folder, 5, (6,))[0]
    owner = simulate.NAMES[1]
    sector = next(s for s, h in case.truth.items() if h == owner)
    checks = [(case, [owner, sector]), (case, [])]
    case = lima_cases(folder, 4, (8,))[0]
    pair = sorted(t for t, h in case.truth.items() if h == simulate_lima.TREASURE)
    checks += [(case, pair), (case, [])]
    return [(case, what) for case, what in checks if what or not quick]


def events_case(folder: Path, quick: bool) -> Case:
    """A 6-player game of 10 rounds (quick: 1), to report on after every event."""
    return goldraub_cases(folder, 6, (1 if quick else 10,))[0]


# Whole commands: start-up, play, next, replay and why, budgets, --tolerate, table states.


def startup(folder: Path) -> list[Command]:
    """Python's own start, then small commands, on a 3-player record of a few events."""
    doc, _ = simulate.simulate(3, 4, 1)
    small = str(write(folder, "small", doc))
    lines = {
        "python -c pass": [PYTHON, "-c", "pass"],
        "sleuth --help": [SLEUTH, "--help"],
        "sleuth report (small)": [SLEUTH, "report", "-f", small],
        "sleuth report (rulebook)": [SLEUTH, "report", "-f", str(RULEBOOK)],
    }
    return [Command(name, name, tuple(argv)) for name, argv in lines.items()]


def play_game(folder: Path) -> list[tuple[str, str, str]]:
    """``game.yaml`` for ``sleuth play`` (5 players, 20 events), and each timed entry: its
    group, the line typed, the output to wait for. A search is undone after it (not timed)."""
    doc, _ = simulate.simulate(5, 21, 4, me=2, guesses=0)
    s = doc["events"][20]["search"]
    write(folder, "game", cut(doc, 20))
    saw = [str(s["saw"])] if "saw" in s else []
    short = " ".join([s["by"][:2].lower(), s["row"], str(s["gold"]), *saw])
    return [
        ("play: search (short form)", short, "recorded:"),
        ("play: report", "report", "deals fit the record"),
        ("play: check bert 11", "check bert 11", "verdict"),
    ]


ROLL = "SW-beach,N-wild,E-beach"  # each face on its own die, as --barrel needs


def next_commands(folder: Path, games: int, per: int) -> list[Command]:
    """``sleuth next --json`` on ``per`` states evenly through each of ``games`` games: table
    Goldraub games of 4 rounds (5 and 6 players), Lima (5 players, a roll, with the Pistol)."""
    out = []
    for game, players, extra in [
        ("goldraub", 5, ()),
        ("goldraub", 6, ()),
        ("lima", 5, ("--roll", ROLL, "--pistol")),
    ]:
        for seed in range(games):
            if game == "goldraub":
                doc = table_game(players, 4, seed)[0]
            else:
                doc = simulate_lima.simulate(players, 4 * players, seed)[0]
            n = len(doc["events"])
            for k in (round(n * (j + 1) / (per + 1)) for j in range(per)):
                path = str(write(folder, f"next-{game}-{players}p-{seed}-{k}", cut(doc, k)))
                argv = (SLEUTH, "next", "--json", "-f", path, *extra)
                out.append(Command(f"next {game} {players}p", f"seed {seed} @{k}", argv))
    return out


def route_next_commands(folder: Path, games: int, every: int = 6) -> list[Command]:
    """``sleuth next --json`` on table Goldraub games of 5 rounds (6, then 5 players), seeds 0
    to ``games`` - 1, each cut after 6, 6 + ``every``, ... up to 24 events, while a turn is
    left to plan: issue 33's states."""
    out = []
    for players in (6, 5):
        for seed in range(games):
            doc = table_game(players, 5, seed)[0]
            for k in range(FIRST, min(LAST, len(doc["events"]) - 1) + 1, every):
                path = str(write(folder, f"route-{players}p-{seed}-{k}", cut(doc, k)))
                argv = (SLEUTH, "next", "--json", "-f", path)
                out.append(Command(f"next goldraub {players}p", f"seed {seed} @{k}", argv))
    return out


def replay_commands(folder: Path, quick: bool) -> list[Command]:
    """``sleuth replay --json`` of whole games (60 events of simulated 6- and 5-player Goldraub,
    the shipped Lima example), and ``why`` of the fact that became certain last and of the
    likeliest one left open in the first (quick: the 5-player game alone)."""
    games = {
        "replay goldraub 6p": write(folder, "replay-6p", cut(simulate.simulate(6, 60, 1)[0], 60)),
        "replay goldraub 5p": write(folder, "replay-5p", cut(simulate.simulate(5, 60, 1)[0], 60)),
        "replay lima 5p": ROOT / "examples" / "lima-5p.yaml",
    }
    if quick:
        games = {"replay goldraub 5p": games["replay goldraub 5p"]}
    out = [Command(g, p.stem, (SLEUTH, "replay", "--json", "-f", str(p))) for g, p in games.items()]
    path = next(iter(games.values()))
    for kind, pair in zip(("certain", "open"), why_facts(path), strict=True):
        if pair:
            argv = (SLEUTH, "why", *pair, "-f", str(path))
            out.append(Command(f"why ({kind})", f"why {' '.join(pair)}", argv))
    return out


def scotland_commands(folder: Path, quick: bool) -> list[Command]:
    """Every Scotland Yard command on the longest simulated game of each player count (of 60
    seeds; 40 events never come: the main deck holds 41 to 43 cards and every turn draws one at
    least, and simulated games end by event 25 or so). ``next`` at my last turn, with my draw.
    """
    out = []
    for players in (3,) if quick else (3, 4, 5):
        games = [simulate_scotland.simulate(players, s, me=1, mister_x_bold=0.3) for s in range(60)]
        game = max(games, key=lambda g: len(g.doc["events"]))
        events = game.doc["events"]
        path = str(write(folder, f"scotland-{players}p", game.doc))
        label = f"{players}p, {len(events)} events"
        me = game.doc["me"]
        last = max(k for k, e in enumerate(events) if next(iter(e.values()))["by"] == me)
        drawn = next(iter(events[last].values()))["drawn"]
        mine = str(write(folder, f"scotland-{players}p-next", cut(game.doc, last)))
        lines = {
            "report": ("report", "--json", "-f", path),
            "check": ("check", game.doc["players"][0], "--json", "-f", path),
            "next": ("next", "--json", "--drawn", drawn, "-f", mine),
            "replay": ("replay", "--json", "-f", path),
            "log": ("log", "-f", path),
        }
        out += [Command(f"scotland {g}", label, (SLEUTH, *argv)) for g, argv in lines.items()]
    return out


def why_facts(path: Path) -> tuple[tuple | None, tuple | None]:
    """The fact that became certain last in a record, and the likeliest one left open."""
    from sleuth.replay import steps
    from sleuth.solve import Remembered
    from sleuth.store import load

    found = steps(load(path, keep=False)[0], memory=Remembered())
    last = next((sorted(s.forced)[0] for s in reversed(found) if s.forced), None)
    end = found[-1].odds
    left = [(n, pair) for pair, n in end.held.items() if 0 < n < end.worlds]
    return last, max(left)[1] if left else None


def altered(doc: dict) -> dict:
    """The record with the first search whose gold, one off, makes it fit no deal so altered."""
    for search in [e["search"] for e in doc["events"] if "search" in e]:
        gold = search["gold"]
        search["gold"] = gold + 1 if gold == 0 else gold - 1
        if not Entailment(parse(doc, "simulation").model()).consistent():
            return doc
        search["gold"] = gold
    return doc


def budget_commands(folder: Path, budgets: tuple[float, ...], quick: bool) -> list[Command]:
    """``report`` and ``next`` with ``--budget B`` on slow states: the slowest simulated
    6-player Goldraub states known, a 5-player record with ``--tolerate 1``, one with an answer
    altered (repairs), a 5-player Lima record (treasure pairs; ``next --barrel``). Quick: one."""
    six = {seed: simulate.simulate(6, 60, seed)[0] for seed in (29, 38)}
    five = cut(simulate.simulate(5, 60, 7)[0], 24)
    lima = simulate_lima.simulate(5, 12, 1)[0]
    report = [
        ("goldraub 6p seed 29 @16", cut(six[29], 16), ()),
        ("goldraub 6p seed 38 @21", cut(six[38], 21), ()),
        ("goldraub 5p seed 7 @24", five, ("--tolerate", "1")),
        ("goldraub 5p seed 7 @24 altered", altered(cut(simulate.simulate(5, 60, 7)[0], 24)), ()),
        ("lima 5p seed 1 @12", lima, ()),
    ]
    advice = [
        ("goldraub 6p seed 29 @16", cut(six[29], 16), ()),
        ("goldraub 6p seed 38 @21", cut(six[38], 21), ()),
        ("goldraub 6p seed 29 @19", cut(six[29], 19), ()),
        ("lima 5p seed 1 @12", lima, ("--roll", ROLL, "--barrel")),
    ]
    out = []
    for command, states in [("report", report), ("next", advice)][: 1 if quick else None]:
        for label, doc, extra in states[: 1 if quick else None]:
            path = str(write(folder, f"budget-{command}-{label}".replace(" ", "-"), doc))
            name = " ".join([label, *(x for x in extra if x != ROLL)])
            for budget in budgets:
                argv = (SLEUTH, command, "--json", "-f", path, *extra, "--budget", f"{budget:g}")
                out.append(Command(f"{command} --budget {budget:g}", name, argv))
    return out


TOLERATE = [(7, 24), (3, 24), (11, 20)]  # 5-player Goldraub: seed, events


def tolerate_commands(folder: Path, quick: bool) -> list[Command]:
    """``report --tolerate 1 --json`` on 5-player Goldraub records with guesses (quick: one)."""
    out = []
    for seed, events in TOLERATE[: 1 if quick else None]:
        doc = cut(simulate.simulate(5, 60, seed)[0], events)
        path = str(write(folder, f"tolerate-{seed}-{events}", doc))
        argv = (SLEUTH, "report", "--json", "--tolerate", "1", "-f", path)
        out.append(Command("goldraub 5p --tolerate 1", f"seed {seed} @{events}", argv))
    return out


FIRST, LAST = 6, 24  # events: the cuts of a table state


def table_commands(folder: Path, games: int, lima: int, every: int = 6) -> list[Command]:
    """``report --json`` on states met at a table: 5- and 6-player ``table_game(n, 10, seed)``,
    seeds 0 to ``games`` - 1, and Lima ``simulate(5, 40, seed)``, seeds 0 to ``lima`` - 1, each
    cut after 6, 6 + ``every``, ... up to 24 events; then ``--tolerate 1`` on the first two
    5-player games after 24 events."""
    sources = [("goldraub 5p", games, lambda s: table_game(5, 10, s))]
    sources += [("goldraub 6p", games, lambda s: table_game(6, 10, s))]
    sources += [("lima 5p", lima, lambda s: simulate_lima.simulate(5, 40, s))]
    out = []
    for group, count, make in sources:
        for seed in range(count):
            doc, _ = make(seed)
            for k in range(FIRST, min(LAST, len(doc["events"])) + 1, every):
                name = f"{group} seed {seed} @{k}"
                path = str(write(folder, name.replace(" ", "-"), cut(doc, k)))
                argv = (SLEUTH, "report", "--json", "-f", path)
                out.append(Command(group, f"seed {seed} @{k}", argv))
    for seed in range(min(games, 2)):
        path = str(write(folder, f"table-tolerate-{seed}", cut(table_game(5, 10, seed)[0], LAST)))
        argv = (SLEUTH, "report", "--json", "--tolerate", "1", "-f", path)
        out.append(Command("goldraub 5p --tolerate 1", f"seed {seed} @{LAST}", argv))
    return out


HARD = [(23, 14), (6, 16), (13, 18)]  # 5-player table games: seed, events; the slowest tolerant


def cold_commands(folder: Path, games: int) -> list[Command]:
    """A one-off ``report --json`` (nothing remembered) of ``table_game(5, 10, seed)`` after 24
    events, seeds 0 to ``games`` - 1, plain and with ``--tolerate 1``; then ``--tolerate 1``
    with ``--budget 1``, ``3`` and the default on the table states whose tolerant count is the
    slowest of seeds 0 to 39 (``HARD``)."""
    out = []
    for seed in range(games):
        path = str(write(folder, f"cold-{seed}", cut(table_game(5, 10, seed)[0], LAST)))
        argv = (SLEUTH, "report", "--json", "-f", path)
        out.append(Command("cold report 5p @24", f"seed {seed}", argv))
        out.append(Command("goldraub 5p --tolerate 1", f"seed {seed}", (*argv, "--tolerate", "1")))
    hard = {}
    for seed, events in HARD:
        doc = cut(table_game(5, 10, seed)[0], events)
        hard[f"seed {seed} @{events}"] = write(folder, f"hard-{seed}", doc)
    for budget in (1, 3, 15):
        for label, path in hard.items():
            argv = (SLEUTH, "report", "--json", "--tolerate", "1", "-f", str(path))
            group = f"--tolerate 1 --budget {budget}"
            out.append(Command(group, label, (*argv, "--budget", str(budget))))
    return out
