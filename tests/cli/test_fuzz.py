"""Bad input, tried widely: malformed records and command lines thrown at every command.

Every one must end in exit status 0 or 3 (it was usable after all) or in one line on stderr and
exit status 2, within a second, never with a traceback and never with a changed file.
Most go through Typer's CliRunner; a handful through a real process. Files that are not records
(a FIFO, a device, a folder, a huge sparse file, a dangling link) and faults of the disk (full,
not writable) get the same promise: exit status 2 and one line, at once, the record unchanged.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from subprocess import PIPE

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from typer.testing import CliRunner

from sleuth.cli import app
from sleuth.store import load

GOLDRAUB = {
    "game": "goldraub",
    "players": ["Anton", "Bert", "Christl"],
    "me": "Christl",
    "hand": [22, 45, 63],
    "rounds": 10,
    "events": [
        {"search": {"by": "Anton", "row": "31-36", "gold": 1, "saw": 1}},
        {"guess": {"by": "Bert", "owner": "Anton", "sector": 32, "correct": False}},
    ],
}
LIMA = {
    "game": "lima",
    "players": ["Ana", "Ben", "Cy", "Di"],
    "me": "Cy",
    "hand": ["2F", "3B", "4F", "8B", "8M"],
    "known": {"Ana": ["7B"]},
    "public": ["1F", "1M"],
    "events": [
        {"ask": {"by": "Ana", "to": "Ben", "range": "N-NE", "answer": 0}},
        {"secret": {"by": "Cy", "to": "Di", "range": "N-W", "answer": 3}},
        {"accuse": {"by": "Di", "locations": ["1B", "8M"], "correct": False}},
    ],
}
BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}' if prev else 'lol'] * 9)}]\n"
    for prev, name in zip(["", "a", "b", "c", "d", "e", "f", "g"], "abcdefgh", strict=False)
)
RAW = [
    b"",
    b"\n\n   \n",
    bytes(range(256)),
    b"\xff\xfe\x00g\x00a\x00m\x00e",
    b"game: goldraub\x00\n",
    b"[" * 5000 + b"]" * 5000,
    b"{a: " * 3000 + b"1" + b"}" * 3000,
    b"- " * 20000 + b"x",
    (BOMB + "game: goldraub\nplayers: *h\n").encode(),
    (BOMB + "game: *h\n").encode(),
    (BOMB + "game: lima\n? *f\n: 1\n").encode(),
    b"game: goldraub\n---\ngame: lima\n",
    b"!!python/object/apply:os.system ['echo hi']\n",
    b"game: goldraub\ngame: lima\n",
    b"game: goldraub\nplayers: [A, a, B]\nme: A\nhand: [11, 12, 13]\n",
    b"game: lima\nplayers: [A, B, C, D]\nme: A\nhand: [1F, 1B, 1M, 2F, 2B]\nknown: {B: {x: 1}}\n",
    "game: goldraub\nplayers: [Ä, ß, 😀, '[b]x']\nme: '[red]'\nhand: [11, 12, 13]\n".encode(),
    b"game: goldraub\nplayers: [A, B, C]\nme: A\nhand: [11, 12, 13]\nrounds: 1e999\n",
]
COMMANDS = [
    ["report"],
    ["report", "--json"],
    ["report", "--tolerate", "1"],
    ["check"],
    ["check", "Bert", "32"],
    ["check", "3F", "7M"],
    ["undo"],
    ["edit", "1", "gold=0"],
    ["edit", "2", "answer=1"],
    ["search", "bert", "31-36", "--gold", "1"],
    ["guess", "anton", "bert", "11", "--wrong"],
    ["ask", "ana", "ben", "N-S", "--answer", "1"],
    ["secret", "ben", "ana"],
    ["accuse", "ben", "1F", "2F", "--wrong"],
]

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["Anton", "Ana", "31-36", "3F", "N-S", "forest", "", " ", "∞", "é"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def broken_records(draw) -> bytes:
    """A valid record of either game with one to three things broken, as YAML (JSON) bytes."""
    doc = json.loads(json.dumps(draw(st.sampled_from([GOLDRAUB, LIMA]))))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(
            st.sampled_from(["top", "drop", "extra", "event", "field", "unfield", "players"])
        )
        events = doc.get("events") if isinstance(doc.get("events"), list) else []
        if where == "top":
            doc[draw(st.sampled_from(sorted(doc) or ["game"]))] = draw(junk)
        elif where == "drop" and doc:
            doc.pop(draw(st.sampled_from(sorted(doc))))
        elif where == "extra":
            doc[draw(st.text(max_size=8))] = draw(junk)
        elif where == "players":
            doc["players"] = draw(
                st.lists(
                    st.sampled_from(
                        [
                            "Anton",
                            "anton",
                            "Bert",
                            "Christl",
                            "Ana",
                            "Ben",
                            "Cy",
                            "Di",
                            "ü",
                            "😀",
                            "",
                        ]
                    ),
                    max_size=7,
                )
            )
        elif events and where == "event":
            events[draw(st.integers(0, len(events) - 1))] = draw(junk)
        elif events:
            event = events[draw(st.integers(0, len(events) - 1))]
            if isinstance(event, dict) and event:
                fields = next(iter(event.values()))
                if isinstance(fields, dict) and fields:
                    key = draw(st.sampled_from(sorted(fields)))
                    if where == "field":
                        fields[key] = draw(junk)
                    else:
                        fields.pop(key)
    return json.dumps(doc, allow_nan=True).encode()


def invoke(tmp_path: Path, data: bytes, args: list[str]):
    """Run one command on a record holding ``data``; check the promise about bad input."""
    path = tmp_path / "game.yaml"
    path.write_bytes(data)
    started = time.monotonic()
    result = CliRunner().invoke(app, [*args, "--file", str(path)])
    elapsed = time.monotonic() - started
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 2, 3), (result.exit_code, result.output)
    if result.exit_code == 2:
        assert elapsed < 1.0, f"{args} took {elapsed:.2f}s"
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("sleuth: "), result.stderr
        assert result.stdout == ""
        assert path.read_bytes() == data
    return result


EXAMPLES = int(os.environ.get("SLEUTH_FUZZ_EXAMPLES", "120"))  # more for a long hunt
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(data=broken_records(), args=st.sampled_from(COMMANDS))
def test_broken_records(tmp_path_factory, data, args):
    invoke(tmp_path_factory.mktemp("fuzz"), data, args)


@FUZZ
@given(
    data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode),
    args=st.sampled_from(COMMANDS),
)
def test_random_bytes_and_text(tmp_path_factory, data, args):
    invoke(tmp_path_factory.mktemp("fuzz"), data, args)


@pytest.mark.parametrize("data", RAW, ids=range(len(RAW)))
@pytest.mark.parametrize("args", [["report"], ["search", "bert", "31-36", "--gold", "1"], ["undo"]])
def test_nasty_files(tmp_path, data, args):
    result = invoke(tmp_path, data, args)
    assert result.exit_code == 2


TOKENS = st.sampled_from(
    [
        "--gold", "--saw", "--at", "--answer", "--terrain", "--correct", "--wrong", "--treasure",
        "--json", "--tolerate", "--best", "--known", "--public", "--rounds", "-1", "0", "1", "2",
        "99999999999999999999999", "1e3", "nan", "Anton", "Bert", "Ana", "Ben", "Cy", "x", "",
        "31-36", "32-35", "N-S", "SE-NW", "3F", "7M", "forest", "gold=1", "answer=", "=", "é",
        "😀", "[bold]", "--", "-", "true",
    ]
)  # fmt: skip


@FUZZ
@given(
    command=st.sampled_from(
        ["report", "check", "undo", "edit", "search", "guess", "ask", "secret", "accuse", "nope"]
    ),
    args=st.lists(TOKENS | st.text(max_size=8), max_size=7),
    game=st.sampled_from([GOLDRAUB, LIMA]),
)
def test_random_command_lines(tmp_path_factory, command, args, game):
    if "--budget" in args:
        return
    invoke(tmp_path_factory.mktemp("fuzz"), json.dumps(game).encode(), [command, *args])


@FUZZ
@given(
    game=st.sampled_from(["goldraub", "lima", "Goldraub", "chess", ""]),
    players=st.text(max_size=30),
    me=st.text(max_size=8),
    hand=st.text(max_size=20),
    extra=st.lists(TOKENS, max_size=4),
)
def test_random_new(tmp_path_factory, game, players, me, hand, extra):
    folder = tmp_path_factory.mktemp("new")
    path = folder / "game.yaml"
    args = [
        "new",
        game,
        "--players",
        players,
        "--me",
        me,
        "--hand",
        hand,
        *extra,
        "--file",
        str(path),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 2)
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert not path.exists()


def players_read(path: Path) -> list[list]:
    """The players of the record at ``path`` as YAML 1.2 (round-trip, safe) and 1.1 read them."""
    old = YAML(typ="safe", pure=True)
    old.version = (1, 1)
    text = path.read_text(encoding="utf-8")
    return [list(y.load(text)["players"]) for y in (YAML(typ="rt"), YAML(typ="safe"), old)]


@settings(FUZZ, max_examples=max(EXAMPLES // 3, 1))
@given(name=st.text(st.characters(codec=None, exclude_characters=","), min_size=1, max_size=12))
def test_names_from_all_of_unicode_round_trip_or_are_refused(tmp_path_factory, name):
    path = tmp_path_factory.mktemp("name") / "b.yaml"
    args = ["new", "goldraub", "--players", f"Anton,Bert,{name}", "--me", "Anton"]
    result = CliRunner().invoke(app, [*args, "--hand", "22,45,63", "--file", str(path)])
    assert result.exit_code in (0, 2), repr(result.exception)
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "field 'players'" in lines[0], result.stderr
        assert not path.exists()
        return
    name = name.strip()
    assert players_read(path) == [["Anton", "Bert", name]] * 3
    guess = ["guess", "--wrong", "--file", str(path), "--", "anton", name, "32"]
    result = CliRunner().invoke(app, guess)
    assert result.exit_code == 0, result.output
    assert players_read(path) == [["Anton", "Bert", name]] * 3
    assert load(path)[0].events[0].fields()["owner"] == name


def sub(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m sleuth`` in ``cwd``."""
    env = {k: v for k, v in os.environ.items() if k != "SLEUTH_FILE"}
    env.update(NO_COLOR="1", COLUMNS="200")
    command = [sys.executable, "-m", "sleuth", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=60)


@pytest.mark.parametrize(
    ("data", "args"),
    [
        (RAW[2], ["report", "--json"]),
        (RAW[5], ["search", "bert", "31-36", "--gold", "1"]),
        (RAW[9], ["undo"]),
        (json.dumps(GOLDRAUB).encode(), ["search", "bert", "31-36", "--gold", "x"]),
        (json.dumps(LIMA).encode(), ["report", "--tolerate", "7"]),
    ],
)
def test_nasty_input_in_a_real_process(tmp_path, data, args):
    path = tmp_path / "game.yaml"
    path.write_bytes(data)
    result = sub(tmp_path, *args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sleuth: ") and "Traceback" not in lines[0]
    assert result.stdout == b""
    assert path.read_bytes() == data


NEW = ["new", "goldraub", "--players", "A,B,C", "--me", "A", "--hand", "11,12,13"]
EVERY = [*COMMANDS, NEW, [*NEW, "--force"]]
SPECIAL = ["fifo", "zero", "folder", "sparse", "dangling"]


def special(folder: Path, kind: str) -> Path:
    """A path naming something that is not a record file."""
    path = folder / "game.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "sparse":
        with open(path, "wb") as out:
            out.truncate(2 << 30)
    else:
        path.symlink_to(folder / "gone" / "game.yaml")
    return path


def snapshot(path: Path) -> tuple:
    """What a command must not change: the kind and size of ``path``, its link, its folder."""
    status = os.lstat(path)
    link = os.readlink(path) if path.is_symlink() else None
    listed = sorted(n for n in os.listdir(path.parent) if not n.endswith(".lock"))
    return stat.S_IFMT(status.st_mode), status.st_size, link, listed


@contextlib.contextmanager
def deadline(seconds: float, memory: int) -> Iterator[None]:
    """Make a command that hangs (a FIFO with no writer) or takes ``memory`` more bytes fail."""

    def expire(*_):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    limits = resource.getrlimit(resource.RLIMIT_AS)
    used = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (used + memory, limits[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limits)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> None:
    """Every command run once on a missing record: what they import is then neither timed nor
    weighed."""
    missing = tmp_path_factory.mktemp("imports") / "nowhere" / "game.yaml"
    for args in EVERY:
        CliRunner().invoke(app, [*args, "--file", str(missing)])


@pytest.mark.parametrize("kind", SPECIAL)
def test_files_that_are_not_records_are_refused_at_once(tmp_path, imported, kind):
    path = special(tmp_path, kind)
    before = snapshot(path)
    devices = sorted(os.listdir("/dev"))
    for args in EVERY:
        overwrite = kind == "sparse" and "--force" in args
        started = time.monotonic()
        with deadline(5, 256 << 20):
            result = CliRunner().invoke(app, [*args, "--file", str(path)])
        elapsed = time.monotonic() - started
        assert result.exit_code == (0 if overwrite else 2), (args, repr(result.exception))
        assert elapsed < 1.0, f"{args} took {elapsed:.2f}s"
        if not overwrite:
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and str(path) in lines[0], (args, result.stderr)
            assert snapshot(path) == before, args
    if kind in ("fifo", "zero", "folder"):
        assert "not a regular file" in lines[0]
    assert sorted(os.listdir("/dev")) == devices


def test_a_fifo_is_refused_by_a_real_process(tmp_path):
    path = special(tmp_path, "fifo")
    result = sub(tmp_path, "report", "--file", str(path))
    assert result.returncode == 2
    assert result.stderr.decode() == f"sleuth: {path}: not a regular file (a FIFO)\n"


RECORDING = [
    ("g.yaml", [*NEW, "--force"]),
    ("g.yaml", ["search", "bert", "31-36", "--gold", "1"]),
    ("g.yaml", ["guess", "anton", "bert", "11", "--wrong"]),
    ("g.yaml", ["undo"]),
    ("g.yaml", ["edit", "2", "correct=true"]),
    ("l.yaml", ["ask", "ana", "ben", "N-S", "--answer", "1"]),
    ("l.yaml", ["secret", "ben", "ana"]),
    ("l.yaml", ["accuse", "ben", "1F", "2F", "--wrong"]),
    ("l.yaml", ["undo"]),
    ("l.yaml", ["edit", "1", "answer=1"]),
    ("n.yaml", NEW),
]


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    """A folder on a tmpfs of 256 KiB of its own; skipped where none can be mounted."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command to make a small tmpfs with")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here (root only): {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def fill(folder: Path) -> None:
    """Write to a file in ``folder`` until its disk is full."""
    with open(folder / "filler", "wb", buffering=0) as out, contextlib.suppress(OSError):
        while True:
            out.write(b"\0" * 4096)


def test_recording_commands_on_a_full_disk_exit_2_and_keep_the_record(small_disk):
    (small_disk / "g.yaml").write_text(json.dumps(GOLDRAUB))
    (small_disk / "l.yaml").write_text(json.dumps(LIMA))
    for name, args in RECORDING[:-1]:
        copy = small_disk / f"copy-{name}"
        copy.write_bytes((small_disk / name).read_bytes())
        result = CliRunner().invoke(app, [*args, "--file", str(copy)])
        assert result.exit_code in (0, 3), (args, result.output)  # they work on a free disk
        copy.unlink()
    fill(small_disk)
    for name, args in RECORDING:
        path = small_disk / name
        before = path.read_bytes() if path.exists() else None
        result = CliRunner().invoke(app, [*args, "--file", str(path)])
        assert result.exit_code == 2, (args, repr(result.exception), result.output)
        assert result.stderr == f"sleuth: {path}: cannot write: No space left on device\n", args
        assert (path.read_bytes() if path.exists() else None) == before
        assert not list(small_disk.glob(".*.tmp")), args


def test_a_folder_without_write_permission_is_exit_2(tmp_path):
    """A stale lock file that can be opened, in a folder that cannot be written to."""
    prefix = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root ignores file modes, and no setpriv to drop that power")
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]
    path = tmp_path / "game.yaml"
    data = json.dumps(GOLDRAUB).encode()
    path.write_bytes(data)
    lock = tmp_path / ".game.yaml.lock"
    lock.touch()
    lock.chmod(0o666)
    tmp_path.chmod(0o555)
    try:
        command = [*prefix, sys.executable, "-m", "sleuth", "search", "bert", "31-36"]
        env = dict(os.environ, NO_COLOR="1")
        done = subprocess.run(
            [*command, "--gold", "1", "--file", str(path)], env=env, capture_output=True, timeout=60
        )
    finally:
        tmp_path.chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode() == f"sleuth: {path}: cannot write: Permission denied\n"
    assert path.read_bytes() == data


# Output that cannot be written: every command under an ASCII or Latin-1 stdout, a full disk
# and a closed stdout, in a real process, on records whose names are neither ASCII nor Latin-1.
# The status is the one the command has with a good stdout, except that a reading command whose
# output is lost exits 2 and a recording command notes the loss; never 1, never a traceback,
# and the record changes only by the command's own event.


def renamed(game: dict) -> bytes:
    """The record as JSON with every name ending in "éł" (neither ASCII nor Latin-1)."""
    text = json.dumps(game)
    for name in game["players"]:
        text = text.replace(f'"{name}"', f'"{name}éł"')
    return text.encode()


WIDE = {"goldraub": renamed(GOLDRAUB), "lima": renamed(LIMA)}
NEW_WIDE = ["new", "goldraub", "--players", "Antonéł,Bertéł,Christł", "--me", "bert"]
WRITERS = {"new", "undo", "edit", "search", "guess", "ask", "secret", "accuse"}
CASES = [
    ("goldraub", ["report"]),
    ("goldraub", ["report", "--json"]),
    ("lima", ["report", "--json"]),
    ("goldraub", ["check", "Bert", "32"]),
    ("lima", ["check"]),
    ("goldraub", ["undo"]),
    ("lima", ["edit", "2", "answer=1"]),
    ("goldraub", ["search", "bert", "31-36", "--gold", "1"]),
    ("goldraub", ["guess", "anton", "bert", "11", "--wrong"]),
    ("lima", ["ask", "ana", "ben", "N-S", "--answer", "1"]),
    ("lima", ["secret", "ben", "ana"]),
    ("lima", ["accuse", "ben", "1F", "2F", "--wrong"]),
    (None, [*NEW_WIDE, "--hand", "22,45,63"]),
    (None, [*NEW_WIDE, "--hand", "22,45"]),
]
STDOUTS = ["ascii", "latin-1", "closed"] + (["full"] if Path("/dev/full").exists() else [])


def start(cwd: Path, stdout: str, args: list[str]) -> subprocess.Popen:
    """Start ``python -m sleuth`` with the given stdout: an encoding, /dev/full, or closed."""
    env = {k: v for k, v in os.environ.items() if k not in ("SLEUTH_FILE", "COLUMNS")}
    env.update(NO_COLOR="1", PYTHONIOENCODING=stdout if stdout in ("ascii", "latin-1") else "utf-8")
    command = [sys.executable, "-m", "sleuth", *args]
    if stdout == "closed":  # the shell's >&-
        command = ["sh", "-c", 'exec "$@" >&-', "sh", *command]
    if stdout != "full":
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=PIPE, stderr=PIPE)
    with open("/dev/full", "w") as full:
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=full, stderr=PIPE)


def placed(folder: Path, data: bytes | None) -> Path:
    """The record file in a new folder, holding ``data`` (None: no record yet)."""
    folder.mkdir()
    if data is not None:
        (folder / "game.yaml").write_bytes(data)
    return folder / "game.yaml"


def contents(path: Path) -> bytes | None:
    """The file's bytes, None when there is none."""
    return path.read_bytes() if path.exists() else None


def check_output_fault(good, kept, stdout: str, args: list[str], child, path: Path) -> None:
    """One command's run with a faulty stdout against its run with a good one."""
    out, err = child.communicate(timeout=120)
    stderr = err.decode("utf-8", "replace")
    assert "Traceback" not in stderr and contents(path) == kept, stderr
    lines = stderr.strip().splitlines()
    if good.exit_code == 2:
        assert child.returncode == 2 and len(lines) == 1 and lines[0].startswith("sleuth: ")
    elif stdout in ("full", "closed") and args[0] in WRITERS:
        assert child.returncode == good.exit_code, stderr
        assert lines[-1].startswith("sleuth: note: recorded in ") and "output is lost" in lines[-1]
    elif stdout in ("full", "closed"):
        assert child.returncode == 2 and len(lines) == 1, stderr
        assert lines[0].startswith("sleuth: cannot write the output (stdout")
    else:
        assert child.returncode == good.exit_code, stderr
        printed = out.decode(stdout)
        if "--json" in args:
            assert json.loads(printed) == json.loads(good.stdout)


@pytest.mark.parametrize(("game", "args"), CASES, ids=[" ".join(args) for _, args in CASES])
def test_output_that_cannot_be_written(tmp_path, game, args):
    good_path = placed(tmp_path / "good", WIDE.get(game))
    good = CliRunner().invoke(app, [*args, "--file", str(good_path)])
    assert good.exit_code in (0, 2, 3), (good.exit_code, good.output)
    paths = {stdout: placed(tmp_path / stdout, WIDE.get(game)) for stdout in STDOUTS}
    children = {stdout: start(path.parent, stdout, args) for stdout, path in paths.items()}
    for stdout, child in children.items():
        try:
            check_output_fault(good, contents(good_path), stdout, args, child, paths[stdout])
        except AssertionError as error:
            raise AssertionError(f"stdout {stdout}: {error}") from error


# Hostile lines typed into ``sleuth play``: each is refused in one short line on stderr, exit
# status 2, nothing on stdout, the record byte for byte and no other file made.

HOSTILE_LINES = {
    "search an 31-36 --gold 2 " + "x" * 200_000: "a line of 200,025 characters is too long",
    '"' + "a" * 100_000: "a line of 100,001 characters is too long",
    "search an 31-36 --gold " + "9" * 900: "[900 characters in all]",
    "delete " + "9" * 990: "[992 characters in all]",
    "report --upto " + "9" * 985: "is too large",
    "guess an be 32 --wrong --before " + "9" * 960: "is too large",
    "search an 31-36 --gold 2 -fother.yaml": "no --file here",
    "report -fother.yaml": "no --file here",
    "report -f=other.yaml": "no --file here",
    "delete 1 -xfother.yaml": "no --file here",
    "delete -1fother.yaml": "no --file here",
    "delete 1_0": "'1_0' is not a number",
    "delete １": "'１' is not a number",
    "delete -1": "no event -1: 1 to 2",
    "next --at 0": "0 is not a route space",
    "next --at 1_0": "'1_0' is not a number",
    "next --occupied 1,2,3": "3 spaces for the 2 other figures",
    "next --occupied 7,7": "space 7 is named twice",
    "next --at 9 --occupied 9": "space 9 is my own figure's",
}


@pytest.mark.parametrize("line", list(HOSTILE_LINES), ids=range(len(HOSTILE_LINES)))
def test_hostile_lines_in_play_are_refused_in_one_short_line(tmp_path, line):
    path = tmp_path / "game.yaml"
    path.write_text(json.dumps(GOLDRAUB))
    before = snapshot(path)
    result = CliRunner().invoke(app, ["play", "--file", str(path)], input=line + "\n")
    assert result.exit_code == 2, (result.exception, result.output[:300])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sleuth: "), result.stderr[:300]
    assert HOSTILE_LINES[line] in lines[0] and len(lines[0]) < 300, lines[0][:300]
    assert result.stdout == "" and snapshot(path) == before
