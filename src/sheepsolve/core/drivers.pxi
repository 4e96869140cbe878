# Drivers: the exact value by null-window searches (mtdf), the guessing search that gives it a start,
# and the bound on any value.

cdef int value_bound(Search* s) noexcept nogil:
    """No future value of the position exceeds this."""
    cdef Tables* t = &s.t
    cdef int i, tricks_left = ss_popcount(s.hand[(s.leader + s.ntr) % t.n]) + (1 if s.ntr > 0 else 0)
    cdef int v = tricks_left if t.gain_tricks else s.hand_pts + s.trick_pts
    if not t.gain_tricks:
        for i in range(1, tricks_left + 1):
            v += t.bonus_left[i]
    return v + (t.end_value[0] if t.end_value[0] > t.end_value[1] else t.end_value[1])


cdef int mtdf(Search* s, int guess, int step=1) noexcept nogil:
    """The exact value by null-window searches. Without a guess (``guess < 0``): bisection of the interval the
    fail-soft results leave (plain MTD(f) creeps by a point or two per search in a points game). With one: the
    first search at the guess, then steps of ``step``, twice that, four times, ... away from it in the direction
    the results point, and bisection once the value is bracketed; a guess within a point or two costs two or
    three searches."""
    cdef int lower = 0, upper = value_bound(s), g, beta, way = 0
    if guess < 0:
        way = 2
        beta = (lower + upper + 1) // 2
    else:
        beta = guess if guess > lower else lower + 1
        if beta > upper:
            beta = upper
    while lower < upper:
        g = ab(s, beta - 1, beta)
        if g >= beta:
            lower = g
            if way == -1:
                way = 2
            elif way != 2:
                way = 1
        else:
            upper = g
            if way == 1:
                way = 2
            elif way != 2:
                way = -1
        if lower >= upper:
            break
        if way == 1:
            beta = lower + step
            if beta > upper:
                beta = upper
        elif way == -1:
            beta = upper + 1 - step
            if beta <= lower:
                beta = lower + 1
        else:
            beta = (lower + upper + 1) // 2
        step *= 2
    return lower


cdef int guess_value(Search* s) noexcept nogil:
    """A quick estimate to start the exact search from: the same search, but every player only tries its
    first GUESS_WIDTH cards in the search's order, with small tables of its own. Its answers are not values of
    the game and never enter the real tables; the killer leads it leaves are only move-ordering hints."""
    cdef TTEntry* tt = s.tt
    cdef ShapeEntry* st = s.st
    cdef uint64_t bm = s.bucket_bytes, sm = s.shape_bytes
    cdef int g
    s.tt = s.gtt
    s.st = s.gst
    s.bucket_bytes = s.gbucket_bytes
    s.shape_bytes = s.gshape_bytes
    s.restrict_moves = GUESS_WIDTH
    g = mtdf(s, -1)
    s.restrict_moves = MAXMOVES
    s.tt = tt
    s.st = st
    s.bucket_bytes = bm
    s.shape_bytes = sm
    return g


cdef int exact_value(Search* s, int guess) noexcept nogil:
    """The exact future value. Without a guess (``guess < 0``) in a large position the guessing search supplies
    one: a start near the value saves most of the bisection's searches far from it, which are the costly ones."""
    if guess < 0 and ss_popcount(s.hand[s.t.seat_at[s.leader + s.ntr]]) >= GUESS_MIN_CARDS:
        # the guessing search is typically a few points off: first steps of 2
        return mtdf(s, guess_value(s), 2)
    return mtdf(s, guess)


cdef int _guess_bits(int tt_bits):
    """The guessing search's tables: an eighth of the real ones, at most 2 ** 14 entries each."""
    return 14 if tt_bits - 3 > 14 else (tt_bits - 3 if tt_bits - 3 > 2 else 2)
