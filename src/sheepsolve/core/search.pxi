# The search: ab (fail-soft alpha-beta with bounds, table probes, ordered moves and table stores), ab_two
# for the second-last trick, enhanced transposition cut-offs and killer cards.

cdef int etc_cutoff(Search* s, int seat, int* moves, int nmoves, int alpha, int beta, int maxing,
                    int* out) noexcept nogil:
    """Enhanced transposition cut-off for the last card of a trick: if the table already proves one of the
    following trick starts good enough, the node is decided without searching."""
    cdef Tables* t = &s.t
    cdef int k, c, winseat, gain, took, opn, v
    cdef uint32_t rem, cards = s.live & ~s.ontable
    cdef uint64_t a, b, k0, k1
    cdef TTEntry* e
    cdef int found = 0
    opn = s.open
    if opn and (s.led & t.called_bit):
        opn = 0
    cards_key(s, cards, &a, &b)  # the key words of the cards in hands; each child drops the card played
    for k in range(nmoves):
        c = moves[k]
        winseat = seat if (s.beats >> c) & 1 else s.win_seat
        rem = cards & ~(<uint32_t>1 << c)
        if rem == 0:
            continue
        gain = trick_gain(t, winseat, s.trick_pts + t.pts[c], ss_popcount(s.hand[seat]))
        took = s.took
        if t.team[winseat]:
            took = took | t.use_took
        k0 = a
        k1 = b
        key_drop(s, cards, c, &k0, &k1)
        e = tt_probe(s, k0, k1 | key_meta(s, winseat, opn, took))
        if e == NULL:
            continue
        if maxing and gain + tte_lo(e) >= beta:
            out[0] = gain + tte_lo(e)
            return 1
        if not maxing and gain + tte_hi(e) <= alpha:
            out[0] = gain + tte_hi(e)
            return 1
    return 0


cdef inline void note_killer(Search* s, int seat, int c) noexcept nogil:
    """Card ``c``, not the first tried, cut off: remember it for the next position of the same kind (a lead by
    tricks left and seat; a card to a trick also by the class led and the place in the trick)."""
    cdef int tl = ss_popcount(s.hand[seat])
    if s.ntr == 0:
        s.killer[tl][seat] = c + 1
    else:
        s.follow_killer[tl][seat][s.t.cls[ss_ctz(s.led)]][s.ntr] = <uint8_t>(c + 1)


cdef inline int two_left_leaf(Search* s, int seat, int c) noexcept nogil:
    """The future value (from the start of the trick) when ``seat`` plays card ``c`` as the last card of the
    second-last trick: that trick's gain, then the last trick, forced (as in :func:`last_trick`: its cards are the
    cards still out, its winner the strongest of them among the trumps and the class its leader leads). Nothing is
    played on the search state."""
    cdef Tables* t = &s.t
    cdef uint32_t bit = <uint32_t>1 << c
    cdef int winseat = seat if (s.beats >> c) & 1 else s.win_seat
    cdef int took = s.took | t.use_took if t.team[winseat] else s.took
    s.nodes += t.n  # the last trick's start and its forced cards, as the search through ab counts them
    return (trick_gain(t, winseat, s.trick_pts + t.pts[c], 2)
            + final_trick(s, s.live & ~s.ontable & ~bit, ss_ctz(s.hand[winseat] & ~bit), s.hand_pts - t.pts[c], took))


cdef int ab_two(Search* s, int alpha, int beta) noexcept nogil:
    """Mid-trick in the second-last trick (the player to move holds two cards, and so does each player still to
    play to it): :func:`ab` without its bounds, equivalent cards and ranked move order, and the trick's last
    card goes straight to :func:`two_left_leaf` (no trick closed, no trick start searched). Of two legal cards
    the one of the higher follow rank goes first, the trick read as :func:`order_moves` reads it: the strongest
    card that can still come and beat it names the side that takes it; the trick's last card too. Of two
    equivalent cards (as :func:`drop_equivalent`: same class, same points, adjacent among the cards out, the
    table's included, neither special) only the stronger is searched. Fail-soft like :func:`ab`; nodes are
    counted as :func:`ab` would count them. No bounds, no point dominance: here they cost more than they save."""
    cdef Tables* t = &s.t
    cdef int seat = t.seat_at[s.leader + s.ntr]
    cdef uint32_t legal
    cdef int maxing = t.maximizing[seat], best = -INF if maxing else INF, v, c
    cdef int last = s.ntr == t.n - 1
    cdef CardSave cs
    cdef int first = -1, a, b, wteam
    cdef uint32_t x, wins
    cdef uint8_t* rank
    s.nodes += 1
    save_card_state(s, seat, &cs)
    legal = legal_moves(s, seat)
    if legal & (legal - 1):
        a = ss_ctz(legal)
        b = ss_msb(legal)
        if (t.eq_above[a] >> b) & 1 and ss_ctz(s.live & t.above[a]) == b:
            legal = <uint32_t>1 << b  # equivalent cards: the stronger one alone
        else:
            x = cards_to_come(s, s.ntr + 1, s.led)
            rank = t.follow_rank[follow_mode(s, seat, ss_msb(x) if x else -1, 0, &wins)]
            first = a if rank[a + 32 * ((wins >> a) & 1)] > rank[b + 32 * ((wins >> b) & 1)] else b
    while legal:
        c = first if first >= 0 else ss_msb(legal)
        first = -1
        legal &= ~(<uint32_t>1 << c)
        if last:
            v = two_left_leaf(s, seat, c)
        else:
            make_card(s, c, seat, &cs)
            v = ab_two(s, alpha, beta)
            unmake_card(s, seat, &cs)
        if maxing:
            if v > best:
                best = v
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        else:
            if v < best:
                best = v
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
    return best


cdef inline int generate_moves(Search* s, int seat, uint32_t legal, int hint, uint32_t come,
                               int* moves) noexcept nogil:
    """Move generation: the legal cards ``legal`` of ``seat`` worth searching, most promising first, into
    ``moves``; returns their count. Dominated and equivalent cards go (:func:`drop_dominated`), the rest are
    ordered (:func:`order_moves`; ``hint``: the table's best card, ``come``: top_bounds' cards that may still
    come, or NO_CARDS), and the guessing search keeps only its first few."""
    cdef int nmoves
    if legal & (legal - 1):
        legal = drop_dominated(s, seat, legal)
    if not (legal & (legal - 1)):
        moves[0] = ss_ctz(legal)
        return 1
    # (top_bounds' cards without the mover's are those after him: the players' cards are apart)
    nmoves = order_moves(s, seat, legal, hint, come & ~s.hand[seat] if come != NO_CARDS else NO_CARDS, moves)
    if nmoves > s.restrict_moves:
        nmoves = s.restrict_moves
    return nmoves


cdef inline int child_value(Search* s, int c, int seat, CardSave* cs, int two, int alpha, int beta) noexcept nogil:
    """The future value (from the start of this trick) after ``seat`` plays card ``c``, by a search with window
    (``alpha``, ``beta``): make the card, close the trick if it completes it (its gain added), search the child
    (:func:`ab_two` when ``two``: the second-last trick), unmake."""
    cdef int v, gain
    cdef TrickSave sv
    make_card(s, c, seat, cs)
    if s.ntr == s.t.n:
        gain = close_trick(s, seat, &sv)
        v = gain + ab(s, alpha - gain, beta - gain)
        reopen_trick(s, &sv)
    else:
        v = ab_two(s, alpha, beta) if two else ab(s, alpha, beta)
    unmake_card(s, seat, cs)
    return v


cdef inline int search_moves(Search* s, int seat, int maxing, int* moves, int nmoves, int alpha, int beta,
                             int* bestc) noexcept nogil:
    """The search loop: each of the ``nmoves`` moves in order, fail-soft, until one cuts off (a move that cuts
    off after the first becomes the killer, :func:`note_killer`). Returns the best value, its card in
    ``bestc``."""
    cdef int k, c, v, best = -INF if maxing else INF
    cdef CardSave cs
    cdef int two
    save_card_state(s, seat, &cs)
    two = ss_popcount(cs.hand) == 2
    for k in range(nmoves):
        c = moves[k]
        v = child_value(s, c, seat, &cs, two, alpha, beta)
        if maxing:
            if v > best:
                best = v
                bestc[0] = c
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        if k > 0:
                            note_killer(s, seat, c)
                        break
        else:
            if v < best:
                best = v
                bestc[0] = c
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        if k > 0:
                            note_killer(s, seat, c)
                        break
    return best


cdef int ab(Search* s, int alpha, int beta) noexcept nogil:
    """The future value of the position (from the start of the current trick), by a fail-soft alpha-beta search
    with window (``alpha``, ``beta``): a result inside the window is the value, one at or below ``alpha`` an upper
    bound, one at or above ``beta`` a lower bound. The steps, each a named call:

    1. trick start: the end and the forced last trick; the static bounds (:func:`start_bounds`), the table
       probe (:func:`probe_tables`), the bounds from the hands and leads (:func:`lead_bounds`); the window
       narrows to the bounds. Mid-trick: the second-last trick (:func:`ab_two`), the trick's bounds
       (:func:`mid_trick_bounds`);
    2. move generation (:func:`generate_moves`) and, on a trick's last card, enhanced transposition cut-offs
       (:func:`etc_cutoff`);
    3. the search loop (:func:`search_moves`);
    4. at a trick start, the store (:func:`store_tables`)."""
    cdef Tables* t = &s.t
    cdef int seat = t.seat_at[s.leader + s.ntr]
    cdef int maxing = t.maximizing[seat]
    cdef int v, best, bestc = -1, nmoves, tricks_left, a0, b0
    cdef int lo_b = 0, hi_b = 0, hint = -1
    cdef uint32_t legal
    cdef uint32_t come = NO_CARDS  # mid-trick: the cards that may still come and win, if top_bounds looked
    cdef int moves[MAXMOVES]
    cdef Probe pr
    s.nodes += 1
    # 1. bounds and table probe
    if s.ntr == 0:
        if s.live == 0:
            return t.end_value[s.took]
        tricks_left = ss_popcount(s.hand[s.leader])
        if tricks_left == 1:
            return last_trick(s)
        if start_bounds(s, tricks_left, alpha, beta, &lo_b, &hi_b, &v):
            return v
        if probe_tables(s, alpha, beta, &pr, &lo_b, &hi_b, &hint, &v):
            return v
        legal = legal_moves(s, seat)
        if lead_bounds(s, seat, maxing, tricks_left, legal, alpha, beta, &lo_b, &hi_b, &v):
            return v
        if lo_b > alpha:
            alpha = lo_b
        if hi_b < beta:
            beta = hi_b
        if alpha >= beta:
            # the bounds meet inside the window (lo_b == hi_b: only possible with a window wider than a null
            # window): the value is known. Searching on with the empty window (v, v) would mix up its
            # results: a child's v, an upper bound, would count as a lower bound at the next level
            return lo_b
    elif ss_popcount(s.hand[seat]) == 2:
        return ab_two(s, alpha, beta)
    else:
        if mid_trick_bounds(s, seat, &lo_b, &hi_b, &come) and window_cut(lo_b, hi_b, alpha, beta, &v):
            return v
        legal = legal_moves(s, seat)
    a0 = alpha
    b0 = beta
    # 2. move generation
    nmoves = generate_moves(s, seat, legal, hint, come, moves)
    # the last card of a trick: look the following trick starts up (not when one or two cards each are left:
    # the last trick is never stored, ab_two searches the second-last for less than the probes cost; nor in the
    # guessing search, whose small tables rarely cut)
    if nmoves > 1 and s.ntr == t.n - 1 and s.restrict_moves == MAXMOVES and ss_popcount(s.hand[seat]) > 3 \
            and etc_cutoff(s, seat, moves, nmoves, alpha, beta, maxing, &v):
        return v
    # 3. the search loop
    best = search_moves(s, seat, maxing, moves, nmoves, alpha, beta, &bestc)
    # 4. the store
    if s.ntr == 0:
        store_tables(s, &pr, best, bestc, a0, b0, lo_b, hi_b)
    return best
