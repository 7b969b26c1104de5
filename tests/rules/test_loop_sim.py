"""Simulated games of Loot the Loop are legal by a re-check of their own, written from the
rulebook: every event is legal where it stands and does what the rules say, the 53 cards stay
53, the game ends as Game End says, and the policies play on what the player sees.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import sleuth.games.loop.simulate as sim
from sleuth.games.loop.simulate import (
    CARDS,
    POLICIES,
    Action,
    State,
    every_explore_is_a_trap,
    legal_actions,
    simulate,
    step,
    view,
)

SEEDS = range(120)
NAMES = tuple(POLICIES)
ACES = {"AS", "AH", "AD", "AC"}


def number(card: str) -> int | None:
    """A trinket's value; None for any other card."""
    rank = card[:-1]
    return int(rank) if rank.isdigit() and 2 <= int(rank) <= 10 else None


def is_trap(card: str) -> bool:
    return card[:-1] in ("J", "Q", "K")


def explores(state: State) -> set[int]:
    """The counts the face-up trinkets among the top two allow."""
    return {n for c, up in state.deck[:2] if up and (n := number(c))}


def legal(state: State) -> list[dict]:
    """Every legal event's shape now, by the rulebook's table (a look with its cards unknown)."""
    deck, shapes = state.deck, []
    if deck and not deck[0][1]:
        shapes.append({"look": None})
    shapes += [{"explore": n} for n in sorted(explores(state))]
    if deck and deck[0][1] and number(deck[0][0]) and len(state.notes) < 3:
        shapes.append({"mark": deck[0][0]})
    return shapes + [{"return": card} for card in state.notes]


def expected(before: State, event: dict) -> State:
    """The state the rulebook makes of ``before`` and a legal ``event`` (status not yet stuck)."""
    ((what, arg),) = event.items()
    deck, notes, score = list(before.deck), list(before.notes), list(before.score)
    if what == "look":
        turned = 2 if len(deck) > 1 and not deck[1][1] else 1
        assert arg == [card for card, _ in deck[:turned]]
        deck[:turned] = [(card, True) for card, _ in deck[:turned]]
    elif what == "explore":
        k = arg % len(deck)
        deck = deck[k:] + deck[:k]
        card, up = deck[0]
        if up and is_trap(card):
            return State(tuple(deck), tuple(notes), tuple(score), "lost")
        if up and card == "joker" and set(score) >= ACES:
            return State(tuple(deck), tuple(notes), tuple(score), "won")
        if up and card != "joker":
            score.append(deck.pop(0)[0])
    elif what == "mark":
        notes.append(deck.pop(0)[0])
    else:
        notes.remove(arg)
        deck.insert(0, (arg, True))
    return State(tuple(deck), tuple(notes), tuple(score))


def check_event(before: State, event: dict, after: State) -> None:
    """``event`` is legal in ``before`` and makes ``after`` of it, by the rulebook."""
    assert before.status == "playing" and len(event) == 1
    shapes = legal(before)
    assert event in shapes or ("look" in event and {"look": None} in shapes)
    made = expected(before, event)
    if made.status == "playing" and not legal(made):
        made = State(made.deck, made.notes, made.score, "stuck")
    assert after == made


def games(policy: str):
    for seed in SEEDS:
        yield simulate(seed, policy)


def pairs(game):
    return zip(game.states[:-1], game.doc["events"], game.states[1:], strict=True)


@pytest.mark.parametrize("policy", NAMES)
def test_every_event_is_legal_where_it_stands_and_does_what_the_rules_say(policy):
    for game in games(policy):
        assert len(game.states) == len(game.doc["events"]) + 1
        for before, event, after in pairs(game):
            check_event(before, event, after)


@pytest.mark.parametrize("policy", NAMES)
def test_a_look_turns_up_exactly_the_top_one_or_two_face_down_cards(policy):
    for game in games(policy):
        for before, event, after in pairs(game):
            if "look" not in event:
                continue
            cards = event["look"]
            down = [not up for _, up in before.deck]
            assert 1 <= len(cards) <= 2 and all(down[: len(cards)])
            assert len(cards) == 2 or len(down) == 1 or not down[1]
            assert [c for c, _ in after.deck] == [c for c, _ in before.deck]
            flipped = [
                k for k, (a, b) in enumerate(zip(before.deck, after.deck, strict=True)) if a != b
            ]
            assert flipped == list(range(len(cards)))


def cyclic(a: list[str], b: list[str]) -> bool:
    """Whether ``b`` is ``a`` turned round."""
    return len(a) == len(b) and (not a or " ".join(b) in " ".join(a + a))


@pytest.mark.parametrize("policy", NAMES)
def test_an_explore_keeps_the_deck_in_its_cyclic_order(policy):
    turns = Counter[bool]()
    for game in games(policy):
        for before, event, after in pairs(game):
            if "explore" not in event:
                continue
            cards = [c for c, _ in before.deck]
            nabbed = list(after.score[len(before.score) :])
            moved = nabbed + [c for c, _ in after.deck]
            assert cyclic(cards, moved) and len(nabbed) <= 1
            k = event["explore"] % len(cards)
            assert moved == cards[k:] + cards[:k]
            turns[event["explore"] >= len(cards)] += 1
    assert turns[False] > 100


@pytest.mark.parametrize("policy", NAMES)
def test_the_53_cards_are_conserved(policy):
    assert len(CARDS) == len(set(CARDS)) == 53 and "10D" in CARDS and "joker" in CARDS
    for game in games(policy):
        for state in game.states:
            held = [c for c, _ in state.deck] + list(state.notes) + list(state.score)
            assert sorted(held) == sorted(CARDS) and len(state.notes) <= 3


@pytest.mark.parametrize("policy", NAMES)
def test_the_game_ends_as_game_end_says(policy):
    ends = Counter[str]()
    for game in games(policy):
        last, *earlier = reversed(game.states)
        assert all(state.status == "playing" for state in earlier)
        assert game.status == last.status and game.score == len(last.score)
        assert all(not up for _, up in game.states[0].deck) and len(game.states[0].deck) == 53
        if game.status == "stuck":
            assert legal(last) == []
        elif game.status == "playing":
            assert game.looped and legal(last)
        else:
            assert "explore" in game.doc["events"][-1] and last.deck[0][1]
            assert is_trap(last.deck[0][0]) == (game.status == "lost")
        ends[game.status] += 1
    assert ends["stuck"] and ends["lost"]


def test_a_game_is_the_same_for_the_same_seed_and_cut_short_by_limit():
    for policy in NAMES:
        game = simulate(5, policy)
        assert simulate(5, policy) == game and game.policy == policy
        short = simulate(5, policy, limit=3)
        assert short.doc["events"] == game.doc["events"][:3] and short.status == "playing"
        assert short.states == game.states[:4] and not short.looped
    assert simulate(5, "random").states[0] == simulate(5, "greedy").states[0]
    assert simulate(5).doc == simulate(5, "random").doc


def test_the_record_is_the_record_format_s():
    doc = simulate(11).doc
    assert set(doc) == {"game", "events"} and doc["game"] == "loot-the-loop"
    assert doc["events"][0] == {"look": [c for c, _ in simulate(11).states[0].deck[:2]]}
    assert json.loads(json.dumps(doc)) == doc
    kinds = {next(iter(e)) for s in SEEDS for e in simulate(s).doc["events"]}
    assert kinds == {"look", "explore", "mark", "return"}


def scrambled(game, upto: int, rng: random.Random) -> State:
    """The deal of ``game`` with the cards still face down after ``upto`` events reshuffled."""
    unseen = sorted(c for c, up in game.states[upto].deck if not up)
    shuffled = iter(rng.sample(unseen, len(unseen)))
    cards = [next(shuffled) if c in unseen else c for c, _ in game.states[0].deck]
    assert sorted(cards) == sorted(CARDS)
    return State(tuple((card, False) for card in cards))


@pytest.mark.parametrize("policy", NAMES)
def test_the_policies_never_read_a_face_down_card(policy, monkeypatch):
    """Two deals that differ only in cards not yet turned up give the same moves so far."""
    rng = random.Random(31)
    for seed in range(40):
        game = simulate(seed, policy)
        upto = rng.randrange(len(game.doc["events"]) + 1)
        other = scrambled(game, upto, rng)
        monkeypatch.setattr(sim, "deal", lambda r, other=other: sim.State(other.deck))
        again = simulate(seed, policy, limit=upto)
        monkeypatch.undo()
        assert again.states[0] == other
        assert again.doc["events"] == game.doc["events"][:upto]
        for state, mine in zip(game.states[: upto + 1], again.states, strict=True):
            assert view(state) == view(mine)


@pytest.mark.parametrize("policy", NAMES)
def test_a_policy_chooses_the_same_when_face_down_cards_are_replaced(policy):
    rng = random.Random(7)
    choose = POLICIES[policy].choose
    for game in games(policy):
        for state in game.states[:-1]:
            fake = tuple((c if up else rng.choice(CARDS), up) for c, up in state.deck)
            seen, other = view(state), view(State(fake, state.notes, state.score))
            assert seen == other and (seen.notes, seen.score) == (state.notes, state.score)
            assert seen.deck == tuple(c if up else None for c, up in state.deck)
            k = rng.getrandbits(32)
            assert choose(seen, random.Random(k)) == choose(other, random.Random(k))


def test_greedy_looks_when_it_can_and_never_explores_onto_a_trap_while_it_has_a_choice():
    for game in games("greedy"):
        for before, event, after in pairs(game):
            shapes = legal(before)
            if {"look": None} in shapes:
                assert "look" in event
            if after.status == "lost":
                assert all("explore" in shape for shape in shapes)


# Hand-made states


def deck(*cards: str) -> tuple[tuple[str, bool], ...]:
    """Face-up cards by name, face-down ones as ``?name``: ``deck("7H", "?KS")``."""
    return tuple((c.lstrip("?"), not c.startswith("?")) for c in cards)


def test_the_landings_of_an_explore():
    aces = ("AS", "AH", "AD", "AC")
    cases = [
        (deck("3H", "5C", "?2D", "joker"), aces, 3, "won"),
        (deck("3H", "5C", "?2D", "joker"), aces[:3], 3, "playing"),
        (deck("3H", "5C", "?2D", "KS", "4D"), (), 3, "lost"),
        (deck("3H", "5C", "?2D", "KS", "4D"), (), 5, "playing"),  # back to the top, 5 mod 5
        (deck("?2D", "5C", "AS"), (), 5, "playing"),  # 5 mod 3: the ace, nabbed
        (deck("QD", "5C", "AS", "?2C", "KH", "?KC"), (), 5, "playing"),  # face down: nothing
    ]
    for cards, score, n, status in cases:
        state = State(cards, (), score)
        after, event = step(state, Action("explore", n))
        assert event == {"explore": n} and after.status == status
        check_event(state, event, after)
    nab, _ = step(State(deck("?2D", "5C", "AS")), Action("explore", 5))
    assert nab.score == ("AS",) and nab.deck == deck("?2D", "5C")
    home, _ = step(State(deck("3H", "5C", "?2D", "KS", "4D")), Action("explore", 5))
    assert home.score == ("3H",) and home.deck == deck("5C", "?2D", "KS", "4D")
    safe, _ = step(State(deck("4C", "?9D", "QS", "KS", "?7H")), Action("explore", 4))
    assert safe.deck == deck("?7H", "4C", "?9D", "QS", "KS") and safe.status == "playing"


def test_look_mark_and_return_by_the_table_of_actions():
    state = State(deck("?7H", "KS", "?2D"))
    assert legal_actions(state) == [Action("look")]
    after, event = step(state, Action("look"))
    assert event == {"look": ["7H"]} and after.deck == deck("7H", "KS", "?2D")
    assert legal_actions(State(deck("?7H"))) == [Action("look")]
    assert step(State(deck("?7H", "?2D", "?3D")), Action("look"))[1] == {"look": ["7H", "2D"]}
    full = State(deck("7H", "?2D"), ("2C", "3C", "4C"))
    assert Action("mark", card="7H") not in legal_actions(full)
    with pytest.raises(ValueError):
        step(full, Action("mark", card="7H"))
    marked, event = step(State(deck("7H", "?2D"), ("2C",)), Action("mark", card="7H"))
    assert event == {"mark": "7H"} and marked.notes == ("2C", "7H")
    assert marked.deck == deck("?2D") and marked.status == "playing"
    back, event = step(State((), ("2C", "7H")), Action("return", card="7H"))
    assert event == {"return": "7H"} and back.deck == deck("7H") and back.notes == ("2C",)
    assert Action("mark", card="AS") not in legal_actions(State(deck("AS", "?2D"), ()))


def test_stuck_is_no_legal_action_left():
    state = State(deck("7H", "JS", "?2D"))
    assert legal_actions(state) == [Action("explore", 7), Action("mark", card="7H")]
    stuck, _ = step(state, Action("mark", card="7H"))
    assert stuck.status == "playing" and legal_actions(stuck) == [Action("return", card="7H")]
    stuck, _ = step(State(deck("?QH", "JS", "AD")), Action("look"))
    assert stuck.status == "stuck" and legal_actions(stuck) == []
    nabbed, _ = step(State(deck("2H", "AS")), Action("explore", 2))  # 2 mod 2: the trinket
    assert nabbed.deck == deck("AS") and nabbed.status == "stuck"
    assert legal_actions(State(deck("AS"), (), (), "lost")) == []


def test_every_explore_is_a_trap_names_the_rulebook_s_doom_and_nothing_else():
    example = ("4D", "6D", "10H", "?2H", "KS", "?3H", "JH", "?9C")  # the rulebook's, nearly
    assert every_explore_is_a_trap(State(deck(*example)))
    assert not every_explore_is_a_trap(State(deck(*example[:6], "?9C", "JH")))
    assert not every_explore_is_a_trap(State(deck("JS", "QS")))  # no explore at all
    with_notes = State(deck("4D", "QS", "?2H", "?3H", "KS"), ("7C",))
    assert every_explore_is_a_trap(with_notes) and len(legal_actions(with_notes)) == 3
