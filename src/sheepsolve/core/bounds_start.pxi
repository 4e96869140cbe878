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
    counts those with their own points. Out of line: inline in ab it cost more instructions (layout)."""
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
    card). A player void in the class led may play any trump: legal_moves only keeps the called ace (the partner,
    ``r2``) and the picker's last hold card, cards of the called class, never trumps, from him; so the partner may
    ruff. Then the leader's side takes the trick with at least the leader's card, the partner's cheapest trump
    above those trumps, and every other player's cheapest card of the class led or, lacking one, of his hand (a
    superset of what he may play, so the sum is never too high). With several such partners, the best bound.
    Kept out of line: written inline in sure_lead it cost instructions where no partner can ruff (solo, 40
    deals: 0.4% more; out of line 0.3% fewer, layout)."""
    cdef Tables* t = &s.t
    cdef int n = t.n, L = s.leader, p, i, seat, q, contrib, v, found = 0, best = 0
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
        v = sure_bound(s, mine, contrib, contrib, 1, tl)
        if not found or (v > best if mine else v < best):
            best = v
        found = 1
    bound[0] = best
    return found


cdef int lead_away(Search* s, uint32_t legal, int* bound) noexcept nogil:
    """Trick start where each side would rather the other took the points (``Tables.anti``) and the leader plays
    alone on his side, minimising: a lead that some other player must beat (every card he may play beats it)
    goes to the other side whatever happens after it, since only the leader's side could take it back. That
    trick holds the lead and each other player's cheapest card he may play; the value is at most what the other
    tricks can bring (:func:`sure_bound`). Returns 1 and the best such bound in ``bound``, or 0. Used where
    three or more tricks are left, as :func:`sure_lead`. 100 ramsch deals: 5.3% fewer nodes (the median 12%),
    100 leaster deals 3%."""
    cdef Tables* t = &s.t
    cdef int L = s.leader, p, q, c, tl, contrib, v, found = 0, best = 0, forced
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
            v = sure_bound(s, 0, contrib, contrib, 1, tl)
            if not found or v < best:
                best = v
            found = 1
    bound[0] = best
    return found


cdef inline int sure_lead(Search* s, uint32_t legal, int* bound) noexcept nogil:
    """Trick start: bounds from leads the other side cannot beat.

    A lead that no player of the other side can beat with a card it may play wins its trick for the leader's side,
    with at least the cheapest card each other player may add. So does a lead to a partner's top card: the leader
    leads a card of a class whose strongest card out a partner holds (not a special card, not the called class
    while its rules apply); the partner holds a card of the class led, so he may play the top card, and nothing
    beats it if no player of the other side may trump instead of following (in the trump class nothing can). That
    trick holds the leader's card (his richest of the class gives the best bound), the top card and each other
    player's cheapest card it may play. So does a lead a partner can ruff (:func:`lead_ruff`): the leader leads a
    card of a plain class (not a special card, not the called class while its rules apply); a partner holding no
    card of the class holds a trump (not a special card) above every trump of the other side's players who hold no
    card of the class either (those who do must follow, and any trump beats them); that trick holds the leader's
    richest card of the class, the partner's cheapest such trump and each other player's cheapest card it may
    play. Both only against two or more players (100 deals, ruff: sheepshead-jd 3.6%, sheepshead-called-ace 1.9%,
    sauspiel 2.4% fewer nodes). The leader may also cash several such tops, one per class, keeping the lead: sure
    while every player holding a trump holds a card of each of those classes (it must follow every time, so it can
    never trump), and each other player adds a card of the class led, or, lacking one, one of its cheapest cards.
    And the leader may cash his own run of top trumps, then, if that leaves no other player a trump, his runs of
    top cards in the plain classes.

    If the leader's side is the objective's side and maximises, the value is at least the points of those
    tricks; if it is the other side and minimises, the value is at most what the other tricks can bring.
    Returns 1 and the best such bound in ``bound``, or 0 if there is none."""
    cdef Tables* t = &s.t
    cdef int n = t.n, L = s.leader, p, seat, c, tl, contrib, v, found = 0, best = 0, k, changed, full, r, i
    cdef int mine = t.team[L]
    cdef uint32_t m, cls_mask, beaters, can, tops = 0, cash, h, run, ruffs
    if mine != t.maxer[L]:
        return 0
    tl = ss_popcount(s.hand[L])
    # his partners' cards, but not against a lone player (there the lead to a partner's top cut 0.2% of the
    # nodes, solo 100 deals, for 2% more instructions)
    h = 0
    if t.nside[1 - mine] > 1:
        h = s.live & ~s.hand[L] & ~t.special & (s.team_cards if mine else ~s.team_cards)
    ruffs = h & t.trumps  # the partners' trumps that may ruff
    m = legal
    while m:  # each class the leader may lead
        cls_mask = t.same_cls[ss_msb(m)]
        m &= ~cls_mask
        c = ss_msb(s.live & cls_mask)  # the top card of the class
        if (legal >> c) & 1:  # his own: he leads it
            tops |= <uint32_t>1 << c
            contrib = t.pts[c]
        elif (h >> c) & 1 and not (s.open and (cls_mask & t.called_bit)):  # a partner's: lead to it
            # (the loop below adds the partner's cheapest card of the class: the top card replaces it)
            contrib = t.pts[c] + max_pts(s, legal & cls_mask) - min_pts(s, s.hand[s.owner[c]] & cls_mask)
        else:
            if ruffs and lead_ruff(s, legal, cls_mask, ruffs, mine, tl, &v):
                if not found or (v > best if mine else v < best):
                    best = v
                found = 1
            continue
        beaters = t.trumps & ~((<uint32_t>2 << c) - 1) if c < 31 else 0
        for p in range(1, n):
            seat = t.seat_at[L + p]
            can = s.hand[seat] & cls_mask
            if not can:
                can = s.hand[seat]
            if t.team[seat] != mine and (can & beaters):
                break
            contrib += min_pts(s, can)
        else:
            v = sure_bound(s, mine, contrib, contrib, 1, tl)
            if not found or (v > best if mine else v < best):
                best = v
            found = 1
            continue
        if ruffs and lead_ruff(s, legal, cls_mask, ruffs, mine, tl, &v):
            if not found or (v > best if mine else v < best):
                best = v
            found = 1
    # The leader's own runs: his trumps above every other player's trump, led from the top, each win their
    # trick and keep the lead, and every other player must follow with a trump while he holds one. If that
    # leaves no other player a trump, the leader's runs of top cards in the plain classes win too (not in the
    # called class while its rules apply, nor with a special card). Each other player adds his cheapest trumps
    # (all of them, when none are left) and then his cheapest other cards.
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
    if k >= 2:
        contrib = pts_of(t, run)
        for p in range(1, n):
            h = s.hand[t.seat_at[L + p]]
            can = h & t.trumps
            i = ss_popcount(can)
            if i > r:
                i = r  # the trumps he must play
            contrib += low_sum(s, can, i) + low_sum(s, h & ~t.trumps, k - i)
        v = sure_bound(s, mine, contrib, contrib, k, tl)
        if not found or (v > best if mine else v < best):
            best = v
        found = 1
    # cash several tops in a row
    cash = tops
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
    if k >= 2:
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
        v = sure_bound(s, mine, contrib, contrib, k, tl)
        if not found or (v > best if mine else v < best):
            best = v
        found = 1
    bound[0] = best
    return found
