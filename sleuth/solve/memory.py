"""The item order that finished the last hard count of a game, remembered for the next one.

A game's record grows one event at a time, and the counts of one state and the next are alike:
the order that won the race at one event is often as good as the best contender at the next,
so the next count probes it beside its first pair of contenders (``order.race``). Any order
counts exactly, so a stale or foreign order costs time, never correctness: a probe, or a run
that the forecast or the bound drops (see "Remembered orders" in ``docs/engine.md``). The
command line keeps one per record file in a cache folder (``sleuth.cli.app``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from sleuth.errors import InputError
from sleuth.files import head, write_atomic
from sleuth.model import Item

LARGEST = 1 << 20  # bytes: a remembered order of a few hundred items is far smaller


@dataclass
class Remembered:
    """The last winning order of a hard count (tracked items only), and whether it changed."""

    order: list[Item] = field(default_factory=list)
    changed: bool = False

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

    @classmethod
    def load(cls, path: Path) -> Remembered:
        """The order saved at ``path``; nothing remembered when it is missing or not valid.

        Valid is a JSON object whose ``order`` lists distinct item names (strings): a counter
        places each item once, so a repeated one would break the count's plan.
        """
        try:
            text, size = head(path, LARGEST)
            data = json.loads(text.decode("utf-8")) if size <= LARGEST else None
        except (OSError, ValueError, InputError):
            return cls()
        order = data.get("order") if isinstance(data, dict) else None
        if not isinstance(order, list) or not all(isinstance(i, str) for i in order):
            return cls()
        if len(set(order)) != len(order):
            return cls()
        return cls(order)

    def save(self, path: Path) -> None:
        """Write the order to ``path`` atomically when it changed; a failure loses only speed."""
        if not self.changed:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, json.dumps({"order": self.order}))
        except (OSError, InputError):
            return
        self.changed = False
