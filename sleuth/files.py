"""Files on disk, whatever they hold: read a regular file safely, replace one atomically, lock it.

The record (``sleuth.store``) and the cache of item orders (``sleuth.solve.memory``) both go
through here, so there is one way to write a file: a temporary file beside its target, fsync,
rename.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

from sleuth.errors import FileFault, InputError


def head(path: Path, limit: int) -> tuple[bytes, int]:
    """The regular file at ``path``: its first ``limit`` + 1 bytes (none if larger), its size.

    Anything else is refused before it is opened (a FIFO would block, a device never end); the
    open does not wait for a FIFO's writer, and what it opened is checked again.
    """
    regular(os.stat(path), str(path))
    with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
        size = regular(os.fstat(handle.fileno()), str(path)).st_size
        return (handle.read(limit + 1) if size <= limit else b""), size


KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def regular(status: os.stat_result, source: str) -> os.stat_result:
    """``status`` if it is a regular file's; an InputError naming what it is otherwise."""
    if not stat.S_ISREG(status.st_mode):
        kind = KINDS.get(stat.S_IFMT(status.st_mode), "a special file")
        raise InputError(source, "", f"not a regular file ({kind})")
    return status


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` (or bytes): a temporary file beside its target, fsync, rename.

    A symlink stays a link: the file it names is replaced. A new file gets the mode the umask
    leaves, a rewritten one keeps its own.
    """
    real = target(path)
    try:
        _replace(real, text)
    except OSError as error:
        raise FileFault(str(path), "cannot write", error) from None
    with contextlib.suppress(OSError):
        dirfd = os.open(real.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)


def _replace(path: Path, text: str | bytes) -> None:
    """Write ``text`` to a new temporary file, locked until it is renamed over ``path``."""
    temp = _temporary(path)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as out:
            fcntl.flock(out, fcntl.LOCK_EX)
            with contextlib.suppress(FileNotFoundError):
                os.fchmod(out.fileno(), path.stat().st_mode & 0o777)
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
            out.flush()
            os.fsync(out.fileno())
            os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


TAG = 16  # hex digits in a temporary file's name: .game.yaml.0123456789abcdef.tmp


def _temporary(path: Path) -> Path:
    """A new name for a temporary file beside ``path``, e.g. ``.game.yaml.0123456789abcdef.tmp``."""
    return path.parent / f".{path.name}.{secrets.token_hex(TAG // 2)}.tmp"


def writable(path: Path) -> Path:
    """The file ``path`` names, once it is known that ``write_atomic`` can replace it.

    Checked before anything is computed for it: it must be a regular file or none, in a folder
    where a temporary file can be made (one is made and removed). An InputError otherwise, e.g.
    for a directory, a device such as /dev/full, or a folder that does not exist.
    """
    real = target(path)
    try:
        temp = _temporary(real)
        os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        os.unlink(temp)
    except OSError as error:
        raise FileFault(str(path), "cannot write", error) from None
    return real


def target(path: Path) -> Path:
    """The file ``path`` names, symlinks followed; an InputError if it is not a regular file."""
    real = Path(os.path.realpath(path))
    try:
        regular(os.stat(real), str(path))
    except FileNotFoundError:
        pass
    except OSError as error:
        raise FileFault(str(path), "cannot read", error) from None
    return real


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the record's lock file while reading, changing and writing it.

    The lock lives beside the file that ``path`` names, so two symlinks to one record share it.
    Every write happens under the lock, so a temporary file of this record that no writer holds
    any more was left by a writer killed before its rename: it is removed.
    """
    real = target(path)
    lock = real.parent / f".{real.name}.lock"
    try:
        handle = open(lock, "a")  # noqa: SIM115 - held for the block
        fcntl.flock(handle, fcntl.LOCK_EX)
    except OSError as error:
        raise FileFault(str(path), "cannot lock", error) from None
    with handle:
        try:
            _sweep(real)
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _sweep(path: Path) -> None:
    """Remove the temporary files that killed writers of ``path`` left (no other record's)."""
    own = re.compile(rf"\.{re.escape(path.name)}\.[0-9a-f]{{{TAG}}}\.tmp")
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        if own.fullmatch(stale.name) and not _held(stale):
            with contextlib.suppress(OSError):
                stale.unlink()


def _held(temp: Path) -> bool:
    """Whether a live writer holds the temporary file ``temp`` (or it cannot be told)."""
    try:
        fd = os.open(temp, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False
