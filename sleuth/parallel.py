"""Independent jobs over forked worker processes, when the machine has cores to spare.

A batch is a function and a list of inputs (a turn's questions, a record's prefixes). Forked,
the workers inherit the function and everything it reads (the model, the record), so only an
input's index goes out and its result comes back. Each job is its own count: the results are
the same, in the same order, with or without workers. $SLEUTH_WORKERS caps the workers (1:
none). Forking is safe here because no other thread holds a lock the jobs need: the spinner's
timer sleeps, and the jobs touch neither the consoles nor the record's file.

No worker outlives its batch, nor the command: the parent hands each worker one index at a time
over a pipe of its own (no lock is shared, so a worker killed at any moment blocks no one), and
whatever ends the batch (its end, an error, Ctrl-C) kills and reaps every worker before it goes
on. A worker dies with its parent (``PR_SET_PDEATHSIG`` on Linux; elsewhere at its next read or
write of its pipes), ignores Ctrl-C (the parent's to handle) and holds neither the caller's
stdout nor its stderr, so that a reader of the command's output sees its end with the parent's.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection, Pipe, wait

from sleuth.budget import Deadline

WORKERS_ENV = "SLEUTH_WORKERS"  # the most worker processes a batch may use; 1: none
FEWEST = 4  # inputs per worker at least: forking costs more than a few small counts save
HELD = {signal.SIGINT, signal.SIGTERM}  # held back while workers are forked and reaped
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def workers(n: int) -> int:
    """How many processes a batch of ``n`` inputs uses: the cores, at most $SLEUTH_WORKERS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    try:
        most = int(os.environ.get(WORKERS_ENV, cores))
    except ValueError:
        most = cores
    fork = "fork" in multiprocessing.get_all_start_methods()
    return max(1, min(cores, most, n // FEWEST)) if fork else 1


def batch(
    job: Callable,
    inputs: Sequence,
    done: Callable[[], None] | None = None,
    due: Deadline | None = None,
) -> list:
    """``[job(x) for x in inputs]``, over forked workers when there are cores to spare.

    ``done`` is called once per input finished (a progress bar's tick). With ``due``, the
    workers' results not back by then are None and the workers are killed: a job that checks
    its own budget only now and then cannot make the batch late. Without workers, the jobs
    keep to the deadline themselves (they are given it).
    """
    processes = workers(len(inputs))
    if processes == 1:
        return [_ticked(job(x), done) for x in inputs]
    with crew(job, inputs, processes) as links:
        return _gather(links, len(inputs), done, due)


def _gather(links: dict[Connection, Connection], n: int, done, due: Deadline | None) -> list:
    """Each input's result: one index at a time to each worker, until all have come back.

    ``links`` maps each worker's result pipe to its task pipe. With ``due``, None for each
    input whose result is not back by then.
    """
    results: list = [None] * n
    waiting, left = iter(range(n)), n
    for back in links:
        _hand(links[back], waiting)
    while left:
        ready = wait(list(links), None if due is None else min(due.left(), 3600.0))
        if not ready and due is not None and due.passed():
            break
        for pipe in ready:
            assert isinstance(pipe, Connection)  # wait gives back some of the pipes it was given
            kind, k, value = _received(pipe)
            if kind == "error":
                raise value
            results[k], left = value, left - 1
            if done is not None:
                done()
            _hand(links[pipe], waiting)
    return results


def _received(back: Connection) -> tuple:
    """The next message on a worker's result pipe: ("ok" or "error", index, value)."""
    try:
        return back.recv()
    except EOFError:
        raise ChildProcessError("a batch worker ended before it sent its result") from None


def _hand(out: Connection, waiting: Iterator[int]) -> None:
    """Send the next index waiting, if any, down a worker's task pipe."""
    k = next(waiting, None)
    if k is not None:
        out.send(k)


@contextmanager
def crew(job: Callable, inputs: Sequence, n: int) -> Iterator[dict[Connection, Connection]]:
    """``n`` forked workers of ``job`` over ``inputs``: their result pipes to their task pipes.

    Ctrl-C and SIGTERM are held back while the workers are forked and while they are killed and
    reaped at the end (``_held``), so that neither leaves one half-started or unreaped; one that
    came meanwhile is delivered right after.
    """
    deathsig = _deathsig()
    pids: list[int] = []
    links: dict[Connection, Connection] = {}
    try:
        with _held() as mask:
            for _ in range(n):
                pid, back, out = _fork(job, inputs, deathsig, links, mask)
                pids.append(pid)
                links[back] = out
        yield links
    finally:
        try:
            with _held():
                _reap(pids, links)
        except BaseException:  # a signal that came before it could be held back
            _reap(pids, links)
            raise


@contextmanager
def _held() -> Iterator[set[int]]:
    """Ctrl-C and SIGTERM held back for the block and delivered after it; gives the mask before.

    Blocking them in this thread is not enough: the kernel gives a signal that this thread blocks
    to another one (a spinner's timer), whose C handler marks it for Python, and Python then
    runs the handler in this thread at any line of the block. So a handler written in Python
    (Ctrl-C's KeyboardInterrupt) is swapped, for the block, for one that only notes the signal.
    """
    noted: list[int] = []
    swapped: dict[signal.Signals, Callable] = {}
    if threading.current_thread() is threading.main_thread():  # only it may set handlers
        for kind in HELD:
            handler = signal.getsignal(kind)
            if callable(handler):
                swapped[kind] = handler
                signal.signal(kind, lambda number, frame: noted.append(number))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        yield mask
    finally:
        for kind, handler in swapped.items():
            signal.signal(kind, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for number in noted:
            signal.raise_signal(number)


def _fork(job, inputs, deathsig, links, mask) -> tuple[int, Connection, Connection]:
    """Fork one worker; its pid, the pipe its results come back on and the one it reads from."""
    tasks_in, tasks_out = Pipe(duplex=False)
    back_in, back_out = Pipe(duplex=False)
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            for conn in (*links, *links.values(), tasks_out, back_in):
                conn.close()
            _prepare(deathsig, parent, mask)
            _serve(job, inputs, tasks_in, back_out)
        finally:
            os._exit(0)
    tasks_in.close()
    back_out.close()
    return pid, back_in, tasks_out


def _prepare(deathsig: Callable[[], None] | None, parent: int, mask) -> None:
    """Worker side, at its start: die with the parent, leave Ctrl-C to it, hold no output."""
    if deathsig is not None:
        deathsig()
    if os.getppid() != parent:  # the parent died before the worker could ask to follow it
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)


def _serve(job: Callable, inputs: Sequence, tasks: Connection, back: Connection) -> None:
    """Worker side: run the job on each index received, until the task pipe closes."""
    while True:
        try:
            k = tasks.recv()
        except EOFError:
            return
        try:
            back.send(("ok", k, job(inputs[k])))
        except Exception as error:  # a bug in the job: the parent raises it
            back.send(("error", k, _portable(error)))


def _portable(error: Exception) -> Exception:
    """``error`` if it can be pickled, else a RuntimeError that names it."""
    import pickle

    try:
        pickle.dumps(error)
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


def _reap(pids: list[int], links: dict[Connection, Connection]) -> None:
    """Kill every worker, wait for each (no zombie left) and close the pipes.

    The pids reaped leave ``pids``, so that a second call finishes what an interrupted one left.
    """
    for pid in pids:
        os.kill(pid, signal.SIGKILL)  # an unreaped worker, even one that ended, has its pid
    while pids:
        with suppress(ChildProcessError):  # reaped by a call interrupted just after
            os.waitpid(pids[-1], 0)
        pids.pop()
    for back, out in links.items():
        back.close()
        out.close()


@functools.cache
def _deathsig() -> Callable[[], None] | None:
    """What makes the calling process get SIGKILL when its parent dies; None off Linux.

    ``prctl`` is looked up among the symbols already loaded (the C library's), never with
    ``ctypes.util.find_library``: that runs ``ldconfig`` in a child process, which a Ctrl-C
    at that moment would leave unreaped.
    """
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _ticked(result, done: Callable[[], None] | None):
    """``result``, after telling ``done`` (if any) that one more input is finished."""
    if done is not None:
        done()
    return result
