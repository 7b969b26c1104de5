"""The games shipped with sleuth, registered once on import."""

from sleuth.games import GAMES, goldraub, lima, london, loop, register, scotland

for _game in (goldraub.GAME, lima.GAME, scotland.GAME, loop.GAME, london.GAME):
    register(_game)

__all__ = ["GAMES"]
