"""The item order that finished the last hard count of a game, remembered for the next one.

A game's record grows one event at a time, and the counts of one state and the next are alike:
the order that won the race at one event is often as good as the best contender at the next,
so the next count probes it beside its first pair of contenders (``order.race``). Any order
counts exactly, so a stale or foreign order costs time, never correctness: a probe, or a run
that the forecast or the bound drops (see "Remembered orders" in ``docs/engine.md``). The
command line keeps one per record file in a cache folder (``sleuth.cli.app``).

Beside it, the certain facts of the last report, each with the event since which it holds
(``Dated``), and the digests of that record's prefixes. A fact is certain after a prefix
exactly when its first forcing event comes no later (facts only grow with the record), so the
facts of any prefix of the remembered record are its facts dated up to there, and those of
the remembered record with one event more keep their events, the others dating from the new
one. Any other record (edited, another game, a damaged or foreign file) finds nothing: the
report dates its facts afresh.

And the exact counts of the last ``KEPT`` models counted (``Known``), each under the digest of
the model itself (``digest``: its holders, hands, items and every tally, canonically): a count
of the same model reads them instead of counting again. A game typed into ``sleuth play`` has
each prefix counted once, by the report after each event, so ``why`` and ``replay`` afterwards
count nothing again; ``--upto`` and ``undo`` read theirs too. A count depends on nothing but its
model, so a digest that matches is the same count; a file whose counts do not match their
check is not read.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from sleuth.errors import InputError
from sleuth.files import head, write_atomic
from sleuth.model import Item, Model, Pair, Tally
from sleuth.solve.counts import Counts

LARGEST = 1 << 23  # bytes: a remembered order and ``KEPT`` counts of a few KiB each are smaller
KEPT = 80  # exact counts remembered, the newest: every prefix of a long game


def digest(model: Model) -> str:
    """The sha256 of a model's canonical JSON: holders, hand sizes, items and every tally.

    Its tallies are sorted whatever their groups: the worlds depend on them alone, so a prefix
    (``Model.prefix``, later groups empty) and the record cut there have one digest.
    """
    space = model.space
    tallies = sorted(_tally(t) for group in model.groups for t in group)
    data = [list(space.holders), [space.sizes[h] for h in space.holders], list(space.items)]
    text = json.dumps([*data, tallies], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _tally(tally: Tally) -> str:
    """A tally as canonical JSON text (its terms and values sorted)."""
    terms = sorted(json.dumps([t.holder, sorted(t.items), t.any]) for t in tally.terms)
    return json.dumps([terms, sorted(tally.values)], separators=(",", ":"))


@dataclass(frozen=True)
class Known:
    """A model's exact counts, its holdings with no world left out; e.g. Known(12, {...})."""

    worlds: int
    held: dict[Pair, int]

    def counts(self, model: Model) -> Counts:
        """The counts of ``model`` (whose digest these are), every holding included."""
        space = model.space
        every = [(h, i) for h in space.holders for i in space.items]
        return Counts(self.worlds, {pair: self.held.get(pair, 0) for pair in every})

    def fields(self) -> list:
        """As JSON-ready data: the worlds and [holder, item, worlds] of each holding."""
        return [self.worlds, [[h, i, n] for (h, i), n in sorted(self.held.items())]]

    @classmethod
    def read(cls, data: object) -> Known | None:
        """The counts of ``fields``' data; None unless every part has its type and range."""
        if not (isinstance(data, list) and len(data) == 2 and isinstance(data[1], list)):
            return None
        worlds, held = data
        if type(worlds) is not int or worlds < 0:
            return None
        found = {}
        for entry in held:
            if not (isinstance(entry, list) and len(entry) == 3):
                return None
            h, i, n = entry
            if not (isinstance(h, str) and isinstance(i, str) and type(n) is int):
                return None
            if not 0 < n <= worlds or (h, i) in found:
                return None
            found[h, i] = n
        return cls(worlds, found)


@dataclass(frozen=True)
class Dated:
    """Certain facts and the prefixes of their record; e.g. Dated(["9f2c...", ...], {...}).

    ``digests[k]``: the digest of the record's setup and first k events (``sleuth.analysis``);
    ``since[(holder, item)]``: the first prefix that forces the holding (0: the setup).
    """

    digests: tuple[str, ...]
    since: dict[Pair, int]

    def dates(self, forced: set[Pair], digests: list[str]) -> dict[Pair, int] | None:
        """The first forcing event of each pair ``forced`` by the record of these ``digests``.

        None unless that record is a prefix of the remembered one or has one event more, and
        the remembered facts agree with ``forced`` (a stale or foreign file is no evidence).
        """
        n = len(digests) - 1
        if digests == list(self.digests[: n + 1]):
            found = {pair: k for pair, k in self.since.items() if k <= n}
            return found if set(found) == forced else None
        if digests[:-1] == list(self.digests) and set(self.since) <= forced:
            return {pair: self.since.get(pair, n) for pair in forced}
        return None

    def fields(self) -> dict:
        """As JSON-ready data: the digests, [holder, item, event] of each fact, and a check."""
        since = [[h, i, k] for (h, i), k in sorted(self.since.items())]
        return {"digests": list(self.digests), "since": since, "check": _check(self.digests, since)}

    @classmethod
    def read(cls, data: object) -> Dated | None:
        """The facts of ``fields``' data; None unless every part has its type and place."""
        if not isinstance(data, dict):
            return None
        digests, since = data.get("digests"), data.get("since")
        if not isinstance(digests, list) or not digests or not isinstance(since, list):
            return None
        if not all(isinstance(d, str) for d in digests):
            return None
        if data.get("check") != _check(digests, since):
            return None  # a fact changed or lost would date the others wrong, unseen
        found = {}
        for entry in since:
            if not (isinstance(entry, list) and len(entry) == 3):
                return None
            h, i, k = entry
            if not (isinstance(h, str) and isinstance(i, str) and type(k) is int):
                return None
            if not 0 <= k < len(digests) or (h, i) in found:
                return None
            found[h, i] = k
        return cls(tuple(digests), found)


def _check(digests, since) -> str:
    """The sha256 of the facts' JSON: a file damaged inside a valid shape is found so."""
    text = json.dumps([list(digests), since], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Remembered:
    """The last winning order of a hard count, the last report's facts, and whether they changed.

    ``order``: tracked items only; ``facts``: see ``Dated``.
    """

    order: list[Item] = field(default_factory=list)
    changed: bool = False
    facts: Dated | None = None
    known: dict[str, Known] = field(default_factory=dict)  # by ``digest``, oldest first

    def counted(self, model: Model, key: str | None = None) -> Counts | None:
        """The remembered exact counts of this model, if it was counted (``keep``).

        ``key``: the model's ``digest``, when the caller has it.
        """
        found = self.known.get(key or digest(model))
        return None if found is None else found.counts(model)

    def keep(self, model: Model, worlds: int, held: dict[Pair, int], key: str | None = None):
        """Remember a model's exact counts, the newest ``KEPT`` (``key``: as ``counted``)."""
        key = key or digest(model)
        if key in self.known:
            return
        self.known[key] = Known(worlds, {pair: n for pair, n in held.items() if n})
        while len(self.known) > KEPT:
            del self.known[next(iter(self.known))]
        self.changed = True

    def hint(self, tracked: list[Item]) -> list[Item] | None:
        """The remembered order over these items: the ones it has, in its order, then the rest.

        None when it shares less than half of them (another game, or a very different state).
        """
        if not self.order:
            return None
        wanted = set(tracked)
        kept = [item for item in self.order if item in wanted]
        if 2 * len(kept) < len(tracked):
            return None
        have = set(kept)
        return kept + [item for item in tracked if item not in have]

    def learn(self, order: list[Item]) -> None:
        """Remember the order that finished a hard count."""
        if order != self.order:
            self.order, self.changed = list(order), True

    def dated(self, digests: list[str], since: dict[Pair, int]) -> None:
        """Remember a report's dated facts, unless its record is a prefix of the remembered one.

        A prefix's facts are in the longer record's already (a report ``--upto`` an earlier
        event, or after an undo, would otherwise lose the later ones).
        """
        known = self.facts
        if known is not None and tuple(digests) == known.digests[: len(digests)]:
            return
        self.facts, self.changed = Dated(tuple(digests), dict(since)), True

    @classmethod
    def load(cls, path: Path) -> Remembered:
        """The order and facts saved at ``path``; nothing remembered when not valid.

        Valid is a JSON object whose ``order`` lists distinct item names (strings): a counter
        places each item once, so a repeated one would break the count's plan. Facts that are
        not valid (``Dated.read``) are dropped alone.
        """
        try:
            text, size = head(path, LARGEST)
            data = json.loads(text.decode("utf-8")) if size <= LARGEST else None
        except (OSError, ValueError, RecursionError, InputError):  # JSON nested too deep too
            return cls()
        if not isinstance(data, dict):
            return cls()
        order = data.get("order")
        if not isinstance(order, list) or not all(isinstance(i, str) for i in order):
            return cls()
        if len(set(order)) != len(order):
            return cls()
        return cls(order, facts=Dated.read(data.get("facts")), known=_known(data.get("counts")))

    def save(self, path: Path) -> None:
        """Write it to ``path`` atomically when it changed; a failure loses only speed."""
        if not self.changed:
            return
        data: dict = {"order": self.order}
        if self.facts is not None:
            data["facts"] = self.facts.fields()
        if self.known:
            entries = [[key, known.fields()] for key, known in self.known.items()]
            data["counts"] = {"entries": entries, "check": _check_counts(entries)}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, json.dumps(data))
        except (OSError, InputError):
            return
        self.changed = False


def _check_counts(entries: list) -> str:
    """The sha256 of the counts' JSON: a count changed inside a valid shape is found so."""
    text = json.dumps(entries, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _known(data: object) -> dict[str, Known]:
    """The remembered counts of ``save``'s data; none unless all are whole and checked."""
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        return {}
    entries = data["entries"]
    if data.get("check") != _check_counts(entries):
        return {}
    out = {}
    for entry in entries:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            return {}
        known = Known.read(entry[1])
        if known is None:
            return {}
        out[entry[0]] = known
    return out
