# Moves: the legal cards (with the called-card rules), the cards that may still come to the trick, the side
# a card surely wins the trick for, and the cards not worth searching (equivalent and dominated cards).

cdef inline uint32_t legal_moves(Search* s, int seat) noexcept nogil:
    """The legal cards of ``seat`` to move. A lead: any card, but while the called card's rules apply the
    partner leads the called suit only with the called card unless he holds ``run_min`` cards of it (R3). A
    follow: the cards of the class led if he holds any (the partner must play the called card when its suit is
    led, R1); else any card, but the partner may not throw the called card off before his last card
    (``throw_off_last_only``, R2) and the picker may not throw off his last hold card; if those leave none, every
    card."""
    cdef uint32_t hand = s.hand[seat]
    cdef uint32_t cands, follow, suit, holds
    cdef Tables* t = &s.t
    cdef int restricted = s.open and t.called >= 0
    if s.ntr == 0:
        cands = hand
        if restricted and seat == t.partner and (hand & t.called_bit):
            suit = hand & t.cmask[t.called_cls]
            if ss_popcount(suit) < t.run_min:
                cands &= ~(suit & ~t.called_bit)
        return cands
    follow = hand & s.led
    if follow:
        if restricted and seat == t.partner and (s.led & hand & t.called_bit):
            return t.called_bit
        return follow
    cands = hand
    if restricted and ss_popcount(hand) > 1:
        if seat == t.partner and t.throw_off_last_only:
            cands &= ~t.called_bit
        if seat == t.hold_seat:
            holds = hand & t.cmask[t.called_cls]
            if ss_popcount(holds) == 1:
                cands &= ~holds
        if cands == 0:
            cands = hand
    return cands


cdef inline uint32_t drop_equivalent(Search* s, uint32_t moves) noexcept nogil:
    """Keep one card of each run of equivalent cards: same holder, same class, adjacent among the cards still
    out (the table included), same points. The strongest of the run is kept.

    A card goes if the next card out above it in its class is one of the moves it may be equivalent to
    (``eq_above``): one test instead of three, and the next card is only looked for when there is such a move."""
    cdef uint32_t live = s.live
    cdef uint32_t out = moves
    cdef uint32_t m = moves & s.t.has_eq
    cdef uint32_t eq
    cdef int c
    while m:
        c = ss_ctz(m)
        m &= m - 1
        eq = s.t.eq_above[c] & moves
        if eq and (eq >> ss_ctz(live & s.t.above[c])) & 1:
            out &= ~(<uint32_t>1 << c)
    return out


cdef inline uint32_t cards_to_come(Search* s, int frm, uint32_t led) noexcept nogil:
    """The cards that may still come to the trick and could win it when the class ``led`` is led: for each player
    from place ``frm`` of the trick on, his cards of that class or, lacking those, his trumps (a superset of the
    cards he may play that beat anything)."""
    cdef uint32_t x = 0, h, can
    cdef int j
    for j in range(frm, s.t.n):
        h = s.hand[s.t.seat_at[s.leader + j]]
        can = h & led
        x |= can if can else h & s.t.trumps
    return x


cdef inline int trick_side(Search* s, int seat, int top, int overtaken, uint32_t* wins) noexcept nogil:
    """Mid-trick, ``seat`` to play: the team the trick goes to if he does not beat it. That is the side of
    ``top``, the strongest card that can still come after him and win (:func:`cards_to_come`; -1 if none), when
    it beats the trick so far, else the side winning it now. ``wins`` gets the mover's cards counted as beating
    the trick: those below ``top`` do not count when ``top`` is a partner's (they cannot keep the trick), nor,
    with ``overtaken``, when it is an opponent's overtaking an ally's card."""
    cdef Tables* t = &s.t
    cdef int wteam = t.team[s.win_seat]
    wins[0] = s.beats
    if top >= 0 and (s.beats >> top) & 1:
        wteam = t.team[s.owner[top]]
        if wteam == t.team[seat] or (overtaken and t.team[s.win_seat] == t.team[seat]):
            wins[0] &= ~((<uint32_t>2 << top) - 1)
    return wteam


cdef inline int decided_winner(Search* s, int seat, int c) noexcept nogil:
    """``seat`` to play card ``c`` (to lead it, or to play it to the trick): the seat whose side surely wins the
    trick whatever is played after it (its card or the card winning so far, if no player of the other side still
    to play can beat that with a card it may play), or -1 if later cards can still change the side. A card of
    the same class adjacent to ``c`` among the cards out gets the same answer: no card out lies between them."""
    cdef Tables* t = &s.t
    cdef int p, q, w
    cdef uint32_t beaters, can, h, led = s.led
    if s.ntr == 0:
        w = seat
        beaters = t.beat_lead[c]  # stronger trumps, and stronger cards of the class led
        led = t.same_cls[c]
    elif (s.beats >> c) & 1:
        w = seat
        beaters = t.beat_lead[c]  # c would win the trick so far: the same cards beat it
    else:
        w = s.win_seat
        beaters = s.beats
    for p in range(s.ntr + 1, t.n):
        q = t.seat_at[s.leader + p]
        h = s.hand[q]
        can = h & led  # a player who can follow must (the legal cards are among these)
        if not can:
            can = h
        if (can & beaters) and t.team[q] != t.team[w]:
            return -1
    return w


cdef inline uint32_t drop_dominated(Search* s, int seat, uint32_t moves) noexcept nogil:
    """:func:`drop_equivalent`, and of two adjacent cards (same holder, same class, adjacent among the cards out,
    neither special) with other points, the one that cannot do better, once the side winning the trick is known
    whatever is played after this card (*point dominance*).

    Playing one card of such a pair and keeping the other, or the reverse, gives game trees that match card
    for card (the two change places; legal cards and trick winners depend on classes and order only), so every
    pair of matched lines has the same trick winners, and the values differ only by where the two cards' points
    go: the card played goes with this trick, the card kept goes with the trick it is played to later. If the
    objective's side wins this trick, putting the richer card in it gains for the objective's side at least what
    the kept card might have brought later, line for line; if the other side wins it, the poorer card is the
    objective's side's better choice. A maximiser keeps that card and a minimiser the other, and the card
    dropped is worth no more to its player than the one kept, whatever follows. Over a run of such cards each
    drop points to an adjacent card that is at least as good for the mover, never in a circle, so the best of
    the run is always kept. When tricks are counted, points never matter: such cards are equivalent.

    Mid-trick, "adjacent" looks through the cards on the table: they leave play with this trick, so two cards
    with only table cards between them are adjacent in every later position. In this trick they differ only
    if one beats the card winning so far and the other does not; when both or neither do, the trick's winner
    and the cards that beat the mover's card among those still in hands are the same, so the two trees still
    match card for card."""
    cdef Tables* t = &s.t
    cdef uint32_t live = s.live & ~s.ontable, out = moves, m = moves & ~t.special, dead, step, pairs
    cdef int c, d, w, keep_rich
    # The upper cards d of the pairs, all at once: from the place above each move, the next card out in its
    # class. Above a card out comes a run of cards not out (or none): adding the place to the run carries to
    # the first card after it, and no two moves start in one run. A class's weakest card stops the carry and
    # never counts (it has no card of its class below it); so does a place above a class's strongest card.
    dead = ~live & ~t.cls_low
    step = (m << 1) & ~t.cls_low
    pairs = ((step & live) | ((dead + (step & dead)) & ~dead)) & m & ~t.cls_low
    while pairs:
        d = ss_ctz(pairs)
        pairs &= pairs - 1
        c = ss_msb(live & ((<uint32_t>1 << d) - 1))  # the next card out below d: the move it pairs with
        if s.ntr and ((s.beats >> c) ^ (s.beats >> d)) & 1:
            continue  # a card on the table lies between them and one of them beats the trick so far, not the other
        if t.pts[c] == t.pts[d] or t.gain_tricks:
            out &= ~(<uint32_t>1 << c)  # equivalent (or only points differ and tricks count): keep the stronger
            continue
        w = decided_winner(s, seat, c)
        if w < 0:
            continue
        keep_rich = t.maximizing[seat] == t.team[w]
        if (t.pts[c] < t.pts[d]) == keep_rich:
            out &= ~(<uint32_t>1 << c)
        else:
            out &= ~(<uint32_t>1 << d)
    return out
