"""Goldraub in London: the options of ``sleuth next`` (its ``advice_options`` part).

Apart from the advisor, so that the command line can list them without loading it.
"""

from sleuth.games.base import PUBLIC, Choice

OPTIONS = (
    Choice("at", "number", "My route space (else the record's)."),
    Choice("occupied", "text", "The others' spaces, S,S,... (else the record's)."),
    Choice("public", "flag", PUBLIC),
)  # ``next``'s options in this game (its ``advice_options`` part)
