"""Scotland Yard: the options of ``sleuth next`` (its ``advice_options`` part).

Apart from the planner, so that the command line can list them without loading it.
"""

from sleuth.games.base import Choice

OPTIONS = (
    Choice("drawn", "text", "Scotland Yard: the ticket I drew at the start of my turn, e.g. 47k"),
)  # ``next``'s options in this game (its ``advice_options`` part)
