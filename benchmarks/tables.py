"""The tables the benchmark scripts print: aligned plain text, or Markdown for docs/."""

from __future__ import annotations

from collections.abc import Sequence


def render(head: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool, right=False) -> str:
    """``head`` and ``rows`` as a Markdown table or as aligned text (``right``: right-aligned)."""
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])
    every = [head, *rows]
    widths = [max(len(row[k]) for row in every) for k in range(len(head))]
    pad = str.rjust if right else str.ljust
    lines = ("  ".join(pad(c, w) for c, w in zip(row, widths, strict=True)) for row in every)
    return "\n".join(line.rstrip() for line in lines)
