from sleuth.analysis import report
from sleuth.games.goldraub.simulate import simulate
from sleuth.record import parse


def test_simulated_truth_is_a_world():
    doc, truth = simulate(4, 12, seed=3)
    result = report(parse(doc, "sim"))
    assert result.consistent and result.odds.exact
    assert all(result.odds.held[h, i] > 0 for i, h in truth.items())
    assert all(truth[f.item] == f.holder for f in result.forced)
