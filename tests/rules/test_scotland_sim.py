"""Simulated Scotland Yard games are legal by checks of their own, and the brute-force oracle
of who holds X never rules out the truth, counts as the contract says, and fits the deal.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import sqrt

import pytest
from oracles.scotland import action, colour, posterior, publics, size, unpack, worlds

from sleuth.games.scotland.course import follow, unknown_cards
from sleuth.games.scotland.simulate import View, simulate
from sleuth.record import parse

X = "X"
MISTER_X = {"feint", "buy", "disappear"}
SEEDS = range(40)
BUDGET = 20_000  # worlds the oracle may list per record


def number(ticket: str) -> int:
    return int(ticket[:-1])


def fits(ticket: str, pile: int, field: list[str]) -> bool:
    above = number(ticket) > number(field[pile - 1])
    return above and (pile == 3 or number(ticket) < number(field[pile]))


def games(players, keep, **options):
    """A simulated game per seed, my seat and the first player moving round the table."""
    for seed in SEEDS:
        me, start = seed % players, (seed // players) % players
        yield simulate(players, seed, me=me, keep=keep, start=start, **options)


def sizes(game, i: int) -> dict[str, int]:
    return {p: len(hand) for p, hand in game.hands[i].items()}


def check_play(game, i: int, field: list[str]) -> list[str]:
    """Event ``i`` is a legal play on ``field``; the field after it."""
    kind, body = unpack(game.doc["events"][i])
    by, before, after = body["by"], game.hands[i], game.hands[i + 1]
    if kind == "pass":
        hand = [c for c in after[by] if c != X]
        low = min(map(number, field))
        assert not any(fits(t, p, field) for t in hand for p in (1, 2, 3))
        assert game.decks[i + 1] < 3 or not any(number(t) < low for t in hand)
        return field
    ticket = body["ticket"]
    assert ticket in before[by] or (game.decks[i] > 0 and ticket == body.get("drawn", ticket))
    assert all(ticket not in hand for hand in after.values())
    if kind == "refresh":
        assert number(ticket) < min(map(number, field))
        assert body["field"] == sorted(body["field"], key=number) and len(body["field"]) == 3
        return list(body["field"])
    assert fits(ticket, body["pile"], field)
    if body["action"] in MISTER_X:
        assert colour(ticket) == "k" and game.holders[i] == by
    return field[: body["pile"] - 1] + [ticket] + field[body["pile"] :]


def check_action(game, i: int) -> None:
    """Event ``i``'s fields agree with the true hands before and after it."""
    kind, body = unpack(game.doc["events"][i])
    what, me, holder = action(kind, body), game.doc["me"], game.holders[i]
    assert ("drawn" in body) == (body["by"] == me and game.decks[i] > 0)
    if what in ("draw", "buy"):
        assert ("drew" in body) == (body["by"] == me)
    if "target" in body:
        assert body["target"] != body["by"]
    if what == "interrogation" and "found" in body:
        assert body["found"] == (holder == body["target"])
        assert ("discarded" in body) == body["found"]
    if what == "manhunt":
        assert body.get("found", False) == (game.holders[i + 1] is None)
        taken = body.get("took", [])
        assert all(t in game.hands[i][body["target"]] for t in taken) and X not in taken
    if what == "disappear" and "got" in body:
        assert body["got"] in game.hands[i + 1][me] and body["gave"] in game.hands[i][me]


def ending(game, i: int) -> str | None:
    """Who wins by event ``i``, by the rulebook's four ends."""
    kind, body = unpack(game.doc["events"][i])
    what, after = action(kind, body), game.hands[i + 1]
    if what == "manhunt" and body.get("found"):
        return "detectives"
    if what == "interrogation" and X in body.get("discarded", []):
        return "detectives"
    if what == "feint" and not any(after[p] for p in after if p != body["by"]):
        return "mister_x"
    return "mister_x" if game.decks[i + 1] == 0 else None


def check_game(game) -> None:
    """The whole game, event by event, then its end."""
    events, field = game.doc["events"], list(game.doc["field"])
    assert game.holders[0] is not None and X in game.hands[0][game.holders[0]]
    assert [sizes(game, i) for i in range(len(events) + 1)] == [s.hands for s in publics(game.doc)]
    assert game.decks == [s.deck for s in publics(game.doc)] and min(game.decks) >= 0
    for i in range(len(events)):
        field = check_play(game, i, field)
        check_action(game, i)
        assert ending(game, i) is None or i == len(events) - 1
    assert game.winner == ending(game, len(events) - 1)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("keep", [Fraction(0), Fraction(1, 4)])
def test_every_simulated_game_is_legal(players, keep):
    for game in games(players, keep):
        check_game(game)
    for game in games(players, keep, mister_x_bold=0.6, feint=2 * players):
        check_game(game)


def test_an_interrogation_can_leave_mister_x_only_the_x_card_to_discard():
    game = simulate(3, 226, mister_x_bold=0.9)  # found by a search over seeds
    check_game(game)
    last = unpack(game.doc["events"][-1])[1]
    assert last["action"] == "interrogation" and X in last["discarded"]
    assert game.winner == "detectives" and game.holders[-1] is None


def test_a_game_is_the_same_for_the_same_seed_and_cut_short_by_limit():
    assert simulate(4, 3).doc == simulate(4, 3).doc
    short = simulate(4, 3, limit=2)
    assert short.doc["events"] == simulate(4, 3).doc["events"][:2] and short.winner is None
    assert len(short.holders) == len(short.hands) == len(short.decks) == 3
    assert simulate(5, 1, keep=Fraction(1, 4)).doc["keep"] == "0.25"
    assert "keep" not in simulate(5, 1).doc
    with pytest.raises(ValueError):
        simulate(5, 1, keep=Fraction(1, 3))


def test_the_deal_follows_the_setup():
    for players, tickets in ((3, 72), (4, 81), (5, 90)):
        game = simulate(players, 9, limit=0)
        cards = [c for hand in game.hands[0].values() for c in hand]
        assert len(cards) == 8 * players and len(game.doc["field"]) == 3
        assert game.decks[0] == tickets - 5 - (8 * players - 1) - 3
        numbers = [number(c) for c in cards + game.doc["field"] if c != X]
        gone = {3: "09", 4: "0", 5: ""}[players]
        assert not any(set(str(n)) & set(gone) for n in numbers)
        assert sorted(game.doc["hand"]) == sorted(game.hands[0][game.doc["me"]])


def test_hunt_sees_the_record_and_chooses_without_changing_the_deal():
    seen: list[View] = []

    def hunt(view: View) -> str:
        seen.append(view)
        return view.targets[-1]

    seed = next(s for s in range(100) if simulate(4, s, hunt=hunt) and seen)
    plain, hunted = simulate(4, seed), simulate(4, seed, hunt=hunt)
    assert (plain.doc["hand"], plain.doc["field"]) == (hunted.doc["hand"], hunted.doc["field"])
    first = seen[0]
    made = len(first.doc["events"])
    assert hunted.doc["events"][:made] == first.doc["events"] == plain.doc["events"][:made]
    event = unpack(hunted.doc["events"][made])[1]
    assert event["by"] == first.by and event["action"] == first.action
    assert event["target"] == first.targets[-1] and first.by not in first.targets
    assert first.by != hunted.holders[made]
    assert first.own["events"] == hunted.records[first.by]["events"][:made]
    assert first.own["me"] == first.by and first.ticket == event["ticket"]


# The oracle


def cut(doc: dict, budget: int = BUDGET) -> int:
    """The most events the oracle can read within ``budget`` worlds."""
    return max(u for u in range(len(doc["events"]) + 1) if size(doc, u) <= budget)


def prior_of(players: int) -> list[Fraction]:
    return [Fraction(sum(k % players == j for k in range(10)), 10) for j in range(players)]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("keep", [Fraction(0), Fraction(1, 4)])
def test_the_oracle_never_rules_out_the_true_holder(players, keep):
    for game in games(players, keep, mister_x_bold=0.5):
        doc, me = game.doc, game.doc["me"]
        upto = cut(doc)
        assert len(worlds(doc, upto)) <= size(doc, upto)
        mine, public = posterior(doc, upto), posterior(doc, upto, public=True)
        holder = game.holders[upto]
        assert mine is not None and public is not None
        if holder is None:
            assert sum(mine.values()) == sum(public.values()) == 0
            continue
        assert sum(mine.values()) == sum(public.values()) == 1
        assert mine[holder] > 0 and public[holder] > 0
        assert mine[me] == (holder == me)  # I always know whether I hold X


def rules_out(game, i: int, player: str) -> bool:
    """Whether event ``i`` says outright that ``player`` does not hold X (publicly)."""
    kind, body = unpack(game.doc["events"][i])
    what = action(kind, body)
    if what in MISTER_X and body["by"] != player:
        return True
    if "found" in body:
        return body["found"] or body["target"] == player
    return publics(game.doc)[i + 1].hands[player] == 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_public_view_rules_me_out_only_after_an_event_that_says_so(players):
    for game in games(players, Fraction(1, 4), mister_x_bold=0.5):
        doc, me = game.doc, game.doc["me"]
        chances = [posterior(doc, u, public=True)[me] for u in range(cut(doc, 2000) + 1)]
        assert chances[0] == prior_of(players)[doc["players"].index(me)]
        for u in range(1, len(chances)):
            if chances[u] == 0 < chances[u - 1]:
                assert rules_out(game, u - 1, me)


THREE = {"game": "scotland-yard", "players": ["Ann", "Ben", "Cy"], "me": "Ann"}
THREE |= {"hand": ["3b", "5y", "12r", "16k", "24b", "33r", "47y", "58k"]}
THREE |= {"field": ["21y", "44b", "71r"], "first_dealt": "Ann"}


def turn(by, ticket, pile, what, **fields):
    return {"turn": {"by": by, "ticket": ticket, "pile": pile, "action": what, **fields}}


def test_the_oracle_counts_the_prior_a_manhunt_and_a_conflict_as_the_contract_says():
    assert posterior(THREE | {"events": []}, public=True) == dict(
        zip(THREE["players"], prior_of(3), strict=True)
    )
    hunt = turn("Ann", "72b", 3, "manhunt", target="Ben", took=["13y"])
    # Ben may hold X (1/2) and give up a ticket, 7 cards in 8; Cy may (1/2)
    got = posterior(THREE | {"events": [hunt]})
    assert got == {"Ann": 0, "Ben": Fraction(7, 15), "Cy": Fraction(8, 15)}
    red = turn("Ann", "72r", 3, "manhunt", target="Ben", took=["13y", "14b"])
    assert posterior(THREE | {"events": [red]})["Ben"] == Fraction(6, 14)
    buy = turn("Ben", "45k", 2, "buy")
    innocent = turn("Cy", "46b", 2, "interrogation", target="Ben", found=False)
    assert posterior(THREE | {"events": [buy, innocent]}) is None


def test_a_disappear_moves_x_as_the_contract_says():
    doc = dict(THREE, players=["Ann", "Ben", "Cy", "Dee"], keep="0.25")
    vanish = turn("Ben", "80k", 3, "disappear", got="61r", gave="3b")
    # X stays with Ben: keep + (1 - keep) / 4 = 7/16; each other player 3/16
    assert posterior(doc | {"events": [vanish]}, public=True) == {
        "Ann": Fraction(3, 16),
        "Ben": Fraction(7, 16),
        "Cy": Fraction(3, 16),
        "Dee": Fraction(3, 16),
    }
    assert posterior(doc | {"events": [vanish]}) == {
        "Ann": 0,
        "Ben": Fraction(7, 13),
        "Cy": Fraction(3, 13),
        "Dee": Fraction(3, 13),
    }
    mine = doc | {"hand": doc["hand"][:7] + [X], "me": "Ben"}
    kept = turn("Ben", "80k", 3, "disappear", got="61r", gave="3b")
    assert posterior(mine | {"events": [kept]})["Ben"] == 1
    handed = turn("Ben", "80k", 3, "disappear", got="61r", gave=X)
    assert posterior(mine | {"events": [handed]}) == {
        "Ann": Fraction(1, 3),
        "Ben": 0,
        "Cy": Fraction(1, 3),
        "Dee": Fraction(1, 3),
    }


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_deal_gives_x_to_each_seat_as_often_as_the_oracles_prior(players):
    deals = 2000
    holders = [simulate(players, seed, limit=0).holders[0] for seed in range(deals)]
    prior = posterior(simulate(players, 0, limit=0).doc, public=True)
    for player, chance in prior.items():
        error = sqrt(chance * (1 - chance) / deals)
        assert abs(holders.count(player) / deals - chance) < 4 * error


def ordered(hand) -> list[str]:
    return sorted(hand, key=lambda c: (c == X, 0 if c == X else number(c)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_seat_keeps_a_record_sleuth_accepts_of_its_own_true_hand(players):
    """Each seat's record: legal for sleuth, its hand the seat's, every card it knows truly held.

    The cards a record cannot know are the special black tickets Mister X draws when found (no
    field holds them), and the cards besides X a manhunt takes when it finds X (it ends the game).
    """
    for game in games(players, Fraction(1, 4), mister_x_bold=0.5):
        assert game.records[game.doc["me"]] is game.doc
        for seat, doc in game.records.items():
            record = parse(doc, "simulated")
            assert record.forbidden() is None and doc["me"] == seat
            assert doc["hand"] == ordered(game.hands[0][seat])
            courses = follow(record.events, record.table, record.start)
            for k, now in enumerate(courses[: len(courses) - (game.winner == "detectives")]):
                known, true = Counter(map(str, now.mine)), Counter(game.hands[k][seat])
                assert not known - true and now.doubt == 0 and now.hands[seat] == true.total()
                assert unknown_cards(now, seat) == (true - known).total()
                assert all(colour(c) == "k" for c in true - known)


def test_a_seat_knows_its_draws_and_its_disappears_the_others_do_not():
    game = simulate(4, 3, keep=Fraction(1, 4), mister_x_bold=0.5)  # two disappears
    private, told = {"drawn", "drew", "got", "gave", "special"}, Counter[str]()
    for k, event in enumerate(game.doc["events"]):
        bodies = {seat: unpack(doc["events"][k])[1] for seat, doc in game.records.items()}
        public = {key: v for key, v in bodies["Ann"].items() if key not in private}
        for seat, body in bodies.items():
            assert {key: v for key, v in body.items() if key not in private} == public
            mine = set(body) & private
            assert not mine - {"drawn", "drew", "special"} or action(*unpack(event)) == "disappear"
            assert "special" not in mine or body["target"] == seat
            assert not mine & {"drawn", "drew"} or body["by"] == seat
            told.update(mine)
    assert told["got"] == told["gave"] >= 2 * 3 and told["drew"] > 0
