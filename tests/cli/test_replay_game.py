"""The replay of a recorded game (``sleuth replay``, ``sleuth why``) against brute force.

Every step equals the brute-force count of its prefix (worlds, the facts new at it, the best
move's chance), every recorded guess or accusation is judged with the brute-force chance of
the events before it, ``missed`` is computed again from the steps, and each proof of ``why``
is sufficient and minimal, by z3 and by counting.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from oracles.brute import brute_count
from oracles.lima import brute
from typer.testing import CliRunner

from sleuth.cli import app
from sleuth.games.goldraub.rules import Guess, round_value
from sleuth.games.goldraub.simulate import simulate as simulate_goldraub
from sleuth.games.goldraub.simulate import table_game
from sleuth.games.lima.rules import Accuse
from sleuth.games.lima.simulate import simulate as simulate_lima
from sleuth.model import holds
from sleuth.prefixes import stated
from sleuth.record import parse
from sleuth.replay import replay
from sleuth.solve import Entailment, count
from sleuth.why import proof

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@cache
def goldraub_game(seed: int, turns: int):
    """A simulated 3-player Goldraub record with guesses, and its replay."""
    doc, _ = simulate_goldraub(3, turns, seed, me=seed % 3, guesses=0.5)
    record = parse(doc, "simulated")
    return record, replay(record)


@cache
def lima_game(players: int, seed: int, turns: int):
    """A simulated Lima record with accusations, and its replay."""
    doc, _ = simulate_lima(players, turns, seed, me=seed % players, pistol=0.4, accuse=0.3)
    return doc, parse(doc, "simulated"), replay(parse(doc, "simulated"))


def certain(total: int, held: dict) -> set:
    """The holdings of a brute-force count that hold in every world."""
    return {pair for pair, n in held.items() if total and n == total}


def check_forced(steps, truths, known: set) -> None:
    """Each step's forced facts are those certain now and not before, per brute force."""
    before = known
    for step, (total, held) in zip(steps, truths, strict=True):
        now = certain(total, held)
        assert step.consistent == (total > 0)
        assert step.exact and step.worlds == total
        assert set(step.forced) == (now - before if total else set())
        before = before | now


@pytest.mark.parametrize("seed", [1, 3])
def test_goldraub_steps_and_guesses_equal_brute_force(seed):
    record, result = goldraub_game(seed, 5)
    model = record.model()
    truths = [brute_count(model.prefix(k)) for k in range(len(model.groups))]
    check_forced(result.steps, truths, stated(model))
    me, shown = record.table.me, set()
    for k, ((total, held), best) in enumerate(zip(truths, result.judged.best, strict=True)):
        options = [
            Fraction(n, total) for (h, s), n in held.items()
            if h in record.table.players and h != me and (h, s) not in shown
        ]  # fmt: skip
        assert best.probability == max(options)
        assert Fraction(held[best.data["owner"], best.data["sector"]], total) == best.probability
        event = record.events[k] if k < len(record.events) else None
        if isinstance(event, Guess) and event.correct:
            shown.add((event.owner, event.sector))
    guesses = [(i, e) for i, e in enumerate(record.events, 1) if isinstance(e, Guess)]
    assert guesses, "the game has guesses to judge"
    for (i, guess), judged in zip(guesses, result.judged.extras["guesses"], strict=True):
        total, held = truths[i - 1]
        assert judged["event"] == i
        assert judged["probability"] == float(Fraction(held[guess.owner, guess.sector], total))


def free_to_guess(record, k: int) -> bool:
    """Whether I may guess after the first k events, written out again from the rulebook.

    The game not over (round value above 0, cards of two players or more face down), and in the
    round now fewer than two guesses of mine, none of them wrong.
    """
    events, table = record.events[:k], record.table
    n, me = len(table.players), table.me
    searches = sum(not isinstance(e, Guess) for e in events)
    shown = [e.owner for e in events if isinstance(e, Guess) and e.correct]
    down = [p for p in table.players if shown.count(p) < 3]
    if record.start.rounds - searches // n <= 0 or len(down) <= 1:
        return False
    start, seen, mine = searches - searches % n, 0, []
    for e in events:
        if not isinstance(e, Guess):
            seen += 1
        elif seen >= start and e.by == me:
            mine.append(e.correct)
    return len(mine) < 2 and all(mine)


def missed_again(record, steps) -> list[dict]:
    """The contract's ``missed``, written out again from the steps and the events."""
    events, table = record.events, record.table
    n, rounds, out = len(table.players), record.start.rounds, []
    for step in steps:
        for owner, sector in step.forced:
            if owner == table.me or owner not in table.players:
                continue
            k = step.event
            while k <= len(events):
                faceup = {
                    (e.owner, e.sector) for e in events[:k] if isinstance(e, Guess) and e.correct
                }
                if (owner, sector) in faceup or free_to_guess(record, k):
                    break
                k += 1
            if k > len(events) or (owner, sector) in faceup:
                continue
            mine = [
                j for j, e in enumerate(events, 1)
                if isinstance(e, Guess) and e.correct and e.by == table.me
                and (e.owner, e.sector) == (owner, sector)
            ]  # fmt: skip
            value = round_value(events, n, rounds, k)
            then = round_value(events, n, rounds, mine[0] - 1) if mine else 0
            lost = 10 * (value - then)
            if lost > 0:
                out.append({"event": k, "owner": owner, "sector": sector, "value": value,
                            "guessed_at": mine[0] if mine else None, "lost": lost})  # fmt: skip
    return sorted(out, key=lambda m: (m["event"], m["owner"], int(m["sector"])))


@pytest.mark.parametrize(("seed", "turns"), [(4, 12), (6, 12), (1, 5)])
def test_missed_equals_a_direct_computation_from_the_steps(seed, turns):
    record, result = goldraub_game(seed, turns)
    assert result.judged.extras["missed"] == missed_again(record, result.steps)


def test_a_missed_chance_is_found_and_priced_at_its_round_value():
    record, result = goldraub_game(4, 12)
    chances = result.judged.extras["missed"]
    assert chances
    for chance in chances:
        k, value = chance["event"], chance["value"]
        assert value == round_value(record.events, 3, record.start.rounds, k)
        if chance["guessed_at"] is None:
            assert chance["lost"] == 10 * value
        mark = f"missed {chance['owner']} {chance['sector']}: {chance['lost']} pts let go"
        assert mark in result.judged.marks[k]
        assert f"(value {value} here; " in result.judged.marks[k]


@cache
def played_game():
    """The 5-player game of issue 28 (``table_game(5, 10, seed=126, me=2)``) and its replay."""
    doc, _ = table_game(5, 10, seed=126, me=2)
    record = parse(doc, "played")
    return record, replay(record)


def test_no_missed_chance_the_rules_forbade():
    """Doris 34 and 66 and Elli 36 became certain with my own wrong guess (event 25), Elli 36
    was revealed by Doris before the round marker moved, and I guessed the other two as soon
    as it did; Anton 12 became certain when I had guessed twice that round, and Elli revealed
    it within the round: none of these is a missed chance."""
    record, result = played_game()
    forced = {h for step in result.steps[25:36] for h in step.forced}
    assert {("Doris", "34"), ("Doris", "66"), ("Elli", "36"), ("Anton", "12")} <= forced
    assert result.judged.extras["missed"] == []
    assert result.judged.summary[0].endswith("; no chance missed.")


def test_the_missed_text_says_the_json_numbers():
    record, result = goldraub_game(4, 12)
    for chance in result.judged.extras["missed"]:
        when = chance["guessed_at"]
        said = "never guessed" if when is None else f"guessed at event {when}"
        words = (
            f"missed {chance['owner']} {chance['sector']}: {chance['lost']} pts let go "
            f"(value {chance['value']} here; {said})"
        )
        assert words in result.judged.marks[chance["event"]]


def test_another_players_guess_of_my_card_is_my_card_not_a_gamble():
    record, result = played_game()
    lines = [m.line for m in result.judged.moves]
    assert "Bert guessed Christl 35: right, my card" in lines
    assert "Doris guessed Christl 54: right, my card" in lines
    assert not [line for line in lines if "Christl" in line.split(":")[0] and "safe" in line]


LIMA = [(3, 1, 14), (3, 2, 14), (4, 4, 10), (4, 5, 10)]


@pytest.mark.parametrize(("players", "seed", "turns"), LIMA)
def test_lima_steps_pairs_and_accusations_equal_brute_force(players, seed, turns):
    doc, record, result = lima_game(players, seed, turns)
    model = record.model()
    truths = [brute(dict(doc, events=doc["events"][:k])) for k in range(len(model.groups))]
    check_forced(result.steps, [(t.total, t.held) for t in truths], stated(model))
    for truth, best in zip(truths, result.judged.best, strict=True):
        top = max(truth.pairs.values())
        assert best.probability == Fraction(top, truth.total)
        assert truth.pairs[frozenset(best.data["pair"])] == top
    accusations = [(i, e) for i, e in enumerate(record.events, 1) if isinstance(e, Accuse)]
    for (i, accuse), judged in zip(accusations, result.judged.extras["accusations"], strict=True):
        truth = truths[i - 1]
        chance = Fraction(truth.pairs.get(frozenset(accuse.locations), 0), truth.total)
        assert judged["event"] == i and judged["probability"] == float(chance)
    sure = [k for k, t in enumerate(truths) if max(t.pairs.values()) == t.total]
    assert result.judged.extras["certain_since"] == (sure[0] if sure else None)


def test_lima_games_have_accusations_to_judge():
    judged = [lima_game(*game)[2].judged.extras["accusations"] for game in LIMA]
    assert any(judged)


def entailed(model, keep: set[int], holder: str, item: str, yes: bool) -> bool:
    """Whether the groups ``keep`` force the holding (or its absence), by counting."""
    part = model.restrict(keep)
    fact = holds(holder, item, not yes)
    return count(part).total > 0 and count(part.with_group(0, part.groups[0] + (fact,))).total == 0


def check_proof(record, holder, item) -> None:
    """The proof's groups force the fact and no smaller set does: by z3 and by counting."""
    model = record.model()
    found = proof(record, holder, item)
    assert found is not None
    for each in found:
        if each is not None:
            check_minimal(model, each, holder, item)


def check_minimal(model, found, holder, item) -> None:
    """One proof forces the fact and no subset with one group fewer does."""
    groups = set(found.groups)
    entail = Entailment(model)
    side = entail.forced(groups) if found.holds else entail.impossible(groups)
    assert (holder, item) in side
    assert entailed(model, groups, holder, item, found.holds)
    for g in groups:
        fewer = groups - {g}
        side = entail.forced(fewer) if found.holds else entail.impossible(fewer)
        assert (holder, item) not in side
        assert not entailed(model, fewer, holder, item, found.holds)


def test_why_names_a_sufficient_and_minimal_set_of_events():
    record, result = goldraub_game(4, 12)
    facts = sorted({pair for step in result.steps[1:] for pair in step.forced})
    assert facts
    for holder, item in facts[:6]:
        check_proof(record, holder, item)
    lima = lima_game(4, 4, 10)[1]
    facts = sorted({pair for step in lima_game(4, 4, 10)[2].steps[1:] for pair in step.forced})
    for holder, item in facts[:4]:
        check_proof(lima, holder, item)


def test_why_of_an_impossible_holding_proves_its_absence():
    record, result = goldraub_game(4, 12)
    model = record.model()
    step = result.steps[-1]
    holder, item = next(
        (h, i) for (h, i), n in step.odds.held.items() if n == 0 and h in record.table.players
        and count(model.prefix(0).with_group(0, model.groups[0] + (holds(h, i),))).total
    )  # fmt: skip
    found = proof(record, holder, item)
    assert found is not None and not found[0].holds
    check_proof(record, holder, item)


def run(*args: str, path: Path):
    """Invoke the app on the record at ``path``."""
    return CliRunner().invoke(app, [*args, "--file", str(path)])


def test_replay_json_keeps_the_contract(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text((EXAMPLES / "goldraub-6p.yaml").read_text())
    result = run("replay", "--json", path=path)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"game", "steps", "guesses", "missed"}
    assert [s["event"] for s in data["steps"]] == list(range(31))
    step = data["steps"][21]
    assert set(step) == {"event", "consistent", "worlds", "exact", "forced", "best"}
    assert ["Doris", "34"] in step["forced"] and step["best"]["probability"] == 1
    assert data["missed"] == [{"event": 21, "owner": "Doris", "sector": "34", "value": 8,
                               "guessed_at": 23, "lost": 10}]  # fmt: skip
    report = json.loads(run("report", "--json", path=path).stdout)
    union = sorted(f for s in data["steps"] for f in s["forced"])
    assert union == sorted(report["forced"])


def test_replay_table_fits_80_columns(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text((EXAMPLES / "goldraub-6p.yaml").read_text())
    result = CliRunner().invoke(app, ["replay", "--file", str(path)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "Franz guessed Bert 52 at 6.9%: right, lucky" in result.stdout
    assert "my guess of Doris 34 at 100%: right, safe" in result.stdout
    assert "missed Doris 34: 10 pts let go (value 8 here; guessed at event 23)" in result.stdout
    assert "My points: 70; 10 let go in 1 missed chance." in result.stdout


def test_replay_reads_at_60_columns_with_compact_deals(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text((EXAMPLES / "goldraub-6p.yaml").read_text())
    environ = dict(os.environ, COLUMNS="60", SLEUTH_CACHE="off")
    command = [sys.executable, "-m", "sleuth", "replay", "--file", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, env=environ, timeout=300)
    assert done.returncode == 0, done.stderr
    assert max(len(line) for line in done.stdout.splitlines()) <= 60
    assert " 3.12e17 " in done.stdout and " 540,028,809 " in done.stdout
    assert "10 let go in 1 missed chance." in done.stdout
    data = json.loads(run("replay", "--json", path=path).stdout)
    assert data["steps"][0]["worlds"] == 312114345903360000  # exact in the JSON


def test_an_inconsistent_record_replays_and_exits_3(tmp_path):
    path = tmp_path / "game.yaml"
    text = (EXAMPLES / "goldraub-6p.yaml").read_text()
    path.write_text(text + "  - search: {by: Anton, row: 31-36, gold: 0}\n")  # Doris holds 34
    result = run("replay", "--json", path=path)
    assert result.exit_code == 3
    steps = json.loads(result.stdout)["steps"]
    assert steps[-1] == {"event": 31, "consistent": False, "worlds": 0, "exact": True,
                         "forced": [], "best": None}  # fmt: skip
    assert steps[-2]["consistent"]


def test_why_names_events_for_a_certain_fact_and_moves_for_an_open_one(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text((EXAMPLES / "goldraub-6p.yaml").read_text())
    sure = run("why", "doris", "34", path=path)
    assert sure.exit_code == 0, sure.output
    assert sure.stdout.startswith("Certain: Doris holds 34. Proved by:")
    assert "It was already certain after event 21, by:" in sure.stdout  # before it was shown
    open_ = run("why", "bert", "24", path=path)
    assert open_.exit_code == 0 and open_.stdout.startswith("Not certain: Bert 24 at")
    assert "->" in open_.stdout
    bad = run("why", "bert", "99", path=path)
    assert bad.exit_code == 2 and "field 'item'" in bad.stderr


def test_why_of_an_open_fact_counts_the_small_moves_and_takes_upto_and_all(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text((EXAMPLES / "goldraub-6p.yaml").read_text())
    shown = run("why", "bert", "24", "--upto", "10", path=path)
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0] == "Not certain: Bert 24 at 64.6% after event 10."  # not event 30
    listed = [line for line in lines if "->" in line]
    assert [int(line.split()[0]) for line in listed] == [1, 3, 10]
    assert lines[-1] == "7 events moved it by 5 points or less (--all lists them)."
    every = run("why", "bert", "24", "--upto", "10", "--all", path=path)
    assert [int(line.split()[0]) for line in every.stdout.splitlines() if "->" in line] == list(
        range(1, 11)
    )
    sure = run("why", "doris", "34", "--upto", "10", path=path)
    assert sure.stdout.startswith("Not certain: Doris 34") and "  none" in sure.stdout


def sleuth(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``python -m sleuth`` for real."""
    command = [sys.executable, "-m", "sleuth", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_a_real_subprocess_replays_lima_with_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    from PIL import Image

    (tmp_path / "game.yaml").write_text((EXAMPLES / "lima-4p.yaml").read_text())
    done = sleuth("replay", "--json", "--png", "chart.png", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar off a terminal
    data = json.loads(done.stdout)
    assert set(data) == {"game", "steps", "accusations", "certain_since"}
    assert data["certain_since"] is not None
    with Image.open(tmp_path / "chart.png") as image:
        assert image.format == "PNG" and image.size == (800, 500)


def test_png_without_matplotlib_is_one_line_exit_2(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    path = tmp_path / "game.yaml"
    path.write_text((EXAMPLES / "goldraub-6p.yaml").read_text())
    result = run("replay", "--png", str(tmp_path / "c.png"), path=path)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "pip install 'sleuth[plot]'" in result.stderr
    assert not (tmp_path / "c.png").exists()


def test_a_step_whose_count_runs_out_is_an_estimate_labelled_so(monkeypatch, tmp_path):
    import sleuth.odds
    from sleuth.solve import BudgetExceeded

    real = sleuth.odds.count

    def short_of_time(model, budget=None, memory=None):
        if sum(map(len, model.groups)) > 16:  # the longer prefixes only
            raise BudgetExceeded("test")
        return real(model, None, memory)  # the short ones in full, however loaded the machine

    monkeypatch.setattr(sleuth.odds, "count", short_of_time)
    path = tmp_path / "game.yaml"
    path.write_text((EXAMPLES / "goldraub-6p.yaml").read_text())
    result = run("replay", "--json", "--step-budget", "0.1", path=path)
    assert result.exit_code == 0, result.output
    steps = json.loads(result.stdout)["steps"]
    assert steps[0]["exact"] and not steps[-1]["exact"]
    entail = Entailment(parse_file(path).model())
    known = set()
    for step in steps:
        assert step["consistent"] and step["worlds"] >= 1
        now = {tuple(f) for f in step["forced"]}
        if not step["exact"]:
            assert now == entail.forced(range(step["event"] + 1)) - known - stated(
                parse_file(path).model()
            )
        known |= now
    text = run("replay", "--step-budget", "0.3", path=path).stdout
    assert "~" in text and "Estimates (~)" in text


def parse_file(path: Path):
    """The record at ``path``."""
    from sleuth.store import load

    return load(path, keep=False)[0]


@pytest.mark.parametrize("game", ["goldraub", "lima"])
def test_every_step_is_the_report_of_its_prefix(game):
    from sleuth.analysis import report

    record, result = goldraub_game(1, 5) if game == "goldraub" else lima_game(4, 4, 10)[1:]
    known = set()
    for step in result.steps:
        full = report(record.upto(step.event))
        known |= step.forced
        assert step.consistent == full.consistent and step.worlds == full.worlds
        assert step.odds.held == full.odds.held and step.exact == full.odds.exact
        assert known == {(f.holder, f.item) for f in full.forced}


@pytest.mark.parametrize("game", ["goldraub", "lima"])
def test_steps_in_workers_equal_steps_here(monkeypatch, game):
    """The prefixes counted over forked workers give every step exactly as one process does."""
    from sleuth import parallel
    from sleuth.replay import steps

    record = goldraub_game(3, 12)[0] if game == "goldraub" else lima_game(4, 2, 12)[1]
    forked, real = [], parallel.crew

    def crew(job, inputs, n):
        forked.append("fork")
        return real(job, inputs, n)

    monkeypatch.setattr(parallel, "crew", crew)
    made = {}
    for workers in (1, 2):
        monkeypatch.setattr(parallel, "workers", lambda n, w=workers: min(w, n))
        ticks: list[int] = []
        found = steps(record, tick=lambda ticks=ticks: ticks.append(1))
        made[workers] = [(s.event, s.consistent, s.odds, s.forced) for s in found]
        assert len(ticks) == len(found) == len(record.events) + 1
    assert forked == ["fork"]
    assert made[1] == made[2]


# --png: never the record, never a file that is not a PNG unless forced, written atomically,
# and a path that cannot be written refused before the replay is computed.

SMALL = (
    "game: goldraub\nplayers: [Anton, Bert, Christl]\nme: Christl\nhand: [22, 45, 63]\n"
    "events:\n- search: {by: Anton, row: 31-36, gold: 1}\n"
)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def small(tmp_path, monkeypatch) -> tuple[Path, list]:
    """A small record in tmp_path (the cwd), and the list of replays computed."""
    pytest.importorskip("matplotlib")
    import sleuth.replay

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "game.yaml"
    path.write_text(SMALL)
    computed: list = []
    original = sleuth.replay.replay
    monkeypatch.setattr(sleuth.replay, "replay", lambda *a: computed.append(a) or original(*a))
    return path, computed


def refused_png(path: Path, computed: list, png: str, *parts: str, play: bool = False) -> None:
    """``replay --png PNG`` (in ``play`` too): exit 2, one line, nothing computed or changed."""
    before = path.read_bytes()
    listed = sorted(os.listdir(path.parent))
    if play:
        result = CliRunner().invoke(app, ["play", "--file", str(path)], input=f"replay --png {png}")
    else:
        result = run("replay", "--png", png, path=path)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and all(part in lines[0] for part in parts), result.stderr
    assert result.stdout == "" and computed == []
    assert path.read_bytes() == before and sorted(os.listdir(path.parent)) == listed


@pytest.mark.parametrize("play", [False, True], ids=["command", "play"])
def test_png_never_overwrites_the_record(small, tmp_path, play):
    path, computed = small
    (tmp_path / "link.yaml").symlink_to("game.yaml")
    os.link(path, tmp_path / "hard.yaml")
    (tmp_path / "sub").mkdir()
    for png in ("game.yaml", str(path), "./sub/../game.yaml", "link.yaml", "hard.yaml"):
        refused_png(path, computed, png, "field 'png'", "is the record itself", play=play)


def test_png_refuses_a_file_that_is_not_a_png_unless_forced(small, tmp_path):
    path, computed = small
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    refused_png(path, computed, "notes.txt", "notes.txt exists and is not a PNG image", "--force")
    assert notes.read_text() == "my notes\n"
    result = run("replay", "--png", "notes.txt", "--force", path=path)
    assert result.exit_code == 0, result.output
    assert notes.read_bytes().startswith(PNG_SIGNATURE)


def test_png_replaces_an_image_atomically(small, tmp_path):
    path, _ = small
    chart = tmp_path / "chart.png"
    assert run("replay", "--png", "chart.png", path=path).exit_code == 0
    first = os.stat(chart)
    assert run("replay", "--png", "chart.png", path=path).exit_code == 0  # a PNG: no --force
    assert os.stat(chart).st_ino != first.st_ino  # a new file renamed over the old one
    assert chart.read_bytes().startswith(PNG_SIGNATURE)
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize(
    ("png", "part"),
    [
        ("/dev/full", "not a regular file (a character device)"),
        (".", "not a regular file (a directory)"),
        ("nowhere/chart.png", "cannot write: No such file or directory"),
    ],
)
def test_png_that_cannot_be_written_is_refused_before_the_replay(small, png, part):
    if png == "/dev/full" and not Path(png).exists():
        pytest.skip("no /dev/full here")
    path, computed = small
    refused_png(path, computed, png, part)
