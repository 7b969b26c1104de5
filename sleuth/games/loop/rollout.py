"""Loot the Loop: the planner's games played out, compiled (numba), twin of ``plan``'s Python.

``plan`` states the game and the rollout policy in plain Python (``Game``, ``play``,
``rollout``, ``finish``); this module runs the same rules and the same policy over arrays, many
orders at once, some fifty times faster, so that ``next`` can weigh each action by thousands of
games. The tests hold the two to the same result, game by game.

A game is a row of card codes top first (``deck``, its first ``n`` places used), which of them
are face up (``up``), the notes (``notes``, ``m`` of them), and the scalars score, jewels and
status (0 playing, 1 won, 2 lost, 3 stuck).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sleuth.games.loop.cards import DECK, EXIT, JEWEL, JEWELS, NOTES, TRAP, TRINKET, kind, value

PLAYING, WON, LOST, STUCK = 0, 1, 2, 3
LOOK, EXPLORE, MARK, RETURN = 0, 1, 2, 3
KINDS = np.array([(TRAP, JEWEL, TRINKET, EXIT).index(kind(c)) for c in DECK], dtype=np.int64)
VALUES = np.array([value(c) or 0 for c in DECK], dtype=np.int64)
K_TRAP, K_JEWEL, K_TRINKET, K_EXIT = 0, 1, 2, 3


@njit(cache=True)
def _landing(deck, up, n, jewels, steps):
    """How the policy ranks an explore of ``steps``: -1 trap, 0 nothing, 1 safe, 2-3 nab, 9 win."""
    k = steps % n
    if not up[k]:
        return 1
    what = KINDS[deck[k]]
    if what == K_TRAP:
        return -1
    if what == K_EXIT:
        return 9 if jewels >= JEWELS else 0
    return 3 if what == K_JEWEL else 2


@njit(cache=True)
def _explores(deck, up, n, out):
    """The values an explore may take (at most two, low to high) into ``out``; how many."""
    count = 0
    for k in range(min(n, 2)):
        if up[k] and KINDS[deck[k]] == K_TRINKET:
            v = VALUES[deck[k]]
            if count == 1 and out[0] == v:
                continue
            out[count] = v
            count += 1
    if count == 2 and out[0] > out[1]:
        out[0], out[1] = out[1], out[0]
    return count


@njit(cache=True)
def _legal(deck, up, n, m):
    """Whether any action is legal."""
    if n > 0 and not up[0]:
        return True
    if m > 0:
        return True
    return (n > 0 and up[0] and KINDS[deck[0]] == K_TRINKET) or (
        n > 1 and up[1] and KINDS[deck[1]] == K_TRINKET
    )


@njit(cache=True)
def _pop(deck, up, n):
    """Take the top card off the deck; its code."""
    top = deck[0]
    for k in range(n - 1):
        deck[k] = deck[k + 1]
        up[k] = up[k + 1]
    return top


@njit(cache=True)
def _push(deck, up, n, card):
    """Put ``card`` face up on top."""
    for k in range(n, 0, -1):
        deck[k] = deck[k - 1]
        up[k] = up[k - 1]
    deck[0] = card
    up[0] = True


@njit(cache=True)
def _play(deck, up, notes, s, what, arg, spare, spare_up):
    """Do the legal action (``what``, ``arg``) in place; ``s``: n, m, score, jewels, status."""
    n = s[0]
    if what == LOOK:
        up[0] = True
        if n > 1:
            up[1] = True
    elif what == MARK:
        notes[s[1]] = _pop(deck, up, n)
        s[1] += 1
        s[0] = n - 1
    elif what == RETURN:
        at = 0
        for j in range(s[1]):
            if notes[j] == arg:
                at = j
        for j in range(at, s[1] - 1):
            notes[j] = notes[j + 1]
        s[1] -= 1
        _push(deck, up, n, arg)
        s[0] = n + 1
    else:
        k = arg % n
        for j in range(n):
            spare[j] = deck[(j + k) % n]
            spare_up[j] = up[(j + k) % n]
        for j in range(n):
            deck[j] = spare[j]
            up[j] = spare_up[j]
        if up[0]:
            what_lands = KINDS[deck[0]]
            if what_lands == K_TRAP:
                s[4] = LOST
            elif what_lands == K_EXIT:
                if s[3] >= JEWELS:
                    s[4] = WON
            else:
                _pop(deck, up, n)
                s[0] = n - 1
                s[2] += 1
                if what_lands == K_JEWEL:
                    s[3] += 1
    if s[4] == PLAYING and not _legal(deck, up, s[0], s[1]):
        s[4] = STUCK


@njit(cache=True)
def _choose(deck, up, notes, s, found, trial, trial_up):
    """The rollout policy's action, as ``plan.rollout``: (what, arg)."""
    n = s[0]
    if n > 0 and not up[0]:
        return LOOK, 0
    count = _explores(deck, up, n, found)
    best, best_rank = 0, -2
    for j in range(count - 1, -1, -1):  # high to low: at a tie the higher value, as plan's sort
        rank = _landing(deck, up, n, s[3], found[j])
        if rank > best_rank:
            best, best_rank = found[j], rank
    if count and best_rank >= 1:
        return EXPLORE, best
    for j in range(s[1]):  # a return that opens a safe explore
        note = notes[j]
        trial[0] = note
        trial_up[0] = True
        for k in range(n):
            trial[k + 1] = deck[k]
            trial_up[k + 1] = up[k]
        opened = _explores(trial, trial_up, n + 1, found)
        for q in range(opened):
            if _landing(trial, trial_up, n + 1, s[3], found[q]) >= 1:
                return RETURN, note
    top = deck[0]
    if n > 0 and up[0] and KINDS[top] == K_TRINKET and s[1] < NOTES:
        return MARK, top
    if count:
        return EXPLORE, best
    return RETURN, notes[0]  # the only legal action left (s[1] > 0, or the game is stuck)


@njit(cache=True)
def play_out(deck0, up0, notes0, scalars0, what, arg, orders, limit):
    """Each game's status and score, one row an order, after ``what``/``arg`` and the policy.

    Each order is filled into the face-down places; the game is played until it ends or for
    ``limit`` actions (then lost).
    """
    rows = orders.shape[0]
    out = np.zeros((rows, 2), dtype=np.int64)
    size = deck0.shape[0] + NOTES + 1
    deck = np.zeros(size, dtype=np.int64)
    up = np.zeros(size, dtype=np.bool_)
    spare = np.zeros(size, dtype=np.int64)
    spare_up = np.zeros(size, dtype=np.bool_)
    trial = np.zeros(size, dtype=np.int64)
    trial_up = np.zeros(size, dtype=np.bool_)
    notes = np.zeros(NOTES + 1, dtype=np.int64)
    found = np.zeros(2, dtype=np.int64)
    s = np.zeros(5, dtype=np.int64)
    for r in range(rows):
        take = 0
        for k in range(deck0.shape[0]):
            up[k] = up0[k]
            if up0[k]:
                deck[k] = deck0[k]
            else:
                deck[k] = orders[r, take]
                take += 1
        for j in range(notes0.shape[0]):
            notes[j] = notes0[j]
        for j in range(5):
            s[j] = scalars0[j]
        _play(deck, up, notes, s, what, arg, spare, spare_up)
        steps = 0
        while s[4] == PLAYING and steps < limit:
            w, a = _choose(deck, up, notes, s, found, trial, trial_up)
            _play(deck, up, notes, s, w, a, spare, spare_up)
            steps += 1
        out[r, 0] = s[4] if s[4] != PLAYING else LOST
        out[r, 1] = s[2]
    return out
