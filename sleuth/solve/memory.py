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
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from sleuth.errors import InputError
from sleuth.files import head, write_atomic
from sleuth.model import Item, Pair

LARGEST = 1 << 20  # bytes: a remembered order of a few hundred items is far smaller


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
        return cls(order, facts=Dated.read(data.get("facts")))

    def save(self, path: Path) -> None:
        """Write it to ``path`` atomically when it changed; a failure loses only speed."""
        if not self.changed:
            return
        data: dict = {"order": self.order}
        if self.facts is not None:
            data["facts"] = self.facts.fields()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, json.dumps(data))
        except (OSError, InputError):
            return
        self.changed = False
