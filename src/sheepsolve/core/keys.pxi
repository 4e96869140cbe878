# Keys: the transposition key (canonical holders of the cards still out, block by block) and the shape key
# (holders in order of rank, points forgotten), each worked out from the kept words or, with BMI2, at once.

cdef inline void key_drop(Search* s, uint32_t cards, int c, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """Turn the key words ``k0``/``k1`` of the set ``cards`` into those of the set without card ``c`` (one of
    them).

    Canonical key: inside each block of equal-point neighbours only the order of the holders matters, so the
    cards still out of a block are moved down to its lowest slots and each slot records its holder. Two
    positions with the same key have the same future. The key words are a sum over blocks of each block's
    words for the set of its cards still out, so a card leaving swaps its block's words only: ``kdrop`` holds
    the difference for each card and set of its block (made per position by :meth:`Core.set_position`, since
    the holders are fixed)."""
    cdef uint64_t* d = s.kdrop[c][(cards >> s.t.card_base[c]) & s.t.card_len[c]]
    k0[0] += d[0]
    k1[0] += d[1]


cdef inline void cards_key(Search* s, uint32_t cards, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The key words of ``cards``, a subset of ``keyed``."""
    cdef uint64_t a = s.key0, b = s.key1
    cdef uint32_t kept = s.keyed & cards, x = s.keyed & ~cards
    cdef int c
    if SS_BMI2:
        ss_key_words(cards, s.hcode0, s.hcode1, s.t.slot_p1, s.t.slot_p2, k0, k1)
        return
    while x:  # weakest first: the cards out before each drop are the kept ones and those not dropped yet
        c = ss_ctz(x)
        key_drop(s, kept | x, c, &a, &b)
        x &= x - 1
    k0[0] = a
    k1[0] = b


cdef inline void live_key(Search* s) noexcept nogil:
    """Bring the kept key words to the live cards (a trick start: the cards still out).

    The search keeps the words of the last key worked out on the way to the current position (:func:`close_trick`
    saves them, :func:`reopen_trick` puts them back), so a trick start's key drops only the cards played since,
    and only at the trick starts that get as far as a probe, instead of summing every block's words for every
    key."""
    if s.keyed != s.live:
        cards_key(s, s.live, &s.key0, &s.key1)
        s.keyed = s.live


cdef inline void start_key(Search* s, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The key words of the trick start (leader and flags not included). With BMI2 they are worked out at once
    from the cards still out (:func:`ss_key_words`, one call whatever the number of cards played since, cheaper than
    dropping them from the kept words, which the search then no longer keeps)."""
    if SS_BMI2:
        ss_key_words(s.live, s.hcode0, s.hcode1, s.t.slot_p1, s.t.slot_p2, k0, k1)
    else:
        live_key(s)
        k0[0] = s.key0
        k1[0] = s.key1


cdef inline uint64_t key_meta(Search* s, int leader, int opn, int took) noexcept nogil:
    """The leader and the flags, in the second key word above the slots."""
    return (<uint64_t>leader << 33) | (<uint64_t>opn << 36) | (<uint64_t>took << 37)


cdef inline int slot_of(Search* s, uint32_t rem, int c) noexcept nogil:
    """The canonical slot of card ``c`` among the cards ``rem`` still out: its block's first slot plus the
    number of cards of its block out below it (the transposition entry keeps the best card so)."""
    cdef int blk = s.t.block_of[c]
    return s.t.block_base[blk] + ss_popcount(rem & s.t.block_mask[blk] & ((<uint32_t>1 << c) - 1))


cdef inline int card_of_slot(Search* s, uint32_t rem, int slot) noexcept nogil:
    """The card of the cards ``rem`` still out in canonical slot ``slot`` (the inverse of :func:`slot_of`), or -1
    if its block has fewer cards out."""
    cdef int blk = s.t.block_of[slot]
    cdef int r = slot - s.t.block_base[blk]
    cdef uint32_t m = rem & s.t.block_mask[blk]
    while r > 0 and m:
        m &= m - 1
        r -= 1
    return ss_ctz(m) if m else -1


cdef inline void shape_words(Search* s, uint32_t rem, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The shape of a trick-start position: for each card still out, class by class and weakest first, its
    holder (1..5), or 6 for the called card, with a 7 between classes (at most 32 + 7 codes of 3 bits, 21 in the
    first word); then, added by :func:`shape_key`, the leader, the flags and the called card's holder.

    Legal cards and trick winners depend on classes, the order inside a class, the holders and the called card
    only, so positions of one shape have game trees that match card for card (the k-th card out of one plays
    the part of the k-th card out of the other); only the points of matched cards differ."""
    cdef uint64_t a = 0, b = 0, code
    cdef uint32_t x
    cdef int i = -1, c, k
    for k in range(s.t.nclasses):
        x = rem & s.t.cmask[k]
        code = 7
        while True:
            if i >= 0:  # no separator before the first class
                if i < 21:
                    a |= code << (3 * i)
                else:
                    b |= code << (3 * (i - 21))
            i += 1
            if not x:
                break
            c = ss_ctz(x)
            x &= x - 1
            code = s.scode[c]
    k0[0] = a
    k1[0] = b


cdef inline void shape_drop(Search* s, uint32_t cards, int c, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """Turn the shape words of the set ``cards`` into those of the set without card ``c`` (one of them): its
    code leaves and the codes after it move down one place."""
    cdef int lane = ss_popcount(cards & s.t.lane_below[c]) + s.t.cls[c]  # a separator after each lower class
    cdef uint64_t keep
    if lane < 21:
        keep = (<uint64_t>1 << (3 * lane)) - 1
        k0[0] = (k0[0] & keep) | ((k0[0] >> 3) & ~keep) | ((k1[0] & 7) << 60)
        k1[0] >>= 3
    else:
        keep = (<uint64_t>1 << (3 * (lane - 21))) - 1
        k1[0] = (k1[0] & keep) | ((k1[0] >> 3) & ~keep)


cdef inline void shape_key(Search* s, uint64_t meta, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The shape key of the trick start (see :func:`shape_words`; ``meta``: its :func:`key_meta`). Without
    BMI2, like the transposition key, the words of the last shape worked out on the way here are kept (saved and
    restored with each trick) and the cards played since leave them one by one, instead of a walk over every
    card still out for every key."""
    cdef uint64_t a = s.shape0, b = s.shape1
    cdef uint32_t kept = s.shaped & s.live, x = s.shaped & ~s.live
    cdef int c
    if SS_BMI2:
        # worked out at once from every card's words (pdep and pext, one call whatever the number of cards
        # played since), and no words kept: cheaper than taking the cards played since out of kept words
        ss_shape_words(s.live, s.t.shape_ext, s.t.shape_sep, s.shape_all0, s.shape_all1, &a, &b)
    else:
        while x:  # as in :func:`cards_key`
            c = ss_ctz(x)
            shape_drop(s, kept | x, c, &a, &b)
            x &= x - 1
        s.shape0 = a
        s.shape1 = b
        s.shaped = s.live
    b |= meta << 21  # the leader (bits 54..56) and the flags (57, 58): the transposition key's, 21 bits higher
    if s.live & s.t.called_bit:
        b |= s.called_code
    k0[0] = a
    k1[0] = b
