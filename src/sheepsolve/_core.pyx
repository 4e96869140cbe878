# cython: language_level=3
"""The compiled double-dummy search.

Knows bitmasks and flat tables only (compiled by ``tables.py``); never a game's name.

Values are *future* gains of the side the objective is about, counted from the start of the current trick (the
cards already on the table included) plus the terminal term ``end_value[took]``. The table stores lower and upper
bounds of that future value at trick boundaries, keyed on the cards still out, the leader, whether the called
suit is still unled and whether the side took a trick: everything that decides the future, since no card ever
changes hands during the play.

A second table, the *shape table*, holds bounds by the position's shape alone: the holders of the cards still out
in order of rank, class by class, with their points forgotten. Two positions of one shape have the same game
tree, card for card, and their values differ by at most what the differing points of matched cards could move
(payoff similarity, as in Furtak and Buro's work on Skat): a bound of one gives a bound of the other.

The code lives in ``core/``, one concern a file, included here in order: one module, one C translation unit, so
the C compiler inlines across the files as if they were one (docs/ARCHITECTURE.md maps them).
"""

# definitions: C helpers, constants, the structs (table entries, Tables, Search, CardSave, TrickSave)
include "core/defs.pxi"
# legal cards, cards still to come, equivalent and dominated cards
include "core/moves.pxi"
# move order: follow scores ranked per table load, lead order, follow order
include "core/order.pxi"
# the transposition key and the shape key
include "core/keys.pxi"
# the transposition table and the shape table: probe, store, shape margins
include "core/transposition.pxi"
# make and unmake a card, close and reopen a trick, the last trick
include "core/play.pxi"
# points of sets of cards, the bound a sure trick gives
include "core/points.pxi"
# mid-trick bounds
include "core/bounds_trick.pxi"
# trick-start bounds
include "core/bounds_start.pxi"
# the search: ab, ab_two, enhanced transposition cut-offs, killers
include "core/search.pxi"
# drivers: exact value (MTD(f) and bisection), the guessing search
include "core/drivers.pxi"
# table compilation: the Tables struct built from tables.py's CoreTables
include "core/compile.pxi"
# the Python-facing class Core
include "core/core_class.pxi"
