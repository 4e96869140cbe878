# Table compilation: the C ``Tables`` struct built from the compiled tables of tables.py (``CoreTables``), once
# per card layout (build_layout) and once per context (build_context); Core.load_tables caches both.

cdef build_layout(Tables* t, tables):
    """The part of the Tables struct that depends on the card layout only: the seats, the cards' classes,
    points, order and blocks, the special and called cards (the fields of ``layout`` in ``Core.load_tables``)."""
    cdef int i, j
    cdef uint32_t blk, m
    t.n = tables.n
    t.ncards = len(tables.order)
    for i in range(32):
        t.cls[i] = 7
        t.pts[i] = 0
    t.nclasses = 0
    for i in range(t.ncards):
        t.cls[i] = tables.cls[i]
        t.pts[i] = tables.pts[i]
        if t.cls[i] + 1 > t.nclasses:
            t.nclasses = t.cls[i] + 1
    if t.nclasses > 8 or t.ncards > 32:
        raise ValueError("the core takes at most 32 cards in at most 8 classes")
    for i in range(8):
        t.cmask[i] = tables.cmask[i]
    t.nlevels = 0
    for v in sorted(set(t.pts[i] for i in range(t.ncards))):
        t.level_pts[t.nlevels] = v
        t.level_mask[t.nlevels] = 0
        for i in range(t.ncards):
            if t.pts[i] == v:
                t.level_mask[t.nlevels] |= <uint32_t>1 << i
        t.nlevels += 1
    t.mono = 0
    for i in range(t.nclasses):
        m = t.cmask[i]
        for j in range(t.ncards):
            if (m >> j) & 1 and j + 1 < t.ncards and (m >> (j + 1)) & 1 and t.pts[j + 1] < t.pts[j]:
                m = 0
                break
        t.mono |= m
    for i in range(t.ncards):
        t.above[i] = (t.cmask[t.cls[i]] & ~((<uint32_t>2 << i) - 1)) if i < 31 else 0
    t.shape_ext = 0
    t.shape_sep = 0
    for i in range(t.ncards):
        t.shape_ext |= <uint64_t>1 << (i + t.cls[i])
    m = 0  # the cards of the classes below class i
    for i in range(1, t.nclasses):  # class i's separator: after those cards and i - 1 separators
        m |= t.cmask[i - 1]
        t.shape_sep |= <uint64_t>1 << (ss_popcount(m) + i - 1)
    for i in range(32):
        t.lane_below[i] = 0
        if i < t.ncards:
            for j in range(t.ncards):
                if t.cls[j] < t.cls[i] or (t.cls[j] == t.cls[i] and j < i):
                    t.lane_below[i] |= <uint32_t>1 << j
    t.special = tables.special
    t.cls_low = 0
    for i in range(8):
        t.cls_low |= t.cmask[i] & -t.cmask[i]
    t.trumps = tables.cmask[tables.trump_cls] if tables.trump_cls < 8 else 0
    t.has_eq = 0
    for i in range(32):
        t.same_cls[i] = t.cmask[t.cls[i]] if i < t.ncards else 0
        t.beat_lead[i] = ((t.trumps | t.same_cls[i]) & ~((<uint32_t>2 << i) - 1)) if i < 31 else 0
        t.eq_above[i] = 0
        if i < t.ncards and not (t.special >> i) & 1:
            for j in range(i + 1, t.ncards):
                if (t.above[i] >> j) & 1 and t.pts[j] == t.pts[i] and not (t.special >> j) & 1:
                    t.eq_above[i] |= <uint32_t>1 << j
                    t.has_eq |= <uint32_t>1 << i
    rank_follow(t)
    t.called = tables.called
    t.called_bit = (<uint32_t>1 << tables.called) if tables.called >= 0 else 0
    t.called_cls = tables.called_cls
    for i in range(2 * MAXSEATS):
        t.seat_at[i] = i % t.n
    t.nblocks = 0
    for blk in tables.blocks:
        while blk:
            m = blk
            if ss_popcount(m) > MAXBLOCK:  # keep the lowest MAXBLOCK cards; the rest form the next block
                m = blk & ((<uint32_t>1 << (ss_ctz(blk) + MAXBLOCK)) - 1)
            blk &= ~m
            i = t.nblocks
            t.nblocks += 1
            t.block_mask[i] = m
            t.block_base[i] = ss_ctz(m)
            t.block_len[i] = (<uint32_t>1 << ss_popcount(m)) - 1
            for j in range(32):
                if (m >> j) & 1:
                    t.block_of[j] = i
                    t.card_base[j] = t.block_base[i]
                    t.card_len[j] = t.block_len[i]
    t.slot_p1 = 0
    t.slot_p2 = 0
    j = 0
    while j < 32:  # a card in no block (beyond ncards) is a block of its own
        m = t.block_mask[t.block_of[j]] if j < t.ncards else <uint32_t>1 << j
        i = ss_popcount(m)
        t.slot_p1 |= ((<uint64_t>1 << i) - 1) << (2 * j)
        t.slot_p2 |= ((<uint64_t>1 << i) - 1) << (2 * j + i)
        j += i
    for j in range(32):
        t.lane0[j] = (<uint64_t>1 << (3 * j)) if j < 21 else 0
        t.lane1[j] = (<uint64_t>1 << (3 * (j - 21))) if j >= 21 else 0

cdef build_context(Tables* t, tables):
    """The rest: the sides, who maximises, the partner and called-card rules, the gains and end values."""
    cdef int i
    t.partner = tables.partner
    t.hold_seat = tables.hold_seat
    t.run_min = tables.run_min
    t.throw_off_last_only = tables.throw_off_last_only
    t.sided = 1
    t.anti = 1
    for i in range(MAXSEATS):
        t.team[i] = tables.team[i] if i < t.n else 0
        t.maximizing[i] = tables.maximizing[i] if i < t.n else 0
        if i < t.n:
            if t.team[i] != t.maximizing[i]:
                t.sided = 0
            else:
                t.anti = 0
    t.nside[0] = 0
    t.nside[1] = 0
    for i in range(t.n):
        t.side_seats[t.team[i]][t.nside[t.team[i]]] = i
        t.nside[t.team[i]] += 1
    t.gain_tricks = tables.gain_tricks
    for i in range(17):
        t.bonus_left[i] = tables.bonus_left[i]
        t.bonus_upto[i] = (t.bonus_upto[i - 1] if i > 0 else 0) + (t.bonus_left[i] if i > 0 else 0)
    t.end_value[0] = tables.end_value[0]
    t.end_value[1] = tables.end_value[1]
    t.use_took = 1 if t.end_value[0] != t.end_value[1] else 0
