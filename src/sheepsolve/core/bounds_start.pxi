# Trick-start bounds: sure top trumps (sure_points), one hand's trumps against the other side's
# (trump_points), sure leads (sure_lead, lead_ruff) and, in ramsch and leaster, leads that go away (lead_away).

cdef inline int sure_points(Search* s, uint32_t rem) noexcept nogil:
    """Points sure to go to one side, positive for the objective's side, negative for the others: the unbroken
    run of top trumps held by one side, and the cheapest cards the other side must add to those tricks.

    Each of those trumps wins the trick it is played to, or its trick goes to a stronger card of the same side;
    a player holding k of them plays them to k different tricks, and each player of the other side adds a card
    to each of those tricks."""
    cdef Tables* t = &s.t
    cdef uint32_t tr = rem & t.trumps
    cdef int side, total = 0, p, k, m = 0
    cdef uint32_t run, x
    if not tr:
        return 0
    side = (s.team_cards >> ss_msb(tr)) & 1
    x = tr & (~s.team_cards if side else s.team_cards)  # the trumps of the other side
    run = tr & ~((<uint32_t>2 << ss_msb(x)) - 1) if x else tr  # those above its strongest one
    if not (run & (run - 1)):  # a single trump (the common case): one card, each player of the other side adds one
        total = t.pts[ss_ctz(run)]
        for p in range(t.nside[1 - side]):
            total += min_pts(s, s.hand[t.side_seats[1 - side][p]])
        return total if side else -total
    total = pts_of(t, run)
    for p in range(t.nside[side]):
        k = ss_popcount(s.hand[t.side_seats[side][p]] & run)
        if k > m:
            m = k
    for p in range(t.nside[1 - side]):
        total += low_sum(s, s.hand[t.side_seats[1 - side][p]], m)
    return total if side else -total


cdef int trump_points(Search* s) noexcept nogil:
    """Trick start: points sure to go to the objective's side by its trumps when one of its players holds them all
    and trumps of the other side lie between them, beyond what :func:`sure_points` counts; else 0.

    Each of his trumps wins the trick it is played to unless a stronger trump of the other side lies in that
    trick. He plays them to as many tricks, and each trump of the other side lies in one trick only, so at most
    as many of his trumps lose as can be matched each with a stronger trump of the other side (a maximum
    matching, taken greedily from the top: the sets of stronger trumps grow as his trumps get weaker). The
    ``k`` others win their tricks: his ``k`` cheapest trumps and each other player's ``k`` cheapest cards at
    least (the other side's players add one card to each of those tricks). His trumps above every trump of the
    other side never lose: only when ``k`` exceeds their number does this count more than sure_points, which
    counts those with their own points."""
    cdef Tables* t = &s.t
    cdef uint32_t mine = s.live & t.trumps & s.team_cards, opp = s.live & t.trumps & ~s.team_cards, x
    cdef int k, lost = 0, c, p, v
    if not mine or not opp or (mine & ~s.hand[s.owner[ss_msb(mine)]]):
        return 0
    x = mine & ((<uint32_t>2 << ss_msb(opp)) - 1)  # his trumps below the other side's strongest
    k = ss_popcount(x)
    while x:
        c = ss_msb(x)
        x &= ~(<uint32_t>1 << c)
        if ss_popcount(opp >> c) > lost:  # a trump of the other side above c not matched yet
            lost += 1
    if k <= lost:
        return 0
    k = ss_popcount(mine) - lost
    v = low_sum(s, mine, k)
    for p in range(t.nside[0]):
        v += low_sum(s, s.hand[t.side_seats[0][p]], k)
    return v


cdef int lead_ruff(Search* s, uint32_t legal, uint32_t cls_mask, uint32_t ruffs, int mine, int tl,
                   int* bound) noexcept nogil:
    """For :func:`sure_lead`: a lead of the class ``cls_mask`` that a partner can ruff (``ruffs``: the leader's
    partners' trumps that are not special cards, never empty). Returns 1 and the bound in ``bound``, else 0.

    A plain class (not the called class while its rules apply), led with the leader's richest card of it that is
    not special; a partner holding no card of the class and a trump above every trump of the other side's players
    who hold no card of the class either (those who hold one must follow with it, and any trump beats every plain
    card). A player void in the class led may play any trump: legal_moves only keeps the called ace (the
    partner, ``throw_off_last_only``) and the picker's last hold card, cards of the called class, never trumps,
    from him; so the partner may ruff. Then the leader's side takes the trick with at least the leader's card, the partner's cheapest trump
    above those trumps, and every other player's cheapest card of the class led or, lacking one, of his hand (a
    superset of what he may play, so the sum is never too high). With several such partners, the best bound."""
    cdef Tables* t = &s.t
    cdef int n = t.n, L = s.leader, p, i, seat, q, contrib, found = 0, best = 0
    cdef uint32_t lead, opp = 0, ruff, can
    if (cls_mask & t.trumps) or (s.open and (cls_mask & t.called_bit)):
        return 0
    lead = legal & cls_mask & ~t.special
    if not lead:
        return 0
    for p in range(1, n):  # the trumps the other side may play to the trick
        seat = t.seat_at[L + p]
        if t.team[seat] != mine and not (s.hand[seat] & cls_mask):
            opp |= s.hand[seat] & t.trumps
    for p in range(1, n):
        q = t.seat_at[L + p]
        if t.team[q] != mine or (s.hand[q] & cls_mask):
            continue
        ruff = s.hand[q] & ruffs
        if opp:
            ruff &= ~((<uint32_t>2 << ss_msb(opp)) - 1)
        if not ruff:
            continue
        contrib = max_pts(s, lead) + min_pts(s, ruff)
        for i in range(1, n):
            seat = t.seat_at[L + i]
            if seat != q:
                can = s.hand[seat] & cls_mask
                contrib += min_pts(s, can if can else s.hand[seat])
        keep_better(&found, &best, sure_bound(s, mine, contrib, contrib, 1, tl), mine)
    bound[0] = best
    return found


cdef int lead_away(Search* s, uint32_t legal, int* bound) noexcept nogil:
    """Trick start where each side would rather the other took the points (``Tables.anti``) and the leader plays
    alone on his side, minimising: a lead that some other player must beat (every card he may play beats it)
    goes to the other side whatever happens after it, since only the leader's side could take it back. That
    trick holds the lead and each other player's cheapest card he may play; the value is at most what the other
    tricks can bring (:func:`sure_bound`). Returns 1 and the best such bound in ``bound``, or 0. Used where
    three or more tricks are left, as :func:`sure_lead`."""
    cdef Tables* t = &s.t
    cdef int L = s.leader, p, q, c, tl, contrib, found = 0, best = 0, forced
    cdef uint32_t m = legal & ~t.special, cls, can, h
    if s.open and t.called >= 0:
        return 0
    tl = ss_popcount(s.hand[L])
    while m:
        c = ss_msb(m)
        m &= ~(<uint32_t>1 << c)
        cls = t.same_cls[c]
        contrib = t.pts[c]
        forced = 0
        for p in range(1, t.n):
            q = t.seat_at[L + p]
            h = s.hand[q]
            can = h & cls
            if not can:
                can = h
            if not (can & ~t.beat_lead[c]):
                forced = 1
            contrib += min_pts(s, can)
        if forced:
            keep_better(&found, &best, sure_bound(s, 0, contrib, contrib, 1, tl), 0)
    bound[0] = best
    return found


cdef inline int top_card_lead(Search* s, uint32_t legal, uint32_t cls_mask, uint32_t partners, int mine, int tl,
                              uint32_t* tops, int* bound) noexcept nogil:
    """For :func:`sure_lead`: a lead of the class ``cls_mask`` that wins its trick for the leader's side because
    the class's top card is the leader's own (he leads it; it is added to ``tops``) or a partner's (``partners``:
    the partners' cards that count, empty against a lone player), and no player of the other side may beat it.
    Returns 1 and the bound in ``bound``, else 0.

    Sound: the leader's own top card wins unless a player of the other side may trump instead of following (in
    the trump class nothing can). A partner holding the top card holds a card of the class led, so he may play
    it (not a special card, not the called class while its rules apply), and it wins likewise. That trick holds
    the leader's card (his richest of the class when leading to the partner), the top card and every other
    player's cheapest card of the class led or, lacking one, of his hand: a superset of what he may play, so the
    sum never exceeds what the trick surely holds (:func:`sure_bound` of one trick)."""
    cdef Tables* t = &s.t
    cdef int p, seat, c, contrib
    cdef uint32_t beaters, can
    c = ss_msb(s.live & cls_mask)  # the top card of the class
    if (legal >> c) & 1:  # his own: he leads it
        tops[0] |= <uint32_t>1 << c
        contrib = t.pts[c]
    elif (partners >> c) & 1 and not (s.open and (cls_mask & t.called_bit)):  # a partner's: lead to it
        # (the loop below adds the partner's cheapest card of the class: the top card replaces it)
        contrib = t.pts[c] + max_pts(s, legal & cls_mask) - min_pts(s, s.hand[s.owner[c]] & cls_mask)
    else:
        return 0
    beaters = t.trumps & ~((<uint32_t>2 << c) - 1) if c < 31 else 0
    for p in range(1, t.n):
        seat = t.seat_at[s.leader + p]
        can = s.hand[seat] & cls_mask
        if not can:
            can = s.hand[seat]
        if t.team[seat] != mine and (can & beaters):
            return 0
        contrib += min_pts(s, can)
    bound[0] = sure_bound(s, mine, contrib, contrib, 1, tl)
    return 1


cdef inline int top_run_lead(Search* s, int mine, int tl, int* bound) noexcept nogil:
    """For :func:`sure_lead`: the leader cashes his own run of top trumps, then, if that leaves no other player a
    trump, his runs of top cards in the plain classes (not the called class while its rules apply, nor a run
    holding a special card). Returns 1 and the bound in ``bound`` when that makes two or more tricks, else 0.

    Sound: his trumps above every other player's trump, led from the top, each win their trick and keep the
    lead, and every other player must follow with a trump while he holds one; once no other player holds a
    trump, a top card of a plain class wins likewise. Each other player adds his cheapest trumps (as many as he
    must play, all of them when he holds no more than the run) and then his cheapest other cards: no more than
    the cards he surely adds to those tricks."""
    cdef Tables* t = &s.t
    cdef int n = t.n, L = s.leader, p, k, full, r, i, contrib
    cdef uint32_t h, m, run, cls_mask, can
    h = s.hand[L] & t.trumps
    m = s.live & t.trumps & ~h  # the other players' trumps
    run = h & ~((<uint32_t>2 << ss_msb(m)) - 1) if m else h
    r = ss_popcount(run)
    full = 1 if r or not m else 0
    for p in range(1, n if full else 1):
        if ss_popcount(s.hand[t.seat_at[L + p]] & t.trumps) > r:
            full = 0
            break
    k = r
    if full:
        for i in range(t.nclasses):
            cls_mask = t.cmask[i]
            if cls_mask & t.trumps or (s.open and t.called >= 0 and i == t.called_cls):
                continue
            h = s.hand[L] & cls_mask
            m = s.live & cls_mask & ~h
            h &= ~((<uint32_t>2 << ss_msb(m)) - 1) if m else h
            if not (h & t.special):
                run |= h
        k = ss_popcount(run)
    if k < 2:
        return 0
    contrib = pts_of(t, run)
    for p in range(1, n):
        h = s.hand[t.seat_at[L + p]]
        can = h & t.trumps
        i = ss_popcount(can)
        if i > r:
            i = r  # the trumps he must play
        contrib += low_sum(s, can, i) + low_sum(s, h & ~t.trumps, k - i)
    bound[0] = sure_bound(s, mine, contrib, contrib, k, tl)
    return 1


cdef inline int cash_tops_lead(Search* s, uint32_t tops, int mine, int tl, int* bound) noexcept nogil:
    """For :func:`sure_lead`: the leader cashes several of his top cards ``tops`` (one per class, each the top of
    its class) in a row, keeping the lead. Returns 1 and the bound in ``bound`` when two or more remain sure,
    else 0.

    Sound: a top card is sure while every player holding a trump holds a card of its class, since he must follow
    every time and so can never trump; the tops of classes some trump holder is void in are dropped until none
    is. Each other player adds his cheapest card of each class led or, lacking one in any of them, his ``k``
    cheapest cards: no more than he surely adds."""
    cdef Tables* t = &s.t
    cdef int n = t.n, L = s.leader, p, c, k, changed, full, v, contrib
    cdef uint32_t cash = tops, h, m, can
    changed = 1
    while changed and ss_popcount(cash) >= 2:
        changed = 0
        for p in range(1, n):
            h = s.hand[t.seat_at[L + p]]
            if not (h & t.trumps):
                continue
            m = cash
            while m:
                c = ss_ctz(m)
                m &= m - 1
                if not (h & t.cmask[t.cls[c]]):
                    cash &= ~(<uint32_t>1 << c)
                    changed = 1
    k = ss_popcount(cash)
    if k < 2:
        return 0
    contrib = pts_of(t, cash)
    for p in range(1, n):
        h = s.hand[t.seat_at[L + p]]
        full = 1
        v = 0
        m = cash
        while m:
            c = ss_ctz(m)
            m &= m - 1
            can = h & t.cmask[t.cls[c]]
            if not can:
                full = 0
                break
            v += min_pts(s, can)
        contrib += v if full else low_sum(s, h, k)
    bound[0] = sure_bound(s, mine, contrib, contrib, k, tl)
    return 1


cdef inline int sure_lead(Search* s, uint32_t legal, int* bound) noexcept nogil:
    """Trick start: the best bound from leads the other side cannot beat, where the leader's side is the side
    its objective makes it (it maximises if it is the objective's side, else minimises). Returns 1 and the bound
    in ``bound``, or 0 if there is none. The named bounds, each sure whatever the other side does:

    - :func:`top_card_lead`: a lead to the top card of its class, the leader's own or a partner's;
    - :func:`lead_ruff`: a lead a partner can ruff above the other side's trumps;
    - :func:`top_run_lead`: the leader's own run of top trumps, then his plain top runs;
    - :func:`cash_tops_lead`: several of his top cards cashed in a row.

    The partners' cards count only against two or more players. If the leader's side is the objective's side,
    the value is at least the points of those tricks; if it is the other side, at most what the other tricks
    can bring (:func:`sure_bound`)."""
    cdef Tables* t = &s.t
    cdef int L = s.leader, tl, v, found = 0, best = 0
    cdef int mine = t.team[L]
    cdef uint32_t m, cls_mask, tops = 0, partners, ruffs
    if mine != t.maximizing[L]:
        return 0
    tl = ss_popcount(s.hand[L])
    # his partners' cards, but not against a lone player (cost more instructions than it saved there)
    partners = 0
    if t.nside[1 - mine] > 1:
        partners = s.live & ~s.hand[L] & ~t.special & (s.team_cards if mine else ~s.team_cards)
    ruffs = partners & t.trumps  # the partners' trumps that may ruff
    m = legal
    while m:  # each class the leader may lead
        cls_mask = t.same_cls[ss_msb(m)]
        m &= ~cls_mask
        if top_card_lead(s, legal, cls_mask, partners, mine, tl, &tops, &v) \
                or (ruffs and lead_ruff(s, legal, cls_mask, ruffs, mine, tl, &v)):
            keep_better(&found, &best, v, mine)
    if top_run_lead(s, mine, tl, &v):
        keep_better(&found, &best, v, mine)
    if cash_tops_lead(s, tops, mine, tl, &v):
        keep_better(&found, &best, v, mine)
    bound[0] = best
    return found


cdef inline int start_bounds(Search* s, int tricks_left, int alpha, int beta, int* lo, int* hi,
                             int* v) noexcept nogil:
    """The first trick-start bounds, before the table probe (``tricks_left`` counts the trick to come): at most
    every point and trick left, at least the end value; with points, the top trumps one side surely takes
    (:func:`sure_points`). Sets ``lo``/``hi``; returns 1 with the result in ``v`` if they decide the search
    with window (``alpha``, ``beta``) (:func:`window_cut`), else 0. Sound: every trick left could go to the
    objective's side, or none."""
    cdef Tables* t = &s.t
    cdef int sure
    hi[0] = sure_bound(s, 0, 0, 0, 0, tricks_left)  # every trick left could go to the objective's side
    if t.use_took and not s.took:
        lo[0] = t.end_value[0] if t.end_value[0] < t.end_value[1] else t.end_value[1]
    else:
        lo[0] = t.end_value[s.took]
    if not t.gain_tricks and (s.took or not t.use_took):
        # Top trumps held by one side are sure to win their tricks: their points go to that side.
        sure = sure_points(s, s.live)
        if sure > 0:
            lo[0] += sure
        else:
            hi[0] += sure
    return window_cut(lo[0], hi[0], alpha, beta, v)


cdef inline int lead_bounds(Search* s, int seat, int maxing, int tricks_left, uint32_t legal, int alpha, int beta,
                            int* lo, int* hi, int* v) noexcept nogil:
    """The trick-start bounds after the table probe, from the hands and the leads ``legal`` of ``seat``, where
    three or more tricks are left (with two, ab_two finds the value for less): where the minimising side leads,
    the objective's side's trumps in one hand (:func:`trump_points`; a null-window search fails high there only
    after every lead); where a lone seat minimises in ramsch or leaster, leads that go away (:func:`lead_away`);
    else sure leads (:func:`sure_lead`). Narrows ``lo``/``hi``; returns 1 with the result in ``v`` if a bound
    decides the search with window (``alpha``, ``beta``), else 0."""
    cdef Tables* t = &s.t
    cdef int b
    if tricks_left <= 2:
        return 0
    if not maxing and not t.gain_tricks and (s.took or not t.use_took):
        b = t.end_value[s.took] + trump_points(s)
        if b >= beta:
            v[0] = b
            return 1
        if b > lo[0]:
            lo[0] = b
    if t.anti and not maxing and t.nside[t.team[seat]] == 1 and lead_away(s, legal, &b):
        if b < hi[0]:
            hi[0] = b
        if hi[0] <= alpha:
            v[0] = hi[0]
            return 1
    elif sure_lead(s, legal, &b):
        if maxing and b > lo[0]:
            lo[0] = b
        elif not maxing and b < hi[0]:
            hi[0] = b
        if lo[0] >= beta:
            v[0] = lo[0]
            return 1
        if hi[0] <= alpha:
            v[0] = hi[0]
            return 1
    return 0
