"""Loot of Lima: the options of ``sleuth next`` (its ``advice_options`` part).

Apart from the advisor, so that the command line can list them without loading it.
"""

from sleuth.games.base import PUBLIC, Choice

OPTIONS = (
    Choice("roll", "text", "The dice as rolled, SW-beach,N-wild,E-beach"),
    Choice("shovel", "flag", "Add what my Shovel allows."),
    Choice("pistol", "flag", "Add my Pistol's secret questions."),
    Choice("public", "flag", PUBLIC),
    Choice(
        "barrel",
        "flag",
        "Also whether my Barrel's re-roll of 1-3 dice pays (each --roll face must be on its own"
        " die). Give it only while my Barrel is unused: the record does not say.",
    ),
)  # ``next``'s options in this game (its ``advice_options`` part)
