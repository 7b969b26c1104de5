"""``benchmarks/replay.py`` replays the race as it runs: the same decisions on recorded layers.

The replay is how changes to the race are measured (``sleuth/solve/order.py`` cites it), so its
engine must lead the real race to the same choices: the same order finishes, whatever the
settings make it drop, keep or resume.
"""

import importlib.util
import json
from pathlib import Path

import pytest

from sleuth.solve import order
from sleuth.solve.vector import VectorRun


@pytest.fixture(scope="module")
def replay():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "replay.py"
    spec = importlib.util.spec_from_file_location("replay", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recorded(replay, tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "layers.jsonl"
    replay.record(path, [(3, 9)])  # a hard count: its first greedy order passes SOLO
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    "pairs",
    [
        [],
        ["FIRST=0.05"],  # every contender passes its first bound: drops, the kept one resumes
        ["FIRST=0.05", "NEAR=1", "SURE=0", "PROBE=20000"],
    ],
)
def test_a_replayed_race_finishes_in_the_order_the_race_does(replay, recorded, pairs, monkeypatch):
    """The same order finishes, and the replay's time is the recorded time of every layer made.

    The real race is watched: each time a run advances, the layers it made are looked up in
    the recording, so the replay must charge exactly those.
    """
    seconds, replayed = replay.replayed(recorded, pairs)
    p, reduced = replay._plan(3, 9)
    times = {tuple(r["order"]): [0.0, *r["times"]] for r in recorded["runs"]}
    charged = []
    advance = VectorRun.advance

    def watched(run, cap, deadline):
        before = len(run.layers) - 1
        try:
            advance(run, cap, deadline)
        finally:
            clock = times[tuple(run.p.order[: len(run.p.order) - len(p.loose)])]
            charged.append(clock[len(run.layers) - 1] - clock[before])

    monkeypatch.setattr(VectorRun, "advance", watched)
    with replay._settings(pairs):
        run = order.race(p, reduced, None)
    assert replayed == run.p.order
    assert seconds == pytest.approx(sum(charged))
