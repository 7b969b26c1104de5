"""Brute force for Loot of Lima, written from the rulebook and independent of sleuth.solve.

Every world is listed: a hand for each other player and the treasure, disjoint, covering every
token not fixed by the setup, each hand fitting the questions its holder answered. Only the
record's plain data and ``simulate.in_range`` are read. To keep the lists short, the
holders are split in two groups, each group's hands are listed in full, and a left listing is
matched with every right listing that covers exactly the tokens it leaves.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from sleuth.games.lima.board import island
from sleuth.games.lima.simulate import PUBLIC, TREASURE, in_range

CHUNK = 1 << 22


@dataclass(frozen=True)
class Brute:
    """Worlds, worlds per (holder, location), worlds per treasure pair (a frozenset)."""

    total: int
    held: dict[tuple[str, str], int]
    pairs: dict[frozenset, int]


def _setup(doc: dict) -> dict[str, str]:
    """Location -> holder for every token the setup fixes (a watched game's: the face-up ones)."""
    fixed = dict.fromkeys(doc.get("hand", []), doc.get("me"))
    for player, tokens in (doc.get("known") or {}).items():
        fixed.update(dict.fromkeys(tokens, player))
    fixed.update(dict.fromkeys(doc["public"], PUBLIC))
    return fixed


def _hands(unknown: list[str], size: int) -> np.ndarray:
    """Every hand of ``size`` unknown tokens, as bit masks."""
    return np.array(
        [sum(1 << unknown.index(t) for t in c) for c in combinations(unknown, size)],
        dtype=np.int64,
    ).reshape(-1)


def _valid(doc: dict, fixed: dict[str, str], unknown: list[str]) -> dict[str, np.ndarray] | None:
    """Each holder's hands that fit the record; None when my own answers contradict my hand."""
    locations = island().locations
    players = doc["players"]
    each = (len(locations) - island().treasure) // len(players)
    bit = {t: 1 << k for k, t in enumerate(unknown)}
    mine = lambda holder, tokens: sum(fixed.get(t) == holder for t in tokens)  # noqa: E731
    holders = [p for p in players if p != doc.get("me")] + [TREASURE]
    sizes = {p: each - mine(p, locations) for p in holders[:-1]}
    sizes[TREASURE] = island().treasure
    valid = {h: _hands(unknown, sizes[h]) for h in holders}
    for item in doc["events"]:
        ((kind, f),) = item.items()
        if kind in ("ask", "secret") and "answer" in f:
            start, end = f["range"].split("-")
            tokens = [t for t in locations if in_range(t, start, end, f.get("terrain"))]
            left = f["answer"] - mine(f["to"], tokens)
            if f["to"] == doc.get("me"):
                if left:
                    return None
                continue
            mask = sum(bit[t] for t in tokens if t in bit)
            hands = valid[f["to"]]
            valid[f["to"]] = hands[np.bitwise_count(hands & mask) == left]
        elif kind == "accuse":
            for named, want in ((f["locations"], f["correct"]), (f.get("treasure"), True)):
                if named is None:
                    continue
                both = all(t in bit for t in named)
                hands = valid[TREASURE]
                same = hands == sum(bit.get(t, 0) for t in named) if both else hands < 0
                valid[TREASURE] = hands[same == want]
    return valid


def _rows(hands: list[np.ndarray]) -> np.ndarray:
    """Every choice of one hand from each list, pairwise disjoint: one row per choice."""
    rows = hands[0].reshape(-1, 1)
    for more in hands[1:]:
        union = np.bitwise_or.reduce(rows, axis=1)
        step = max(1, CHUNK // max(len(more), 1))
        parts = [np.zeros((0, rows.shape[1] + 1), dtype=np.int64)]
        for at in range(0, len(rows), step):
            i, j = np.nonzero((union[at : at + step, None] & more[None, :]) == 0)
            parts.append(np.column_stack([rows[at + i], more[j]]))
        rows = np.concatenate(parts)
    return rows


def _weights(rows: np.ndarray, other: np.ndarray, full: int) -> np.ndarray:
    """For each row, how many rows of ``other`` cover exactly the tokens it leaves."""
    keys, counts = np.unique(np.bitwise_or.reduce(other, axis=1), return_counts=True)
    if len(keys) == 0:
        return np.zeros(len(rows), dtype=np.int64)
    want = full ^ np.bitwise_or.reduce(rows, axis=1)
    at = np.clip(np.searchsorted(keys, want), 0, len(keys) - 1)
    return np.where(keys[at] == want, counts[at], 0).astype(np.int64)


def _split(holders: list[str], valid: dict[str, np.ndarray]) -> tuple[list[str], list[str]]:
    """Two groups of holders whose listings are both as short as can be."""
    best = None
    for size in range(1, len(holders)):
        for left in combinations(holders, size):
            right = [h for h in holders if h not in left]
            cost = max(np.prod([len(valid[h]) + 1.0 for h in side]) for side in (left, right))
            if best is None or cost < best[0]:
                best = (cost, list(left), right)
    return best[1], best[2]


def brute(doc: dict) -> Brute:
    """Count every world of the record ``doc`` (YAML-ready data) one by one."""
    fixed = _setup(doc)
    unknown = [t for t in island().locations if t not in fixed]
    valid = _valid(doc, fixed, unknown)
    if valid is None or any(len(v) == 0 for v in valid.values()):
        return Brute(0, {}, {})
    full = (1 << len(unknown)) - 1
    left, right = _split(list(valid), valid)
    rows = {side[0]: _rows([valid[h] for h in side]) for side in (left, right)}
    lrows, rrows = rows[left[0]], rows[right[0]]
    weights = {left[0]: _weights(lrows, rrows, full), right[0]: _weights(rrows, lrows, full)}
    total = int(weights[left[0]].sum())
    held: dict[tuple[str, str], int] = defaultdict(int)
    pairs: dict[frozenset, int] = {}
    for side in (left, right):
        table, weight = rows[side[0]], weights[side[0]]
        for column, holder in enumerate(side):
            for k, token in enumerate(unknown):
                held[holder, token] = int(weight[(table[:, column] >> k) & 1 == 1].sum())
            if holder == TREASURE:
                masks, inverse = np.unique(table[:, column], return_inverse=True)
                sums = np.zeros(len(masks), dtype=np.int64)
                np.add.at(sums, inverse.reshape(-1), weight)
                for mask, n in zip(masks, sums, strict=True):
                    if n:
                        pair = frozenset(t for k, t in enumerate(unknown) if mask >> k & 1)
                        pairs[pair] = int(n)
    for token, holder in fixed.items():
        held[holder, token] = total
    return Brute(total, dict(held), pairs)
