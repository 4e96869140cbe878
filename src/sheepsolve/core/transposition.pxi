# The two tables: the transposition table (probe and store of bounds and the best card, buckets of four
# entries) and the shape table (payoff similarity: a bound of one position gives a bound of another of its
# shape, within the margins of the matched cards' points).

cdef inline TTEntry* tt_bucket(Search* s, uint64_t k0, uint64_t k1) noexcept nogil:
    """The bucket (four entries, one cache line) of the key ``k0``/``k1``: a multiplicative hash of both words."""
    cdef uint64_t h = (k0 * 0x9E3779B97F4A7C15ULL) ^ (k1 * 0xC2B2AE3D27D4EB4FULL)
    h ^= h >> 29
    # bucket ((h >> 17) & (number of buckets - 1)), as a byte offset: the same bits of h in place, no multiply
    return <TTEntry*>(<char*>s.tt + ((h >> 11) & s.bucket_bytes))


cdef enum:  # the fields of TTEntry.w above the key's 38 bits
    LO_SHIFT = 38
    HI_SHIFT = 46
    BEST_SHIFT = 54
    GEN_SHIFT = 60
    BEST_NONE = 63


cdef inline int tte_lo(TTEntry* e) noexcept nogil:
    """The entry's lower bound."""
    return <int>((e.w >> LO_SHIFT) & 255)


cdef inline int tte_hi(TTEntry* e) noexcept nogil:
    """The entry's upper bound."""
    return <int>((e.w >> HI_SHIFT) & 255)


cdef inline int tte_best(TTEntry* e) noexcept nogil:
    """The canonical slot of the entry's best card (BEST_NONE: none)."""
    return <int>((e.w >> BEST_SHIFT) & 63)


cdef inline int tte_cards(TTEntry* e) noexcept nogil:
    """Cards still out in the entry's position: its nonzero 3-bit holder codes."""
    cdef uint64_t a = e.k0, b = e.w & ((<uint64_t>1 << 33) - 1)
    return ss_popcount64((a | (a >> 1) | (a >> 2)) & LANES0) + ss_popcount64((b | (b >> 1) | (b >> 2)) & LANES0)


cdef inline TTEntry* tt_probe(Search* s, uint64_t k0, uint64_t k1) noexcept nogil:
    """The entry of the key ``k0``/``k1`` of the current generation in its bucket, or NULL."""
    cdef TTEntry* b = tt_bucket(s, k0, k1)
    cdef uint64_t want = k1 | s.tgen_w
    cdef uint64_t mask = KEY_MASK | (<uint64_t>15 << GEN_SHIFT)
    cdef int i
    for i in range(BUCKET):
        if b[i].k0 == k0 and (b[i].w & mask) == want:
            return &b[i]
    return NULL


cdef inline void tt_store(Search* s, uint64_t k0, uint64_t k1, int lo, int hi, int best, int keep) noexcept nogil:
    """Store bounds and the best card; ``keep``: an entry already there keeps its best card, if it has one."""
    cdef TTEntry* b = tt_bucket(s, k0, k1)
    cdef int i, victim = 0, vd = 99, d
    for i in range(BUCKET):
        if (b[i].w >> GEN_SHIFT) != s.tgen:  # empty, or of an older generation
            victim = i
            break
        if b[i].k0 == k0 and (b[i].w & KEY_MASK) == k1:
            victim = i
            if keep and tte_best(&b[i]) != BEST_NONE:
                best = tte_best(&b[i])
            break
        d = tte_cards(&b[i])  # replace the entry of the smallest position
        if d < vd:
            vd = d
            victim = i
    b[victim].k0 = k0
    b[victim].w = (k1 | (<uint64_t>lo << LO_SHIFT) | (<uint64_t>hi << HI_SHIFT)
                   | (<uint64_t>(best if best >= 0 else BEST_NONE) << BEST_SHIFT) | s.tgen_w)


cdef inline ShapeEntry* shape_slot(Search* s, uint64_t k0, uint64_t k1) noexcept nogil:
    """The shape table's slot for the shape key ``k0``/``k1`` (direct-mapped: one entry a slot, always replaced)."""
    cdef uint64_t h = (k0 * 0x9E3779B97F4A7C15ULL) ^ (k1 * 0xC2B2AE3D27D4EB4FULL)
    h ^= h >> 29
    return <ShapeEntry*>(<char*>s.st + ((h >> 12) & s.shape_bytes))  # entry (h >> 17) & (entries - 1), in bytes


cdef inline void shape_margins(Search* s, uint32_t now, uint32_t then, int* up, int* down) noexcept nogil:
    """How far the value of the position with cards ``now`` out can lie above (``up``) and below (``down``)
    the value of the position of the same shape with cards ``then`` out: the k-th card of one is matched with
    the k-th card of the other, and the side that wins it gains the difference of their points. Values that
    count tricks do not depend on points at all.

    Each class holds as many cards in both (the shapes are equal), so the cards of a class below its first
    difference or above its last one are matched with themselves: only the span between is walked, and only
    in the classes that differ."""
    cdef int a, b, d, lo, k, u = 0, w = 0
    cdef uint32_t x = now ^ then, span, p, q
    if not s.t.gain_tricks:
        while x:
            lo = ss_ctz(x)
            k = s.t.cls[lo]
            span = ((<uint32_t>2 << ss_msb(x & s.t.cmask[k])) - 1) & ~((<uint32_t>1 << lo) - 1)
            x &= ~s.t.cmask[k]
            p = now & span
            q = then & span
            while p:
                a = ss_ctz(p)
                b = ss_ctz(q)
                p &= p - 1
                q &= q - 1
                d = s.t.pts[a] - s.t.pts[b]
                if d > 0:
                    u += d
                else:
                    w -= d
    up[0] = u
    down[0] = w


cdef inline int probe_tables(Search* s, int alpha, int beta, Probe* pr, int* lo, int* hi, int* hint,
                             int* v) noexcept nogil:
    """The table probe at a trick start: the transposition table, then the shape table. Returns 1 with the
    node's fail-soft result in ``v`` if an entry decides it; else 0, with ``lo``/``hi`` narrowed to the entries'
    bounds, ``hint`` the transposition entry's best card (if any) and ``pr`` the keys and shape slot for
    :func:`store_tables`. A shape entry's bounds widen by the margins of the matched cards' points
    (:func:`shape_margins`)."""
    cdef TTEntry* e
    cdef ShapeEntry* se
    cdef uint64_t meta
    cdef int a, b, up = 0, down = 0
    pr.rem = s.live
    start_key(s, &pr.k0, &pr.k1)
    meta = key_meta(s, s.leader, s.open, s.took)
    pr.k1 |= meta
    e = tt_probe(s, pr.k0, pr.k1)
    if e != NULL:
        a = tte_lo(e)
        b = tte_hi(e)
        if a >= beta:
            v[0] = a
            return 1
        if b <= alpha:
            v[0] = b
            return 1
        if a == b:
            v[0] = a
            return 1
        if a > lo[0]:
            lo[0] = a
        if b < hi[0]:
            hi[0] = b
        if tte_best(e) != BEST_NONE:
            hint[0] = card_of_slot(s, pr.rem, tte_best(e))
    shape_key(s, meta, &pr.sk0, &pr.sk1)
    se = shape_slot(s, pr.sk0, pr.sk1)
    pr.se = se
    if se.gen == <uint16_t>s.gen and se.k0 == pr.sk0 and se.k1 == pr.sk1:
        s.shape_hits += 1
        shape_margins(s, pr.rem, se.rem, &up, &down)
        a = se.lo - down
        if a >= beta:
            v[0] = a
            return 1
        if a > lo[0]:
            lo[0] = a
        b = se.hi + up
        if b <= alpha:
            v[0] = b
            return 1
        if b < hi[0]:
            hi[0] = b
    return 0


cdef inline void store_tables(Search* s, Probe* pr, int best, int bestc, int alpha, int beta, int lo,
                              int hi) noexcept nogil:
    """The store at a trick start searched with window (``alpha``, ``beta``) to the fail-soft result ``best``
    (best card ``bestc``, or -1), the static and probed bounds being ``lo``..``hi`` (returns nothing): a fail low
    stores an upper bound, a fail high a lower bound, else the exact value, in the shape slot (always replaced)
    and the transposition table. After a fail low the best card is only a guess: an entry there keeps its own."""
    cdef int slot = slot_of(s, pr.rem, bestc) if bestc >= 0 else -1
    cdef ShapeEntry* se = pr.se
    se.k0 = pr.sk0
    se.k1 = pr.sk1
    se.rem = pr.rem
    se.gen = <uint16_t>s.gen
    if best <= alpha:
        se.lo = <uint8_t>lo
        se.hi = <uint8_t>(best if best < hi else hi)
    elif best >= beta:
        se.lo = <uint8_t>best
        se.hi = <uint8_t>hi
    else:
        se.lo = <uint8_t>best
        se.hi = <uint8_t>best
    if best <= alpha:
        tt_store(s, pr.k0, pr.k1, lo, best if best < hi else hi, slot, 1)
    elif best >= beta:
        tt_store(s, pr.k0, pr.k1, best, hi, slot, 0)
    else:
        tt_store(s, pr.k0, pr.k1, best, best, slot, 0)
