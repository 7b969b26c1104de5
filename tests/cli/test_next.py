"""``sleuth next``: every option's split equals brute force, and the options are the legal set.

Brute force adds each possible answer as one more recorded question and counts the deals one
by one (``tests/oracles``: ``brute``, ``lima``), independent of ``sleuth.solve``.
The legal sets are written out by hand from the route (``board.toml``) and the dice rules.
"""

from __future__ import annotations

import copy
import importlib
import json
import math
import os
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from invoke import invoker
from oracles.brute import brute_count
from oracles.lima import brute

import sleuth.cli  # noqa: F401 - registers the commands
from sleuth import parallel
from sleuth.analysis import report
from sleuth.budget import Deadline
from sleuth.games.goldraub import next as gnext
from sleuth.games.goldraub.board import city
from sleuth.games.goldraub.simulate import simulate as goldraub_game
from sleuth.games.lima import next as lnext
from sleuth.games.lima.simulate import simulate as lima_game
from sleuth.model import Tally
from sleuth.record import parse

cli_app = importlib.import_module("sleuth.cli.app")


def bits(weights) -> float:
    """Entropy in bits, written out again for the tests."""
    weights = [w for w in weights if w]
    total = sum(weights)
    return -sum(w / total * math.log2(w / total) for w in weights)


@pytest.mark.parametrize("seed", [3, 8])
def test_goldraub_options_equal_brute_force(seed):
    """Three players: each option's answers, bits and value, against brute-force counts."""
    doc, _ = goldraub_game(3, 4, seed)
    record = parse(doc, "sim")
    advice = gnext.advise(report(record), {})
    model, holdings = record.model(), gnext.open_holdings(record)
    v = gnext.value_after(record)
    for option in advice.options[:2] + advice.options[-1:]:
        per = {}
        for answer in range(3):
            tally = Tally(gnext.question(record, option.row), frozenset({answer}))
            total, held = brute_count(model.with_group(0, model.groups[0] + (tally,)))
            if total:
                per[answer] = (total, held)
        worlds = sum(t for t, _ in per.values())
        assert option.answers == {a: Fraction(t, worlds) for a, (t, _) in per.items()}
        assert option.information == pytest.approx(bits(t for t, _ in per.values()))
        gain = sum(
            Fraction(t, worlds) * max(0, 15 * max(Fraction(h[k], t) for k in holdings) - 5)
            for t, h in per.values()
        )
        assert option.value == v * gain


def test_goldraub_landing_spaces_skip_occupied_ones():
    """From 22 with 23 and 2 occupied: 24, 1, 3, 4, 5, 6 (the route wraps at 24)."""
    assert gnext.landings(city(), 22, {23, 2}) == [24, 1, 3, 4, 5, 6]
    rows = [r for s, r in gnext.legal(city(), 22, {23, 2})]
    assert rows == [
        "11-14",
        "21-76",
        "11-77",
        "13-57",
        "12-52",
        "14-47",
        "13-63",
        "14-74",
        "25-75",
        "11-14",
    ]
    assert [s for s, _ in gnext.legal(city(), None, set())] == [None] * 21


def test_goldraub_spaces_come_from_the_record_unless_given():
    """My space is my last search's ``at``; the others stand on theirs; options win."""
    doc, _ = goldraub_game(3, 5, 1)
    record = parse(doc, "sim")
    searches = [e["search"] for e in doc["events"] if "search" in e]
    mine = [s["at"] for s in searches if s["by"] == doc["me"]]
    others = {s["by"]: s["at"] for s in searches if s["by"] != doc["me"]}
    assert gnext.spaces(record, None, None) == (mine[-1] if mine else None, set(others.values()))
    assert gnext.spaces(record, 7, [1, 2]) == (7, {1, 2})


def lima_split(doc: dict, question) -> dict[int, dict]:
    """Brute-force pairs per answer of ``question``: the answer added as a recorded ask."""
    out = {}
    for answer in range(8):
        more = copy.deepcopy(doc)
        ask = {"by": doc["me"], "to": question.to, "range": question.range, "answer": answer}
        if question.terrain:
            ask["terrain"] = question.terrain
        more["events"].append({"ask": ask})
        found = brute(more)
        if found.total:
            out[answer] = found.pairs
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 2), (4, 5)])
def test_lima_options_equal_brute_force(players, seed):
    """Answers, bits, pair bits and certainty of the best options, against brute force."""
    doc, _ = lima_game(players, 8, seed)
    advice = lnext.advise(report(parse(doc, "sim")), {"roll": "SW-beach,N-wild,E-beach"})
    before = brute(doc).pairs
    total = sum(before.values())
    for option in advice.options[:3] + advice.options[-2:]:
        per = lima_split(doc, option.question)
        worlds = {a: sum(p.values()) for a, p in per.items()}
        assert option.answers == {a: Fraction(n, total) for a, n in worlds.items()}
        assert option.information == pytest.approx(bits(worlds.values()))
        after = sum(worlds[a] * bits(p.values()) for a, p in per.items()) / total
        assert option.pair_information == pytest.approx(bits(before.values()) - after)
        sure = sum(worlds[a] for a, p in per.items() if len(p) == 1)
        assert option.certain == Fraction(sure, total)


def keys(options) -> set:
    """(to, range, terrain, secret) of each option."""
    return {(o.to, o.range, o.terrain, o.secret) for o in options}


def lima_record(players: int = 3):
    """A simulated Lima record with no events."""
    return parse(lima_game(players, 0, 1)[0], "sim")


def test_lima_roll_questions_are_the_legal_set():
    """Plain faces, a wild, two wilds, the same point twice: written out by hand."""
    record = lima_record()
    rivals = record.table.others(record.table.me)
    board = record.start.island

    def legal(roll, **extra):
        return keys(lnext.legal(record, lnext.parse_roll(roll, board), **extra))

    def each(*triples):
        return {(to, r, t, False) for to in rivals for r, t in triples}

    plain = [
        ("N-E", None),
        ("E-N", None),
        ("N-S", None),
        ("S-N", None),
        ("E-S", None),
        ("S-E", None),
    ]
    assert legal("N-beach,E-forest,S-mountain", shovel=False, pistol=False) == each(*plain)
    wild = plain + [("N-E", "beach"), ("E-N", "beach"), ("E-S", "forest"), ("S-E", "forest")]
    assert legal("N-beach,E-wild,S-forest", shovel=False, pistol=False) == each(*wild)
    three = ("beach", "forest", "mountain")
    two = plain + [(r, t) for r in ("N-E", "E-N") for t in three]
    two += [(r, "beach") for r in ("N-S", "S-N", "E-S", "S-E")]
    assert legal("N-wild,E-wild,S-beach", shovel=False, pistol=False) == each(*two)
    same = [("N-N", None), ("N-E", None), ("E-N", None), ("N-E", "beach"), ("E-N", "beach")]
    assert legal("N-beach,N-forest,E-beach", shovel=False, pistol=False) == each(*same)


def test_lima_shovel_and_pistol_add_their_questions():
    """The Shovel lets a pair of dice share either's terrain; the Pistol adds 57 ranges each."""
    record = lima_record()
    board = record.start.island
    faces = lnext.parse_roll("N-beach,E-forest,S-mountain", board)
    terrain = {"N": "beach", "E": "forest", "S": "mountain"}
    shovel = lnext.legal(record, faces, shovel=True, pistol=False)
    rivals = record.table.others(record.table.me)
    ranges = ("N-E", "E-N", "N-S", "S-N", "E-S", "S-E")
    wanted = {
        (to, r, t, False)
        for to in rivals
        for r in ranges
        for t in (None, terrain[r[0]], terrain[r[-1]])
    }
    assert keys(shovel) == wanted
    assert sum(o.uses == "shovel" for o in shovel) == 2 * 12
    pistol = lnext.legal(record, faces, shovel=False, pistol=True)
    secret = [o for o in pistol if o.secret]
    assert len(secret) == 2 * 57 and {o.terrain for o in secret} == {None}
    assert {o.uses for o in secret} == {"pistol"}


def test_lima_pistol_gain_is_best_secret_less_best_free():
    """The Pistol's gain is read off the options themselves: over the best that spends nothing."""
    doc, _ = lima_game(3, 8, 2)
    given = {"roll": "SW-beach,N-wild,E-beach", "pistol": True, "shovel": True}
    advice = lnext.advise(report(parse(doc, "sim")), given)
    best = {
        use: max(o.pair_information for o in advice.options if o.question.uses == use)
        for use in ("pistol", "shovel", None)
    }
    assert advice.pistol_gain() == pytest.approx(best["pistol"] - best[None])
    assert advice.gain("shovel") == pytest.approx(best["shovel"] - best[None])
    for o in lnext.advice_json(advice)["options"]:
        assert ("gain" in o) is (o["uses"] is not None)
        assert o.get("gain", 0) == pytest.approx(
            o["pair_information"] - best[None] if o["uses"] else 0
        )


@pytest.mark.parametrize("seed", [0, 2])
def test_lima_a_tie_puts_the_question_that_spends_nothing_first(seed):
    """An ability serves once: it comes before a free question only for more pair bits.

    Seed 2's pair is certain after 14 events, so every question ties at 0 pair bits.
    """
    doc, _ = lima_game(3, 40, seed)
    given = {"roll": "SW-beach,N-wild,E-beach", "pistol": True, "shovel": True}
    options = lnext.advise(report(parse(doc, "sim")), given).options
    for k, o in enumerate(options):
        later_free = [p for p in options[k + 1 :] if p.question.uses is None]
        if o.question.uses and later_free:
            assert o.pair_information > max(p.pair_information for p in later_free) + 1e-9


def test_lima_rank_breaks_a_tie_for_the_free_question_before_information():
    """Equal pair bits: the free question first, though an ability's tells more about the deal."""
    free = lnext.Question("Ben", "N-S", "beach", False, None)
    pistol = lnext.Question("Ben", "N-S", None, True, "pistol")
    shovel = lnext.Question("Ben", "N-E", "forest", False, "shovel")
    made = [
        lnext.QuestionOption(q, {}, info, 0.25, Fraction(0), None)
        for q, info in ((pistol, 2.0), (shovel, 1.5), (free, 1.0))
    ]
    assert [o.question for o in sorted(made, key=lnext.rank)] == [free, pistol, shovel]


@pytest.fixture
def run(monkeypatch, tmp_path):
    """Invoke the app in-process in tmp_path, with colourless consoles."""
    return invoker(monkeypatch, tmp_path, width=100)


def test_next_json_through_the_cli(run):
    """``next --json`` keeps to the contract: options sorted by information, --at wins."""
    assert (
        run(
            "new", "goldraub", "--players", "An,Bo,Cy", "--me", "An", "--hand", "22,45,63"
        ).exit_code
        == 0
    )
    assert run("search", "Bo", "31-36", "--gold", "1", "--saw", "1", "--at", "8").exit_code == 0
    result = run("next", "--json", "--at", "22", "--occupied", "23,2")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["game"] == "goldraub" and out["at"] == 22
    assert [o["space"] for o in out["options"]] != []
    assert {o["space"] for o in out["options"]} == {24, 1, 3, 4, 5, 6}
    infos = [o["information"] for o in out["options"]]
    assert infos == sorted(infos, reverse=True)
    assert all(
        set(o) == {"space", "row", "answers", "information", "value"} for o in out["options"]
    )
    bad = run("next", "--roll", "N-beach,E-forest,S-beach")
    assert bad.exit_code == 2


def test_next_in_a_real_process(tmp_path):
    """``python -m sleuth next`` on a Lima record: a table, exit 0; a bad roll: exit 2."""
    doc, _ = lima_game(3, 4, 6)
    from sleuth.document import document, dump

    (tmp_path / "game.yaml").write_text(dump(document(parse(doc, "sim"))))
    env = {k: v for k, v in os.environ.items() if k != "SLEUTH_FILE"} | {"COLUMNS": "100"}

    def sub(*args):
        command = [sys.executable, "-m", "sleuth", "next", *args]
        return subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )

    done = sub("--roll", "NE-beach,E-wild,SE-forest", "--json")
    assert done.returncode == 0, done.stderr
    options = json.loads(done.stdout)["options"]
    pairs = [o["pair_information"] for o in options]
    assert pairs == sorted(pairs, reverse=True) and len(options) == 2 * 10
    bad = sub("--roll", "N-beach,E-wild")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_next_upto_advises_as_the_record_stood(run, tmp_path):
    """``next --upto N`` equals ``next`` on the record cut after event N by hand."""
    assert (
        run(
            "new", "goldraub", "--players", "An,Bo,Cy", "--me", "An", "--hand", "22,45,63"
        ).exit_code
        == 0
    )
    assert run("search", "Bo", "31-36", "--gold", "1", "--saw", "1", "--at", "8").exit_code == 0
    cut = (tmp_path / "game.yaml").read_bytes()
    assert run("search", "Cy", "63-67", "--gold", "1", "--at", "11").exit_code == 0
    upto = run("next", "--json", "--upto", "1")
    (tmp_path / "game.yaml").write_bytes(cut)
    assert upto.exit_code == 0 and upto.output == run("next", "--json").output
    assert run("next", "--upto", "2").exit_code == 2


@pytest.mark.parametrize("game", ["goldraub", "lima"])
def test_advice_in_workers_equals_advice_here(monkeypatch, game):
    """A batch over forked workers gives every option exactly as one process does."""
    if game == "goldraub":
        record, module, given = parse(goldraub_game(4, 4, 5)[0], "sim"), gnext, {}
    else:
        record, module = lima_record(4), lnext
        given = {"roll": "SW-beach,N-wild,E-beach", "pistol": True, "public": True}
    advised, forked = {}, []
    real = parallel.crew

    def crew(job, inputs, n):
        forked.append("fork")
        return real(job, inputs, n)

    monkeypatch.setattr(parallel, "crew", crew)
    for workers in ("1", "2"):
        monkeypatch.setattr(parallel, "workers", lambda n, w=int(workers): min(w, n))
        advised[workers] = module.advice_json(module.advise(report(record), given))
        assert len(forked) == (0 if workers == "1" else 2 if game == "lima" else 1)
    assert advised["1"] == advised["2"]
    assert len(advised["2"]["options"]) >= parallel.FEWEST


def test_a_batch_uses_workers_only_when_it_pays(monkeypatch):
    """Fewer questions than ``FEWEST`` per worker, or $SLEUTH_WORKERS=1: none; else the cores."""
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda _: {0, 1, 2, 3})
    monkeypatch.delenv(parallel.WORKERS_ENV, raising=False)
    assert parallel.workers(parallel.FEWEST - 1) == 1
    assert parallel.workers(2 * parallel.FEWEST) == 2
    assert parallel.workers(100) == 4
    monkeypatch.setenv(parallel.WORKERS_ENV, "1")
    assert parallel.workers(100) == 1
    monkeypatch.setenv(parallel.WORKERS_ENV, "x")
    assert parallel.workers(100) == 4


def late_job(x: int) -> int:
    """Twice ``x``, but input 1 never ends: a job that does not keep to its own budget."""
    if x == 1:
        time.sleep(3600)
    return 2 * x


def test_a_batch_with_a_deadline_leaves_out_what_is_not_back_by_then(monkeypatch):
    """A worker's job that overruns the deadline is None and its worker killed, not waited for."""
    monkeypatch.setattr(parallel, "workers", lambda n: 2)
    due = Deadline(1.0)
    found = parallel.batch(late_job, list(range(2 * parallel.FEWEST)), due=due)
    assert found[1] is None
    assert found[:1] + found[2:] == [2 * x for x in range(2 * parallel.FEWEST) if x != 1]
    assert due.passed()


def test_next_dates_no_facts(run, monkeypatch):
    """``next`` shows no facts, so an exact count that fits is all it asks of the report."""
    import sleuth.analysis

    def dated(*args):
        raise AssertionError("next dated the facts")

    assert (
        run(
            "new", "goldraub", "--players", "An,Bo,Cy", "--me", "An", "--hand", "22,45,63"
        ).exit_code
        == 0
    )
    assert run("search", "Bo", "31-36", "--gold", "1", "--saw", "1", "--at", "8").exit_code == 0
    monkeypatch.setattr(sleuth.analysis, "_dated_exact", dated)
    assert run("report").exit_code == 1  # the report does date them
    result = run("next", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["options"]


def test_ctrl_c_in_a_batch_ends_it_quietly(tmp_path):
    """Ctrl-C while forked workers count: exit 130, no worker's traceback, no worker left."""
    import signal
    import time

    import pexpect

    from sleuth.document import document, dump

    doc, _ = lima_game(5, 10, 0)
    path = tmp_path / "lima.yaml"
    path.write_text(dump(document(parse(doc, "sim"))))
    sleuth = os.path.join(os.path.dirname(sys.executable), "sleuth")
    args = ["next", "--roll", "SW-beach,N-wild,E-beach", "--barrel", "--file", str(path)]
    child = pexpect.spawn(
        sleuth,
        args,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(2)  # start-up, then the batch of some 700 questions (seconds)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before and "KeyboardInterrupt" not in child.before
    left = subprocess.run(["pgrep", "-f", str(path)], capture_output=True, text=True)
    assert left.stdout == ""


def _interrupt_handler(_):
    """A batch job: how the worker that runs it treats Ctrl-C."""
    import signal

    return signal.getsignal(signal.SIGINT)


def test_batch_workers_leave_ctrl_c_to_the_parent(monkeypatch):
    """Each worker ignores SIGINT (else every one prints a traceback); the parent keeps it.

    The test process listens to Ctrl-C for the while, as a command at the table does: one
    started in the background by a shell without job control inherits SIGINT ignored.
    """
    import signal

    monkeypatch.setattr(parallel, "workers", lambda n: 2)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert set(parallel.batch(_interrupt_handler, range(8))) == {signal.SIG_IGN}
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_ctrl_c_while_the_workers_fork_leaves_none_unreaped(monkeypatch):
    """Ctrl-C taken by another thread (a spinner's timer) just after a worker is forked: the
    batch ends in KeyboardInterrupt once every worker is forked, and reaps them all.

    Blocking the signal in the forking thread did not hold it: the kernel hands it to a thread
    that does not block it, and Python then raised KeyboardInterrupt in the forking one before
    the new worker's pid was kept (143 of 500 Ctrl-Cs at random moments left a zombie).
    """
    import signal
    import threading

    real, forked = os.fork, []

    def fork():
        pid = real()
        if pid:
            forked.append(pid)
            hit = threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT))
            hit.start()
            hit.join()
        return pid

    monkeypatch.setattr(parallel, "workers", lambda n: 2)
    monkeypatch.setattr(os, "fork", fork)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            parallel.batch(late_job, [0, 2, 3, 4, 5, 6, 7, 8])
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(forked) == 2
    for pid in forked:
        with pytest.raises(ChildProcessError):  # reaped already: no longer this process's child
            os.waitpid(pid, os.WNOHANG)


# ``next`` keeps to its budget: a question not counted in time (or past the engine's bound) is
# left out and named, never guessed, and never a crash.


def test_a_question_past_the_deadline_or_the_bound_is_left_out():
    from sleuth.advisor import within
    from sleuth.budget import Deadline
    from sleuth.solve.counts import TooBig

    def too_big(*_args):
        raise TooBig

    assert within(Deadline(-1), lambda *a: 1 / 0) is None  # not even started
    assert within(Deadline(60), too_big) is None
    assert within(Deadline(60), lambda budget: budget) <= 60
    assert within(None, lambda: "no limit") == "no limit"


@pytest.mark.parametrize("game", ["goldraub", "lima"])
def test_advice_out_of_time_names_what_it_left_out(game):
    from rich.console import Console

    from sleuth.budget import Deadline

    if game == "goldraub":
        record, module, given = parse(goldraub_game(4, 4, 5)[0], "sim"), gnext, {}
    else:
        record, module = lima_record(4), lnext
        given = {"roll": "SW-beach,N-wild,E-beach", "barrel": True}
    whole = module.advise(report(record), given)
    cut = module.advise(report(record), given, Deadline(-1))
    assert whole.options and not cut.options and len(cut.uncounted) == len(whole.options)
    out = module.advice_json(cut)
    assert out["complete"] is False and out["options"] == [] and len(out["uncounted"]) > 0
    console = Console(width=80, record=True, color_system=None)
    module.show_advice(console, cut)
    assert "NOT COUNTED within the budget" in console.export_text()


def test_advice_with_no_exact_count_gives_none(monkeypatch):
    from dataclasses import replace

    from rich.console import Console

    from sleuth.odds import UNCOUNTED

    record = parse(goldraub_game(4, 4, 5)[0], "sim")
    advice = gnext.advise(replace(report(record), odds=UNCOUNTED), {})
    assert advice.worlds is None and not advice.options and not advice.guesses
    assert gnext.advice_json(advice)["worlds"] is None
    console = Console(width=80, record=True, color_system=None)
    gnext.show_advice(console, advice)
    assert "no advice is given" in console.export_text()


def test_next_never_crashes_when_the_engine_gives_up(run, monkeypatch):
    """A question past the engine's state bound (TooBig, once exit 1) is left out, exit 0."""
    from sleuth.solve.counts import TooBig

    def too_big(*_args, **_kwargs):
        raise TooBig

    assert (
        run(
            "new", "goldraub", "--players", "An,Bo,Cy", "--me", "An", "--hand", "22,45,63"
        ).exit_code
        == 0
    )
    monkeypatch.setattr("sleuth.advisor.split", too_big)
    monkeypatch.setattr("sleuth.advisor.layered_split", too_big)
    result = run("next", "--json", "--at", "22")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["options"] == [] and out["complete"] is False and out["uncounted"]


@pytest.mark.parametrize("budget", ["nan", "NaN", "-1"])
def test_a_budget_that_is_not_seconds_is_refused(run, budget):
    assert (
        run(
            "new", "goldraub", "--players", "An,Bo,Cy", "--me", "An", "--hand", "22,45,63"
        ).exit_code
        == 0
    )
    for command in (["next"], ["report"], ["replay", "--step-budget"]):
        flag = [] if command[-1].startswith("--") else ["--budget"]
        result = run(*command, *flag, budget)
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1


CONTRADICTED = {
    "goldraub": (
        ["new", "goldraub", "--players", "An,Bo,Cy", "--me", "Cy", "--hand", "22,45,63"],
        ["guess", "Cy", "An", "22", "--correct"],  # my own card
        ["--at", "99"],
    ),
    "lima": (
        ["new", "lima", "--players", "A,B,C", "--me", "A", "--hand", "1F,1B,1M,2F,2B,2M,3F"],
        ["accuse", "B", "1F", "4F", "--correct"],  # my own location
        ["--roll", "N-beach"],
    ),
}


@pytest.mark.parametrize("game", sorted(CONTRADICTED))
def test_next_json_on_a_record_no_deal_fits_is_the_report_s_conflict(run, game):
    new, contradiction, _ = CONTRADICTED[game]
    assert run(*new, *(["--public", "3B"] if game == "lima" else [])).exit_code == 0
    assert run(*contradiction).exit_code == 3
    roll = ["--roll", "SW-beach,N-wild,E-beach"] if game == "lima" else []
    result = run("next", "--json", *roll)
    assert result.exit_code == 3, result.output
    out = json.loads(result.stdout)
    whole = json.loads(run("report", "--json").stdout)
    assert out == {
        "game": game,
        "consistent": False,
        "conflict": whole["conflict"],
        "repairs": whole["repairs"],
        "options": [],
    }
    assert out["conflict"] == [0, 1]
    assert "Contradiction" in run("next", *roll).stdout


@pytest.mark.parametrize("game", sorted(CONTRADICTED))
def test_next_options_are_checked_before_the_count(run, monkeypatch, game):
    """A bad option is exit 2 even on a record no deal fits; nothing is counted for it."""
    new, contradiction, bad = CONTRADICTED[game]
    assert run(*new, *(["--public", "3B"] if game == "lima" else [])).exit_code == 0
    assert run(*contradiction).exit_code == 3
    counted = []
    monkeypatch.setattr(cli_app, "counted", lambda *args, **kw: counted.append(args))
    result = run("next", *bad)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "sleuth next" in result.stderr
    assert counted == []


@pytest.mark.parametrize(
    ("options", "part"),
    [
        (["--at", "0"], "field 'at': 0 is not a route space (1-24)"),
        (["--at", "1_0"], "'1_0' is not a number"),
        (["--at", "１"], "'１' is not a number"),
        (["--occupied", "1,2,3,4,6,7,8,9"], "8 spaces for the 4 other figures"),
        (["--occupied", "7,7"], "space 7 is named twice"),
        (["--occupied", "6,5"], "space 5 is my own figure's"),
        (["--at", "9", "--occupied", "9"], "space 9 is my own figure's"),
        (["--occupied", "1_0,2"], "is not route spaces"),
        (["--occupied", "２"], "is not route spaces"),
    ],
)
def test_next_refuses_spaces_no_table_can_have(run, options, part):
    new = ["new", "goldraub", "--players", "A,B,C,D,E", "--me", "A", "--hand", "22,45,63"]
    assert run(*new).exit_code == 0
    assert run("search", "A", "14-74", "--gold", "1", "--at", "5").exit_code == 0
    result = run("next", *options)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and part in lines[0] and " next" in lines[0], lines


def test_next_takes_four_other_figures_on_their_own_spaces(run):
    new = ["new", "goldraub", "--players", "A,B,C,D,E", "--me", "A", "--hand", "22,45,63"]
    assert run(*new).exit_code == 0
    result = run("next", "--json", "--at", "5", "--occupied", "6,7,8,9")
    assert result.exit_code == 0, result.output
    assert {o["space"] for o in json.loads(result.stdout)["options"]} == {10, 11, 12, 13, 14, 15}


def test_lima_next_says_what_an_ability_gains_over_the_best_free_question(run, tmp_path):
    """Each ability row has its gain; a line names the best free question and if it pays."""
    from sleuth.document import document, dump

    doc, _ = lima_game(3, 8, 2)
    (tmp_path / "game.yaml").write_text(dump(document(parse(doc, "sim"))))
    result = run("next", "--roll", "SW-beach,N-wild,E-beach", "--pistol", "--json")
    advice = json.loads(result.output)
    free = next(o for o in advice["options"] if o["uses"] is None)
    shown = run("next", "--roll", "SW-beach,N-wild,E-beach", "--pistol").output
    named = " ".join([free["to"], free["range"], *([free["terrain"]] if free["terrain"] else [])])
    gain = advice["pistol_gain"]
    assert f"gains {gain:+.3f} pair bits over the best free one ({named}, " in shown
    rows = [line for line in shown.splitlines() if "(pistol)" in line]
    assert rows and all(f"{gain:+.3f}" in line for line in rows[:1])


LIMA_NEW = [
    "new",
    "lima",
    "--players",
    "Ana,Ben,Cy",
    "--me",
    "Cy",
    "--hand",
    "1B,1F,1M,2B,2F,2M,3B",
    "--public",
    "3F",
]


def test_next_says_the_game_is_over_instead_of_listing_questions(run):
    """After the right accusation there is no turn to plan: one line, exit 2 (issue 28)."""
    assert run(*LIMA_NEW).exit_code == 0
    assert run("next", "--roll", "SW-beach,N-wild,E-beach").exit_code == 0
    assert run("accuse", "ana", "8B", "8F", "--correct").exit_code == 0
    result = run("next", "--roll", "SW-beach,N-wild,E-beach")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (
        "sleuth: sleuth next: the game is over (Ana found the treasure): no turn to plan"
    )


def test_next_says_i_am_out_of_the_game(run):
    assert run(*LIMA_NEW).exit_code == 0
    assert run("accuse", "cy", "8B", "8F", "--wrong").exit_code == 0
    result = run("next", "--roll", "SW-beach,N-wild,E-beach")
    assert result.exit_code == 2 and "I am out of the game" in result.stderr


def test_next_pistol_says_when_my_pistol_is_spent(run):
    """Its rows are not listed, and the screen and the JSON say why."""
    assert run(*LIMA_NEW).exit_code == 0
    assert run("secret", "cy", "ana", "N-S", "--answer", "1").exit_code == 0
    result = run("next", "--roll", "SW-beach,N-wild,E-beach", "--pistol")
    assert result.exit_code == 0
    assert "my Pistol is spent (event 1): no secret question listed" in result.stdout
    assert "(pistol)" not in result.stdout
    out = json.loads(run("next", "--roll", "SW-beach,N-wild,E-beach", "--pistol", "--json").output)
    assert out["pistol_spent"] == 1 and not [o for o in out["options"] if o["secret"]]


def test_a_batch_starts_no_process_but_its_workers(monkeypatch):
    """Asking a worker to die with its parent runs no helper (``find_library`` runs ldconfig,
    a child that a Ctrl-C at that moment left unreaped at the table)."""
    import subprocess

    def refused(*args, **kwargs):
        raise AssertionError(f"a batch started a process: {args}")

    parallel._deathsig.cache_clear()
    monkeypatch.setattr(subprocess, "Popen", refused)
    monkeypatch.setattr(parallel, "workers", lambda n: 2)
    assert parallel._deathsig() is not None
    inputs = list(range(2 * parallel.FEWEST))
    assert parallel.batch(late_job, [0, 2, *inputs[3:]]) == [0, 4, *(2 * x for x in inputs[3:])]
