"""Brute force for 3-player Goldraub: count every deal of the 37 sectors that fits a model.

Independent of ``sleuth.solve``: it reads only the model's space and tallies. Every player's
possible hands are listed as rows of a 0/1 matrix (hand x sector). The player with the fewest
hands left after his own single-player facts (in a record: me, with one hand) is looped over;
for each of his hands, every pair of hands of the other two players is one cell of a matrix,
and each tally is checked on the whole matrix at once. Cards no player holds lie aside.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from sleuth.model import Model, Tally


def hands(items: tuple[str, ...], size: int) -> np.ndarray:
    """Every hand of ``size`` items, as a (hands x items) 0/1 matrix."""
    rows = list(combinations(range(len(items)), size))
    out = np.zeros((len(rows), len(items)), dtype=np.int8)
    for k, row in enumerate(rows):
        out[k, list(row)] = 1
    return out


def bits(hand: np.ndarray) -> np.ndarray:
    """Each hand as one integer, a bit per item, to test disjointness with ``&``."""
    return hand.astype(np.int64) @ (np.int64(1) << np.arange(hand.shape[1], dtype=np.int64))


def term_values(hand: np.ndarray, columns: list[int], any_: bool) -> np.ndarray:
    """A term's value for each hand: how many of ``columns`` it holds (capped at 1 with any)."""
    held = hand[:, columns].sum(axis=1, dtype=np.int16)
    return np.minimum(held, 1) if any_ else held


def tally_sums(tally: Tally, players: dict, column: dict) -> dict:
    """The tally's sum split by player: player -> vector over that player's hands."""
    out = {p: np.zeros(len(players[p]), dtype=np.int16) for p in players}
    for term in tally.terms:
        if term.holder not in players:
            raise NotImplementedError(f"brute force has no terms on {term.holder}")
        columns = [column[i] for i in term.items]
        out[term.holder] = out[term.holder] + term_values(players[term.holder], columns, term.any)
    return out


def fits(values: np.ndarray, allowed: frozenset[int]) -> np.ndarray:
    """Where ``values`` is one of ``allowed``: one comparison each (``np.isin`` builds a lookup
    table for small integers and indexes it, some 40 times slower on these grids)."""
    out = np.zeros(values.shape, dtype=bool)
    for value in sorted(allowed):
        out |= values == value
    return out


def own_hands(model: Model, players: dict, column: dict) -> dict:
    """Each player's hands, keeping only those his single-player tallies allow."""
    out = dict(players)
    for tally in model.tallies:
        owners = {term.holder for term in tally.terms}
        if len(owners) == 1:
            (p,) = owners
            out[p] = out[p][fits(tally_sums(tally, out, column)[p], tally.values)]
    return out


def brute_count(model: Model) -> tuple[int, dict]:
    """Every deal consistent with a 3-player Goldraub model: (total, held) as in Counts."""
    space = model.space
    column = {item: k for k, item in enumerate(space.items)}
    names = [h for h in space.holders if h != "aside"]
    assert len(names) == 3, "brute force is for 3 players"
    players = own_hands(model, {p: hands(space.items, space.sizes[p]) for p in names}, column)
    first, second, third = sorted(names, key=lambda p: len(players[p]))
    total = 0
    held = {p: np.zeros(len(space.items), dtype=np.int64) for p in names}
    for hand in players[first]:
        free = {p: players[p][(players[p] @ hand) == 0] for p in (second, third)}
        ok = (bits(free[second])[:, None] & bits(free[third])[None, :]) == 0
        for tally in model.tallies:
            own = {first: hand[None, :], second: free[second], third: free[third]}
            sums = tally_sums(tally, own, column)
            grid = sums[first][0] + sums[second][:, None] + sums[third][None, :]
            ok &= fits(grid, tally.values)
        rows, cols = ok.sum(axis=1), ok.sum(axis=0)
        n = int(rows.sum())
        total += n
        held[first] += n * hand.astype(np.int64)
        held[second] += rows @ free[second].astype(np.int64)
        held[third] += cols @ free[third].astype(np.int64)
    return total, counts(space, total, held)


def counts(space, total: int, held: dict) -> dict:
    """The held counts keyed (holder, item); what no player holds lies aside."""
    out = {}
    for k, item in enumerate(space.items):
        taken = 0
        for p, vector in held.items():
            out[p, item] = int(vector[k])
            taken += int(vector[k])
        out["aside", item] = total - taken
    return out
