"""Loot the Loop replayed: at each step the planner's best action, and each action judged by it.

Each step is weighed as ``next`` weighs it (``plan.advise``), on ``LEAST`` sampled orders of the
unseen cards (a replay weighs every step: a short sample each, named as such): the best action
then, and the recorded one, with their chances to win and the cards the games after them
scored. A move is judged against the best action: as good when the sample does not clearly
tell them apart (``plan.clearly``, in wins and in cards), else by the cards lost; the moves that
lost the most are named in the summary.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sleuth.budget import due
from sleuth.games.loop.plan import LEAST, Plan, Weighed, advise
from sleuth.games.loop.temple import Action
from sleuth.games.loop.tracker import Tracker
from sleuth.replay import Best, Judged, Move, Step, Tick

WORST = 3  # moves named in the summary as those that lost the most


def weighed(step: Step) -> Plan | None:
    """The step weighed by the planner on a short sample; None when no action is legal."""
    found = getattr(step.odds, "belief", None)
    if not isinstance(found, Tracker) or not found.temple.actions():
        return None
    return advise(found, {}, due(0))  # the deadline has passed: ``LEAST`` orders, no more


def best_of(plan: Plan) -> Best:
    """The step's best action, with its chance to win."""
    best = plan.options[0]
    data = {"action": str(best.action), "win": best.win, "score": best.score}
    return Best(str(best.action), Fraction(best.won, best.games), plan.exact, data)


def recorded(event: Any) -> Action:
    """The action a recorded event took, as the temple names it."""
    body = event.body()
    if event.kind == "look":
        return Action("look")
    return Action(event.kind, body)


def judged_move(index: int, event: Any, plan: Plan) -> Move | None:
    """The recorded action against the best one: the cards their games scored."""
    chosen = recorded(event)
    by = {str(w.action): w for w in plan.options}
    mine: Weighed | None = by.get(str(chosen))
    if mine is None:
        return None
    best = plan.options[0]
    level = str(chosen) in plan.level  # the sample does not tell it from the best
    lost = 0.0 if level else best.score - mine.score
    verdict = (
        "the best"
        if mine.action == best.action
        else f"as good as {best.action} on this sample"
        if level
        else f"best {best.action}"
    )
    line = f"{chosen}: score {mine.score:.2f}, win {mine.won}/{mine.games}; {verdict}"
    if mine.action != best.action and not level:
        line += f" (score {best.score:.2f}, win {best.won}/{best.games})"
    data = {
        "event": index,
        "action": str(chosen),
        "score": mine.score,
        "win": mine.win,
        "best": str(best.action),
        "best_score": best.score,
        "best_win": best.win,
        "lost": lost,
    }
    return Move(index, line, data)


def judge(record: Any, found: list[Step], budget: float, memory: Any, tick: Tick | None) -> Judged:
    """The game's judgement of a replay (its ``judge`` part)."""
    best: list[Best | None] = []
    moves: list[Move] = []
    for k, step in enumerate(found):
        plan = weighed(step) if step.consistent else None
        best.append(None if plan is None else best_of(plan))
        if plan is not None and k < len(record.events):
            move = judged_move(k + 1, record.events[k], plan)
            if move is not None:
                moves.append(move)
        if tick:
            tick()
    return Judged(best, moves, {}, summary_lines(moves), {"moves": [m.data for m in moves]})


def summary_lines(moves: list[Move]) -> list[str]:
    """How many moves were the planner's best, and those that lost the most cards."""
    if not moves:
        return []
    at_best = sum(m.data["action"] == m.data["best"] for m in moves)
    lines = [
        f"Moves weighed: {len(moves)}, {at_best} the planner's best"
        f" ({LEAST} sampled orders a step; judged by the cards the games after them scored)."
    ]
    worst = sorted((m for m in moves if m.data["lost"] > 0), key=lambda m: -m.data["lost"])
    for m in worst[:WORST]:
        lines.append(
            f"  event {m.event}: {m.data['action']} lost {m.data['lost']:.2f} cards"
            f" against {m.data['best']}"
        )
    return lines
