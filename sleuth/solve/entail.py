"""z3 for what is certain and for contradictions.

One Boolean per (holder, item): the holder holds the item. Every item has exactly one holder and
every holder its exact hand size (pseudo-Boolean equalities). Each group of tallies (the setup,
then each event) is guarded by its own literal, so a question can be put to any subset of the
record, and an unsatisfiable one names the groups to blame (z3's unsat core).
A fact is forced when the record together with its negation is unsatisfiable.

The terms are made by z3's C functions directly (``_pb_eq``, ``_or``, ``_implies``): the very
terms z3's Python API makes, without its checks of every argument, which took two thirds of a
solver's making (``tests/engine/test_backends.py`` compares them).
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable

import z3

from sleuth.model import Holder, Item, Model, Tally, holds

NO_TIMEOUT = 4294967295  # z3's own default: no time limit


def _array(lits: list[z3.BoolRef]) -> ctypes.Array:
    """The literals as the C array of terms that z3's C functions take."""
    return (z3.Ast * len(lits))(*(lit.as_ast() for lit in lits))


def _pb_eq(ctx: z3.Context, lits: list[z3.BoolRef], k: int) -> z3.BoolRef:
    """``z3.PbEq`` of weight-1 literals: the same term, by one C call without the API's checks."""
    ones = (ctypes.c_int * len(lits))(*[1] * len(lits))
    return z3.BoolRef(z3.Z3_mk_pbeq(ctx.ref(), len(lits), _array(lits), ones, k), ctx)


def _or(ctx: z3.Context, lits: list[z3.BoolRef]) -> z3.BoolRef:
    """``z3.Or`` of the literals (false of none), made as ``_pb_eq``."""
    return z3.BoolRef(z3.Z3_mk_or(ctx.ref(), len(lits), _array(lits)), ctx)


def _implies(ctx: z3.Context, a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
    """``z3.Implies(a, b)``, made as ``_pb_eq``."""
    return z3.BoolRef(z3.Z3_mk_implies(ctx.ref(), a.as_ast(), b.as_ast()), ctx)


class Entailment:
    """A z3 solver loaded with one model; answers questions about subsets of its groups.

    Its terms live in a z3 context of its own (``ctx``): z3's choices (which unsat core, which
    model) follow the order in which terms were made, so in the shared context the same record
    could be explained by another proof after other work in the same process (a session at the
    table against a single command).
    """

    def __init__(self, model: Model):
        self.model = model
        space = model.space
        self.ctx = z3.Context()
        self.x = {
            (h, i): z3.Bool(f"x|{h}|{i}", self.ctx) for h in space.holders for i in space.items
        }
        self.solver = z3.Solver(ctx=self.ctx)
        for i in space.items:
            self.solver.add(_pb_eq(self.ctx, [self.x[h, i] for h in space.holders], 1))
        for h in space.holders:
            self.solver.add(_pb_eq(self.ctx, [self.x[h, i] for i in space.items], space.sizes[h]))
        self.guards = [z3.Bool(f"group|{g}", self.ctx) for g in range(len(model.groups))]
        for guard, group in zip(self.guards, model.groups, strict=True):
            for tally in group:
                self.solver.add(_implies(self.ctx, guard, self._encode(tally)))
        self._pair = {var.get_id(): pair for pair, var in self.x.items()}
        self._backbones: dict = {}
        self._loose: dict[tuple[int, ...], z3.BoolRef] = {}
        self.prefixes = [z3.Bool(f"prefix|{g}", self.ctx) for g in range(len(model.groups))]
        for g, prefix in enumerate(self.prefixes):
            self.solver.add(z3.Implies(prefix, self.guards[g]))
            if g:
                self.solver.add(z3.Implies(prefix, self.prefixes[g - 1]))

    def work(self) -> int:
        """z3's count of the work done in this context so far (its "rlimit count").

        The same for the same questions on every machine, however fast or busy: a budget of
        work, unlike one of time, gives the same answers everywhere.
        """
        return self.solver.statistics().get_key_value("rlimit count")

    def _encode(self, tally: Tally) -> z3.BoolRef:
        """A tally as a z3 formula over the holding literals."""
        lits = []
        for term in tally.terms:
            held = [self.x[term.holder, i] for i in sorted(term.items)]
            lits += [_or(self.ctx, held)] if term.any else held
        if not lits:
            return z3.BoolVal(0 in tally.values, self.ctx)
        return _or(self.ctx, [_pb_eq(self.ctx, lits, v) for v in sorted(tally.values)])

    def _assume(self, groups: Iterable[int]) -> list:
        """The literals that switch on ``groups``: one prefix literal for a prefix of the record."""
        if isinstance(groups, range) and groups.start == 0 and groups.step == 1:
            return [self.prefixes[groups.stop - 1]] if len(groups) else []
        return [self.guards[g] for g in groups]

    def consistent(self, groups: Iterable[int] | None = None) -> bool:
        """Whether some deal satisfies the given groups (default: all)."""
        groups = range(len(self.guards)) if groups is None else groups
        return self.solver.check(self._assume(groups)) == z3.sat

    def _at_most_one_off(self, groups: tuple[int, ...]) -> z3.BoolRef:
        """A literal that, assumed, lets at most one of these groups' guards be off."""
        if groups not in self._loose:
            literal = z3.Bool(f"tolerate|{len(self._loose)}", self.ctx)
            guards = [(self.guards[g], 1) for g in groups]
            self.solver.add(z3.Implies(literal, z3.PbGe(guards, len(guards) - 1)))
            self._loose[groups] = literal
        return self._loose[groups]

    def backbone(
        self,
        groups: Iterable[int] | None = None,
        given: tuple = (),
        seconds: float | None = None,
        tolerate: tuple[int, ...] = (),
    ) -> tuple[set, set]:
        """(forced, impossible): the holdings true, and false, in all deals of the groups.

        ``given`` holdings are assumed as well; with ``tolerate`` (groups not among
        ``groups``), so are all but at most one of those groups. One call to z3's
        ``consequences``, which computes the backbone inside the solver. Within ``seconds``,
        if given: a call cut short (or not made, with no time) answers nothing (two empty
        sets, not remembered).
        """
        key = (None if groups is None else tuple(groups), given, tolerate)
        if seconds is not None and seconds <= 0 and key not in self._backbones:
            return set(), set()  # no time left to ask
        if key not in self._backbones:
            assume = self._assume(range(len(self.guards)) if groups is None else groups)
            assume += [self.x[pair] for pair in given]
            assume += [self._at_most_one_off(tolerate)] if tolerate else []
            if seconds is not None:
                self.solver.set("timeout", max(int(seconds * 1000), 1))
            try:
                found, implied = self.solver.consequences(assume, list(self.x.values()))
            except z3.Z3Exception:  # z3 raises "canceled" when the timeout ends the call
                if seconds is None:
                    raise
                found, implied = z3.unknown, []
            finally:
                if seconds is not None:
                    self.solver.set("timeout", NO_TIMEOUT)
            if found == z3.unknown:
                return set(), set()
            forced, impossible = set(), set()
            if found == z3.sat:
                for consequence in implied:
                    literal = consequence.arg(1)
                    if z3.is_not(literal):
                        impossible.add(self._pair[literal.arg(0).get_id()])
                    else:
                        forced.add(self._pair[literal.get_id()])
            self._backbones[key] = (forced, impossible)
        return self._backbones[key]

    def forced(self, groups: Iterable[int] | None = None) -> set[tuple[Holder, Item]]:
        """Every holding true in all deals of the given groups (the positive backbone)."""
        return set(self.backbone(groups)[0])

    def literal(self, pair: tuple[Holder, Item], holding: bool = True) -> z3.BoolRef:
        """The z3 literal that ``pair``'s holder holds its item (or, not ``holding``, does not)."""
        return self.x[pair] if holding else z3.Not(self.x[pair])

    def proves(
        self, groups: Iterable[int], pair: tuple[Holder, Item], holding: bool = True
    ) -> bool:
        """Whether the groups admit no deal in which the holding (or its absence) fails."""
        assume = [self.guards[g] for g in groups] + [z3.Not(self.literal(pair, holding))]
        return self.solver.check(assume) == z3.unsat

    def minimal(
        self, groups: list[int], pair: tuple[Holder, Item] | None = None, holding: bool = True
    ) -> list[int]:
        """A minimal subset of ``groups`` that proves the holding (no ``pair``: that fits no deal).

        Empty when ``groups`` do not. z3's unsat core of ``groups``, then each group of it
        dropped in turn while the rest still prove it: no group of the answer can be left out.
        """
        assume = [] if pair is None else [z3.Not(self.literal(pair, holding))]
        if self.solver.check([self.guards[g] for g in groups] + assume) != z3.unsat:
            return []
        used = {lit.get_id() for lit in self.solver.unsat_core()}
        core = [g for g in groups if self.guards[g].get_id() in used]
        for g in list(core):
            trial = [c for c in core if c != g]
            if self.solver.check([self.guards[c] for c in trial] + assume) == z3.unsat:
                core = trial
        return core

    def conflict(self) -> list[int]:
        """A minimal set of groups that cannot all hold (empty if the record is consistent)."""
        return self.minimal(list(range(len(self.guards))))

    def impossible(self, groups: Iterable[int] | None = None) -> set[tuple[Holder, Item]]:
        """Every holding false in all deals of the given groups (the negative backbone)."""
        return set(self.backbone(groups)[1])

    def loosened(self, tolerable: Iterable[int], seconds: float | None = None) -> Model:
        """The model, with each holding false or true in all its loose deals as a setup fact.

        Its loose deals: those that break at most one ``tolerable`` group, the others holding;
        the model stated so has the same ones, and they count faster. Within ``seconds``, if
        given: cut short (or with no such deal), the model as it is.
        """
        tolerate = tuple(sorted(tolerable))
        strict = [g for g in range(len(self.guards)) if g not in tolerate]
        forced, impossible = self.backbone(strict, (), seconds, tolerate)
        facts = tuple(holds(h, i, False) for h, i in sorted(impossible))
        facts += tuple(holds(h, i) for h, i in sorted(forced))
        return self.model.with_group(0, self.model.groups[0] + facts)

    def sharpened(self, given: tuple = (), seconds: float | None = None) -> Model:
        """The same worlds, with every impossible holding stated as a fact (helps counting).

        With ``given`` holdings: the worlds of the model in which they hold, sharpened alike.
        Within ``seconds``, if given: cut short, the model as it is (the same worlds).
        """
        impossible = self.backbone(None, given, seconds)[1]
        facts = tuple(holds(h, i, False) for h, i in sorted(impossible))
        facts += tuple(holds(h, i) for h, i in given)
        groups = self.model.groups[:-1] + (self.model.groups[-1] + facts,)
        return Model(self.model.space, groups, self.model.labels)
