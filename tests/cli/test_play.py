"""Table mode (``sleuth play``): whole simulated games typed into a real pseudo-terminal, the
short forms, the completion, the status line, and the session read from a pipe.

In the terminal each entry is followed by the command's own output and then a fresh prompt; a
test waits for the first before it expects the second, so that the prompt it sees is the new one.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from rich.console import Console
from ruamel.yaml import YAML
from typer.testing import CliRunner

import sleuth.cli  # noqa: F401 - registers every command
from sleuth.cli.completion import matching
from sleuth.cli.play import Leave, Sitting, interactive, script, sitting_help
from sleuth.cli.prompt import Words
from sleuth.cli.status import about, status_line
from sleuth.errors import InputError
from sleuth.games.goldraub.simulate import simulate as goldraub_game
from sleuth.games.lima.simulate import simulate as lima_game
from sleuth.games.london.simulate import simulate as london_game
from sleuth.games.loop.simulate import simulate as loop_game
from sleuth.games.loop.temple import LOST, temple
from sleuth.games.scotland.simulate import simulate as scotland_game
from sleuth.odds import Odds
from sleuth.record import parse
from sleuth.store import load

cli_app = importlib.import_module("sleuth.cli.app")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROMPT = "game.yaml>"  # the space after it is drawn as a cursor move
CPR = "\x1b[6n"  # prompt_toolkit asks where the cursor is: the status line needs the answer
GOLDRAUB_NEW = ["new", "goldraub", "--players", "Anton,Bert,Christl,Doris,Elli", "--me", "Christl"]


# --- the whole games, as a player types them ------------------------------------------------


def legal(events: list[dict], players: int) -> list[dict]:
    """The simulated Goldraub events without the guesses the rules forbid at their place."""
    kept, revealed, searches, made = [], set(), 0, {}
    for event in events:
        if "search" in event:
            searches += 1
            kept.append(event)
            continue
        guess = event["guess"]
        mine = made.setdefault((searches // players, guess["by"]), [])
        if guess["sector"] in revealed or len(mine) >= 2 or not all(mine):
            continue
        mine.append(guess["correct"])
        revealed |= {guess["sector"]} if guess["correct"] else set()
        kept.append(event)
    return kept


def goldraub_lines(event: dict, short: bool) -> tuple[str, list[str]]:
    """The line typed for a Goldraub event (short form or full command), and the full command."""
    if "search" in event:
        s = event["search"]
        full = ["search", s["by"], s["row"], "--gold", str(s["gold"])]
        full += ["--saw", str(s["saw"])] if "saw" in s else []
        full += ["--at", str(s["at"])]
        saw = f" {s['saw']}" if "saw" in s else ""
        typed = f"{s['by'][:2].lower()} {s['row']} {s['gold']}{saw} @{s['at']}"
    else:
        g = event["guess"]
        verdict = "--correct" if g["correct"] else "--wrong"
        full = ["guess", g["by"], g["owner"], str(g["sector"]), verdict]
        typed = f"g {g['by'][:3]} {g['owner'][:3].lower()} {g['sector']} {'yn'[not g['correct']]}"
    return (typed if short else " ".join(full)), full


def lima_lines(event: dict, short: bool) -> tuple[str, list[str]]:
    """The line typed for a Lima event (short form or full command), and the full command."""
    ((kind, f),) = event.items()
    if kind == "ask":
        full = ["ask", f["by"], f["to"], f["range"]]
        full += ["--terrain", f["terrain"]] if "terrain" in f else []
        full += ["--answer", str(f["answer"])]
        terrain = f" {f['terrain'][0]}" if "terrain" in f else ""
        typed = f"{f['by'][0].lower()} {f['to'][0]} {f['range'].lower()}{terrain} {f['answer']}"
    elif kind == "secret":
        asked = [f["range"], "--answer", str(f["answer"])] if "range" in f else []
        full = ["secret", f["by"], f["to"], *asked]
        typed = f"p {f['by']} {f['to'].lower()} " + (f"{f['range']} {f['answer']}" if asked else "")
    else:
        verdict = "--correct" if f["correct"] else "--wrong"
        full = ["accuse", f["by"], *f["locations"], verdict]
        full += ["--treasure", ",".join(f["treasure"])] if "treasure" in f else []
        seen = " " + " ".join(f["treasure"]) if "treasure" in f else ""
        typed = f"a {f['by'][:2]} {' '.join(f['locations']).lower()} {'yn'[not f['correct']]}{seen}"
    return (typed if short else " ".join(full)), full


def scotland_lines(event: dict, short: bool) -> tuple[str, list[str]]:
    """The line typed for a Scotland Yard event (short form or full command), and the full one."""
    ((kind, f),) = event.items()
    by, listed = f["by"], ",".join
    drawn = ["--drawn", f["drawn"]] if "drawn" in f else []
    plus = f" +{f['drawn']}" if "drawn" in f else ""
    if kind == "pass":
        return (f"p {by[:2]}{plus}" if short else " ".join(["pass", by, *drawn])), [
            "pass",
            by,
            *drawn,
        ]
    if kind == "refresh":
        full = ["refresh", by, f["ticket"], listed(f["field"]), *drawn]
        return (
            f"rf {by.lower()} {f['ticket']} {listed(f['field'])}{plus}" if short else " ".join(full)
        ), full
    t, action = f["ticket"], f["action"]
    full = ["turn", by, t, str(f["pile"]), "--action", action]
    if "target" in f:
        full += ["--target", f["target"]]
    if "found" in f:
        full += ["--found" if f["found"] else "--innocent"]
    for key in ("took", "discarded", "drew"):
        full += [f"--{key}", listed(f[key])] if key in f else []
    for who, tickets in f.get("discards", {}).items():
        full += ["--discards", f"{who}={listed(tickets)}"]
    for key in ("got", "gave", "special"):
        full += [f"--{key}", f[key]] if key in f else []
    full += drawn
    drew = f" {listed(f['drew'])}" if "drew" in f else ""
    if action == "draw":
        typed = f"{by[:2].lower()} {t} 1{drew}"
    elif action == "interrogation" and "target" in f:
        typed = f"i {by} {t} {f['target'].lower()} {'ny'[f['found']]}"
        typed += f" {listed(f['discarded'])}" if "discarded" in f else ""
        typed += f" {f['special']}" if "special" in f else ""
    elif action == "interrogation":
        typed = f"{by.lower()} {t} 2"
    elif action == "manhunt":
        typed = f"m {by} {t} {f['target'][:2]} " + ("x" if f.get("found") else listed(f["took"]))
    elif action == "feint":
        given = " ".join(f"{p.lower()}={listed(ts)}" for p, ts in f["discards"].items())
        typed = f"f {by} {t} {given}"
    elif action == "buy":
        typed = f"b {by} {t}{drew}"
    else:
        said = [f[k] for k in ("got", "gave") if k in f]
        typed = " ".join(["dis", by, t, *said])
    return (typed + plus if short else " ".join(full)), full


def loop_lines(event: dict, short: bool) -> tuple[str, list[str]]:
    """The line typed for a Loot the Loop action (short form or full command), and the full one."""
    ((kind, value),) = event.items()
    said = [str(v) for v in value] if kind == "look" else [str(value)]
    full = [kind, *said]
    if not short:
        return " ".join(full), full
    lower = " ".join(said).lower()
    typed = {"look": lower, "explore": lower, "mark": f"m {lower}", "return": f"ret {lower}"}
    return typed[kind], full


class Terminal:
    """``sleuth play`` in a pseudo-terminal of 24 x 80, on ``game.yaml`` in ``folder``."""

    def __init__(self, folder: Path) -> None:
        """Start the session and wait for its first prompt."""
        self.folder = folder
        environ = {k: v for k, v in os.environ.items() if k not in ("SLEUTH_FILE", "COLUMNS")}
        environ.update(TERM="xterm", NO_COLOR="1", SLEUTH_CACHE=str(folder / "cache"))
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "sleuth", "play"],
            cwd=str(folder),
            env=environ,
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=90,
            codec_errors="replace",  # a Ctrl-C may cut the progress bar inside a character
        )
        self.expect(PROMPT)

    def expect(self, text: str) -> None:
        """Wait for ``text``, answering the cursor position requests on the way (row 1)."""
        while self.child.expect_exact([CPR, text]) == 0:
            self.child.send("\x1b[1;1R")

    def expect_re(self, pattern: str) -> None:
        """Wait for the regular expression ``pattern``, answering cursor position requests."""
        while self.child.expect([re.escape(CPR), pattern]) == 0:
            self.child.send("\x1b[1;1R")

    def enter(self, line: str, *answer: str) -> None:
        """Type ``line`` and Enter; wait for each of ``answer``, then for the next prompt."""
        self.child.send(line + "\r")
        for text in answer:
            self.expect(text)
        self.expect(PROMPT)

    def kill(self) -> None:
        """SIGKILL the session, as a crash or a closed laptop would end it."""
        self.child.kill(signal.SIGKILL)
        self.child.wait()


def events(path: Path) -> list[dict]:
    """The events in the record file, as plain data."""
    return YAML(typ="safe").load(path.read_text())["events"] or []


def one_shot(folder: Path, new: list[str], commands: list[list[str]]) -> Path:
    """The record the one-shot commands build, in process, in ``folder``."""
    folder.mkdir()
    path = folder / "game.yaml"
    env = cli_app.Env(out=Console(width=80), err=Console(stderr=True, width=80), environ={})
    saved, cli_app.ENV = cli_app.ENV, env
    try:
        runner = CliRunner()
        for words in [new, *commands]:
            result = runner.invoke(cli_app.app, [*words, "--file", str(path)])
            assert result.exit_code == 0, (words, result.output)
    finally:
        cli_app.ENV = saved
    return path


def play_game(tmp_path: Path, new: list[str], game: list[dict], lines, episodes: dict) -> Path:
    """Type ``game`` into ``sleuth play``, with ``episodes[k](terminal, event)`` before event k.

    An episode may give a new terminal (after a kill), or the line it left typed on the prompt
    (then only Enter is sent). After each recorded entry the file already holds the event, and
    no more. Returns the record's path.
    """
    path = tmp_path / "game.yaml"
    one_shot(tmp_path / "new", new, [])
    path.write_text((tmp_path / "new" / "game.yaml").read_text())
    terminal = Terminal(tmp_path)
    for k, event in enumerate(game):
        typed = lines(event, short=k % 2 == 0)[0]
        done = episodes[k](terminal, event) if k in episodes else None
        if isinstance(done, Terminal):
            terminal = done
        terminal.enter("" if isinstance(done, str) else typed, "recorded:")
        assert events(path)[-1] == event, typed
        assert len(events(path)) == k + 1
    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)
    terminal.child.close()
    assert terminal.child.exitstatus == 0
    return path


def typo(wrong: str, meant: str):
    """A misspelt command: refused with this game's nearest command, put back, cleared."""

    def episode(terminal: Terminal, event: dict) -> None:
        terminal.child.send(f"{wrong} x\r")
        terminal.expect(f"'{wrong}' is not a command or a short form (did you mean")
        terminal.expect(f"{meant}?)")  # wrapped at a word: the error is wider than the terminal
        terminal.expect(PROMPT + f" {wrong} x")
        terminal.child.sendcontrol("u")

    return episode


def killed(terminal: Terminal, event: dict) -> Terminal:
    """SIGKILL the session and open it again: every acknowledged event is on disk."""
    folder = terminal.folder
    before = events(folder / "game.yaml")
    terminal.kill()
    assert events(folder / "game.yaml") == before
    return Terminal(folder)


def undone(lines):
    """Enter the event, undo it (the file loses it), and let the game enter it again."""

    def episode(terminal: Terminal, event: dict) -> None:
        folder = terminal.folder
        count = len(events(folder / "game.yaml"))
        terminal.enter(lines(event, short=True)[0], "recorded:")
        assert len(events(folder / "game.yaml")) == count + 1
        terminal.enter("u", "= undo", "removed:")
        assert len(events(folder / "game.yaml")) == count

    return episode


def deleted(lines):
    """The last event typed twice by mistake: ``log`` reads both back, ``delete N`` drops one.

    A Goldraub search typed again leaves out its route space: a figure never stays put.
    """

    def episode(terminal: Terminal, event: dict) -> None:
        path = terminal.folder / "game.yaml"
        before = events(path)
        ((kind, fields),) = before[-1].items()
        again = {kind: {k: v for k, v in fields.items() if k != "at"}}
        typed = lines(before[-1], short=True)[0]
        terminal.enter(typed.split(" @")[0], "recorded:")
        assert events(path) == before + [again]
        twice = len(before) + 1
        read_back = (f"{n} {kind} {{by: " for n in (twice - 1, twice))
        terminal.enter("log", f"{path.name}: {twice} events", *read_back)
        terminal.enter(f"delete {twice}", f"removed event {twice}: {kind} {{")
        assert events(path) == before

    return episode


def asked(line: str, *answer: str):
    """An entry that changes nothing, such as a report or a check, and what it prints."""

    def episode(terminal: Terminal, event: dict) -> None:
        terminal.enter(line, *answer)

    return episode


def test_a_whole_goldraub_game_typed_at_the_table(tmp_path):
    doc, _ = goldraub_game(5, 16, 3, me=2, guesses=0.3)
    game = legal(doc["events"], 5)
    new = [*GOLDRAUB_NEW, "--hand", ",".join(map(str, doc["hand"]))]
    spare = next(s for s in range(11, 78) if str(s) in _sectors() and s not in doc["hand"])

    def rejected(terminal: Terminal, event: dict) -> None:
        """A route space the row is not offered at: refused, the line back, the end fixed."""
        typed = goldraub_lines(event, short=True)[0]
        wrong = typed[: typed.rindex("@")] + "@99"
        terminal.child.send(wrong + "\r")
        terminal.expect("field 'at'")
        terminal.expect(PROMPT + " " + wrong)
        terminal.child.send("\x7f" * 2 + typed[typed.rindex("@") + 1 :])
        return typed

    assert "search" in game[3] and any("guess" in e for e in game)
    episodes = {
        2: typo("serch", "search"),
        3: rejected,
        5: undone(goldraub_lines),
        7: asked("r", "= report", "deals fit the record"),
        9: asked(f"c be {spare}", f"= check be {spare}", f"Bert holds {spare}"),
        11: asked("n --budget 5", "= next --budget 5", "Searches for my next turn"),
        12: killed,
    }
    twice = next(k for k in range(13, len(game)) if "search" in game[k - 1])  # not a guess
    episodes[twice] = deleted(goldraub_lines)
    path = play_game(tmp_path, new, game, goldraub_lines, episodes)
    reference = one_shot(tmp_path / "oneshot", new, [goldraub_lines(e, False)[1] for e in game])
    assert load(path)[0].fields() == load(reference)[0].fields()
    assert path.read_text() == reference.read_text()


def test_a_whole_lima_game_typed_at_the_table(tmp_path):
    doc, _ = lima_game(4, 16, 13, me=2, accuse=0.08)
    game = doc["events"]
    known = [f"{who}={','.join(tokens)}" for who, tokens in doc["known"].items()]
    new = ["new", "lima", "--players", ",".join(doc["players"]), "--me", doc["me"]]
    new += ["--hand", ",".join(doc["hand"]), "--public", ",".join(doc["public"])]
    new += [x for k in known for x in ("--known", k)]
    kinds = {next(iter(e)) for e in game}
    assert kinds == {"ask", "secret", "accuse"}

    def rejected(terminal: Terminal, event: dict) -> None:
        """An answer larger than the range holds: refused, the line back, the answer fixed."""
        typed = lima_lines(event, short=True)[0]
        head = typed[: typed.rindex(" ")]
        terminal.child.send(head + " 99\r")
        terminal.expect("field 'answer'")
        terminal.expect(PROMPT + " " + head + " 99")
        terminal.child.send("\x7f" * 2 + typed[typed.rindex(" ") + 1 :])
        return typed

    assert "ask" in game[4]
    episodes = {
        1: typo("aks", "ask"),
        4: rejected,
        6: undone(lima_lines),
        8: asked("report", "deals fit the record"),
        9: asked("check 3F 7M", "3F"),
        11: killed,
    }
    twice = next(k for k in range(12, len(game)) if "accuse" not in game[k - 1])
    episodes[twice] = deleted(lima_lines)
    path = play_game(tmp_path, new, game, lima_lines, episodes)
    reference = one_shot(tmp_path / "oneshot", new, [lima_lines(e, False)[1] for e in game])
    assert path.read_text() == reference.read_text()


def test_a_whole_scotland_yard_game_typed_at_the_table(tmp_path):
    doc = scotland_game(4, 13, me=2, mister_x_bold=0.3, feint=3).doc
    game = doc["events"]
    new = ["new", "scotland-yard", "--players", ",".join(doc["players"]), "--me", doc["me"]]
    new += ["--hand", ",".join(doc["hand"]), "--field", ",".join(doc["field"]), "--feint", "3"]
    actions = {next(iter(e.values())).get("action", next(iter(e))) for e in game}
    assert {"refresh", "interrogation", "manhunt", "disappear", "buy"} <= actions
    mine = next(k for k, e in enumerate(game) if next(iter(e.values()))["by"] == doc["me"])
    drawn = game[mine]["turn" if "turn" in game[mine] else "refresh"]["drawn"]

    def rejected(terminal: Terminal, event: dict) -> str:
        """A ticket on a pile it does not fit: refused, the line back, the pile fixed."""
        typed = scotland_lines(event, short=True)[0]
        wrong = typed.replace(" 2", " 1") if typed.endswith(" 2") else None
        assert wrong is not None, typed
        terminal.child.send(wrong + "\r")
        terminal.expect("does not fit pile 1")
        terminal.expect(PROMPT + " " + wrong)
        terminal.child.send("\x7f" + "2")
        return typed

    def misspelt(terminal: Terminal, event: dict) -> None:
        """A misspelt command: refused with a suggestion, put back, cleared with Ctrl-U."""
        terminal.child.send("trun x\r")
        terminal.expect("'trun' is not a command or a short form (did you mean")
        terminal.expect(PROMPT + " trun x")
        terminal.child.sendcontrol("u")

    assert scotland_lines(game[1], True)[0].endswith(" 2")
    episodes = {
        0: misspelt,
        1: rejected,
        mine: asked(f"next --drawn {drawn}", f"My turn ({doc['me']})", "Options, best first"),
        4: undone(scotland_lines),
        5: asked("r", "= report", "Who holds X"),
        6: asked("c ann", "= check ann", "Ann holds X"),
        8: killed,
    }
    path = play_game(tmp_path, new, game, scotland_lines, episodes)
    reference = one_shot(tmp_path / "oneshot", new, [scotland_lines(e, False)[1] for e in game])
    assert load(path)[0].fields() == load(reference)[0].fields()
    assert path.read_text() == reference.read_text()


def test_a_whole_loot_the_loop_game_typed_at_the_table(tmp_path):
    simulated = loop_game(1119, "greedy")  # 36 actions of all four kinds, then a trap
    game = simulated.doc["events"]
    kinds = {next(iter(e)) for e in game}
    assert simulated.status == LOST and kinds == {"look", "explore", "mark", "return"}
    mark = next(k for k, e in enumerate(game) if "mark" in e)

    def rejected(terminal: Terminal, event: dict) -> str:
        """A look when the top is face up, then an explore by a value not on top: one line
        each, the line back for editing, the record untouched; then the right explore."""
        before = events(terminal.folder / "game.yaml")
        assert event == {"explore": 5} and before[-1] == {"look": ["8S", "5D"]}
        terminal.child.send("qh 7d\r")
        terminal.expect("the top card is face up: no look")
        terminal.expect(PROMPT + " qh 7d")
        terminal.child.sendcontrol("u")
        terminal.child.send("7\r")
        terminal.expect("an explore goes by a face-up trinket")  # wrapped at 80 columns
        terminal.expect("of the top two: 5, 8")
        terminal.expect(PROMPT + " 7")
        assert events(terminal.folder / "game.yaml") == before
        terminal.child.send("\x7f5")
        return "5"

    def completed(terminal: Terminal, event: dict) -> str:
        """The mark typed with Tab: the top trinket is the one card offered."""
        terminal.child.send("m \t")
        terminal.expect(event["mark"])
        return "m " + event["mark"]

    episodes = {
        1: rejected,
        3: asked("n --budget 0", "= next --budget 0", "Next: ", "Each action, by the games"),
        5: undone(loop_lines),
        7: asked("r", "= report", "top first): 10S QD ", "Actions:"),
        9: killed,
        mark: completed,
        mark + 2: asked("n --budget 0", "Next: "),
    }
    new = ["new", "loot-the-loop"]
    path = play_game(tmp_path, new, game, loop_lines, episodes)
    reference = one_shot(tmp_path / "oneshot", new, [loop_lines(e, False)[1] for e in game])
    assert path.read_text() == reference.read_text()
    assert events(path) == game
    terminal = Terminal(tmp_path)  # reopened: the game is over, the trap named
    terminal.enter("r", "The game is over: lost: landed on the trap")
    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)
    assert temple(load(path)[0]).status == LOST


def london_lines(event: dict, short: bool) -> tuple[str, list[str]]:
    """The line typed for a Looting London event (short form or full command), and the full one."""
    ((kind, f),) = event.items()
    by = f["by"]
    cards = ",".join(f"{k}={n}" for k, n in f.get("cards", {}).items())
    if kind == "draw":
        said = ["deck", *([f["card"]] if "card" in f else [])] if "from" in f else [f["card"]]
        said += [f["new"]] if "new" in f else []
        full = ["take", by, *said]
        typed = " ".join([by[:2].lower(), *said])
    elif kind == "meld":
        full = ["meld", by, str(f["column"]), cards]
        typed = f"{by[:2].lower()} {f['column']} {cards}"
    elif kind == "destroy":
        full = ["destroy", by, str(f["column"]), str(f["tiles"]), cards]
        typed = f"x {by[:2].lower()} {f['column']} {f['tiles']} {cards}"
    else:
        full = ["clear", by, ",".join(f["new"])]
        typed = f"cl {by[:2].lower()} {','.join(f['new'])}"
    return (typed if short else " ".join(full)), full


def test_a_whole_looting_london_game_typed_at_the_table(tmp_path):
    doc = london_game(3, 4, me=1, turns=40).doc
    game = doc["events"]
    kinds = {next(iter(e)) for e in game}
    assert {"draw", "meld", "destroy"} <= kinds
    new = ["new", "looting-london", "--players", ",".join(doc["players"]), "--me", doc["me"]]
    columns = ["/".join(",".join(_tile(t) for t in column) for column in doc["tiles"])]
    new += ["--tiles", *columns, "--row", ",".join(doc["row"]), "--hand", ",".join(doc["hand"])]
    mine = next(
        k
        for k, e in enumerate(game)
        if k and next(iter(e.values()))["by"] == doc["me"] and "draw" in game[k - 1]
    )
    episodes = {
        1: undone(london_lines),
        mine: asked("n", "= next", "Next: ", "The model: each opponent melds"),
        mine + 1: asked("c 3", "= check 3", "Column 3: the bottom tile is", "Verdict: "),
        5: asked("r", "= report", "Hands (expected cards of each figure)", "Scores: "),
        9: killed,
    }
    path = play_game(tmp_path, new, game, london_lines, episodes)
    reference = one_shot(tmp_path / "oneshot", new, [london_lines(e, False)[1] for e in game])
    assert path.read_text() == reference.read_text()
    assert events(path) == game


def _tile(tile: dict) -> str:
    """A tile as typed inline: colour letter, figure letter, number (gw3)."""
    return f"{tile['colour'][0]}{tile['figure'][0]}{tile['number']}"


@pytest.fixture
def london(tmp_path) -> Sitting:
    """A session on a 3-player Looting London record with no events."""
    doc = london_game(3, 4, me=1, turns=0).doc
    return Sitting(tmp_path / "game.yaml", _group(), parse(doc, "test"))


@pytest.mark.parametrize(
    ("line", "full"),
    [
        ("an dame bobby", "take Ann dame bobby"),
        ("be deck waif", "take Ben deck waif"),
        ("cy deck", "take Cy deck"),
        ("an 3 w3,d2", "meld Ann 3 w3,d2"),
        ("x cy 2 1 d2", "destroy Cy 2 1 d2"),
        ("cl an w,w,d,b", "clear Ann w,w,d,b"),
        ("an 3 w3 --before 1", "meld Ann 3 w3 --before 1"),
    ],
)
def test_london_short_forms_expand_into_the_full_command(london, line, full):
    assert london.expand(line.split()) == full.split()


def test_an_error_at_the_terminal_is_wrapped_at_words_within_80_columns(monkeypatch):
    import io

    error = InputError(
        "sleuth search",
        "gold",
        "I hold 45 in 41-47 and answered GOLD BARS: gold is at least 1",
        event=1,
    )
    for wrapped, want in [
        (False, [error.line()]),  # a script's one line
        (
            True,
            [
                "sleuth search, event 1, field 'gold': I hold 45 in 41-47 and answered",
                "GOLD BARS: gold is at least 1",
            ],
        ),  # at a word, within 80 columns
    ]:
        seen = io.StringIO()
        env = cli_app.Env(err=Console(file=seen, width=80), environ={}, wrap_errors=wrapped)
        monkeypatch.setattr(cli_app, "ENV", env)
        cli_app.fail(error)
        lines = [line.rstrip() for line in seen.getvalue().splitlines()]
        assert lines == [f"sleuth: {line}" if k == 0 else line for k, line in enumerate(want)]


def test_quit_leaves_with_status_0_and_the_status_line_is_on_screen(tmp_path):
    one_shot(tmp_path / "new", [*GOLDRAUB_NEW, "--hand", "22,45,63"], [])
    (tmp_path / "game.yaml").write_text((tmp_path / "new" / "game.yaml").read_text())
    terminal = Terminal(tmp_path)
    terminal.enter("an 31-36 2 1", "= search Anton 31-36 --gold 2 --saw 1", "recorded:")
    terminal.expect_re(r"round 1, value 10 \| Bert to play \| 48\.2 trillion deals \| best ")
    terminal.child.send("quit\r")
    terminal.child.expect(pexpect.EOF)
    terminal.child.close()
    assert terminal.child.exitstatus == 0
    history = list((tmp_path / "cache").glob("history-*"))
    assert len(history) == 1 and "an 31-36 2 1" in history[0].read_text()


# --- the short forms ------------------------------------------------------------------------


@pytest.fixture
def goldraub(tmp_path) -> Sitting:
    """A session on a Goldraub record of one search, in process (nothing is dispatched)."""
    doc = {"game": "goldraub", "players": ["Anton", "Bert", "Christl", "Doris", "Elli"]}
    doc.update(me="Christl", hand=[22, 45, 63], events=[])
    doc["events"] = [{"search": {"by": "Anton", "row": "31-36", "gold": 2, "saw": 1}}]
    return Sitting(tmp_path / "game.yaml", _group(), parse(doc, "test"))


@pytest.fixture
def lima(tmp_path) -> Sitting:
    """A session on a 4-player Lima record with no events."""
    doc, _ = lima_game(4, 0, 13, me=2)
    return Sitting(tmp_path / "game.yaml", _group(), parse(doc, "test"))


@pytest.fixture
def scotland(tmp_path) -> Sitting:
    """A session on a 4-player Scotland Yard record with no events, from Cy's seat."""
    doc = scotland_game(4, 13, me=2).doc | {"events": []}
    return Sitting(tmp_path / "game.yaml", _group(), parse(doc, "test"))


@pytest.mark.parametrize(
    ("line", "full"),
    [
        ("ann 15y 1", "turn Ann 15y 1"),
        ("cy 15y 1 4y,9b +3r", "turn Cy 15y 1 --drew 4y,9b --drawn 3r"),
        ("m ann 66r ben 5y,40k", "manhunt Ann 66r Ben --took 5y,40k"),
        ("m ann 66r ben x", "manhunt Ann 66r Ben --found"),
        ("i dee 24b", "interrogate Dee 24b"),
        ("i dee 24b ann n", "interrogate Dee 24b Ann --innocent"),
        (
            "i dee 24b cy y 4r,74k,62y 53k",
            "interrogate Dee 24b Cy --found --discarded 4r,74k,62y --special 53k",
        ),
        ("f ben 17k ann=8y dee=9b", "feint Ben 17k --discards=ann=8y --discards=dee=9b"),
        ("b ben 44k", "buy Ben 44k"),
        ("b cy 44k 1y,2b,3r,4k", "buy Cy 44k --drew 1y,2b,3r,4k"),
        ("dis ben 70k 65r X", "disappear Ben 70k --got 65r --gave X"),
        ("rf ann 3y 12b,40k,77r", "refresh Ann 3y 12b,40k,77r"),
        ("p ann +5y", "pass Ann --drawn 5y"),
    ],
)
def test_scotland_short_forms_expand_into_the_full_command(scotland, line, full):
    assert scotland.expand(line.split()) == full.split()


@pytest.fixture
def loop(tmp_path) -> Sitting:
    """A session on a Loot the Loop record: a look, then an explore of 5."""
    doc = {"game": "loot-the-loop", "events": [{"look": ["5H", "9C"]}, {"explore": 5}]}
    return Sitting(tmp_path / "game.yaml", _group(), parse(doc, "test"))


@pytest.mark.parametrize(
    ("line", "full"),
    [
        ("8h 4c", "look 8H 4C"),
        ("joker", "look joker"),
        ("5", "explore 5"),
        ("m 7c", "mark 7C"),
        ("ret 7c", "return 7C"),
        ("5 --before 1", "explore 5 --before 1"),
    ],
)
def test_loop_short_forms_expand_into_the_full_command(loop, line, full):
    assert loop.expand(line.split()) == full.split()


def test_each_loop_short_form_is_one_line_of_help_at_80_columns(loop):
    from sleuth.games.loop.table import SHORT_FORMS

    lines = sitting_help(loop).splitlines()
    for form, meaning in SHORT_FORMS:
        assert any(line.startswith(f"  {form}") and line.endswith(meaning) for line in lines)


def test_help_at_the_table_offers_this_game_s_commands_alone(goldraub, scotland, loop):
    offered = {
        name: set(sitting.offered())
        for name, sitting in (("goldraub", goldraub), ("scotland", scotland), ("loop", loop))
    }
    assert {"search", "guess"} <= offered["goldraub"]
    assert {"turn", "manhunt", "disappear"} <= offered["scotland"]
    assert {"look", "explore", "mark", "return"} <= offered["loop"]
    for game, names in offered.items():
        others = set().union(*(n for g, n in offered.items() if g != game)) - names
        assert names.isdisjoint(others) and "report" in names and "new" not in names, game
    assert "manhunt" not in offered["goldraub"] and "look" not in offered["scotland"]


def _group():
    """The app's command group, as ``play`` builds it."""
    import typer

    return typer.main.get_command(cli_app.app)


@pytest.mark.parametrize(
    ("line", "full"),
    [
        ("an 31-36 2 1", "search Anton 31-36 --gold 2 --saw 1"),
        ("be 36-31 0", "search Bert 31-36 --gold 0"),
        ("el 41-74 3 @22", "search Elli 41-74 --gold 3 --at 22"),
        ("el 41-74 @22 3 1", "search Elli 41-74 --gold 3 --saw 1 --at 22"),
        ("g dor bert 32 y", "guess Doris Bert 32 --correct"),
        ("g a e 11 wrong", "guess Anton Elli 11 --wrong"),
        ("x 31-36 1", "search x 31-36 --gold 1"),  # the command names the unknown player
        ("r", "report"),
        ("c bert 32", "check bert 32"),
        ("u", "undo"),
        ("e 1 gold=1", "edit 1 gold=1"),
        ("search an 31-36 --gold 2", "search an 31-36 --gold 2"),
        ("sleuth edit 1 gold=1", "edit 1 gold=1"),  # as a repair's hint shows it
        ("sleuth an 31-36 2", "search Anton 31-36 --gold 2"),
        ("an 31-36 2 1 --before 1", "search Anton 31-36 --gold 2 --saw 1 --before 1"),
        ("g dor bert 32 y --before 2", "guess Doris Bert 32 --correct --before 2"),
    ],
)
def test_goldraub_short_forms_expand_into_the_full_command(goldraub, line, full):
    assert goldraub.expand(line.split()) == full.split()


@pytest.mark.parametrize(
    ("line", "full"),
    [
        ("b c E-W forest 2", "ask Ben Cy E-W --terrain forest --answer 2"),
        ("b c e-w F 2", "ask Ben Cy E-W --terrain forest --answer 2"),
        ("a d se-nw 0", "ask Ana Di SE-NW --answer 0"),
        ("d c N-S", "ask Di Cy N-S"),  # the answer left out: the command says what it makes of it
        ("p cy ben SE-NW 1", "secret Cy Ben SE-NW --answer 1"),
        ("p d a", "secret Di Ana"),
        ("a ben 3F 7M n", "accuse Ben 3F 7M --wrong"),
        ("a cy 3f 7m y 3F 7M", "accuse Cy 3F 7M --correct --treasure 3F,7M"),
        ("a cy 3f 7m n 2b,5m", "accuse Cy 3F 7M --wrong --treasure 2B,5M"),
        ("c 3F 7M", "check 3F 7M"),
        ("b c E-W forest 2 --before 1", "ask Ben Cy E-W --terrain forest --answer 2 --before 1"),
    ],
)
def test_lima_short_forms_expand_into_the_full_command(lima, line, full):
    assert lima.expand(line.split()) == full.split()


@pytest.mark.parametrize(
    ("game", "line", "part"),
    [
        ("goldraub", "an 31-36", "BY ROW GOLD [SAW] [@SPACE]"),
        ("goldraub", "an 31-36 2 1 3", "BY ROW GOLD [SAW] [@SPACE]"),
        ("goldraub", "g dor bert 32", "g BY OWNER SECTOR y|n"),
        ("goldraub", "g dor bert 32 maybe", "g BY OWNER SECTOR y|n"),
        ("goldraub", "zz 1", "'zz' is not a command or a short form"),
        ("goldraub", "serch a", "(did you mean search?)"),
        ("goldraub", "new goldraub", "'new' is not for inside a session"),
        ("goldraub", "play", "'play' is not for inside a session"),
        ("goldraub", "report --file other.yaml", "no --file here"),
        ("goldraub", "report -f other.yaml", "no --file here"),
        ("goldraub", "report -fother.yaml", "no --file here"),
        ("goldraub", "report --file=other.yaml", "no --file here"),
        ("goldraub", "report -f=other.yaml", "no --file here"),
        ("goldraub", "search an 31-36 --gold 2 -fother.yaml", "no --file here"),
        ("goldraub", "u -fother.yaml", "no --file here"),
        ("goldraub", "delete -1fother.yaml", "no --file here"),
        ("goldraub", "delete 1 -xfother.yaml", "no --file here"),
        ("goldraub", "r --json -fother.yaml", "no --file here"),
        ("lima", "b c E-W forest beach 2", "BY TO RANGE [TERRAIN] [ANSWER]"),
        ("lima", "a ben 3F n", "a BY LOC LOC y|n [SEEN SEEN]"),
        ("lima", "p ben", "p BY TO [RANGE ANSWER]"),
    ],
)
def test_a_malformed_line_is_one_clear_error(goldraub, lima, game, line, part):
    session = goldraub if game == "goldraub" else lima
    with pytest.raises(InputError) as caught:
        session.expand(line.split())
    assert part in caught.value.line() and caught.value.line().startswith("sleuth play")


def test_the_file_option_goes_after_the_command_s_name_only_where_it_is_taken(goldraub):
    where = str(goldraub.path)
    assert goldraub.with_file(["report", "--json"]) == ["report", "--file", where, "--json"]
    assert goldraub.with_file(["--help"]) == ["--help"]
    assert goldraub.with_file(["nosuch", "x"]) == ["nosuch", "x"]


# --- completion -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "offered"),
    [
        ("se", ["search"]),
        ("search a", ["Anton"]),
        ("search an 31", ["31-36", "31-75"]),
        ("search an 31-36 --s", ["--saw"]),
        ("search an 31-36 --gold 2 --at 2", ["2", "20", "21", "22", "23", "24"]),
        ("guess d b", ["Bert"]),
        ("guess d b 3", ["31", "32", "33", "34", "35", "36"]),
        ("check ", ["Anton", "Bert", "Doris", "Elli"]),
        ("edit 1 g", ["gold="]),
        ("edit 1 ", ["by=", "row=", "gold=", "saw=", "at="]),
        ("help u", ["undo"]),
        ("an 41-", ["41-47", "41-74"]),
        ("g ", ["Anton", "Bert", "Christl", "Doris", "Elli"]),
        ("g dor bert 32 ", ["y", "n"]),
    ],
)
def test_goldraub_completion(goldraub, text, offered):
    assert _offered(goldraub, text) == offered


@pytest.mark.parametrize(
    ("text", "offered"),
    [
        ("as", ["ask"]),
        ("ask b ", ["Ana", "Ben", "Cy", "Di"]),
        ("ask b c S", ["S-", "SE-", "SW-"]),
        ("ask b c SE-N", ["SE-N", "SE-NE", "SE-NW"]),
        ("ask b c SE-N --terrain f", ["forest"]),
        ("accuse b 3", ["3B", "3F", "3M"]),
        ("accuse cy 3F 7M --wrong --treasure 5B,6", ["5B,6B", "5B,6F", "5B,6M"]),
        (
            "next --roll N-wild,S",
            [
                f"N-wild,{face}"
                for face in (
                    "SW-beach",
                    "SE-mountain",
                    "SW-forest",
                    "SE-forest",
                    "SW-mountain",
                    "SE-beach",
                    "S-beach",
                    "S-forest",
                    "S-mountain",
                    "S-wild",
                )
            ],
        ),
        ("b c E-W ", ["beach", "forest", "mountain"]),
        ("p cy b", ["Ben"]),
        ("a cy 3", ["3B", "3F", "3M"]),
    ],
)
def test_lima_completion(lima, text, offered):
    if text.startswith("next") and "next" not in lima.commands:
        pytest.skip("no next command in this build")
    assert sorted(_offered(lima, text)) == sorted(offered)


def _offered(session: Sitting, text: str) -> list[str]:
    """What Tab offers after ``text``, through prompt_toolkit's completer."""
    found = Words(session).get_completions(Document(text), CompleteEvent(completion_requested=True))
    return [c.text for c in found]


def test_the_first_word_offers_commands_aliases_and_players_not_another_game_s(lima):
    offered = _offered(lima, "")
    assert {"ask", "secret", "accuse", "report", "undo", "help", "quit"} <= set(offered)
    assert {"Ana", "Ben", "p", "a", "r"} <= set(offered)
    assert not {"search", "guess", "new", "play"} & set(offered)


def test_many_matches_are_cut_at_the_next_dash_and_a_list_completes_its_last_word():
    points = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    ranges = [f"{a}-{b}" for a in points for b in points]
    assert matching(ranges, "") == [f"{a}-" for a in points]
    assert matching(ranges, "n") == ["N-", "NE-", "NW-"]
    assert matching(ranges, "ne-") == [f"NE-{b}" for b in points]
    assert matching(["3F", "7M", "7B"], "3F,7") == ["3F,7M", "3F,7B"]


# --- the status line ------------------------------------------------------------------------


def _record(game: str, events: list[dict]):
    """A small record of ``game`` with ``events``."""
    if game == "goldraub":
        doc = {"game": "goldraub", "players": ["A", "B", "C"], "me": "C", "hand": [22, 45, 63]}
        doc["rounds"] = 2
    else:
        doc, _ = lima_game(4, 0, 13, me=2)
    return parse(dict(doc, events=events), "test")


def _sectors() -> tuple[str, ...]:
    from sleuth.games.goldraub.board import city

    return city().sectors


def _search(by: str) -> dict:
    return {"search": {"by": by, "row": "31-36", "gold": 0}}


@pytest.mark.parametrize(
    ("searches", "round_", "value", "turn", "over"),
    [
        ([], 1, 2, None, None),
        (["B"], 1, 2, "C", None),
        (["B", "C", "A"], 2, 1, "B", None),
        (["B", "C", "A", "B", "C"], 2, 1, "A", None),
        (["B", "C", "A", "B", "C", "A"], 2, 0, None, "the round counter is at 0"),
    ],
)
def test_goldraub_status_counts_rounds_and_turns_by_searches(searches, round_, value, turn, over):
    record = _record("goldraub", [_search(b) for b in searches])
    status = record.rules.status(record)
    assert (status.round, status.value, status.turn, status.out, status.over) == (
        round_,
        value,
        turn,
        (),
        over,
    )


def _ask(by: str, to: str) -> dict:
    return {"ask": {"by": by, "to": to, "range": "N-N", "answer": 5}}


def _wrong(by: str) -> dict:
    return {"accuse": {"by": by, "locations": ["1B", "1F"], "correct": False}}


def test_lima_status_skips_players_out_and_counts_rounds_from_the_first_asker():
    record = _record("lima", [])
    assert record.rules.status(record).turn is None
    assert [p for p in record.table.players] == ["Ana", "Ben", "Cy", "Di"]
    seq = [_ask("Ben", "Cy"), _ask("Cy", "Di"), _ask("Di", "Ana"), _wrong("Di")]
    status = record.rules.status(_record("lima", seq))
    assert (status.round, status.turn, status.out, status.over) == (1, "Ana", ("Di",), None)
    seq += [_ask("Ana", "Ben")]
    status = record.rules.status(_record("lima", seq))
    assert (status.round, status.turn) == (2, "Ben")  # Ben asked first: his turns start rounds
    seq += [_ask("Ben", "Cy"), _ask("Cy", "Ana")]
    status = record.rules.status(_record("lima", seq))
    assert (status.round, status.turn) == (2, "Ana")  # Di is out: Ana follows Cy
    seq += [_wrong("Ana"), _wrong("Ben")]
    status = record.rules.status(_record("lima", seq))
    assert status.over == "Cy alone is still in the game" and status.turn is None


def test_lima_status_ends_with_a_right_accusation(lima):
    doc, truth = lima_game(4, 0, 13, me=2)
    pair = sorted(t for t, h in truth.items() if h == "treasure")
    right = {"accuse": {"by": "Ben", "locations": pair, "correct": True}}
    record = parse(dict(doc, events=[right]), "test")
    status = record.rules.status(record)
    assert status.over == "Ben found the treasure" and status.turn is None


def test_the_status_line_shows_the_best_guess_and_the_deals_left(goldraub):
    from sleuth.analysis import report
    from sleuth.games import part

    result = report(goldraub.record)
    line = status_line(goldraub.record, result)
    assert line.startswith("round 1, value 10 | Bert to play | 48.2 trillion deals | best ")
    best = part(result.record.rules, "best", None)(result)
    assert best is not None and best[1] == max(
        result.odds.probability(o, s)
        for o in ("Anton", "Bert", "Doris", "Elli")
        for s in goldraub.record.start.city.sectors
    )
    assert about(999_999) == "999,999" and about(2_390_850) == "2.39 million"
    assert about(312_000 * 10**12) == "3.12e+17" and about(999 * 10**12) == "999 trillion"
    one = dataclasses.replace(result, odds=Odds(1, True, dict.fromkeys(result.odds.held, 0), 1))
    assert status_line(goldraub.record, one).endswith("| 1 deal")


def test_the_status_line_of_an_ended_game_names_no_guess_to_take():
    """Once the round counter is at 0 no guess may be made: the line says the game is over."""
    from sleuth.analysis import report

    record = _record("goldraub", [_search(b) for b in ["B", "C", "A", "B", "C", "A"]])
    line = status_line(record, report(record), 80)
    assert "over: the round counter is at 0" in line and "best" not in line
    going = _record("goldraub", [_search(b) for b in ["B", "C", "A", "B", "C"]])
    assert "| best " in status_line(going, report(going), 80)


def test_the_status_line_fits_the_terminal_and_keeps_the_best_guess_whole():
    from sleuth.analysis import report
    from sleuth.cli.status import Part, fit

    record = load(EXAMPLES / "goldraub-6p.yaml")[0].upto(20)
    result = report(record)
    full = status_line(record, result)
    assert full == "round 3, value 8 | Franz to play | 1.45 million deals | best Doris 14 61.5%"
    assert status_line(record, result, len(full)) == full
    assert status_line(record, result, 70) == (
        "r3 v8 | Franz to play | 1.45 million deals | best Doris 14 61.5%"
    )
    assert status_line(record, result, 60) == "r3 v8 | Franz to play | best Doris 14 61.5%"
    parts = [Part("round 1"), Part("x" * 100 + " to play"), Part("best Bert 13 4%")]
    assert fit(parts, 40) == ("round 1 | " + "x" * 100)[:39] + "…"
    out = [Part("round 2", "r2"), Part("out: Anna, Bert", "2 out", spare=True), Part("best X 1%")]
    assert fit(out, 19) == "r2 | best X 1%"
    assert fit(out, 10) == "r2 | best…"
    assert fit(out, 22) == "r2 | 2 out | best X 1%"


# --- the session without a terminal ---------------------------------------------------------


@pytest.fixture
def piped(monkeypatch, tmp_path):
    """Run ``sleuth play`` in process with ``input`` as its stdin; (exit status, out, err)."""
    monkeypatch.chdir(tmp_path)
    one_shot(tmp_path / "new", [*GOLDRAUB_NEW, "--hand", "22,45,63"], [])
    (tmp_path / "game.yaml").write_text((tmp_path / "new" / "game.yaml").read_text())
    env = cli_app.Env(
        out=Console(width=80, color_system=None),
        err=Console(stderr=True, width=80),
        environ={"SLEUTH_CACHE": "off"},
    )

    def run(text: str):
        result = CliRunner().invoke(cli_app.app, ["play"], input=text, obj=env)
        return result.exit_code, result.stdout, result.stderr

    return run


def test_stdin_not_a_terminal_reads_the_lines_and_exits_with_the_worst_status(piped, tmp_path):
    status, out, err = piped('an 31-36 2 1\nsearch "an\ng dor bert 32 y\nr\n')
    assert status == 2
    assert "= search Anton 31-36 --gold 2 --saw 1\nrecorded: search" in out
    assert "No closing quotation" in err and len(err.strip().splitlines()) == 1
    assert "deals fit the record" in out
    assert len(events(tmp_path / "game.yaml")) == 2
    status, out, _ = piped("quit\nr\n")
    assert status == 0 and "deals" not in out


def test_ctrl_c_in_a_piped_session_ends_it_and_runs_no_line_after(piped, monkeypatch, tmp_path):
    """Ctrl-C during a command of a piped session: exit 130, one line, nothing recorded after."""

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("sleuth.replay"), "replay", interrupted)
    status, out, err = piped("an 31-36 2 1\nreplay\ng dor bert 32 y\nr\n")
    assert status == 130
    assert err.strip() == "sleuth: interrupted; the record is as last written"
    assert len(events(tmp_path / "game.yaml")) == 1
    assert "deals fit the record" not in out.split("recorded: search", 1)[1]


def test_a_bug_in_a_command_is_one_line_and_the_session_goes_on(piped, monkeypatch, tmp_path):
    import sleuth.store

    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(sleuth.store, "remove_last", broken)
    status, out, err = piped("an 31-36 2 1\nundo\nr\n")
    assert status == 1
    assert err.strip() == (
        "sleuth: internal error: ZeroDivisionError: division by zero at test_play.py:"
        f"{broken.__code__.co_firstlineno + 1} (a bug in sleuth; set SLEUTH_DEBUG=1 for the "
        "traceback)"
    )
    assert "deals fit the record" in out and len(events(tmp_path / "game.yaml")) == 1


def test_the_interactive_loop_puts_a_rejected_line_back_and_ctrl_c_drops_one(goldraub):
    typed = iter([KeyboardInterrupt, "zz 1", "zz 2", EOFError])
    defaults = []

    def read(prompt: str, default: str) -> str:
        defaults.append(default)
        step = next(typed)
        if isinstance(step, type):
            raise step
        return step

    goldraub.enter = lambda line: 2 if line == "zz 1" else 0  # zz 1: rejected
    assert interactive(goldraub, read) == 0
    assert defaults == ["", "", "zz 1", ""]


def test_a_script_gives_the_worst_status_and_stops_at_quit(goldraub):
    seen = []

    def enter(line: str) -> int:
        seen.append(line)
        if line == "quit":
            raise Leave
        return 3 if line == "b" else 0

    goldraub.enter = enter
    assert script(goldraub, ["a", "b", "c", "quit", "d"]) == 3
    assert seen == ["a", "b", "c", "quit"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_every_entry_whose_output_is_lost_says_so_and_a_reading_one_is_exit_2(tmp_path):
    """stdout on a full disk: each entry notes its own loss; only recording ones stay at 0."""
    import subprocess

    path = one_shot(tmp_path / "full", [*GOLDRAUB_NEW, "--hand", "22,45,63"], [])
    lines = ["an 31-36 2 1", "report", "help", "log", "search bert 63-67 --gold 2"]
    env = {k: v for k, v in os.environ.items() if k != "SLEUTH_FILE"} | {"SLEUTH_CACHE": "off"}
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "sleuth", "play", "--file", str(path)],
            input="\n".join(lines),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
        )
    lost = "(stdout: [Errno 28] No space left on device)"
    recorded = f"sleuth: note: recorded in {path}, but the output is lost {lost}"
    unread = f"sleuth: cannot write the output {lost}"
    assert done.stderr.splitlines() == [recorded, unread, unread, unread, recorded]
    assert done.returncode == 2
    assert [next(iter(e)) for e in events(path)] == ["search", "search"]


def test_a_recording_entry_whose_output_is_lost_keeps_exit_0(tmp_path):
    import subprocess

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    path = one_shot(tmp_path / "full", [*GOLDRAUB_NEW, "--hand", "22,45,63"], [])
    env = {k: v for k, v in os.environ.items() if k != "SLEUTH_FILE"} | {"SLEUTH_CACHE": "off"}
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "sleuth", "play", "--file", str(path)],
            input="an 31-36 2 1\nbe 63-67 2\n",
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
        )
    assert done.returncode == 0 and len(done.stderr.splitlines()) == 2, done.stderr
    assert len(events(path)) == 2


def test_play_s_help_keeps_every_short_form_and_fills_its_lines():
    environ = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [sys.executable, "-m", "sleuth", "play", "--help"],
        capture_output=True,
        text=True,
        env={**environ, "COLUMNS": "80", "NO_COLOR": "1"},
        timeout=60,
    )
    assert "BY ROW GOLD [SAW] [@SPACE]" in done.stdout  # not eaten as Rich markup
    text = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    ragged = [line for line in text if len(line) < 40 and line.endswith(("the", "and", "of"))]
    assert not ragged, ragged  # a paragraph is wrapped at the width, not at the source's lines


def test_london_completion_offers_the_face_up_cards_the_deck_and_the_columns(london):
    from sleuth.games.london.table import complete, vocabulary

    record = london.record
    after_player = complete(record, ["an"])
    assert set(record.start.row) | {"deck", "1", "5"} <= set(after_player)
    assert complete(record, ["x"]) == record.table.players
    assert vocabulary(record, "check", "first") == ("1", "2", "3", "4", "5")


def test_did_you_mean_at_the_table_suggests_only_this_game_s_commands(loop):
    with pytest.raises(InputError) as refused:
        loop.expand(["serch"])
    assert "did you mean" not in str(refused.value)  # search is Goldraub's
