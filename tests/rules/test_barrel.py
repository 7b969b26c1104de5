"""``sleuth next --barrel``: each re-roll's expected best pair information equals brute force.

The brute force lists every deal of a three-player record by hand, builds each roll's questions
from the dice rules written out again here (Constructing A Question, Special Abilities), and
splits the deals by each question's answer; the re-rolled faces are enumerated here too.
"""

from __future__ import annotations

import importlib
import json
import math
from collections import Counter
from functools import cache
from io import StringIO
from itertools import combinations, product

import pytest
from invoke import invoker
from oracles.lima import brute
from rich.console import Console

import sleuth.cli  # noqa: F401 - registers the commands
from sleuth.analysis import report
from sleuth.document import document, dump
from sleuth.games.lima import barrel
from sleuth.games.lima import next as lnext
from sleuth.games.lima.board import island
from sleuth.games.lima.simulate import in_range
from sleuth.games.lima.simulate import simulate as lima_game
from sleuth.record import parse

cli_app = importlib.import_module("sleuth.cli.app")
ROLL = "SW-beach,N-wild,E-beach"  # die 1, die 2, die 3 (board.toml)
SEVEN = {(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)}  # the choices of dice to re-roll
TERRAINS = ("beach", "forest", "mountain")


def bits(weights) -> float:
    """Entropy in bits, written out again for the tests."""
    weights = [w for w in weights if w]
    total = sum(weights)
    return -sum(w / total * math.log2(w / total) for w in weights)


@cache
def covered(where: str, terrain: str | None) -> frozenset:
    """The locations a range (and terrain) covers."""
    start, end = where.split("-")
    return frozenset(t for t in island().locations if in_range(t, start, end, terrain))


def fits(doc: dict, player: str, hand: frozenset) -> bool:
    """Whether ``player`` holding ``hand`` gives every answer the record has from them."""
    for item in doc["events"]:
        ((kind, f),) = item.items()
        asked = kind in ("ask", "secret") and f["to"] == player and "answer" in f
        if asked and len(hand & covered(f["range"], f.get("terrain"))) != f["answer"]:
            return False
    return True


def treasure_fits(doc: dict, treasure: frozenset) -> bool:
    """Whether the treasure agrees with every accusation (and the tokens I saw after mine)."""
    for item in doc["events"]:
        ((kind, f),) = item.items()
        if kind == "accuse":
            if (frozenset(f["locations"]) == treasure) != f["correct"]:
                return False
            if f.get("treasure") and frozenset(f["treasure"]) != treasure:
                return False
    return True


def deals(doc: dict) -> list[tuple[frozenset, dict]]:
    """Every deal of a three-player record: (treasure, {rival: hand}), one by one."""
    me, board = doc["me"], island()
    assert fits(doc, me, frozenset(doc["hand"]))
    first, second = [p for p in doc["players"] if p != me]
    known = {p: frozenset((doc.get("known") or {}).get(p, ())) for p in (first, second)}
    each = (len(board.locations) - board.treasure) // len(doc["players"])
    fixed = set(doc["hand"]) | set(doc["public"]) | known[first] | known[second]
    free = frozenset(board.locations) - fixed

    def hands(p):
        made = (known[p] | frozenset(h) for h in combinations(sorted(free), each - len(known[p])))
        return [h for h in made if fits(doc, p, h)]

    seconds = set(hands(second))
    out = []
    for hand in hands(first):
        for treasure in map(frozenset, combinations(sorted(free - hand), board.treasure)):
            other = known[second] | (free - hand - treasure)
            if other in seconds and treasure_fits(doc, treasure):
                out.append((treasure, {first: hand, second: other}))
    return out


def fall(worlds: list, to: str, where: frozenset) -> float:
    """The expected fall of the treasure pair's entropy on hearing ``to``'s count in ``where``."""
    per: dict[int, Counter] = {}
    for treasure, hands in worlds:
        per.setdefault(len(hands[to] & where), Counter())[treasure] += 1
    after = sum(sum(c.values()) * bits(c.values()) for c in per.values()) / len(worlds)
    return bits(Counter(t for t, _ in worlds).values()) - after


def shared(first: str, second: str) -> list[str]:
    """The terrains two dice name together (a wild names any)."""
    return [t for t in TERRAINS if first in (t, "wild") and second in (t, "wild")]


def questions(roll, rivals, shovel: bool) -> set:
    """(to, locations) of every public question a roll allows, the Shovel making a die wild."""
    out = set()
    for (i, (a, first)), (j, (b, second)) in product(enumerate(roll), repeat=2):
        if i == j:
            continue
        kinds = set(shared(first, second))
        if shovel:
            kinds |= set(shared("wild", second)) | set(shared(first, "wild"))
        for kind in (None, *kinds):
            out |= {(to, covered(f"{a}-{b}", kind)) for to in rivals}
    return out


def expected_best(doc, worlds, roll, chosen: tuple, shovel: bool) -> tuple[float, float]:
    """Brute force: (mean over the re-rolled faces of the best fall, this roll's best fall)."""
    rivals = [p for p in doc["players"] if p != doc["me"]]
    dice = [island().dice[d] for d in sorted(island().dice)]
    known: dict = {}

    def best(faces):
        found = questions(faces, rivals, shovel)
        for key in found - known.keys():
            known[key] = fall(worlds, *key)
        return max(known[key] for key in found)

    sides = [[tuple(f.split("-")) for f in dice[k]] if k in chosen else [roll[k]] for k in range(3)]
    rolls = [list(r) for r in product(*sides)]
    return sum(best(r) for r in rolls) / len(rolls), best(roll)


def face_list(text: str) -> list:
    """``SW-beach,N-wild`` as faces."""
    return [tuple(face.split("-")) for face in text.split(",")]


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "shovel"])
def advised(request):
    """A three-player record, and its advice with the Barrel (with the Shovel or not)."""
    doc, _ = lima_game(3, 14, 2)
    given = {"roll": ROLL, "barrel": True, "shovel": request.param}
    return doc, request.param, lnext.advise(report(parse(doc, "sim")), given)


def test_barrel_equals_brute_force(advised):
    """Every re-roll's expected best pair bits and keeping's best, against brute force."""
    doc, shovel, advice = advised
    worlds = deals(doc)
    found = brute(doc)
    assert len(worlds) == found.total
    assert Counter(t for t, _ in worlds) == Counter(found.pairs)
    rerolls = {r.dice: r for r in advice.barrel}
    assert len(advice.barrel) == 7 and set(rerolls) == SEVEN
    for dice in SEVEN:
        mean, keep = expected_best(doc, worlds, face_list(ROLL), dice, shovel)
        assert rerolls[dice].expected == pytest.approx(mean, abs=1e-12)
        assert rerolls[dice].keep == pytest.approx(keep, abs=1e-12)
    aloud = max(o.pair_information for o in advice.options if not o.question.secret)
    assert rerolls[(0,)].keep == pytest.approx(aloud, abs=1e-12)
    gains = [r.gain for r in advice.barrel]
    assert gains == sorted(gains, reverse=True)


def test_a_reroll_of_one_die_gives_that_die_faces():
    """Re-rolling die k: one outcome per face of die k (as listed), the others kept."""
    board = island()
    faces = face_list(ROLL)
    dice = barrel.die_faces(board)
    for k, name in enumerate(sorted(board.dice)):
        rolls = barrel.outcomes(faces, dice, (k,))
        assert Counter("-".join(r[k]) for r in rolls) == Counter(board.dice[name])
        assert all(r[:k] + r[k + 1 :] == faces[:k] + faces[k + 1 :] for r in rolls)
    both = barrel.outcomes(faces, dice, (0, 2))
    assert len(both) == len(board.dice[1]) * len(board.dice[3])
    assert Counter((r[0], r[2]) for r in both) == Counter(product(dice[0], dice[2]))


@pytest.fixture
def run(monkeypatch, tmp_path):
    """Invoke the app in-process in tmp_path, with colourless consoles."""
    return invoker(monkeypatch, tmp_path, width=60, err_width=100)


def test_barrel_through_the_cli(run, tmp_path):
    """``next --barrel --json``: the seven re-rolls best first, the options as without it."""
    doc, _ = lima_game(3, 14, 2)
    (tmp_path / "game.yaml").write_text(dump(document(parse(doc, "sim"))))
    plain = run("next", "--roll", ROLL, "--json", "--budget", "600")  # the splits, not the clock
    result = run("next", "--roll", ROLL, "--json", "--barrel", "--budget", "600")
    assert plain.exit_code == 0 and result.exit_code == 0, result.output
    out, before = json.loads(result.output), json.loads(plain.output)
    assert {k: v for k, v in out.items() if k != "barrel"} == before
    rerolls = out["barrel"]
    assert len(rerolls) == 7 and {tuple(r["reroll"]) for r in rerolls} == SEVEN
    assert [r["expected"] for r in rerolls] == sorted(
        (r["expected"] for r in rerolls), reverse=True
    )
    best = max(o["pair_information"] for o in before["options"])
    for r in rerolls:
        assert r["keep"] == pytest.approx(best)
        assert r["gain"] == pytest.approx(r["expected"] - r["keep"])
        assert r["faces"] == [ROLL.split(",")[k] for k in r["reroll"]]


def test_barrel_screen_fits_60_columns(advised):
    """Below the questions: a row per re-roll, unfolded at 60 columns, and the verdict line."""
    _, _, advice = advised
    console = Console(file=StringIO(), width=60, color_system=None)
    lnext.show_advice(console, advice)
    lines = [line.strip() for line in console.file.getvalue().splitlines()]
    table = lines[lines.index("Barrel re-rolls, best first per number of dice") :]
    for r in advice.barrel:
        faces = ", ".join("-".join(f) for f in r.faces) if len(r.dice) < 3 else "all three"
        row = f"{faces} {r.expected:.2f} {r.gain:+.3f} {'yes' if r.worth() else 'no'}"
        cells = [" ".join(line.replace("│", " ").split()) for line in table]  # boxed or not
        assert sum(cell.endswith(row) for cell in cells) == 1
    top = advice.barrel[0]
    verdict = "worth it" if top.worth() else "keep this roll"
    assert lines[-1].startswith("Barrel: ") and verdict in lines[-1]


def test_goldraub_refuses_the_barrel(run):
    """The Barrel is Lima's: Goldraub refuses it in one line, as it refuses --roll."""
    assert (
        run(
            "new", "goldraub", "--players", "An,Bo,Cy", "--me", "An", "--hand", "22,45,63"
        ).exit_code
        == 0
    )
    result = run("next", "--barrel")
    assert result.exit_code == 2
    assert "this game takes --at, --occupied and --public" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_barrel_help_and_table_mode_completion(run, tmp_path):
    """The help says --barrel means my Barrel is unused; ``sleuth play`` completes it."""
    import typer
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from sleuth.cli.play import Sitting
    from sleuth.cli.prompt import Words

    helped = run("next", "--help")
    assert "--barrel" in helped.output and "unused" in helped.output
    session = Sitting(
        tmp_path / "game.yaml",
        typer.main.get_command(cli_app.app),
        parse(lima_game(3, 0, 1)[0], "sim"),
    )
    found = Words(session).get_completions(
        Document("next --roll N-wild,S-wild,E-beach --ba"), CompleteEvent(completion_requested=True)
    )
    assert [c.text for c in found] == ["--barrel"]


def test_the_faces_are_put_in_die_order_or_refused():
    """A re-roll draws from a die's faces, so each face must be on its own die."""
    dice = barrel.die_faces(island())
    roll = [("SW", "beach"), ("N", "wild"), ("E", "beach")]
    assert barrel.placed(roll, dice) == roll
    assert barrel.placed(roll[::-1], dice) == roll  # E-beach is on die 3 only, N-wild on 2
    never = [("SW", "beach"), ("N", "wild"), ("E", "forest")]  # the last two: die 2 only
    assert "cannot come up" in barrel.placed(never, dice)
    twice = [("SW", "beach"), ("N", "wild"), ("SW", "beach")]  # on dice 1 and 3
    assert barrel.placed(twice, dice) == [("SW", "beach"), ("N", "wild"), ("SW", "beach")]
    unclear = [("N", "wild"), ("SW", "beach"), ("NE", "mountain")]  # the last two: dice 1, 3
    assert "more than one order" in barrel.placed(unclear, dice)


@pytest.mark.parametrize("barrel", [["--barrel"], []])
@pytest.mark.parametrize("roll", ["SW-beach,N-wild,E-forest", "N-beach,N-beach,N-beach"])
def test_an_impossible_roll_is_refused(run, tmp_path, roll, barrel):
    """One line naming next's roll, with the Barrel or without (issue 28, item 6)."""
    doc, _ = lima_game(3, 14, 2)
    (tmp_path / "game.yaml").write_text(dump(document(parse(doc, "sim"))))
    bad = run("next", "--roll", roll, *barrel)
    assert bad.exit_code == 2
    assert "'roll'" in bad.output and "cannot come up together" in bad.output


def test_a_roll_of_several_orders_needs_them_only_with_the_barrel(run, tmp_path):
    """The questions do not depend on which die shows which face; a re-roll does."""
    doc, _ = lima_game(3, 14, 2)
    (tmp_path / "game.yaml").write_text(dump(document(parse(doc, "sim"))))
    unclear = "N-wild,SW-beach,NE-mountain"  # the last two fit dice 1 and 3 either way
    assert run("next", "--roll", unclear).exit_code == 0
    assert "more than one order" in run("next", "--roll", unclear, "--barrel").output
    assert run("next", "--roll", "E-beach,N-wild,SW-beach").exit_code == 0


def test_a_reroll_is_worth_it_from_a_hundredth_of_a_bit():
    """The Barrel serves once a game: a re-roll adding less than ``WORTH`` bits is kept back."""
    face = ("SW", "beach")
    small = barrel.Reroll((0,), (face,), 0.5 + barrel.WORTH / 2, 0.5)
    large = barrel.Reroll((0,), (face,), 0.5 + 2 * barrel.WORTH, 0.5)
    assert not small.worth() and large.worth()
    assert barrel.verdict([small]).startswith("Barrel: keep this roll")
    assert barrel.verdict([large]).endswith("worth it")
