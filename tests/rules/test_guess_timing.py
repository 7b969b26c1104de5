"""Goldraub's advice on guessing now or waiting, and the reasons ``next`` gives (issue 28, item 3).

One model (``rules.TIMING``) weighs a guess now against one a round later, for ``next`` and for
``check`` alike; it is checked here against brute-force counts and a direct reading of the
record, and ``next`` against ``check`` on every state of simulated games. A reason names only
what an answer that can come would change.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

import pytest
from oracles.brute import brute_count

from sleuth.analysis import report
from sleuth.games.goldraub import next as gnext
from sleuth.games.goldraub.advice import check_guess
from sleuth.games.goldraub.rules import Guess, Search
from sleuth.games.goldraub.simulate import simulate, table_game
from sleuth.model import Tally
from sleuth.record import parse
from sleuth.render.common import pct
from sleuth.solve import count

REASON = re.compile(r"an answer of (\d+) \((\S+) likely\) would make (\S+) (\d+) certain")


def taken_again(record) -> Fraction:
    """The chance of ``rules.TIMING`` that another player takes a card first, written again."""
    me, n = record.table.me, len(record.table.players)
    right = [e for e in record.events if isinstance(e, Guess) and e.correct]
    theirs = [e for e in right if e.by != me and e.owner != me]
    face_down = 3 * (n - 1) - sum(e.owner != me for e in right)
    played = max(1, sum(isinstance(e, Search) for e in record.events) // n)
    return min(Fraction(1), Fraction(len(theirs) + 1, played * max(face_down, 1)))


def may_i_guess(record) -> bool:
    """Whether the rules let me guess now (Discovering a Hiding Place, End of the Game)."""
    events, n, me = record.events, len(record.table.players), record.table.me
    searches = sum(isinstance(e, Search) for e in events)
    shown = [e.owner for e in events if isinstance(e, Guess) and e.correct]
    if 10 - searches // n <= 0 or len([p for p in record.table.players if shown.count(p) < 3]) < 2:
        return False
    done, seen, mine = searches - searches % n, 0, []
    for e in events:
        if isinstance(e, Search):
            seen += 1
        elif seen >= done and e.by == me:
            mine.append(e.correct)
    return len(mine) < 2 and all(mine)


def expected_verdict(now: Fraction, wait: Fraction, least: Fraction, allowed: bool) -> str:
    """The verdict ``rules.TIMING`` states: only what the bounds of waiting prove."""
    if not allowed:
        return "not allowed now"
    if now > 0 and now >= wait:
        return "guess now"
    if least > now:
        return "wait"
    return "not worth it" if now <= 0 and wait <= 0 else "close"


def check_timing(record, advice, p_of) -> None:
    """Each row of the advice's guesses against the model written out again."""
    n = len(record.table.players)
    searches = sum(isinstance(e, Search) for e in record.events)
    value, later = max(0, 10 - searches // n), max(0, 10 - (searches + n) // n)
    taken, allowed = taken_again(record), may_i_guess(record)
    for g in advice.guesses:
        p = p_of(g.owner, g.sector)
        t = g.timing
        assert g.probability == p
        assert t.now == value * (15 * p - 5)
        assert t.taken == taken
        assert t.wait == p * (1 - taken) * 10 * later
        assert t.wait <= p * 10 * later
        assert t.least == max(0, later * (10 * p * (1 - taken) - 5 * (1 - p))) <= t.wait
        assert t.allowed is allowed
        assert t.verdict == expected_verdict(t.now, t.wait, t.least, allowed)


def check_reasons(record, advice, counts) -> None:
    """A reason that names a holding: the answer can come, and it makes an open holding sure;
    one that says the search splits the deals most evenly: it is the first, of the most bits.
    """
    model = record.model()
    for k, option in enumerate(advice.options):
        if option.reason.startswith("splits the"):
            assert k == 0 and f"splits the {counts.total:,} deals" in option.reason, option
            assert option.information == max(o.information for o in advice.options), option
        found = REASON.search(option.reason)
        if found is None:
            continue
        answer, owner, sector = int(found[1]), found[3], found[4]
        assert option.answers.get(answer, 0) > 0, option
        assert found[2] == pct(option.answers[answer]), option
        assert counts.held[owner, sector] < counts.total, option
        tally = Tally(gnext.question(record, option.row), frozenset({answer}))
        after = count(model.with_group(0, model.groups[0] + (tally,)))
        assert after.total and after.held[owner, sector] == after.total, option


@pytest.mark.parametrize("seed", [2, 5])
def test_timing_equals_brute_force_on_three_players(seed):
    doc, _ = simulate(3, 9, seed, me=seed % 3, guesses=0.6)
    for k in (3, 6, len(doc["events"])):
        record = parse(dict(doc, events=doc["events"][:k]), "sim")
        total, held = brute_count(record.model())
        advice = gnext.advise(report(record), {})
        assert advice.guesses
        check_timing(record, advice, lambda o, s, t=total, h=held: Fraction(h[o, s], t))


@cache
def played():
    """The game of the issue, ``table_game(5, 10, seed=126, me=2)``, as a record."""
    doc, _ = table_game(5, 10, seed=126, me=2)
    return parse(doc, "played")


@pytest.mark.parametrize(
    ("upto", "why"),
    [(25, "my own wrong guess at event 25"), (26, "still that round"), (29, "two guesses")],
)
def test_next_never_says_guess_now_when_the_rules_forbid_it(upto, why):
    record = played().upto(upto)
    found = report(record)
    advice = gnext.advise(found, {})
    sure = [g for g in advice.guesses if g.probability == 1]
    assert sure or upto == 29, why
    for g in advice.guesses:
        assert g.timing.verdict == "not allowed now", (why, g)
        assert check_guess(found, g.owner, g.sector).allowed is False


def test_taken_first_counts_no_right_guess_of_my_own_cards():
    record = played().upto(34)  # 5 right guesses of their cards, 2 of mine; 3 of theirs down
    advice = gnext.advise(report(record), {})
    assert advice.guesses[0].timing.taken == taken_again(record) == Fraction(6, 4 * 3)


def test_a_reason_names_no_certain_holding_nor_an_impossible_answer():
    for upto in (25, 27, 35):
        record = played().upto(upto)
        found = report(record)
        advice = gnext.advise(found, {})
        counts = count(record.model())
        check_reasons(record, advice, counts)
        sure = {g.owner + " " + g.sector for g in advice.guesses if g.probability == 1}
        assert sure or upto == 27
        assert not [o for o in advice.options for h in sure if h + " certain" in o.reason]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (3, 4), (4, 3)])
def test_next_agrees_with_check_on_every_state_of_a_simulated_game(players, seed):
    doc, _ = simulate(players, 3 * players, seed, me=seed % players, guesses=0.6)
    for k in range(len(doc["events"]) + 1):
        record = parse(dict(doc, events=doc["events"][:k]), "sim")
        found = report(record)
        advice = gnext.advise(found, {})
        for g in advice.guesses:
            checked = check_guess(found, g.owner, g.sector)
            assert checked.probability == g.probability
            assert checked.timing == g.timing
            assert checked.expected == g.timing.now
            assert checked.allowed is g.timing.allowed
            if g.timing.verdict == "guess now":
                assert checked.verdict in ("certain", "worth it")
        check_reasons(record, advice, count(record.model()))


def test_points_keep_their_sign_and_never_read_minus_zero():
    from sleuth.render.common import signed

    assert [signed(v) for v in (16.66, -2.5, 0.0, -0.02, 0.04)] == [
        "+16.7",
        "-2.5",
        "+0.0",
        "+0.0",
        "+0.0",
    ]
