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

from collections import namedtuple

import numpy as np
from numba import njit

from sleuth.games.loop.cards import DECK, EXIT, JEWEL, JEWELS, NOTES, TRAP, TRINKET, kind, value

PLAYING, WON, LOST, STUCK = 0, 1, 2, 3
WIN = 10**15  # a route that wins (``plan.WIN``: this module imports nothing of plan)
LOOK, EXPLORE, MARK, RETURN = 0, 1, 2, 3
KINDS = np.array([(TRAP, JEWEL, TRINKET, EXIT).index(kind(c)) for c in DECK], dtype=np.int64)
VALUES = np.array([value(c) or 0 for c in DECK], dtype=np.int64)
K_TRAP, K_JEWEL, K_TRINKET, K_EXIT = 0, 1, 2, 3


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
def _dead(deck, up, n, m):
    """Whether the top is face up and no safe action is legal (``plan.safe`` is empty)."""
    if n == 0 or not up[0] or m > 0:
        return False
    if KINDS[deck[0]] == K_TRINKET:  # a mark (no notes: room for one)
        return False
    return not _safe_explore(deck, up, n)


@njit(cache=True)
def _onto_trap(deck, up, n, steps):
    """Whether an explore of ``steps`` lands on a face-up trap."""
    k = steps % n
    return up[k] and KINDS[deck[k]] == K_TRAP


@njit(cache=True)
def _safe_explore(deck, up, n):
    """Whether some explore now does not land on a face-up trap."""
    for k in range(min(n, 2)):
        if up[k] and KINDS[deck[k]] == K_TRINKET and not _onto_trap(deck, up, n, VALUES[deck[k]]):
            return True
    return False


@njit(cache=True)
def worth(deck, up, n, m, s, score0, jewels0, steps):
    """``plan.worth`` packed in one integer (the same order); -1 for a dead end."""
    if s[4] == WON:
        return WIN
    if s[4] != PLAYING or _dead(deck, up, n, m):
        return -1
    jewels = s[3] - jewels0
    look = 0 if up[0] else 1
    trinkets = s[2] - score0 - jewels
    return (((jewels * 2 + look) * 4 + m) * 1000 + trinkets) * 1000 + 999 - steps


@njit(cache=True)
def _progress(value):
    """``plan.progress``: a win, a nab or a look."""
    return value >= 4 * 1000 * 1000 or (value // 1000) % 1000 > 0


@njit(cache=True)
def _key(deck, up, n, notes, m, jewels):
    """A 64-bit hash of what a player sees (``plan.seen_key``)."""
    h = np.uint64(1469598103934665603)
    prime = np.uint64(1099511628211)
    for k in range(n):
        h = (h ^ np.uint64(deck[k] + 1 if up[k] else 0)) * prime
    h = (h ^ np.uint64(999)) * prime
    a, b, c = 99, 99, 99
    if m > 0:
        a = notes[0]
    if m > 1:
        b = notes[1]
    if m > 2:
        c = notes[2]
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    for x in (a, b, c, jewels):
        h = (h ^ np.uint64(x + 1)) * prime
    return h


@njit(cache=True)
def _safe_actions(deck, up, n, m, notes, what, arg, found):
    """The safe actions (``plan.safe``), in ``plan.legal``'s order, into ``what``/``arg``."""
    count = 0
    for j in range(_explores(deck, up, n, found)):
        if not _onto_trap(deck, up, n, found[j]):
            what[count] = EXPLORE
            arg[count] = found[j]
            count += 1
    if n > 0 and up[0] and KINDS[deck[0]] == K_TRINKET and m < NOTES:
        what[count] = MARK
        arg[count] = deck[0]
        count += 1
    for j in range(m):
        what[count] = RETURN
        arg[count] = notes[j]
        count += 1
    return count


@njit(cache=True)
def _route(deck, up, notes, s, w):
    """``plan.route``: the first action of the best route, or (-1, 0): the game is given up."""
    nd, nu, nn, ns, first, steps_of = w.nd, w.nu, w.nn, w.ns, w.first, w.steps
    n = s[0]
    nd[0, :n] = deck[:n]
    nu[0, :n] = up[:n]
    nn[0, : s[1]] = notes[: s[1]]
    ns[0, :] = s
    first[0, 0] = -1
    steps_of[0] = 0
    known = {_key(deck, up, n, notes, s[1], s[3])}
    tail = 1
    best_w, best_what, best_arg = -1, -1, 0
    head = 0
    while head < tail:
        hn, hm = ns[head, 0], ns[head, 1]
        count = _safe_actions(nd[head], nu[head], hn, hm, nn[head], w.what, w.arg, w.found)
        for j in range(count):
            cd, cu, cn, cs = w.cd, w.cu, w.cn, w.cs
            cd[:hn] = nd[head, :hn]
            cu[:hn] = nu[head, :hn]
            cn[:hm] = nn[head, :hm]
            cs[:] = ns[head]
            _play(cd, cu, cn, cs, w.what[j], w.arg[j], w.spare, w.spare_up)
            value = worth(cd, cu, cs[0], cs[1], cs, s[2], s[3], steps_of[head] + 1)
            if value < 0:
                continue
            fw, fa = first[head, 0], first[head, 1]
            if fw < 0:
                fw, fa = w.what[j], w.arg[j]
            if value > best_w:
                best_w, best_what, best_arg = value, fw, fa
            if cs[4] != PLAYING or not cu[0]:
                continue
            key = _key(cd, cu, cs[0], cn, cs[1], cs[3])
            if key in known or len(known) >= nd.shape[0] - 1:
                continue
            known.add(key)
            nd[tail, : cs[0]] = cd[: cs[0]]
            nu[tail, : cs[0]] = cu[: cs[0]]
            nn[tail, : cs[1]] = cn[: cs[1]]
            ns[tail, :] = cs
            first[tail, 0], first[tail, 1] = fw, fa
            steps_of[tail] = steps_of[head] + 1
            tail += 1
        head += 1
    if best_w >= 0 and _progress(best_w):
        return best_what, best_arg
    return -1, 0


@njit(cache=True)
def _choose(deck, up, notes, s, w):
    """The rollout policy's action, as ``plan.rollout``: (what, arg); (-1, 0) gives up."""
    if s[0] > 0 and not up[0]:
        return LOOK, 0
    return _route(deck, up, notes, s, w)


Work = namedtuple(
    "Work",
    "nd nu nn ns first steps cd cu cn cs spare spare_up what arg found",
)  # scratch arrays: a route search's queue of games (nd, nu, nn, ns, first, steps), one game


@njit(cache=True)
def scratch(size, routes):
    """A ``Work`` for decks of up to ``size`` places and searches of ``routes`` games."""
    nodes = routes + 1
    return Work(
        np.zeros((nodes, size), dtype=np.int64),
        np.zeros((nodes, size), dtype=np.bool_),
        np.zeros((nodes, NOTES + 1), dtype=np.int64),
        np.zeros((nodes, 5), dtype=np.int64),
        np.zeros((nodes, 2), dtype=np.int64),
        np.zeros(nodes, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.bool_),
        np.zeros(NOTES + 1, dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.bool_),
        np.zeros(8, dtype=np.int64),
        np.zeros(8, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def play_out(deck0, up0, notes0, scalars0, what, arg, orders, limit, routes):
    """Each game's status and score, one row an order, after ``what``/``arg`` and the policy.

    Each order is filled into the face-down places; the game is played until it ends (a game
    the policy gives up is lost) or for ``limit`` actions (then lost); a route search reaches
    at most ``routes`` games.
    """
    rows = orders.shape[0]
    out = np.zeros((rows, 2), dtype=np.int64)
    size = deck0.shape[0] + NOTES + 1
    deck = np.zeros(size, dtype=np.int64)
    up = np.zeros(size, dtype=np.bool_)
    notes = np.zeros(NOTES + 1, dtype=np.int64)
    s = np.zeros(5, dtype=np.int64)
    w = scratch(size, routes)
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
        _play(deck, up, notes, s, what, arg, w.spare, w.spare_up)
        steps = 0
        while s[4] == PLAYING and steps < limit:
            wh, a = _choose(deck, up, notes, s, w)
            if wh < 0:
                s[4] = LOST
                break
            _play(deck, up, notes, s, wh, a, w.spare, w.spare_up)
            steps += 1
        out[r, 0] = s[4] if s[4] != PLAYING else LOST
        out[r, 1] = s[2]
    return out
