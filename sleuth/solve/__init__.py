"""The solvers behind one interface: what is certain, what contradicts, and exact counts.

- ``Entailment(model)``: z3 loaded with a model; ``consistent``, ``forced``, ``impossible``,
  ``conflict`` (a minimal set of groups that cannot all hold), ``proves``, ``minimal`` (a
  minimal set of groups that proves a holding, or that conflicts), ``sharpened``.
- ``count(model, budget, memory)``: exact numbers of worlds and of each holding (``Counts``),
  or ``BudgetExceeded``; ``memory`` (``Remembered``) carries an item order between counts.
- ``count_tolerant(model, tolerable, budget)``: the same counts over the deals that break at
  most one of the ``tolerable`` groups (answers that may be wrong), each once, in one pass
  (``Loose``: those and the deals breaking none).
- ``split(model, question, budget)``: the counts of the worlds per value of a sum of terms (a
  question not asked yet), ``{answer: Counts}``, in one forward pass (``BudgetExceeded`` as
  ``count``); ``split_pairs(model, question, holder, budget)`` also the worlds per pair of
  items ``holder`` holds, per answer (``{answer: (Counts, pairs)}``).
- ``layers(model, questions, budget)``: the record counted once with every layer kept
  (``Layers``), or None where the layer engine cannot count it; ``layered_split(layers,
  question, budget)`` then equals ``split(model, question, budget)``, each question counted only
  over the layers its items span.
- ``estimate(model, seconds)``: a sampled ``Estimate``, for when the exact count runs out of time.
- ``fixed(model, pairs, holding)``: those of the pairs that the counter's propagation alone
  shows held (or not) in every world: sound, not complete, and no z3.
- ``firsts(entail, facts, holding)``: the event since which each of the facts holds (or, not
  ``holding``, fails), in one bisection: the package's one search for the first forcing event.
- ``smallest(entail, groups, pair, holding, core, deadline)``: the fewest groups that prove a
  holding, by hitting sets (``Entailment.minimal`` gives a minimal set).

Inside: ``simplify`` propagates, ``plan`` and ``steps`` state the counting program, ``reference``
(the reference) and ``vector`` run it (``engines``), ``order`` races item orders for them, and
``tuning`` holds every setting that trades time for memory.

``Entailment``, ``firsts`` and ``smallest`` are imported when first asked for: z3 takes a tenth
of a second to load, and an exact report whose facts are dated from the last one needs none of
it. They are the only modules of the package that import z3. The independent backends the
tests check the counter against are in ``tests/oracles``.
"""

from typing import Any

from sleuth.solve.counts import BudgetExceeded, Counts, Loose
from sleuth.solve.exact import count, count_tolerant, split, split_pairs
from sleuth.solve.layered import layers
from sleuth.solve.layered import split as layered_split
from sleuth.solve.memory import Remembered
from sleuth.solve.sample import Estimate, estimate
from sleuth.solve.simplify import fixed

__all__ = [
    "BudgetExceeded",
    "Counts",
    "Entailment",
    "Estimate",
    "Loose",
    "Remembered",
    "count",
    "count_tolerant",
    "estimate",
    "firsts",
    "fixed",
    "layered_split",
    "layers",
    "smallest",
    "split",
    "split_pairs",
]


def __getattr__(name: str) -> Any:
    """The names whose modules load z3, imported on first use."""
    if name == "Entailment":
        from sleuth.solve.entail import Entailment

        found: Any = Entailment
    elif name == "firsts":
        from sleuth.solve.since import firsts

        found = firsts
    elif name == "smallest":
        from sleuth.solve.proof import smallest

        found = smallest
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = found
    return found
