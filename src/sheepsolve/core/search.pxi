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
    card that can still come and beat it names the side that takes it (100 deals: sauspiel 1.8%, sheepshead-jd
    1.6%, sheepshead-3 1.8% fewer instructions); the trick's last card too (before, the stronger card: 2.0%,
    2.6%, 0.6% more nodes, 0.1%, 0.5%, 0.0% more instructions). Of two equivalent cards (as
    :func:`drop_equivalent`: same class, same points, adjacent among the cards out, the table's included, neither
    special) only the stronger is searched: 100 deals, sauspiel 1.2%, sheepshead-jd 3.7%, sheepshead-3 0.4% fewer
    nodes, instructions up to 0.3% fewer (this routine runs about 3% of them); point dominance as well (adjacent
    cards of other points, :func:`drop_dominated`) cut 4.0%, 8.8%, 1.0% of the nodes but cost up to 0.3% more
    instructions, for the last card alone or the others alone too. Fail-soft like :func:`ab`; nodes are counted
    as :func:`ab` would count them. The trick's bounds (:func:`decided_bounds`) cost more than they saved here
    (sauspiel 20 deals: +1.8% instructions)."""
    cdef Tables* t = &s.t
    cdef int seat = t.seat_at[s.leader + s.ntr]
    cdef uint32_t legal
    cdef int maxing = t.maxer[seat], best = -INF if maxing else INF, v, c
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
            play_card(s, c, seat)
            note_winner(s, c, seat)
            v = ab_two(s, alpha, beta)
            take_card_back(s, seat, &cs)
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


cdef int ab(Search* s, int alpha, int beta) noexcept nogil:
    cdef Tables* t = &s.t
    cdef int n = t.n
    cdef int seat = t.seat_at[s.leader + s.ntr]
    cdef uint32_t rem = 0
    cdef int i, k, c, v, best, bestc = -1, nmoves
    cdef int lo_b = 0, hi_b = 0, tricks_left, a0, b0, sure, bests, two
    cdef uint64_t k0 = 0, k1 = 0
    cdef TTEntry* e = NULL
    cdef int hint = -1
    cdef int moves[MAXMOVES]
    cdef uint32_t legal = 0
    cdef uint32_t come = NO_CARDS  # mid-trick: the cards that may still come and win, if top_bounds looked
    cdef int maxing = t.maxer[seat]
    # saved trick state
    cdef int gain
    cdef CardSave cs
    cdef TrickSave sv
    cdef uint64_t sk0 = 0, sk1 = 0, meta
    cdef ShapeEntry* se = NULL
    cdef int up = 0, down = 0
    s.nodes += 1

    if s.ntr == 0:
        rem = s.live
        if rem == 0:
            return t.tv[s.took]
        tricks_left = ss_popcount(s.hand[s.leader])
        if tricks_left == 1:
            return last_trick(s)
        hi_b = sure_bound(s, 0, 0, 0, 0, tricks_left)  # every trick left could go to the objective's side
        if t.use_took and not s.took:
            lo_b = t.tv[0] if t.tv[0] < t.tv[1] else t.tv[1]
        else:
            lo_b = t.tv[s.took]
        if not t.gain_tricks and (s.took or not t.use_took):
            # Top trumps held by one side are sure to win their tricks: their points go to that side.
            sure = sure_points(s, rem)
            if sure > 0:
                lo_b += sure
            else:
                hi_b += sure
        if hi_b <= alpha:
            return hi_b
        if lo_b >= beta:
            return lo_b
        start_key(s, &k0, &k1)
        meta = key_meta(s, s.leader, s.open, s.took)
        k1 |= meta
        e = tt_probe(s, k0, k1)
        if e != NULL:
            i = tte_lo(e)
            k = tte_hi(e)
            if i >= beta:
                return i
            if k <= alpha:
                return k
            if i == k:
                return i
            if i > lo_b:
                lo_b = i
            if k < hi_b:
                hi_b = k
            if tte_best(e) != BEST_NONE:
                hint = card_of_slot(s, rem, tte_best(e))
        shape_key(s, meta, &sk0, &sk1)
        se = shape_slot(s, sk0, sk1)
        if se.gen == <uint16_t>s.gen and se.k0 == sk0 and se.k1 == sk1:
            s.shape_hits += 1
            shape_margins(s, rem, se.rem, &up, &down)
            v = se.lo - down
            if v >= beta:
                return v
            if v > lo_b:
                lo_b = v
            v = se.hi + up
            if v <= alpha:
                return v
            if v < hi_b:
                hi_b = v
        # The objective's side's trumps in one hand, with trumps of the other side between them: more sure points
        # (:func:`trump_points`), where the minimising side leads, since a null-window search fails high there
        # only after every lead (20 deals: sheepshead-3 4.2%, sauspiel 0.8%, sheepshead-jd 0.6% fewer
        # instructions; the same bound for the other side where the maximising side leads, with two tricks
        # left, for any player of the side or before the table probes cost more than it saved)
        if not maxing and tricks_left > 2 and not t.gain_tricks and (s.took or not t.use_took):
            v = t.tv[s.took] + trump_points(s)
            if v >= beta:
                return v
            if v > lo_b:
                lo_b = v
        legal = legal_moves(s, seat)
        # not with two tricks left: ab_two finds the value for less than sure_lead's bounds saved (30 deals of
        # each corpus: 0.8-1.8% fewer instructions without)
        if tricks_left > 2 and t.anti and not maxing and t.nside[t.team[seat]] == 1 and lead_away(s, legal, &v):
            if v < hi_b:
                hi_b = v
            if hi_b <= alpha:
                return hi_b
        elif tricks_left > 2 and sure_lead(s, legal, &v):
            if maxing and v > lo_b:
                lo_b = v
            elif not maxing and v < hi_b:
                hi_b = v
            if lo_b >= beta:
                return lo_b
            if hi_b <= alpha:
                return hi_b
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
    elif decided_bounds(s, seat, &lo_b, &hi_b) or (t.sided and top_bounds(s, seat, &lo_b, &hi_b, &come)) \
            or (t.anti and refrain_bounds(s, seat, &lo_b, &hi_b)):
        if hi_b <= alpha:
            return hi_b
        if lo_b >= beta:
            return lo_b
    a0 = alpha
    b0 = beta

    if s.ntr > 0:
        legal = legal_moves(s, seat)
    if legal & (legal - 1):
        legal = drop_dominated(s, seat, legal)
    if legal & (legal - 1):
        # (top_bounds' cards without the mover's are those after him: the players' cards are apart)
        nmoves = order_moves(s, seat, legal, hint, come & ~s.hand[seat] if come != NO_CARDS else NO_CARDS, moves)
        if nmoves > s.restrict_moves:
            nmoves = s.restrict_moves
        # the last card of a trick: look the following trick starts up (not when one card each is left: the
        # last trick is played out directly and never stored; nor when two are: ab_two searches the second-last
        # trick for less than the probes cost, 30 deals of each corpus: 0.9-6.4% fewer instructions without;
        # nor in the guessing search, whose small tables rarely cut: sauspiel 100 deals 1.2% fewer instructions,
        # sheepshead-jd and sheepshead-3 flat)
        if s.ntr == n - 1 and s.restrict_moves == MAXMOVES and ss_popcount(s.hand[seat]) > 3 \
                and etc_cutoff(s, seat, moves, nmoves, alpha, beta, maxing, &v):
            return v
    else:
        moves[0] = ss_ctz(legal)
        nmoves = 1
    best = -INF if maxing else INF
    save_card_state(s, seat, &cs)
    two = ss_popcount(cs.hand) == 2
    for k in range(nmoves):
        c = moves[k]
        play_saved(s, c, seat, &cs)
        if s.ntr == n:
            gain = close_trick(s, seat, &sv)
            v = gain + ab(s, alpha - gain, beta - gain)
            reopen_trick(s, &sv)
        else:
            v = ab_two(s, alpha, beta) if two else ab(s, alpha, beta)
        take_card_back(s, seat, &cs)
        if maxing:
            if v > best:
                best = v
                bestc = c
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        if k > 0:
                            note_killer(s, seat, c)
                        break
        else:
            if v < best:
                best = v
                bestc = c
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        if k > 0:
                            note_killer(s, seat, c)
                        break

    if s.ntr == 0:
        bests = slot_of(s, rem, bestc) if bestc >= 0 else -1
        if se != NULL:  # the slot of this position's shape (always replaced)
            se.k0 = sk0
            se.k1 = sk1
            se.rem = rem
            se.gen = <uint16_t>s.gen
            if best <= a0:
                se.lo = <uint8_t>lo_b
                se.hi = <uint8_t>(best if best < hi_b else hi_b)
            elif best >= b0:
                se.lo = <uint8_t>best
                se.hi = <uint8_t>hi_b
            else:
                se.lo = <uint8_t>best
                se.hi = <uint8_t>best
        if best <= a0:
            # fail low: an upper bound; the best card is only a guess, keep the stored one if any
            tt_store(s, k0, k1, lo_b, best if best < hi_b else hi_b, bests, 1)
        elif best >= b0:
            tt_store(s, k0, k1, best, hi_b, bests, 0)
        else:
            tt_store(s, k0, k1, best, best, bests, 0)
    return best
