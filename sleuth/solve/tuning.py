"""Every tuning constant of the counter: what each trades, and the measurement behind it.

None of them changes a count; each only moves time or memory. "Hard records" are the 44
slowest 6-player states of simulated games 0 to 19, "slow states" the 30 slowest of the
surveys; times are totals over them, from alternated runs or replays (``benchmarks/replay.py``,
``benchmarks/survey.py``) on one shared 2-core machine. Code reads a constant here when it uses
it (``tuning.SOLO``), so that tests and the replay can change one for a while; the engines'
memory bounds are class attributes made from theirs (``VectorRun.states``).
"""

# The race of item orders (``order.race``)
# states the first greedy order makes alone, before contenders: most counts end within it
SOLO = 200_000
# states each way round of a pair makes before one goes on: slow/hard 33.4/17.6 s, 34.2/18.4 at 3e5
PROBE = 200_000
# share of the engine's bound for a contender's first run: several stay alive (not measured alone)
FIRST = 0.25
# dropped contenders run again from the start when the kept one fails too (not measured alone)
SECOND = 2
# moves tried polishing an order (about 25 ms): 2-3x fewer states than greedy on hard records
TRIES = 2000
# greedy orders polished, by static rank: 0 and 1 are often one order both ways round
STARTS = (0, 2, 4)
# forecast growth per promised bit: 36 slow records replayed 452 M states, 539 M at 0.3
GROWTH = 0.5
# forecast x bound from which a run drops early: saves half the work of runs over their bound
HOPELESS = 1.5
# states made before a forecast may drop a run: slow states replayed in 33.4 s, 36.4 s without
SURE = 100_000
# a run forecast within this x its bound may pass it, not drop near its end (not measured alone)
OVER = 1.25
# a run past its bound goes on while forecast within this x its size: slow 48.3 s, 77.2 s at 1
NEAR = 2.0
# states of a count whose winning order is remembered (``memory``): below it a race is cheap
BIG = 6_000_000

# The static cost of an order (``widths``)
# weight of a promised bit: on simulated records 0.5 and 1.0 pick slightly worse orders
ALPHA = 0.7
# moves tried from one order at once: one array operation each batch (not measured alone)
BATCH = 16

# The engines' memory (``reference.DictRun``, ``vector.VectorRun``)
# states the dictionary engine keeps over all layers: well under 1 GiB
DICT_STATES = 3_000_000
# states the layer engine keeps over all layers, about 16 bytes each (26.5 M: 383 MiB)
VECTOR_STATES = 24_000_000
# successors one step makes before they merge: bounds the merge's temporaries
VECTOR_EDGES = 8_000_000
# bytes for the kept states and one step's successors: processes peak at 650-800 MiB at the bound
VECTOR_MEMORY = 700 << 20
# states whose successors are made at once: a survey peaked at 759 MiB, 811 at 1 << 20, same time
CHUNK = 1 << 19

# Merging equal states (``merge``) and the compiled kernels (``compiled``)
# successors of one step from which a count turns to the compiled kernels (numba loads in 0.3 s)
HASHED = 1_000_000
# successors of one step from which a count that turned merges by hash table: 5x sort at 20,000
LOADED = 10_000
# keys per bucket of the hash merge: a table that stays in the cache
BUCKET = 1 << 17
# keys from which the hash merge spreads to buckets: 35 ns a key, not 61-65, at 3 M keys
SPREAD = 1 << 19
# states from which a field is unpacked by a compiled loop: one pass, no temporary arrays
UNPACKED = 4096
# the record's states times its questions from which they are carried by the compiled loops,
# loaded before the questions' workers fork (0.5 s: numba and the loops)
TURNED = 1_000_000
# slots of the table where a question's carried step meets equal entries (``carry``): int32,
# 128 MiB; a wider step is merged by sorting
CARRIED = 1 << 25

# The forced-hits check (``forced``)
# states of a layer from which it is checked: slow states 51.6 s, 65.0 s unchecked; hard alike
CHECKED = 200_000
# a check that drops under this share of a layer rests before the next
USEFUL = 0.3
# layers the check rests at most (1, 2, 4... after each layer where it drops few)
IDLE = 8
# rounds of forcing per state: a forced row can make another tally tight
ROUNDS = 3
# rows of one holder tabulated at most (2**ROWS masks; below 16, the table entries' width)
ROWS = 12
# holders with bigger hands are left out of the tables (their hitting sets grow)
HAND = 8
# states the kernel checks together, field by field: 60 ns a state, 83 ns one by one
BLOCK = 256
