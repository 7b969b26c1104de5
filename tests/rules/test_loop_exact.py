"""Loot the Loop's exact search (``loop.exact``) against an oracle written apart from it.

``loop_oracle`` values every public state of a small deck by value iteration, from the rulebook
alone; the search must give the same chances, exactly, from the start and from every state, for
each action too. No player who sees only the face-up cards beats one who sees them all (the
clairvoyant bound), and the planner's rollout policy, played on every order, never beats the
best play. On the full deck, the first look's chance of leaving no legal action is counted and
held to simulated shuffles.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from fractions import Fraction
from functools import cache

import pytest
from loop_oracle import State, Worked, clairvoyant, label, work

from sleuth.budget import Deadline
from sleuth.games.base import Event
from sleuth.games.loop import exact, plan
from sleuth.games.loop.cards import DECK
from sleuth.games.loop.simulate import simulate
from sleuth.games.loop.temple import Action, Temple, step
from sleuth.games.loop.tracker import Tracker, after_look

DECKS = {  # small decks: the four jewels and the exit, a trap or two, a few trinkets
    "8 cards": "AS AH AD AC joker KS 2H 4H",
    "8, no trap": "AS AH AD AC joker 3H 4H 7D",
    "8, doomed": "AS AH AD AC joker KS 2H 3H",
    "9 cards": "AS AH AD AC joker KS 2H 2C 3H",
    "10 cards": "AS AH AD AC joker KS QD 2H 3H 3C",
}
FULL_NOTES = Temple(  # three notes: no mark until a return (found by a search for one)
    deck=("3S", "AH", None, None, "AC", "5S", "KS", None, "QD"),
    notes=("5H", "7C", "7S"),
    seen=frozenset(DECK) - {"AS", "AD", "joker"},
)


def small(cards: list[str]) -> Temple:
    """The start of a game of ``cards`` alone: the rest of the box counts as seen."""
    return Temple(deck=(None,) * len(cards), seen=frozenset(DECK) - set(cards))


SITUATIONS = {name: small(cards.split()) for name, cards in DECKS.items()} | {
    "full notes": FULL_NOTES
}


def cards_of(temple: Temple) -> list[str]:
    """Every card of the temple's game: in the deck, the notes, the score pile, or unseen."""
    return [*(c for c in temple.deck if c), *temple.notes, *temple.score, *temple.unseen]


def state_of(temple: Temple) -> State:
    """The temple as the oracle's public state."""
    places = tuple(None if c is None else label(c) for c in temple.deck)
    notes = tuple(sorted(map(label, temple.notes)))
    return (places, notes, temple.jewels(), tuple(sorted(map(label, temple.unseen))))


@cache
def worked(name: str) -> Worked:
    now = SITUATIONS[name]
    return work(cards_of(now), state_of(now))


def temple_of(state: State, name: str) -> Temple:
    """The oracle's state as a temple, naming each label by one of the situation's cards."""
    places, notes, _, unseen = state
    pool: dict[str, list[str]] = defaultdict(list)
    for card in cards_of(SITUATIONS[name]):
        pool[label(card)].append(card)
    up = tuple(None if c is None else pool[c].pop() for c in places)
    noted = tuple(pool[c].pop() for c in notes)
    hidden = {pool[c].pop() for c in unseen}
    score = tuple(card for cards in pool.values() for card in cards)
    return Temple(up, noted, score, frozenset(DECK) - hidden)


def act(action: Action) -> str:
    """The temple's action as the oracle writes it: cards by their labels."""
    if action.action in ("look", "explore"):
        return str(action)
    return f"{action.action} {label(str(action.what))}"


def event(action: Action) -> Event:
    """A certain action (explore, mark, return) as the record's event."""
    return action.event()


def agrees(solved: exact.Solved, temple: Temple, oracle: Worked, state: State) -> None:
    """The search's chance, each action's, the plan and doomed all agree with the oracle's."""
    assert solved.win == oracle.v[state]
    assert {act(o.action): o.win for o in solved.options} == oracle.chances(state)
    assert solved.doomed == (oracle.v[state] == 0) == exact.doomed(temple)
    if solved.win:
        first = next(o for o in solved.options if o.action == solved.plan[0])
        assert first.win == solved.win
        for action in solved.plan[:-1]:
            assert action.action != "look"
            temple = step(temple, event(action))
        assert str(solved.plan[-1]) in {str(a) for a in temple.actions()}
    else:
        assert solved.plan == ()


@pytest.mark.parametrize("name", SITUATIONS)
def test_the_optimum_from_the_start_is_the_oracle_s(name):
    start = SITUATIONS[name]
    assert worked(name).first == state_of(start) == state_of(temple_of(state_of(start), name))
    solved = exact.solve(start)
    assert solved is not None
    agrees(solved, start, worked(name), worked(name).first)
    assert (solved.win == 0) == (name == "8, doomed")


EVERY = {"8 cards": 1, "full notes": 1, "8, no trap": 40, "9 cards": 100, "10 cards": 100}


@pytest.mark.parametrize(("name", "every"), EVERY.items())
def test_every_state_s_chances_are_the_oracle_s(name, every):
    """Every ``every``-th state reachable in the situation (sorted by their text).

    One search serves them all, as it may for the states of one game: what it remembers of one
    state must hold for the next.
    """
    oracle = worked(name)
    states = sorted(oracle.graph, key=repr)[::every]
    search = exact.Search()
    for state in states:
        temple = temple_of(state, name)
        solved = exact.solve(temple, search=search)
        assert solved is not None
        agrees(solved, temple, oracle, state)
    values = {oracle.v[s] for s in states}
    assert 0 in values and len(values) > 2  # doomed states, and states of several chances


@pytest.mark.parametrize("deck", DECKS)
def test_the_optimum_is_at_most_the_clairvoyant_bound(deck):
    bound = clairvoyant(DECKS[deck].split())
    assert worked(deck).optimum <= bound
    assert (bound == 0) == (deck == "8, doomed")
    if deck != "8, doomed":
        assert worked(deck).optimum < bound  # seeing the cards helps on these decks


@pytest.mark.parametrize("name", ["9 cards", "10 cards"])
def test_the_rollout_policy_never_beats_the_best_play(name):
    """Every order played by ``plan.advise`` (at most ``plan.EXACT`` unseen): a lower bound."""
    oracle = worked(name)
    few = [s for s in oracle.graph if len(s[3]) <= plan.EXACT and oracle.v[s] > 0]
    chosen = random.Random(7).sample(few, 20)
    won = 0
    for state in chosen:
        temple = temple_of(state, name)
        solved = exact.solve(temple)
        assert solved is not None
        best = {str(o.action): o.win for o in solved.options}
        advice = plan.advise(Tracker(None, temple), {})
        assert advice.exact
        for weighed in advice.options:
            assert Fraction(weighed.won, weighed.games) <= best[str(weighed.action)]
            won += weighed.won
    assert won  # the rollout policy wins some games: the bound is not checked on zeros alone


def test_the_first_look_of_the_full_deck_leaves_no_legal_action_with_chance_68_in_689():
    """Both cards turned up are no trinkets: no explore, no mark, no notes (17 such cards)."""
    chance = Fraction(17 * 16, 53 * 52)
    assert chance == Fraction(68, 689)
    assert after_look(Temple()).stuck == chance
    deck, notes, jewels, unseen = exact.key_of(Temple())
    looks = list(exact.looks(deck, unseen))
    stuck = sum(ways for ways, turned, _ in looks if not list(exact.moves((turned, notes, jewels))))
    assert Fraction(stuck, sum(ways for ways, _, _ in looks)) == chance


def test_simulated_shuffles_agree_on_the_first_look():
    """The simulator's first look, on 20,000 shuffles: within 4 standard deviations of 68/689."""
    games = 20_000
    stuck = sum(simulate(seed, "greedy", limit=1).status == "stuck" for seed in range(games))
    p = 68 / 689
    assert abs(stuck / games - p) <= 4 * math.sqrt(p * (1 - p) / games)


def test_a_search_past_its_deadline_gives_up():
    assert exact.solve(Temple(), Deadline(0.0)) is None
    assert exact.doomed(Temple(deck=("KS", "JH", None), seen=frozenset({"KS", "JH"}))) is True


@pytest.mark.parametrize("name", ["8 cards", "9 cards", "10 cards", "full notes"])
def test_next_given_time_plays_the_oracle_s_optimum(name):
    """With time for the exact search, ``next``'s first action and its chance are the best the
    oracle finds, in every sampled state the game can reach; its line starts with that action
    and ``doomed`` is the oracle's; without a deadline it samples as before (no search)."""
    oracle = worked(name)
    states = [s for s in oracle.graph if oracle.chances(s)]
    for state in random.Random(3).sample(states, min(25, len(states))):
        temple = temple_of(state, name)
        advice = plan.advise(Tracker(None, temple), {}, Deadline(60))
        assert advice.solved is not None and advice.solved.win == oracle.v[state]
        first = advice.options[0].action
        assert oracle.chances(state)[act(first)] == oracle.v[state]
        assert advice.line[0] == first and advice.doomed == (oracle.v[state] == 0)
        assert str(first) in advice.level
    assert plan.advise(Tracker(None, SITUATIONS[name]), {}).solved is None
