# Points of sets of cards (cheapest, richest, the sum of the cheapest few) and the bounds a surely taken
# trick gives (sure_bound, trick_bounds): the arithmetic the static bounds share.

cdef inline int pts_of(Tables* t, uint32_t cards) noexcept nogil:
    """The points of ``cards``."""
    cdef int total = 0
    while cards:
        total += t.pts[ss_ctz(cards)]
        cards &= cards - 1
    return total


cdef inline int min_pts(Search* s, uint32_t hand) noexcept nogil:
    """The fewest points among the cards of ``hand`` (never empty): the lowest point level it holds a card of.
    No bound on the walk: the levels cover every card."""
    cdef int i = 1
    if hand & s.t.level_mask[0]:  # the common case: one test before the walk
        return s.t.level_pts[0]
    while not (hand & s.t.level_mask[i]):
        i += 1
    return s.t.level_pts[i]


cdef inline int max_pts(Search* s, uint32_t hand) noexcept nogil:
    """The most points among the cards of ``hand`` (never empty): the highest point level it holds a card of."""
    cdef int i = s.t.nlevels - 1
    while not (hand & s.t.level_mask[i]):
        i -= 1
    return s.t.level_pts[i]


cdef inline int low_sum(Search* s, uint32_t hand, int m) noexcept nogil:
    """The sum of the ``m`` lowest point values among the cards of ``hand`` (all of them if fewer): point levels
    lowest first, as many cards of each as the hand holds, instead of ``m`` walks over the hand."""
    cdef int total = 0, i, k
    if m == 1:  # the common case: the cheapest card (no caller passes an empty hand with m == 1)
        return min_pts(s, hand)
    for i in range(s.t.nlevels):
        k = ss_popcount(hand & s.t.level_mask[i])
        if k >= m:
            return total + m * s.t.level_pts[i]
        total += k * s.t.level_pts[i]
        m -= k
    return total


cdef inline int sure_bound(Search* s, int mine, int won, int from_hands, int k, int tl) noexcept nogil:
    """The bound on the future value (from the start of the current trick) when one side surely takes ``k`` of
    the ``tl`` tricks left (the current one counted) with at least ``won`` card points in them, ``from_hands``
    of those still in hands: if it is the objective's side (``mine``), the value is at least their gain; else
    at most what the other tricks can bring."""
    cdef Tables* t = &s.t
    cdef int v, took
    if mine:
        took = s.took | t.use_took
        if t.gain_tricks:
            return k + t.end_value[took]
        v = won + t.end_value[took]
        if k == 1:
            v += t.bonus_left[tl]
        return v
    if t.gain_tricks:
        v = tl - k
    else:
        v = s.hand_pts - from_hands + t.bonus_upto[tl]
        if k == 1:
            v -= t.bonus_left[tl]
    if t.use_took and not s.took:
        return t.end_value[0] if t.end_value[0] > v + t.end_value[1] else v + t.end_value[1]
    return v + t.end_value[s.took]


cdef inline int trick_bounds(Search* s, int seat, int mine, int contrib, int* lo, int* hi) noexcept nogil:
    """Mid-trick (``seat`` to move): the bounds on the future value (from the start of the trick) when the
    objective's side (``mine``) or the other side surely takes the trick on the table, with ``contrib`` more card
    points from the hands. Returns 1."""
    cdef int tl = ss_popcount(s.hand[seat])  # tricks left, this one included
    if mine:
        lo[0] = sure_bound(s, 1, s.trick_pts + contrib, contrib, 1, tl)
        hi[0] = INF
    else:
        hi[0] = sure_bound(s, 0, s.trick_pts + contrib, contrib, 1, tl)
        lo[0] = -INF
    return 1


cdef inline void keep_better(int* found, int* best, int v, int mine) noexcept nogil:
    """Keep the bound ``v`` in ``best`` if it is the first one ``found`` or a better one: higher for a lower
    bound of the objective's side (``mine``), lower for an upper bound of the other side (returns nothing)."""
    if not found[0] or (v > best[0] if mine else v < best[0]):
        best[0] = v
    found[0] = 1


cdef inline int window_cut(int lo, int hi, int alpha, int beta, int* v) noexcept nogil:
    """Whether bounds ``lo``..``hi`` on the value decide a search with window (``alpha``, ``beta``): 1 with the
    fail-soft result in ``v`` (``hi`` if ``hi <= alpha``, else ``lo`` if ``lo >= beta``), else 0."""
    if hi <= alpha:
        v[0] = hi
        return 1
    if lo >= beta:
        v[0] = lo
        return 1
    return 0
