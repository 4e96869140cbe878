# Move order: the mid-trick order ranked once per table load (follow scores), the lead order and the
# follow order (order_moves).

cdef inline int follow_score(int pts, int c, int wins, int ally_winning, int last) noexcept nogil:
    """The move-ordering score of card ``c`` (worth ``pts``) played mid-trick; ``wins``: it beats the card winning
    the trick so far, ``ally_winning``: the mover's side takes the trick if he does not beat it (see
    :func:`order_moves`), ``last``: the mover plays the trick's last card. Only used to build
    ``Tables.follow_rank``."""
    if ally_winning:
        # the trick is his side's whether the card beats it or not: richest first, a smear
        return 200 + pts * 8 - c
    if wins:
        if last:
            return 400 - c + pts      # last to play: win with the weakest card (nothing can overtake it)
        return 300 - c + pts          # win cheaply
    return 100 - pts * 8 - c          # cannot win: throw the least


cdef inline int follow_score_anti(int pts, int c, int wins, int other_winning, int last) noexcept nogil:
    """:func:`follow_score` where each side would rather the other took the points (``Tables.anti``; see
    :func:`follow_mode`); ``other_winning``: the other side wins the trick so far. Then the richest card that
    leaves the trick there comes first, and a card that takes it over last; when the mover's side wins it so
    far, the cheapest card first. Of equal points the stronger card first, which might take a later trick."""
    if other_winning:
        if wins:
            return 100 - pts * 8 + c
        return 300 + pts * 8 + c
    return 200 - pts * 8 + c


cdef inline int follow_rank_score(Tables* t, int x, int mode) noexcept nogil:
    """The score of pair ``x`` (card + 32 * whether it beats the trick) in row ``mode`` of
    ``Tables.follow_rank``: :func:`follow_score` in rows 0-3, :func:`follow_score_anti` in rows 4-7."""
    if mode >= 4:
        return follow_score_anti(t.pts[x & 31], x & 31, x >> 5, (mode >> 1) & 1, mode & 1)
    return follow_score(t.pts[x & 31], x & 31, x >> 5, mode >> 1, mode & 1)


cdef inline int anti_order(Search* s) noexcept nogil:
    """Whether the move order is the one for a game where each side would rather the other took the points
    (``Tables.anti``): not while the objective's side has taken no trick and taking none is worth something
    else (leaster: the players against the seat would rather hold it to no trick at all)."""
    return s.t.anti and (s.took or not s.t.use_took)


cdef inline int follow_mode(Search* s, int seat, int top, int overtaken, uint32_t* wins) noexcept nogil:
    """The row of ``Tables.follow_rank`` for ``seat`` to play mid-trick; ``wins`` gets the mover's cards counted
    as beating the trick. Rows 0-3: the trick goes to the side :func:`trick_side` names (its ``wins``). Rows 4-7,
    where each side would rather the other took the points (:func:`anti_order`): a player of the side not
    winning the trick so far beats it only if he must, so the trick stays with the side winning it so far."""
    cdef Tables* t = &s.t
    if anti_order(s):
        wins[0] = s.beats
        return 4 + (t.team[s.win_seat] != t.team[seat]) * 2 + (s.ntr == t.n - 1)
    return (trick_side(s, seat, top, overtaken, wins) == t.team[seat]) * 2 + (s.ntr == t.n - 1)


cdef void rank_follow(Tables* t) noexcept nogil:
    """Fill ``follow_rank``, ``follow_card`` and ``follow_boost``: for each row (see :func:`follow_rank_score`),
    the 64 pairs (card, beats the trick) sorted by ``score * 32 + card`` (the pairs of one card never meet in a
    search; they are kept in the order beats = 0, 1)."""
    cdef int mode, x, j, key[64], item[64], kx, kb, lo, mid
    for mode in range(8):
        for x in range(64):  # insertion sort, ascending
            kx = follow_rank_score(t, x, mode) * 32 + (x & 31)
            j = x
            while j > 0 and key[j - 1] > kx:
                key[j] = key[j - 1]
                item[j] = item[j - 1]
                j -= 1
            key[j] = kx
            item[j] = x
        for j in range(64):
            t.follow_rank[mode][item[j]] = <uint8_t>j
            t.follow_card[mode][j] = <uint8_t>(item[j] & 31)
        for x in range(64):
            kb = follow_rank_score(t, x, mode) + FOLLOW_KILLER_BONUS
            kb = kb * 32 + (x & 31)
            # the number of keys at most kb, by bisection of the sorted keys (cheaper than a walk, at every load)
            j = 0
            lo = 64
            while j < lo:
                mid = (j + lo) >> 1
                if key[mid] <= kb:
                    j = mid + 1
                else:
                    lo = mid
            t.follow_boost[mode][x] = <uint8_t>j


cdef inline int append_cards(uint32_t m, int* out, int k, int strongest_first) noexcept nogil:
    """Append the cards of ``m`` to ``out`` from place ``k`` on, weakest first or, with ``strongest_first``,
    strongest first; returns the new count. (Called with a constant ``strongest_first``: the test folds away.)"""
    cdef int c
    while m:
        if strongest_first:
            c = ss_msb(m)
            m &= ~(<uint32_t>1 << c)
        else:
            c = ss_ctz(m)
            m &= m - 1
        out[k] = c
        k += 1
    return k


cdef inline int take_first(uint32_t* m, int c, int* out, int k) noexcept nogil:
    """If card ``c`` (or -1: none) is in ``m``, append it to ``out`` at place ``k`` and take it out of ``m``;
    returns the new count."""
    if c >= 0 and (m[0] >> c) & 1:
        out[k] = c
        m[0] &= ~(<uint32_t>1 << c)
        return k + 1
    return k


cdef inline void to_front(int* out, int j) noexcept nogil:
    """Move ``out[j]`` to the front, the cards before it one place down (returns nothing)."""
    cdef int c = out[j]
    while j > 0:
        out[j] = out[j - 1]
        j -= 1
    out[0] = c


cdef inline uint32_t class_tops(Search* s, uint32_t m, uint32_t others) noexcept nogil:
    """The cards of ``m`` that no card of ``others`` of their class beats: the top cards of their classes among
    ``m`` and ``others``."""
    cdef uint32_t tops = 0, x = m
    cdef int c
    while x:
        c = ss_ctz(x)
        x &= x - 1
        if not (s.t.above[c] & others):
            tops |= <uint32_t>1 << c
    return tops


cdef int anti_leads(Search* s, int seat, uint32_t m, int* out, int k) noexcept nogil:
    """The leads ``m`` of the maximising side where each side would rather the other took the points (see
    :func:`lead_order`), after the first ``k`` of ``out``; returns their count. The cards another player holds a
    stronger card of their class to beat, weakest first, then the top cards of their classes (they surely take
    the trick), weakest first."""
    cdef uint32_t tops = class_tops(s, m, s.live & ~s.hand[seat])
    k = append_cards(m & ~tops, out, k, 0)
    return append_cards(tops, out, k, 0)


cdef inline uint32_t ruff_classes(Search* s, int seat, uint32_t* opp_cards) noexcept nogil:
    """The cards of the classes that an opponent of ``seat`` holding a trump holds no card of (he could ruff a
    lead of them; never the trump class); ``opp_cards`` gets the opponents' cards."""
    cdef Tables* t = &s.t
    cdef uint32_t ruff = 0, opc = 0, h
    cdef int j, q, cl
    for j in range(1, t.n):
        q = t.seat_at[seat + j]
        if t.team[q] != t.team[seat]:
            h = s.hand[q]
            opc |= h
            if h & t.trumps:
                for cl in range(t.nclasses):
                    if not (h & t.cmask[cl]):
                        ruff |= t.cmask[cl]
    opp_cards[0] = opc
    return ruff


cdef inline void sure_lead_first(Search* s, int seat, int* out, int k, uint32_t opc, uint32_t others) noexcept nogil:
    """*Fastest cut first* at a lead (returns nothing): the first of the ``k`` leads in ``out`` whose trick the
    leader's side surely takes moves to the front: the strongest card that can come after it and beat it (each
    other player's cards of its class, or lacking those his trumps) is a partner's, or there is none. Not a lead
    of a class no opponent holds a card of (``opc``: the opponents' cards): it takes no opponent's card. Against
    two or more players, the leader's top trump while he holds other trumps goes first only if no other lead is
    sure (``others``: the cards out in other hands): as the first lead tried it failed most often."""
    cdef Tables* t = &s.t
    cdef int j, c, q = -1  # q: the place of such a top trump passed over
    cdef uint32_t x
    for j in range(k):
        c = out[j]
        if not (opc & t.same_cls[c]):
            continue  # no opponent holds a card of its class
        x = cards_to_come(s, 1, t.same_cls[c]) & t.beat_lead[c]  # the leader is the mover
        if not x or t.team[s.owner[ss_msb(x)]] == t.team[seat]:
            if ((t.trumps >> c) & 1 and not (t.above[c] & others) and t.nside[1 - t.team[seat]] > 1
                    and (s.hand[seat] & t.trumps & ~(<uint32_t>1 << c))):
                if q < 0:
                    q = j
                continue
            to_front(out, j)
            return
    if q > 0:
        to_front(out, q)


cdef inline int lead_order(Search* s, int seat, uint32_t moves, int hint, int* out) noexcept nogil:
    """Fill ``out`` with the leads ``moves``, most promising first; returns their count.

    The table move, the killer lead, then (where each side would rather the other took the points, for the
    maximising side: :func:`anti_leads`) the top cards of their classes (sure winners of their class)
    strongest first, then the other plain cards and then the other trumps, strongest first (the trumps weakest
    first for a side of two or more players smaller than the other, a partner holding a trump), then the cards of
    the classes an opponent could ruff (:func:`ruff_classes`); the first of them whose trick the leader's side
    surely takes then moves to the front (:func:`sure_lead_first`)."""
    cdef Tables* t = &s.t
    cdef int k = 0
    cdef uint32_t m = moves, ruff, others, tops, trumps, opc
    k = take_first(&m, hint, out, k)
    k = take_first(&m, s.killer[ss_popcount(s.hand[seat])][seat] - 1, out, k)
    # where each side would rather the other took the points, the players against the seat solved for lead low
    if t.maximizing[seat] and anti_order(s):
        return anti_leads(s, seat, m, out, k)
    # leads an opponent could ruff go last (they rarely win); only the others count as top cards
    ruff = ruff_classes(s, seat, &opc) & m
    m &= ~ruff
    others = s.live & ~s.hand[seat]
    tops = class_tops(s, m, others)
    m &= ~tops
    k = append_cards(tops, out, k, 1)
    trumps = m & t.trumps
    k = append_cards(m & ~trumps, out, k, 1)  # plain, strongest first
    # the other trumps weakest first for the smaller side of two or more players with a partner holding a trump
    # (the sheepshead picker and partner): a low trump through to the partner, keeping the high ones
    if trumps and 1 < t.nside[t.team[seat]] < t.nside[1 - t.team[seat]] \
            and (others & t.trumps & (s.team_cards if t.team[seat] else ~s.team_cards)):
        k = append_cards(trumps, out, k, 0)
    else:
        k = append_cards(trumps, out, k, 1)
    k = append_cards(ruff, out, k, 1)  # the leads an opponent could ruff
    # a sure lead first, even before the table's card: its child is often decided at once by the bounds
    sure_lead_first(s, seat, out, k, opc, others)
    return k


cdef inline void settling_card_first(Search* s, int seat, int* out, int k, int top, int wteam) noexcept nogil:
    """*Fastest cut first* mid-trick, before the trick's last card (returns nothing): the first of the ``k`` cards
    in ``out`` that settles the trick for the mover's side moves to the front, since its child is often decided
    at once by :func:`decided_bounds` or :func:`top_bounds`. A card settles it if the strongest card that can
    still come after it and win it (``top``; ``wteam``: the side the trick goes to if the mover does not beat
    it) is a partner's, or there is none: a card that beats the trick, none that beats this card; one that does
    not, none that beats the card winning so far, which is then a partner's."""
    cdef int j, c
    for j in range(k):
        c = out[j]
        if (s.beats >> c) & 1:
            if top > c and (s.beats >> top) & 1 and wteam != s.t.team[seat]:
                continue  # an opponent's card still to come beats it
        elif wteam != s.t.team[seat]:
            continue
        to_front(out, j)
        return


cdef inline int follow_order(Search* s, int seat, uint32_t moves, uint32_t come, int* out) noexcept nogil:
    """Fill ``out`` with the cards ``moves`` to play to the trick, most promising first; returns their count.
    ``come``: the cards that may still come after the mover and win (:func:`cards_to_come` from the next place
    on), or NO_CARDS where the caller did not work them out.

    By :func:`follow_score`, ties to the stronger card, the follow killer's score raised by
    FOLLOW_KILLER_BONUS. The score depends on the card, whether it beats the trick so far, whether the mover's
    side takes the trick if he does not beat it (an ally winning it, or a partner after him holding the
    strongest card still to come) and whether the mover is last, so ``load_tables`` ranks the 64 (card, beats)
    pairs once for each of the four cases (:func:`rank_follow`): each move sets the bit of its rank in a 64-bit
    word and the moves come out strongest rank first, without comparing or sorting anything; the follow killer
    comes out above the ranks below its raised score (``follow_boost``). Before the trick's last card, the first
    card of that order that settles the trick for the mover's side then moves to the front
    (:func:`settling_card_first`)."""
    cdef int k, c, killer, mode, boost, j, top, wteam
    cdef Tables* t = &s.t
    cdef uint32_t m = moves, x, wins
    cdef uint64_t r = 0
    cdef uint8_t* rank
    cdef uint8_t* card
    # The side the trick goes to if the mover does not beat it: the side of the strongest card that can still
    # come after him and win (each later player's cards of the class led, or lacking those his trumps, as in
    # top_bounds), if it beats the card winning so far, else the side winning it now. When that is the mover's
    # side, the order is the one for an ally's trick (smear points on it), and a card of his that beats the
    # trick but not that partner's card counts as not beating it (it cannot keep the trick); so too when that
    # card is an opponent's overtaking an ally's.
    top = -1
    if s.ntr < t.n - 1:
        x = come if come != NO_CARDS else cards_to_come(s, s.ntr + 1, s.led)
        if x:
            top = ss_msb(x)
    mode = follow_mode(s, seat, top, 1, &wins)  # wins: the mover's cards counted as beating the trick
    wteam = t.team[seat] if mode & 2 else 1 - t.team[seat]  # the side the trick goes to (rows 0-3)
    rank = t.follow_rank[mode]
    card = t.follow_card[mode]
    # the follow killer: the last card that cut off in a like position (same tricks left, seat, class led and
    # place in the trick) moves up among cards of about the same score: a bonus, not the first place (the
    # cases above are better guides). It comes out just before the first card ranked at or above its boost rank.
    killer = s.follow_killer[ss_popcount(s.hand[seat])][seat][t.cls[ss_ctz(s.led)]][s.ntr] - 1
    boost = -1
    if killer >= 0 and (m >> killer) & 1:
        boost = t.follow_boost[mode][killer + 32 * ((wins >> killer) & 1)]
        m &= ~(<uint32_t>1 << killer)
    x = m & wins
    m &= ~x
    while x:
        c = ss_ctz(x)
        x &= x - 1
        r |= <uint64_t>1 << rank[c + 32]
    while m:
        c = ss_ctz(m)
        m &= m - 1
        r |= <uint64_t>1 << rank[c]
    k = ss_popcount(moves)
    c = k
    while r:  # lowest rank first, into the last place
        j = ss_ctz64(r)
        if boost >= 0 and j >= boost:
            c -= 1
            out[c] = killer
            boost = -1
        c -= 1
        out[c] = card[j]
        r &= r - 1
    if boost >= 0:
        out[0] = killer
    if s.ntr < t.n - 1 and mode < 4:
        # fastest cut first (after Furtak and Buro): the scores above prefer winning cheaply, which an opponent
        # after the mover may overtake (the last player's order already puts such a card first)
        settling_card_first(s, seat, out, k, top, wteam)
    return k


cdef inline int order_moves(Search* s, int seat, uint32_t moves, int hint, uint32_t come, int* out) noexcept nogil:
    """Fill ``out`` with the moves, most promising first; returns their count: :func:`lead_order` at a lead
    (``hint``: the table's best card, or -1), else :func:`follow_order` (``come``: see there)."""
    if s.ntr == 0:
        return lead_order(s, seat, moves, hint, out)
    return follow_order(s, seat, moves, come, out)
