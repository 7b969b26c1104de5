"""Independent jobs over forked worker processes, when the machine has cores to spare.

A batch is a function and a list of inputs (a turn's questions, a record's prefixes). Forked,
the workers inherit the function and everything it reads (the model, the record), so only an
input's index goes out and its result comes back. Each job is its own count: the results are
the same, in the same order, with or without workers. $SLEUTH_WORKERS caps the workers (1:
none). Forking is safe here because no other thread holds a lock the jobs need: the spinner's
timer sleeps, and the jobs touch neither the consoles nor the record's file.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence

WORKERS_ENV = "SLEUTH_WORKERS"  # the most worker processes a batch may use; 1: none
FEWEST = 4  # inputs per worker at least: forking costs more than a few small counts save

_job: Callable | None = None  # the batch's function and inputs, inherited by forked workers
_inputs: Sequence = ()


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


def _quiet() -> None:
    """Worker side, at its start: Ctrl-C is the parent's to handle (it ends the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(k: int):
    """Worker side: the batch's function on its k-th input."""
    return _job(_inputs[k])


def batch(job: Callable, inputs: Sequence, done: Callable[[], None] | None = None) -> list:
    """``[job(x) for x in inputs]``, over forked workers when there are cores to spare.

    ``done`` is called once per input finished, in order (a progress bar's tick).
    """
    global _job, _inputs
    processes = workers(len(inputs))
    if processes == 1:
        return [_ticked(job(x), done) for x in inputs]
    _job, _inputs = job, inputs
    try:
        with multiprocessing.get_context("fork").Pool(processes, _quiet) as pool:
            return [_ticked(r, done) for r in pool.imap(_run, range(len(inputs)))]
    finally:
        _job, _inputs = None, ()


def _ticked(result, done: Callable[[], None] | None):
    """``result``, after telling ``done`` (if any) that one more input is finished."""
    if done is not None:
        done()
    return result
