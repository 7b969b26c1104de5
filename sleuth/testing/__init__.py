"""Tools for tests and benchmarks that are not part of any analysis: independent oracles.

The games' simulators live with their games (``sleuth.games.goldraub.simulate``,
``sleuth.games.lima.simulate``, and Lima's brute force ``sleuth.games.lima.brute``); this
package holds what is game-free, such as ``brute``, a counter that lists every deal.
"""
