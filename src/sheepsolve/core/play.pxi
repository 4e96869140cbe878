# Playing cards: make and unmake a card, close and reopen a trick, what a trick brings, and the last trick
# played out directly.

cdef inline void save_card_state(Search* s, int seat, CardSave* cs) noexcept nogil:
    """Save what playing a card of ``seat`` changes (returns nothing): once per node, before its first card, so
    that :func:`make_card` and :func:`unmake_card` are stores only."""
    cs.hand = s.hand[seat]
    cs.ntr = s.ntr
    cs.ontable = s.ontable
    cs.beats = s.beats
    cs.win_seat = s.win_seat
    cs.trick_pts = s.trick_pts
    cs.hand_pts = s.hand_pts


cdef inline void note_winner(Search* s, int c, int seat, int place, uint32_t beats) noexcept nogil:
    """``seat`` played card ``c`` as the trick's card number ``place`` (0: the lead), the cards ``beats`` beating
    the trick before it (returns nothing): keep the seat winning the trick so far and the cards that would beat
    its card (trumps and cards of the class led stronger than it), so the search never looks the class led up
    again."""
    if place == 0:
        s.led = s.t.same_cls[c]
        s.beats = s.t.beat_lead[c]
        s.win_seat = seat
    elif (beats >> c) & 1:
        s.beats = beats & ~((<uint32_t>2 << c) - 1)  # 0 for the top card (the shift wraps to 0)
        s.win_seat = seat


cdef inline void make_card(Search* s, int c, int seat, CardSave* cs) noexcept nogil:
    """Play card ``c`` of ``seat`` to the trick at a node that saved its state in ``cs`` (returns nothing): the
    new values come from the saved ones, stores only. :func:`unmake_card` takes it back; a card that completes
    the trick is then closed with :func:`close_trick`."""
    cdef uint32_t bit = <uint32_t>1 << c
    s.hand[seat] = cs.hand & ~bit
    s.ontable = cs.ontable | bit
    s.trick_pts = cs.trick_pts + s.t.pts[c]
    s.hand_pts = cs.hand_pts - s.t.pts[c]
    s.ntr = cs.ntr + 1
    note_winner(s, c, seat, cs.ntr, cs.beats)


cdef inline void unmake_card(Search* s, int seat, CardSave* cs) noexcept nogil:
    """Take back the card :func:`make_card` played (returns nothing) by storing the saved values: stores only,
    no read-modify-write. The class led (``led``) is left as it is: it is set again by the next lead."""
    s.ntr = cs.ntr
    s.hand[seat] = cs.hand
    s.ontable = cs.ontable
    s.trick_pts = cs.trick_pts
    s.hand_pts = cs.hand_pts
    s.beats = cs.beats
    s.win_seat = cs.win_seat


cdef inline int trick_gain(Tables* t, int winseat, int pts, int tricks_left) noexcept nogil:
    """What a finished trick worth ``pts`` card points brings the objective's side (``tricks_left`` counts it)."""
    if not t.team[winseat]:
        return 0
    return 1 if t.gain_tricks else pts + t.bonus_left[tricks_left]


cdef inline int close_trick(Search* s, int seat, TrickSave* sv) noexcept nogil:
    """The trick is complete (``seat`` played its last card): score it for the objective's side, hand the lead
    to its winner and clear the table. Returns the gain; :func:`reopen_trick` undoes it."""
    cdef Tables* t = &s.t
    cdef int winseat = s.win_seat
    cdef int gain = trick_gain(t, winseat, s.trick_pts, ss_popcount(s.hand[seat]) + 1)
    sv.leader = s.leader
    sv.led = s.led
    sv.open = s.open
    sv.took = s.took
    sv.pts = s.trick_pts
    sv.ontable = s.ontable
    if not SS_BMI2:
        sv.key0 = s.key0
        sv.key1 = s.key1
        sv.keyed = s.keyed
        sv.shape0 = s.shape0
        sv.shape1 = s.shape1
        sv.shaped = s.shaped
    if s.open and (s.led & t.called_bit):  # the called suit was led
        s.open = 0
    if t.team[winseat]:
        s.took = s.took | t.use_took
    s.leader = winseat
    s.ntr = 0
    s.live &= ~s.ontable
    s.ontable = 0
    s.trick_pts = 0
    return gain


cdef inline void reopen_trick(Search* s, TrickSave* sv) noexcept nogil:
    """Undo :func:`close_trick` (returns nothing): the trick's cards back on the table, the leader, the flags and
    (without BMI2) the kept key words as ``sv`` saved them."""
    cdef int n = s.t.n
    s.ntr = n
    if not SS_BMI2:
        s.key0 = sv.key0
        s.key1 = sv.key1
        s.keyed = sv.keyed
        s.shape0 = sv.shape0
        s.shape1 = sv.shape1
        s.shaped = sv.shaped
    s.ontable = sv.ontable
    s.live |= sv.ontable
    s.trick_pts = sv.pts
    s.leader = sv.leader
    s.led = sv.led
    s.open = sv.open
    s.took = sv.took


cdef inline int final_trick(Search* s, uint32_t cards, int lead, int pts, int took) noexcept nogil:
    """The value of the last trick, forced, and the end of the hand: ``cards`` are its cards (one per hand),
    ``lead`` the card led, ``pts`` their points, ``took`` the flag before it. Its winner is the strongest of the
    cards among the trumps and the class led, its holder the winning seat: no walk over the seats."""
    cdef Tables* t = &s.t
    cdef int w = ss_msb(cards & (t.trumps | t.same_cls[lead]))
    if not t.team[s.owner[w]]:
        return t.end_value[took]
    return trick_gain(t, s.owner[w], pts, 1) + t.end_value[took | t.use_took]


cdef inline int last_trick(Search* s) noexcept nogil:
    """Every hand holds one card: the trick is forced. Its cards are the cards still out (``live``), its points
    those still in hands."""
    s.nodes += s.t.n - 1
    return final_trick(s, s.live, ss_ctz(s.hand[s.leader]), s.hand_pts, s.took)
