"""Record texts shared by the tests: the rulebook's 5-player table, as a player would type it."""

HEAD = """\
game: goldraub
players: [Anton, Bert, Christl, Doris, Elli]
me: Christl
hand: [22, 45, 63]
rounds: 10
"""
SEARCH_LINE = "  - search: {by: Anton, row: 31-36, gold: 2, saw: 1}\n"
GUESS_LINE = "  - guess: {by: Doris, owner: Bert, sector: 32, correct: true}\n"
