# Mid-trick bounds: the trick's side is known (decided_bounds), its side can hold it with the top card
# still to come (top_bounds), or, where each side would rather the other took the points, the side that wants
# the trick can leave it where it is (refrain_bounds).

cdef int richest_called(Search* s, int q) noexcept nogil:
    """:func:`richest_play` while the called card's rules apply: the most points among ``q``'s legal cards
    (mid-trick: :func:`legal_moves` follows the trick led)."""
    return max_pts(s, legal_moves(s, q))


ctypedef int (*richest_fn_t)(Search* s, int q) noexcept nogil
cdef richest_fn_t richest_called_fn = richest_called  # out of ab (through a pointer), which it made too big to
                                                      # keep its helpers inline


cdef inline int richest_play(Search* s, int q) noexcept nogil:
    """The most points among the cards seat ``q``, still to play to the trick, may play to it: among his cards
    of the class led, or lacking those his whole hand; while the called card's rules apply, its partner and the
    seat the hold rule binds see them (:func:`richest_called`)."""
    cdef uint32_t h, can
    if s.open and s.t.called >= 0 and (q == s.t.partner or q == s.t.hold_seat):
        return richest_called_fn(s, q)
    h = s.hand[q]
    can = h & s.led
    return max_pts(s, can if can else h)


cdef inline int decided_bounds(Search* s, int seat, int* lo, int* hi) noexcept nogil:
    """Mid-trick (``seat`` to move): if no player of the other side still to play can beat the card winning the
    trick with a card it may play, the side winning it is known, and each player still to play adds at least
    its cheapest card it may play. Sets bounds on the future value (from the start of the trick) and returns 1;
    returns 0 if the trick is still open.

    One walk over the players still to play, summing the cheapest cards as it goes (cheaper than a second walk
    once the trick is known to be decided)."""
    cdef Tables* t = &s.t
    cdef int p, q, contrib = 0
    cdef uint32_t beaters = s.beats, led = s.led, h, can
    cdef uint32_t mono_led = led & t.mono  # the class led has its cheapest cards weakest: no walk over levels
    cdef int wteam = t.team[s.win_seat]
    for p in range(s.ntr, t.n):
        q = t.seat_at[s.leader + p]
        h = s.hand[q]
        can = h & led  # a player who can follow must (the legal cards are among these)
        if can:
            if (can & beaters) and t.team[q] != wteam:
                return 0
            contrib += t.pts[ss_ctz(can)] if mono_led else min_pts(s, can)
        else:
            if (h & beaters) and t.team[q] != wteam:
                return 0
            contrib += min_pts(s, h)
    return trick_bounds(s, seat, wteam, contrib, lo, hi)


cdef inline int top_bounds(Search* s, int seat, int* lo, int* hi, uint32_t* come) noexcept nogil:
    """Mid-trick (``seat`` to move), when :func:`decided_bounds` finds the trick still open: of the cards that
    could still come and win (each player still to play: his cards of the class led if he holds any, for he
    must follow, else his trumps), the strongest beats the trick so far and nothing that can still come beats
    it, and its holder may play it. So his side can take the trick, with that card, the richest card each of
    his partners still to play may play (:func:`richest_play`) and each other player's cheapest card it may
    play: bounds on the future value (from the start of the trick) as :func:`decided_bounds` sets them; returns
    1, else 0. His side can hold to that play whatever the other side does (no card of a partner's beats the
    top card's side out of the trick), and the tricks after it bring it no less than nothing, so the value is at
    least that trick's gain when it is the objective's side, and at most the points left but those when it is
    the other (each side maximises what it takes: ``Tables.sided``). The partners' richest cards rather than
    their cheapest: a tighter bound, still sure since his side chooses them. Only called when taking a trick is what
    each side wants (``Tables.sided``: not in ramsch or leaster, where the trick is a choice, not a gain); not
    with the called class led while its rules apply, nor for a special card.

    This covers what decided_bounds leaves open: the side not winning the trick so far still holds the card
    that takes it. ``come`` gets those cards
    (:func:`cards_to_come` from the mover on), for :func:`order_moves`."""
    cdef Tables* t = &s.t
    cdef uint32_t cards = 0, h, can
    cdef int a, q, q2, p, contrib
    cards = cards_to_come(s, s.ntr, s.led)
    come[0] = cards
    if not cards:
        return 0
    a = ss_msb(cards)
    q = s.owner[a]
    if not (s.beats >> a) & 1:  # (never after decided_bounds: a card beating the trick is still to come)
        return 0
    if (t.special >> a) & 1 or (s.open and (s.led & t.called_bit)):
        return 0
    contrib = t.pts[a]
    for p in range(s.ntr, t.n):
        q2 = t.seat_at[s.leader + p]
        if q2 != q:
            if t.team[q2] == t.team[q]:
                contrib += richest_play(s, q2)
            else:
                h = s.hand[q2]
                can = h & s.led
                contrib += min_pts(s, can if can else h)
    return trick_bounds(s, seat, t.team[q], contrib, lo, hi)


cdef inline int refrain_bounds(Search* s, int seat, int* lo, int* hi) noexcept nogil:
    """Mid-trick (``seat`` to move), where each side would rather the other took the points (``Tables.anti``:
    ramsch, leaster), when :func:`decided_bounds` finds the trick still open: if each player still to play of
    the side not winning the trick so far may play a card that does not beat the card winning it, that side
    can leave the trick to the winning side, its players adding their richest such cards; each player of the
    winning side adds at least his cheapest card he may play, and a stronger card of his only keeps the trick
    on that side. The side that can leave the trick so is the one that wants it taken: the maximising side when
    the objective's side wins it, else the minimising side. So the bounds :func:`trick_bounds` gives for that
    trick (as :func:`decided_bounds` sets them) hold whatever the other side does; returns 1, else 0. (In a game
    where a trick is a gain, the side leaving it would be the one bound by them, and they would not hold.)
    Not while the called card's rules apply."""
    cdef Tables* t = &s.t
    cdef int p, q, contrib = 0
    cdef int wteam = t.team[s.win_seat]
    cdef uint32_t h, can, keep
    if s.open and t.called >= 0:
        return 0
    for p in range(s.ntr, t.n):
        q = t.seat_at[s.leader + p]
        h = s.hand[q]
        can = h & s.led
        if not can:
            can = h
        if t.team[q] == wteam:
            contrib += min_pts(s, can)
        else:
            keep = can & ~s.beats
            if not keep:
                return 0
            contrib += max_pts(s, keep)
    return trick_bounds(s, seat, wteam, contrib, lo, hi)


cdef inline int mid_trick_bounds(Search* s, int seat, int* lo, int* hi, uint32_t* come) noexcept nogil:
    """Mid-trick (``seat`` to move): the first of the mid-trick bounds that applies: the trick's side is known
    (:func:`decided_bounds`), it can hold the trick with the top card still to come where a trick is a gain
    (:func:`top_bounds`, which also fills ``come``), or the side that wants the trick can leave it where it is
    where each side would rather the other took the points (:func:`refrain_bounds`). Returns 1 with the bounds
    in ``lo``/``hi``, else 0."""
    return decided_bounds(s, seat, lo, hi) or (s.t.sided and top_bounds(s, seat, lo, hi, come)) \
        or (s.t.anti and refrain_bounds(s, seat, lo, hi))
