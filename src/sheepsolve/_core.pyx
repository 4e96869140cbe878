# cython: language_level=3
"""The compiled double-dummy search.

Knows bitmasks and flat tables only (compiled by ``tables.py``); never a game's name. Layout, one concern per
section: the tables and state structs; legal-card generation with the called-card rules; equivalent cards and
move ordering; the transposition table; the alpha-beta search; the drivers (MTD(f) to the exact value,
threshold questions, the value of every card).

Values are *future* gains of the side the objective is about, counted from the start of the current trick (the
cards already on the table included) plus the terminal term ``tv[took]``. The table stores lower and upper
bounds of that future value at trick boundaries, keyed on the cards still out, the leader, whether the called
suit is still unled and whether the side took a trick: everything that decides the future, since no card ever
changes hands during the play.

A second table, the *shape table*, holds bounds by the position's shape alone: the holders of the cards still out
in order of rank, class by class, with their points forgotten. Two positions of one shape have the same game
tree, card for card, and their values differ by at most what the differing points of matched cards could move
(payoff similarity, as in Furtak and Buro's work on Skat): a bound of one gives a bound of the other.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset

cdef extern from *:
    """
    static inline int ss_popcount(unsigned int x) { return __builtin_popcount(x); }
    static inline int ss_ctz(unsigned int x) { return __builtin_ctz(x); }
    static inline int ss_msb(unsigned int x) { return 31 - __builtin_clz(x); }
    static inline int ss_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int ss_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #define SS_KEY_MASK ((1ULL << 38) - 1)
    #define SS_LANES 0111111111111111111111ULL  /* the lowest bit of each 3-bit lane of a key word (21 lanes) */
    #include <stdlib.h>
    #include <stdint.h>
    #ifdef __BMI2__
    #include <immintrin.h>
    #define SS_BMI2 1
    /* The shape words (see shape_words) of the set ``cards``, all at once: ``f0``/``f1`` are the words of every
       card, where card c's code sits in lane c + its class (Tables.shape_ext: a separator before each class but
       the first, in Tables.shape_sep). The lanes of ``cards`` and the separators (pdep) keep their codes, in
       order (pext), and the second word's first ones fill the first word's 21 lanes.
       uint64_t, not unsigned long long, as in the Cython code: stores through a pointer of another type may
       be assumed not to change the caller's variables (strict aliasing). */
    static inline void ss_shape_words(uint32_t cards, uint64_t ext, uint64_t sep, uint64_t f0, uint64_t f1,
                                      uint64_t* k0, uint64_t* k1) {
        uint64_t x = _pdep_u64(cards, ext) | sep;
        uint64_t m0 = _pdep_u64(x, SS_LANES) * 7, m1 = _pdep_u64(x >> 21, SS_LANES) * 7;
        uint64_t a = _pext_u64(f0, m0), b = _pext_u64(f1, m1);
        int na = __builtin_popcountll(m0);
        *k0 = (a | (b << na)) & ((1ULL << 63) - 1);
        *k1 = b >> (63 - na);
    }
    /* The transposition key words of the set ``cards`` (see key_drop), all at once. ``h0``/``h1``: each card's
       holder code in its own lane (cards 0..20, 21..31; Search.hcode0/1); ``p1``/``p2``: a 64-bit place for
       each card's bit and for its complement, block by block, the block's cards then their complements
       (Tables.slot_p1/p2). Taking the cards' bits at the places of the cards' bits and the complements' bits
       (pext) gives, block by block, a one for each card out then a zero for each card gone: the slots taken.
       The codes of the cards out, in order (pext), go to the lanes of those slots, in order (pdep). A card
       never moves up (its slot is at most its index), so the second word's codes are the last of the second
       word's cards, and the first word's codes the first word's cards' followed by the second word's first. */
    static inline void ss_key_words(uint32_t cards, uint64_t h0, uint64_t h1, uint64_t p1, uint64_t p2,
                                    uint64_t* k0, uint64_t* k1) {
        uint64_t on = _pdep_u64(cards, p1);
        uint64_t slots = _pext_u64(on, on | _pdep_u64(~cards, p2));
        uint64_t l0 = _pdep_u64(cards, SS_LANES) * 7, l1 = _pdep_u64(cards >> 21, SS_LANES) * 7;
        uint64_t s0 = _pdep_u64(slots, SS_LANES) * 7, s1 = _pdep_u64(slots >> 21, SS_LANES) * 7;
        uint64_t c0 = _pext_u64(h0, l0), c1 = _pext_u64(h1, l1);
        *k0 = _pdep_u64(c0 | (c1 << __builtin_popcountll(l0)), s0);
        *k1 = _pdep_u64(c1 >> (__builtin_popcountll(l1) - __builtin_popcountll(s1)), s1);
    }
    #else
    #define SS_BMI2 0
    static inline void ss_shape_words(uint32_t cards, uint64_t ext, uint64_t sep, uint64_t f0, uint64_t f1,
                                      uint64_t* k0, uint64_t* k1) {}  /* not used without BMI2 */
    static inline void ss_key_words(uint32_t cards, uint64_t h0, uint64_t h1, uint64_t p1, uint64_t p2,
                                    uint64_t* k0, uint64_t* k1) {}  /* not used without BMI2 */
    #endif
    static inline void* ss_alloc_lines(size_t n) {
        /* zeroed memory aligned to 64-byte cache lines (a bucket of four 16-byte entries is one line, and so are two
           32-byte shape entries) */
        void* p = NULL;
        if (posix_memalign(&p, 64, n ? n : 64) != 0) return NULL;
        memset(p, 0, n);
        return p;
    }
    """
    int ss_popcount(unsigned int x) noexcept nogil
    int ss_ctz(unsigned int x) noexcept nogil
    int ss_msb(unsigned int x) noexcept nogil
    int ss_ctz64(unsigned long long x) noexcept nogil
    int ss_popcount64(unsigned long long x) noexcept nogil
    void* ss_alloc_lines(size_t n) noexcept nogil
    void ss_shape_words(uint32_t cards, uint64_t ext, uint64_t sep, uint64_t f0, uint64_t f1, uint64_t* k0,
                        uint64_t* k1) noexcept nogil
    void ss_key_words(uint32_t cards, uint64_t h0, uint64_t h1, uint64_t p1, uint64_t p2, uint64_t* k0,
                      uint64_t* k1) noexcept nogil
    int SS_BMI2
    uint64_t KEY_MASK "SS_KEY_MASK"
    uint64_t LANES0 "SS_LANES"
    uint32_t NO_CARDS "0xFFFFFFFFu"  # no set of cards: the set was not worked out

cdef enum:
    MAXSEATS = 5
    MAXMOVES = 16
    INF = 100000
    BUCKET = 4
    GUESS_WIDTH = 2         # cards each player tries in the guessing search
    GUESS_MIN_CARDS = 6     # and only from positions where the player to move holds this many cards
    MAXBLOCK = 6            # longer runs of equal-point cards are split (a finer key, still exact)
    FOLLOW_KILLER_BONUS = 20  # added to the move-ordering score of a follow killer (see order_moves)

# ---------------------------------------------------------------------------------------------------------------
# Structs

ctypedef struct TTEntry:
    uint64_t k0             # holder codes of canonical slots 0..20
    uint64_t w              # bits 0..37 the rest of the key (slots 21..31, leader, flags), 38..45 the lower
                            # bound, 46..53 the upper bound, 54..59 the best card's canonical slot (63: none),
                            # 60..63 the generation (1..15; 0: empty). 16 bytes: a bucket is one cache line.

ctypedef struct ShapeEntry:
    uint64_t k0             # the first 21 codes of the shape (3 bits each)
    uint64_t k1             # codes 21..38, then the leader, the flags and the called card's holder
    uint32_t rem            # the cards still out when the bounds were stored (their points give the margin)
    uint8_t lo
    uint8_t hi
    uint16_t gen            # low 16 bits of the table generation; 0 = empty
    uint64_t pad            # 32 bytes, on 64-byte aligned memory: an entry never spans two cache lines (at 24
                            # bytes a quarter of them did; 20 deals: the search's D1 misses (cachegrind) sauspiel
                            # 184k -> 171k, sheepshead-jd (40 deals) 109k -> 101k, with the same 2 ** 14 entries in
                            # 1 MiB)

ctypedef struct Tables:
    int n
    int ncards
    int cls[32]
    int pts[32]
    uint32_t cmask[8]
    uint32_t above[32]      # cards of the same class stronger than this one
    uint32_t same_cls[32]   # the cards of this card's class
    uint32_t eq_above[32]   # cards of the same class stronger than this one with as many points, neither of the
                            # two special (0 for a special card): the ones it may be equivalent to
    uint32_t has_eq         # the cards that have such cards (the others are never dropped)
    uint8_t follow_rank[8][64]  # mid-trick move order, by (ally winning the trick) * 2 + (mover last): the rank of
                                # each card c + 32 * (c beats the trick so far) by follow_score, ties to the
                                # stronger card; rows 4-7 the same by follow_score_anti
    uint8_t follow_card[8][64]  # and the card of each rank
    uint8_t follow_boost[8][64]  # the rank each pair comes out above as a follow killer (its score raised by
                                 # FOLLOW_KILLER_BONUS): the number of pairs whose key is at most its raised key
    uint32_t beat_lead[32]  # the cards that beat this card when it is led: stronger trumps and stronger cards of its
                            # class
    int nlevels             # the distinct point values of the cards, lowest first
    int level_pts[32]
    uint32_t level_mask[32] # the cards worth level_pts[i]
    uint32_t mono           # the cards of the classes whose points never fall as their cards get stronger: a set of
                            # cards of one such class has its fewest points on its weakest card
    uint32_t special        # never merged as equivalent (called card, card under)
    uint32_t cls_low        # the weakest card of each class (classes are runs of bits)
    uint32_t trumps
    int called              # core index or -1
    uint32_t called_bit
    int called_cls
    int partner
    int hold_seat
    int run_min
    int r2
    int team[MAXSEATS]
    int nside[2]            # the seats of each side (team 0, team 1)
    int side_seats[2][MAXSEATS]
    int seat_at[2 * MAXSEATS]  # i % n: the seat ``p`` places after the leader is seat_at[leader + p]
    int maxer[MAXSEATS]
    int sided               # every seat's side maximises if it is the objective's side, else minimises: a trick
                            # a side takes is a gain for it (not in ramsch or leaster)
    int anti                # every seat's side minimises if it is the objective's side, else maximises: each side
                            # would rather the other took the points (ramsch and leaster)
    int gain_tricks
    int bonus_left[17]
    int bonus_upto[17]      # bonus_left[1] + ... + bonus_left[i]
    int tv[2]
    int use_took
    int nblocks
    int nclasses             # class ids run 0 .. nclasses - 1
    uint32_t block_mask[32]  # runs of consecutive equal-point cards of a class (special cards alone)
    int block_base[32]       # first canonical slot of each block
    int block_of[32]         # block of each card / slot
    uint32_t block_len[32]   # (1 << the block's size) - 1
    uint32_t lane_below[32]  # the cards before each card in the shape: lower classes, weaker cards of its class
    uint64_t shape_ext      # the place of card c in a word with a separator place before each class but the first:
                            # c + its class (classes are runs of bits, in the order of their ids)
    uint64_t shape_sep      # and the separator places
    int card_base[32]        # the lowest card of each card's block
    uint32_t card_len[32]    # and (1 << its size) - 1
    uint64_t lane0[32]       # 1 << 3 * slot in the first key word (slots 0..20), else 0
    uint64_t lane1[32]       # 1 << 3 * (slot - 21) in the second key word, else 0
    uint64_t slot_p1         # the place of each card in a 64-bit word of two places a card, block by block: the
                             # block's cards, then the same again for their complements (see ss_key_words)
    uint64_t slot_p2         # and the complements' places

ctypedef struct Search:
    Tables t
    uint32_t hand[MAXSEATS]
    int owner[32]           # seat holding each card (cards never change hands)
    uint64_t called_code    # the called card's holder + 1 in place in the shape key's second word (bits 59..61)
    uint32_t team_cards     # the cards held by the objective's side
    uint64_t scode[32]      # shape code of each card: its holder + 1, or 6 for the called card
    uint64_t shape0         # the shape words of the cards ``shaped`` (leader, flags and called card not included)
    uint64_t shape1
    uint32_t shaped         # the cards of the last shape worked out on the way here: a superset of ``live``
    uint64_t shape_all0     # with BMI2: the shape words of every card (card c's code in lane c + its class)
    uint64_t shape_all1
    uint64_t key0           # the key words of the cards ``keyed`` (leader, flags and generation not included)
    uint64_t key1
    uint32_t keyed          # the cards of the last key worked out on the way here: always a superset of ``live``
    uint64_t hcode0         # with BMI2: the holder code (seat + 1) of each card 0..20 in its 3-bit lane
    uint64_t hcode1         # and of each card 21..31
    uint64_t kdrop[32][1 << MAXBLOCK][2]  # what each card leaving changes in the key words, by which cards of
                                          # its block are still out
    int ntr                 # cards on the table (which ones: ``ontable``; the order of play is never needed, the
                            # trick keeps its class led, winning seat and the cards beating it instead)
    int leader
    int open
    int took
    uint32_t ontable
    uint32_t live           # cards in hands or on the table
    uint32_t led            # mid-trick: the cards of the class led
    uint32_t beats          # mid-trick: the cards that would beat the card winning the trick so far
    int win_seat            # mid-trick: the seat of that card
    int trick_pts
    int hand_pts            # points of the cards still in hands
    int64_t nodes
    int killer[17][MAXSEATS]  # last lead that cut off (card + 1), by tricks left and seat
    uint8_t follow_killer[17][MAXSEATS][8][MAXSEATS]  # the same for cards played to a trick (card + 1), by
                                                       # tricks left, seat, class led and place in the trick
    TTEntry* tt
    uint64_t bucket_bytes   # the buckets' byte offsets: (number of buckets - 1) * 64, a mask of the hash's bits
    ShapeEntry* st
    uint64_t shape_bytes    # the same for shape entries: (number of entries - 1) * 32
    TTEntry* gtt            # the guessing search's own small tables
    uint64_t gbucket_bytes
    ShapeEntry* gst
    uint64_t gshape_bytes
    int restrict_moves      # in the guessing search: only the first cards in the search's order are tried
                            # (MAXMOVES outside it: every move)
    int64_t shape_hits      # shape-table probes that found the position's shape
    uint64_t gen
    uint64_t tgen           # the transposition entries' 4-bit generation (1..15)
    uint64_t tgen_w         # the same in place in TTEntry.w (tgen << GEN_SHIFT)

# ---------------------------------------------------------------------------------------------------------------
# Legal cards

cdef inline uint32_t legal_moves(Search* s, int seat) noexcept nogil:
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
        if seat == t.partner and t.r2:
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
    match card for card (sauspiel 100 deals: 1.0% fewer nodes, 1.9% fewer instructions)."""
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
        keep_rich = t.maxer[seat] == t.team[w]
        if (t.pts[c] < t.pts[d]) == keep_rich:
            out &= ~(<uint32_t>1 << c)
        else:
            out &= ~(<uint32_t>1 << d)
    return out


cdef inline int follow_score(int pts, int c, int wins, int ally_winning, int last) noexcept nogil:
    """The move-ordering score of card ``c`` (worth ``pts``) played mid-trick; ``wins``: it beats the card winning
    the trick so far, ``ally_winning``: the mover's side takes the trick if he does not beat it (see
    :func:`order_moves`), ``last``: the mover plays the trick's last card. Only used to build
    ``Tables.follow_rank``."""
    if ally_winning:
        # the trick is his side's whether the card beats it or not: richest first, a smear (the cards that beat
        # it after those that do not, as before, cost 100 deals: sauspiel 2.8%, sheepshead-jd 1.3%, sheepshead-3
        # 9.1% more nodes)
        return 200 + pts * 8 - c
    if wins:
        if last:
            return 400 - c + pts      # last to play: win with the weakest card (first with the most points, 100
                                      # deals: sauspiel 2.8%, sheepshead-jd 1.0%, sheepshead-3 2.4% more nodes)
        return 300 - c + pts          # win cheaply
    return 100 - pts * 8 - c          # cannot win: throw the least


cdef inline int follow_score_anti(int pts, int c, int wins, int other_winning, int last) noexcept nogil:
    """:func:`follow_score` where each side would rather the other took the points (``Tables.anti``; see
    :func:`follow_mode`); ``other_winning``: the other side wins the trick so far. Then the richest card that
    leaves the trick there comes first, and a card that takes it over last; when the mover's side wins it so
    far, the cheapest card first. Of equal points the stronger card first, which might take a later trick. 40
    ramsch deals: 44% fewer nodes than the order of :func:`follow_score`; 4.7% more with the weaker card first
    of equal points; where the mover's side wins the trick, 21% more with the strongest card first whatever its
    points, 3.1% more with the cards that beat the trick last."""
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
    else (leaster: the players against the seat would rather hold it to no trick at all; 100 leaster deals: 52%
    more nodes with this order there too)."""
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
            # the number of keys at most kb, by bisection of the sorted keys (a walk over them cost 0.5% of the
            # instructions of 20 sauspiel deals, a table load each)
            j = 0
            lo = 64
            while j < lo:
                mid = (j + lo) >> 1
                if key[mid] <= kb:
                    j = mid + 1
                else:
                    lo = mid
            t.follow_boost[mode][x] = <uint8_t>j


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
    :func:`order_moves`), after the first ``k`` of ``out``; returns their count. The cards another player holds a
    stronger card of their class to beat, weakest first, then the top cards of their classes (they surely take
    the trick), weakest first."""
    cdef uint32_t tops = class_tops(s, m, s.live & ~s.hand[seat])
    cdef int c
    m &= ~tops
    while m:
        c = ss_ctz(m)
        m &= m - 1
        out[k] = c
        k += 1
    while tops:
        c = ss_ctz(tops)
        tops &= tops - 1
        out[k] = c
        k += 1
    return k


cdef inline int order_moves(Search* s, int seat, uint32_t moves, int hint, uint32_t come, int* out) noexcept nogil:
    """Fill ``out`` with the moves, most promising first; returns their count. Mid-trick, ``come``: the cards
    that may still come after the mover and win (:func:`cards_to_come` from the next place on), or NO_CARDS
    where the caller did not work them out (unused at a lead).

    Lead: the table move, the killer lead, then (where each side would rather the other took the points, for the
    maximising side: :func:`anti_leads`) the top cards of their classes (sure winners of their class)
    strongest first, then the other plain cards and then the other trumps, strongest first (the trumps weakest
    first for a side of two or more players smaller than the other, a partner holding a trump), then the cards of
    the classes an opponent could ruff (he holds a trump and no card of the class); the first of them whose trick
    the leader's side surely takes (no card that can come beats it, or the strongest that can is a partner's) then
    moves to the front (*fastest cut first*; against two or more players, his top trump while he holds other trumps
    only if no other lead is sure). Mid-trick (no table move): by :func:`follow_score`, ties to the
    stronger card, the follow killer's score raised by FOLLOW_KILLER_BONUS. The score depends on the card, whether
    it beats the trick so far, whether the mover's side takes the trick if he does not beat it (an ally winning
    it, or a partner after him holding the strongest card still to come) and whether the mover is last, so
    ``load_tables`` ranks the 64 (card, beats) pairs once for each of the four cases: each move sets the bit of
    its rank in a 64-bit word and the moves come out strongest rank first, without comparing or sorting
    anything; the follow killer comes out above the ranks below its raised score (``follow_boost``). Before the
    trick's last card, the first card of that order that settles the trick for the mover's side then moves to the
    front (*fastest cut first*)."""
    cdef int k = 0, c, killer, mode, boost, j, q, top, wteam, cl
    cdef Tables* t = &s.t
    cdef uint32_t m = moves, x, others, tops = 0, h, wins, opc = 0
    cdef uint64_t r = 0
    cdef uint8_t* rank
    cdef uint8_t* card
    if s.ntr == 0:
        if hint >= 0 and (m >> hint) & 1:
            out[k] = hint
            k += 1
            m &= ~(<uint32_t>1 << hint)
        killer = s.killer[ss_popcount(s.hand[seat])][seat] - 1
        if killer >= 0 and (m >> killer) & 1:
            out[k] = killer
            k += 1
            m &= ~(<uint32_t>1 << killer)
        # Where each side would rather the other took the points, the players against the seat solved for lead
        # low (40 ramsch deals: 21% fewer nodes than the order below; for the seat too, 16% more than
        # this; with the leads some player of the other side must beat first, 69% more)
        if t.maxer[seat] and anti_order(s):
            return anti_leads(s, seat, m, out, k)
        # Leads an opponent could ruff go last: the classes an opponent holding a trump holds no card of (never the
        # trump class). Only the others count as top cards, and the plain ones come before the trumps. Against
        # tops, then the rest, strongest first: 100 deals, sauspiel 25%, sheepshead-jd 19%, sheepshead-3 24% fewer
        # nodes (23%, 15%, 22% fewer instructions); fewer on all nine corpora (wenz 2%, the others 6-20%).
        h = 0
        for j in range(1, t.n):
            q = t.seat_at[seat + j]
            if t.team[q] != t.team[seat]:
                opc |= s.hand[q]
                if s.hand[q] & t.trumps:
                    for cl in range(t.nclasses):
                        if not (s.hand[q] & t.cmask[cl]):
                            h |= t.cmask[cl]
        h &= m
        m &= ~h
        others = s.live & ~s.hand[seat]
        tops = class_tops(s, m, others)
        m &= ~tops
        while tops:
            c = ss_msb(tops)
            tops &= ~(<uint32_t>1 << c)
            out[k] = c
            k += 1
        x = m & t.trumps
        m &= ~x
        while m:  # plain, strongest first
            c = ss_msb(m)
            m &= ~(<uint32_t>1 << c)
            out[k] = c
            k += 1
        # The other trumps weakest first where the leader's side has two or more players but fewer than the other
        # side and a partner holds a trump (the sheepshead picker and partner): a low trump through to the partner,
        # keeping the high ones. 100 deals: sheepshead-jd 2.0%, sheepshead-called-ace 1.4% fewer nodes, the others
        # unchanged. (Where the sides are as large, too: sauspiel 3.3% fewer nodes, but 7% more at the median of
        # 300 deals and 8% more instructions on the first 20; for every side: sheepshead-3 0.7%, solo 4.6%,
        # called-ace 3.2% more nodes; for the larger side: sheepshead-jd 1.4% more.)
        if x and 1 < t.nside[t.team[seat]] < t.nside[1 - t.team[seat]] \
                and (others & t.trumps & (s.team_cards if t.team[seat] else ~s.team_cards)):
            while x:
                c = ss_ctz(x)
                x &= x - 1
                out[k] = c
                k += 1
        while x:
            c = ss_msb(x)
            x &= ~(<uint32_t>1 << c)
            out[k] = c
            k += 1
        while h:  # the leads an opponent could ruff
            c = ss_msb(h)
            h &= ~(<uint32_t>1 << c)
            out[k] = c
            k += 1
        # fastest cut first, as mid-trick (below): the first lead in that order that wins its trick for the
        # leader's side goes first, before the table's card too: the strongest card that can come after it and
        # beat it (each other player's cards of its class, or lacking those his trumps) is a partner's, or there
        # is none. Against the mid-trick rule alone, with opponents' cards only: 100 deals, 5-15% fewer nodes on
        # sheepshead and sauspiel; instructions 2-3% fewer on 100 sheepshead deals and 1.6% on 60 sauspiel deals
        # (on the first 20 sheepshead-jd deals alone, 8% more); before the table's card rather than after it,
        # 0.2-1.3% fewer instructions. A lead to a partner's strongest card as well: 100 deals, sauspiel 11.7%,
        # sheepshead-jd 6.9%, sheepshead-3 7.4% fewer nodes (11.7%, 4.0%, 6.5% fewer instructions);
        # sheepshead-alone 3% more nodes. Not a lead of a class no opponent holds a card of (a trump when no
        # opponent holds one): it takes no opponent's card of its class, and where such a sure trump lead went
        # first and failed, a plain lead cut about as often as it did. Trumps alone: 100 deals, nodes 1.8% fewer
        # on sauspiel, 1.2% sheepshead-jd, 0.6% sheepshead-3, 17% wenz, 14% geier, 0.3-1.5% the others;
        # callgrind, 20 deals: sauspiel 4.7% fewer instructions, sheepshead-jd and sheepshead-3 within 0.6%, 100
        # deals of those two flat. Any class: 1.5%, 1.4%, 0.7% fewer nodes again (sheepshead-alone 1.1% more),
        # instructions 0.8%, 1.1% (100 deals 0.9%), 0.3% fewer.
        # Against two or more players, the leader's top trump, when he holds other trumps, goes first only if no
        # other lead is sure: as the first lead tried it failed more often than any other sure lead (sauspiel 18-22%
        # against 1-5%), mostly to a lower trump or a plain lead that keeps it. 100 deals: sauspiel 1.1%,
        # sheepshead-jd 2.0%, sheepshead-3 0.5%, sheepshead-called-ace, sheepshead-alone and solo 0.0-0.1% fewer
        # nodes; callgrind, 100 deals: 0.6%, 1.1%, 0.05% fewer instructions (against a lone player too:
        # sheepshead-3 0.6% more nodes; only where the minimising side leads: 1.1% more).
        q = -1  # the place of such a top trump passed over
        for j in range(k):
            c = out[j]
            if not (opc & t.same_cls[c]):
                continue  # no opponent holds a card of its class (opc: the opponents' cards)
            x = cards_to_come(s, 1, t.same_cls[c]) & t.beat_lead[c]  # the leader is the mover
            if not x or t.team[s.owner[ss_msb(x)]] == t.team[seat]:
                if ((t.trumps >> c) & 1 and not (t.above[c] & others) and t.nside[1 - t.team[seat]] > 1
                        and (s.hand[seat] & t.trumps & ~(<uint32_t>1 << c))):
                    if q < 0:
                        q = j
                    continue
                q = -1
                while j > 0:
                    out[j] = out[j - 1]
                    j -= 1
                out[0] = c
                break
        if q > 0:
            c = out[q]
            while q > 0:
                out[q] = out[q - 1]
                q -= 1
            out[0] = c
        return k
    # The side the trick goes to if the mover does not beat it: the side of the strongest card that can still
    # come after him and win (each later player's cards of the class led, or lacking those his trumps, as in
    # top_bounds), if it beats the card winning so far, else the side winning it now. When that is the mover's
    # side, the order is the one for an ally's trick (smear points on it), and a card of his that beats the
    # trick but not that partner's card counts as not beating it (it cannot keep the trick). Against the side
    # winning so far alone, with the fastest cut below read the same way: 100 deals, sauspiel 19.5%,
    # sheepshead-jd 29.6%, sheepshead-3 4.7% fewer nodes; 17.6%, 29.0%, 4.5% fewer instructions. Such a card
    # counts as not beating the trick also when that card is an opponent's overtaking an ally's: 2.6%, 1.7%,
    # 1.9% fewer nodes, 1.7%, 1.5%, 1.9% fewer instructions (whoever wins the trick so far: sauspiel 3% fewer
    # nodes, but sheepshead-jd 2% and sheepshead-3 12% more).
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
    # cases above are better guides; as first choice it cost 5-80% more nodes, as a bonus of 10-20 it saved
    # 2-15%). It comes out just before the first card ranked at or above its boost rank.
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
        # Fastest cut first (after Furtak and Buro): the first card in that order that settles the trick for the
        # mover's side goes first: its child is often decided at once by decided_bounds or top_bounds. A card
        # settles it if the strongest card that can still come after it and win it is a partner's, or there is
        # none (a card that beats the trick: none that beats this card; one that does not: none that beats the
        # card winning so far, which is then a partner's). The scores above prefer winning cheaply, which an
        # opponent after the mover may overtake (100 deals: 8-22% fewer nodes on sheepshead and sauspiel;
        # callgrind, 20 deals: 8-21% fewer instructions on sheepshead-jd, called-ace and sauspiel, sheepshead-3
        # unchanged; the last player's order already puts such a card first).
        for j in range(k):
            c = out[j]
            if (s.beats >> c) & 1:
                if top > c and (s.beats >> top) & 1 and wteam != t.team[seat]:
                    continue  # an opponent's card still to come beats it
            elif wteam != t.team[seat]:
                continue
            while j > 0:
                out[j] = out[j - 1]
                j -= 1
            out[0] = c
            break
    return k

# ---------------------------------------------------------------------------------------------------------------
# Transposition table

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
    and only at the trick starts that get as far as a probe: summing every block's words for every key cost 12%
    of the search's instructions."""
    if s.keyed != s.live:
        cards_key(s, s.live, &s.key0, &s.key1)
        s.keyed = s.live


cdef inline void start_key(Search* s, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The key words of the trick start (leader and flags not included). With BMI2 they are worked out at once
    from the cards still out (:func:`ss_key_words`, one call whatever the number of cards played since: 20 deals,
    sauspiel 2.7%, sheepshead-jd 3.0%, sheepshead-3 2.3% fewer instructions than dropping them from the kept
    words, which the search then no longer keeps)."""
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
    cdef int blk = s.t.block_of[c]
    return s.t.block_base[blk] + ss_popcount(rem & s.t.block_mask[blk] & ((<uint32_t>1 << c) - 1))


cdef inline int card_of_slot(Search* s, uint32_t rem, int slot) noexcept nogil:
    cdef int blk = s.t.block_of[slot]
    cdef int r = slot - s.t.block_base[blk]
    cdef uint32_t m = rem & s.t.block_mask[blk]
    while r > 0 and m:
        m &= m - 1
        r -= 1
    return ss_ctz(m) if m else -1


cdef inline TTEntry* tt_bucket(Search* s, uint64_t k0, uint64_t k1) noexcept nogil:
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
    return <int>((e.w >> LO_SHIFT) & 255)


cdef inline int tte_hi(TTEntry* e) noexcept nogil:
    return <int>((e.w >> HI_SHIFT) & 255)


cdef inline int tte_best(TTEntry* e) noexcept nogil:
    return <int>((e.w >> BEST_SHIFT) & 63)


cdef inline int tte_cards(TTEntry* e) noexcept nogil:
    """Cards still out in the entry's position: its nonzero 3-bit holder codes."""
    cdef uint64_t a = e.k0, b = e.w & ((<uint64_t>1 << 33) - 1)
    return ss_popcount64((a | (a >> 1) | (a >> 2)) & LANES0) + ss_popcount64((b | (b >> 1) | (b >> 2)) & LANES0)


cdef inline TTEntry* tt_probe(Search* s, uint64_t k0, uint64_t k1) noexcept nogil:
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

# ---------------------------------------------------------------------------------------------------------------
# Shape table (payoff similarity)

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
    restored with each trick) and the cards played since leave them one by one: walking every card still out for
    every key cost 7% of the search's instructions."""
    cdef uint64_t a = s.shape0, b = s.shape1
    cdef uint32_t kept = s.shaped & s.live, x = s.shaped & ~s.live
    cdef int c
    if SS_BMI2:
        # worked out at once from every card's words (pdep and pext, one call whatever the number of cards
        # played since), and no words kept: 20 deals, sauspiel 1.9%, sheepshead-jd 2.3%, sheepshead-3 2.2% fewer
        # instructions than taking the cards played since out of the kept words at once (which cost 2.1-2.9%
        # fewer than a card at a time)
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


cdef inline ShapeEntry* shape_slot(Search* s, uint64_t k0, uint64_t k1) noexcept nogil:
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

# ---------------------------------------------------------------------------------------------------------------
# Search

ctypedef struct CardSave:  # what playing a card to a trick changes, saved before the node's first card
    uint32_t hand
    uint32_t ontable
    uint32_t beats
    int ntr
    int win_seat
    int trick_pts
    int hand_pts


cdef inline void save_card_state(Search* s, int seat, CardSave* cs) noexcept nogil:
    cs.hand = s.hand[seat]
    cs.ntr = s.ntr
    cs.ontable = s.ontable
    cs.beats = s.beats
    cs.win_seat = s.win_seat
    cs.trick_pts = s.trick_pts
    cs.hand_pts = s.hand_pts


cdef inline void take_card_back(Search* s, int seat, CardSave* cs) noexcept nogil:
    """Undo :func:`play_card` and :func:`note_winner` by storing the saved values (stores only, no
    read-modify-write)."""
    s.ntr = cs.ntr
    s.hand[seat] = cs.hand
    s.ontable = cs.ontable
    s.trick_pts = cs.trick_pts
    s.hand_pts = cs.hand_pts
    s.beats = cs.beats
    s.win_seat = cs.win_seat


cdef inline void play_saved(Search* s, int c, int seat, CardSave* cs) noexcept nogil:
    """:func:`play_card` and :func:`note_winner` at a node that saved its state in ``cs`` (before its first
    card): the new values come from the saved ones, stores only, and the place in the trick is known."""
    cdef uint32_t bit = <uint32_t>1 << c
    s.hand[seat] = cs.hand & ~bit
    s.ontable = cs.ontable | bit
    s.trick_pts = cs.trick_pts + s.t.pts[c]
    s.hand_pts = cs.hand_pts - s.t.pts[c]
    s.ntr = cs.ntr + 1
    if cs.ntr == 0:
        s.led = s.t.same_cls[c]
        s.beats = s.t.beat_lead[c]
        s.win_seat = seat
    elif (cs.beats >> c) & 1:
        s.beats = cs.beats & ~((<uint32_t>2 << c) - 1)  # 0 for the top card (the shift wraps to 0)
        s.win_seat = seat


cdef inline void play_card(Search* s, int c, int seat) noexcept nogil:
    s.hand[seat] &= ~(<uint32_t>1 << c)
    s.ontable |= <uint32_t>1 << c
    s.trick_pts += s.t.pts[c]
    s.hand_pts -= s.t.pts[c]
    s.ntr += 1


cdef inline void unplay_card(Search* s, int c, int seat) noexcept nogil:
    s.ntr -= 1
    s.hand[seat] |= <uint32_t>1 << c
    s.ontable &= ~(<uint32_t>1 << c)
    s.trick_pts -= s.t.pts[c]
    s.hand_pts += s.t.pts[c]


ctypedef struct TrickSave:
    int leader
    uint32_t led
    int open
    int took
    int pts
    uint32_t ontable
    uint64_t key0
    uint64_t key1
    uint32_t keyed
    uint64_t shape0
    uint64_t shape1
    uint32_t shaped


cdef inline void note_winner(Search* s, int c, int seat) noexcept nogil:
    """Card ``c`` was just played by ``seat``: keep the seat winning the trick so far and the cards that would
    beat its card (trumps and cards of the class led stronger than it), so the search never looks the class
    led up again."""
    if s.ntr == 1:
        s.led = s.t.same_cls[c]
        s.beats = s.t.beat_lead[c]
        s.win_seat = seat
    elif (s.beats >> c) & 1:
        s.beats &= ~((<uint32_t>2 << c) - 1)  # 0 for the top card (the shift wraps to 0)
        s.win_seat = seat


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


cdef inline int pts_of(Tables* t, uint32_t cards) noexcept nogil:
    """The points of ``cards``."""
    cdef int total = 0
    while cards:
        total += t.pts[ss_ctz(cards)]
        cards &= cards - 1
    return total


cdef inline int min_pts(Search* s, uint32_t hand) noexcept nogil:
    """The fewest points among the cards of ``hand`` (never empty): the lowest point level it holds a card of.
    No bound on the walk: the levels cover every card."""
    cdef int i = 1
    if hand & s.t.level_mask[0]:  # the common case: one test before the walk
        return s.t.level_pts[0]
    while not (hand & s.t.level_mask[i]):
        i += 1
    return s.t.level_pts[i]


cdef inline int max_pts(Search* s, uint32_t hand) noexcept nogil:
    """The most points among the cards of ``hand`` (never empty): the highest point level it holds a card of."""
    cdef int i = s.t.nlevels - 1
    while not (hand & s.t.level_mask[i]):
        i -= 1
    return s.t.level_pts[i]


cdef inline int low_sum(Search* s, uint32_t hand, int m) noexcept nogil:
    """The sum of the ``m`` lowest point values among the cards of ``hand`` (all of them if fewer): point levels
    lowest first, as many cards of each as the hand holds, instead of ``m`` walks over the hand."""
    cdef int total = 0, i, k
    if m == 1:  # the common case: the cheapest card (no caller passes an empty hand with m == 1)
        return min_pts(s, hand)
    for i in range(s.t.nlevels):
        k = ss_popcount(hand & s.t.level_mask[i])
        if k >= m:
            return total + m * s.t.level_pts[i]
        total += k * s.t.level_pts[i]
        m -= k
    return total


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


cdef inline int final_trick(Search* s, uint32_t cards, int lead, int pts, int took) noexcept nogil:
    """The value of the last trick, forced, and the end of the hand: ``cards`` are its cards (one per hand),
    ``lead`` the card led, ``pts`` their points, ``took`` the flag before it. Its winner is the strongest of the
    cards among the trumps and the class led, its holder the winning seat: no walk over the seats."""
    cdef Tables* t = &s.t
    cdef int w = ss_msb(cards & (t.trumps | t.same_cls[lead]))
    if not t.team[s.owner[w]]:
        return t.tv[took]
    return trick_gain(t, s.owner[w], pts, 1) + t.tv[took | t.use_took]


cdef inline int last_trick(Search* s) noexcept nogil:
    """Every hand holds one card: the trick is forced. Its cards are the cards still out (``live``), its points
    those still in hands."""
    s.nodes += s.t.n - 1
    return final_trick(s, s.live, ss_ctz(s.hand[s.leader]), s.hand_pts, s.took)


cdef inline int sure_bound(Search* s, int mine, int won, int from_hands, int k, int tl) noexcept nogil:
    """The bound on the future value (from the start of the current trick) when one side surely takes ``k`` of
    the ``tl`` tricks left (the current one counted) with at least ``won`` card points in them, ``from_hands``
    of those still in hands: if it is the objective's side (``mine``), the value is at least their gain; else
    at most what the other tricks can bring."""
    cdef Tables* t = &s.t
    cdef int v, took
    if mine:
        took = s.took | t.use_took
        if t.gain_tricks:
            return k + t.tv[took]
        v = won + t.tv[took]
        if k == 1:
            v += t.bonus_left[tl]
        return v
    if t.gain_tricks:
        v = tl - k
    else:
        v = s.hand_pts - from_hands + t.bonus_upto[tl]
        if k == 1:
            v -= t.bonus_left[tl]
    if t.use_took and not s.took:
        return t.tv[0] if t.tv[0] > v + t.tv[1] else v + t.tv[1]
    return v + t.tv[s.took]


cdef inline int trick_bounds(Search* s, int seat, int mine, int contrib, int* lo, int* hi) noexcept nogil:
    """Mid-trick (``seat`` to move): the bounds on the future value (from the start of the trick) when the
    objective's side (``mine``) or the other side surely takes the trick on the table, with ``contrib`` more card
    points from the hands. Returns 1."""
    cdef int tl = ss_popcount(s.hand[seat])  # tricks left, this one included
    if mine:
        lo[0] = sure_bound(s, 1, s.trick_pts + contrib, contrib, 1, tl)
        hi[0] = INF
    else:
        hi[0] = sure_bound(s, 0, s.trick_pts + contrib, contrib, 1, tl)
        lo[0] = -INF
    return 1


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

    One walk over the players still to play, summing the cheapest cards as it goes: on sauspiel deals that
    cost fewer instructions than a second walk once the trick is known to be decided."""
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
    their cheapest: 100 deals, sauspiel 1.9%, sheepshead-jd 2.3%, sheepshead-3 0.2% fewer nodes; callgrind,
    sauspiel 60 deals 1.3%, sheepshead-jd 100 deals 2.2%, sheepshead-3 60 deals 0.1% fewer instructions (the
    first 20 sauspiel deals, with 1.2% more nodes, 2.0% more; the same in decided_bounds, or in both, cut 1.4%
    and 2.8% of the sauspiel nodes but cost 3-5% more instructions). Only called when taking a trick is what
    each side wants (``Tables.sided``: not in ramsch or leaster, where the trick is a choice, not a gain); not
    with the called class led while its rules apply, nor for a special card.

    This covers what decided_bounds leaves open: the side not winning the trick so far still holds the card
    that takes it (100 deals: sauspiel 7%, solo 25%, sheepshead-3 14% fewer nodes). ``come`` gets those cards
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
    Not while the called card's rules apply. 40 ramsch deals: 15% fewer nodes (the median 31% fewer), 100
    leaster deals 5%."""
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

# ---------------------------------------------------------------------------------------------------------------
# Drivers

cdef int value_bound(Search* s) noexcept nogil:
    """No future value of the position exceeds this."""
    cdef Tables* t = &s.t
    cdef int i, tricks_left = ss_popcount(s.hand[(s.leader + s.ntr) % t.n]) + (1 if s.ntr > 0 else 0)
    cdef int v = tricks_left if t.gain_tricks else s.hand_pts + s.trick_pts
    if not t.gain_tricks:
        for i in range(1, tricks_left + 1):
            v += t.bonus_left[i]
    return v + (t.tv[0] if t.tv[0] > t.tv[1] else t.tv[1])


cdef int mtdf(Search* s, int guess, int step=1) noexcept nogil:
    """The exact value by null-window searches. Without a guess (``guess < 0``): bisection of the interval the
    fail-soft results leave (plain MTD(f) creeps by a point or two per search in a points game). With one: the
    first search at the guess, then steps of ``step``, twice that, four times, ... away from it in the direction
    the results point, and bisection once the value is bracketed; a guess within a point or two costs two or
    three searches."""
    cdef int lower = 0, upper = value_bound(s), g, beta, way = 0
    if guess < 0:
        way = 2
        beta = (lower + upper + 1) // 2
    else:
        beta = guess if guess > lower else lower + 1
        if beta > upper:
            beta = upper
    while lower < upper:
        g = ab(s, beta - 1, beta)
        if g >= beta:
            lower = g
            if way == -1:
                way = 2
            elif way != 2:
                way = 1
        else:
            upper = g
            if way == 1:
                way = 2
            elif way != 2:
                way = -1
        if lower >= upper:
            break
        if way == 1:
            beta = lower + step
            if beta > upper:
                beta = upper
        elif way == -1:
            beta = upper + 1 - step
            if beta <= lower:
                beta = lower + 1
        else:
            beta = (lower + upper + 1) // 2
        step *= 2
    return lower


cdef int guess_value(Search* s) noexcept nogil:
    """A quick estimate to start the exact search from: the same search, but every player only tries its
    first GUESS_WIDTH cards in the search's order, with small tables of its own. Its answers are not values of
    the game and never enter the real tables; the killer leads it leaves are only move-ordering hints."""
    cdef TTEntry* tt = s.tt
    cdef ShapeEntry* st = s.st
    cdef uint64_t bm = s.bucket_bytes, sm = s.shape_bytes
    cdef int g
    s.tt = s.gtt
    s.st = s.gst
    s.bucket_bytes = s.gbucket_bytes
    s.shape_bytes = s.gshape_bytes
    s.restrict_moves = GUESS_WIDTH
    g = mtdf(s, -1)
    s.restrict_moves = MAXMOVES
    s.tt = tt
    s.st = st
    s.bucket_bytes = bm
    s.shape_bytes = sm
    return g


cdef int exact_value(Search* s, int guess) noexcept nogil:
    """The exact future value. Without a guess (``guess < 0``) in a large position the guessing search supplies
    one: a start near the value saves most of the bisection's searches far from it (a median 12-46% fewer
    nodes on full deals of 8 and 10 cards a hand; on 6-card five-hand deals it paid only once the move order
    was good enough: 300 deals of sheepshead-jd, 6.6% fewer instructions, median time 6-9% lower;
    sheepshead-called-ace median 19% lower)."""
    if guess < 0 and ss_popcount(s.hand[s.t.seat_at[s.leader + s.ntr]]) >= GUESS_MIN_CARDS:
        # the guessing search is typically a few points off (median 5 on sauspiel deals): first steps of 2
        # (80 deals each of sauspiel, solo, wenz: 1-6% fewer nodes than steps of 1)
        return mtdf(s, guess_value(s), 2)
    return mtdf(s, guess)


cdef int _guess_bits(int tt_bits):
    """The guessing search's tables: an eighth of the real ones, at most 2 ** 14 entries each."""
    return 14 if tt_bits - 3 > 14 else (tt_bits - 3 if tt_bits - 3 > 2 else 2)


cdef class Core:
    """One search engine with its own transposition table (not thread-safe; one per thread or process).

    Use through :mod:`sheepsolve.solver`; this class is its low-level half.
    """

    cdef Search s
    cdef TTEntry* table
    cdef ShapeEntry* shapes
    cdef TTEntry* gtable
    cdef ShapeEntry* gshapes
    cdef uint64_t nentries
    cdef uint64_t gentries
    cdef public object context
    cdef bint fresh  # no search since the entries were last forgotten: none has the current generation
    cdef dict tables_cache  # id(tables) -> (tables, the Tables struct built from them, as bytes)
    cdef dict layouts_cache  # the tables' card layout -> the Tables struct's part built from it, as bytes

    def __cinit__(self, int tt_bits=18):
        """``tt_bits``: ``2 ** tt_bits`` entries in the transposition table and as many in the shape table."""
        if tt_bits < 2 or tt_bits > 22:
            raise ValueError("tt_bits must be in 2..22 (at most 4M entries in each of the two tables, 192 MiB)")
        # tt_bucket and shape_slot take the hash's bits 17 and up in place as a byte offset (shifts 11 and 12):
        # they need 64-byte buckets and 32-byte shape entries
        if BUCKET * sizeof(TTEntry) != 64 or sizeof(ShapeEntry) != 32:
            raise SystemError("table entry sizes changed: update tt_bucket and shape_slot")
        self.nentries = (<uint64_t>1) << tt_bits
        self.table = <TTEntry*>ss_alloc_lines(self.nentries * sizeof(TTEntry))
        self.shapes = <ShapeEntry*>ss_alloc_lines(self.nentries * sizeof(ShapeEntry))
        self.gentries = (<uint64_t>1) << _guess_bits(tt_bits)
        self.gtable = <TTEntry*>ss_alloc_lines(self.gentries * sizeof(TTEntry))
        self.gshapes = <ShapeEntry*>ss_alloc_lines(self.gentries * sizeof(ShapeEntry))
        if self.table == NULL or self.shapes == NULL or self.gtable == NULL or self.gshapes == NULL:
            raise MemoryError("transposition table")
        memset(&self.s, 0, sizeof(Search))
        self.s.tt = self.table
        self.s.bucket_bytes = (((self.nentries // BUCKET) - 1 if self.nentries >= BUCKET else 0)
                               * BUCKET * sizeof(TTEntry))
        self.s.st = self.shapes
        self.s.shape_bytes = (self.nentries - 1) * sizeof(ShapeEntry)
        self.s.gtt = self.gtable
        self.s.gbucket_bytes = ((self.gentries // BUCKET) - 1) * BUCKET * sizeof(TTEntry)
        self.s.gst = self.gshapes
        self.s.gshape_bytes = (self.gentries - 1) * sizeof(ShapeEntry)
        self.s.gen = 1
        self.s.restrict_moves = MAXMOVES
        self.s.tgen = 1
        self.s.tgen_w = <uint64_t>1 << GEN_SHIFT
        self.context = None
        self.fresh = True
        self.tables_cache = {}
        self.layouts_cache = {}

    def __dealloc__(self):
        free(self.table)  # free(NULL) does nothing
        free(self.shapes)
        free(self.gtable)
        free(self.gshapes)
        self.table = NULL
        self.shapes = NULL
        self.gtable = NULL
        self.gshapes = NULL

    @staticmethod
    def bytes_for(int tt_bits) -> int:
        """Bytes of all tables of a core made with ``tt_bits``: ``2 ** tt_bits`` transposition and shape entries,
        and the guessing search's small pair."""
        return ((1 << tt_bits) + (1 << _guess_bits(tt_bits))) * (sizeof(TTEntry) + sizeof(ShapeEntry))

    @property
    def table_bytes(self) -> int:
        return (self.nentries + self.gentries) * (sizeof(TTEntry) + sizeof(ShapeEntry))

    @property
    def nodes(self) -> int:
        return self.s.nodes

    @property
    def shape_hits(self) -> int:
        """Shape-table probes that found the position's shape, since the core was made."""
        return self.s.shape_hits

    def reset_nodes(self):
        self.s.nodes = 0

    def clear(self):
        """Forget every table entry (a new generation; O(1)) and the killer cards, so a search after
        ``clear()`` does the same work whatever came before."""
        memset(self.s.killer, 0, sizeof(self.s.killer))
        memset(self.s.follow_killer, 0, sizeof(self.s.follow_killer))
        self._forget_entries()

    cdef _forget_entries(self):
        """Forget every table entry: a new generation (O(1)). Nothing to do when no search ran since the last
        time: no entry has the current generation yet (those of the same 4 or 16 bits were emptied as they
        wrapped). A solve of a new deal often forgets twice, ``clear()`` and a new context: counting each
        emptied the tables twice as often (100 sheepshead-jd deals: 0.5% of the instructions)."""
        if self.fresh:
            return
        self.fresh = True
        self.s.gen += 1
        if self.s.gen >= (1 << 24):
            self.s.gen = 1
        # transposition entries keep 4 bits of generation (1..15): empty the tables as they wrap (a 256 KiB
        # memset every 15 clears at the default size)
        self.s.tgen += 1
        if self.s.tgen > 15:
            memset(self.table, 0, self.nentries * sizeof(TTEntry))
            memset(self.gtable, 0, self.gentries * sizeof(TTEntry))
            self.s.tgen = 1
        self.s.tgen_w = self.s.tgen << GEN_SHIFT
        if <uint16_t>self.s.gen == 0:  # shape entries keep 16 bits of the generation: empty them as it wraps
            self.s.gen += 1
        if <uint16_t>self.s.gen == 1:
            memset(self.shapes, 0, self.nentries * sizeof(ShapeEntry))
            memset(self.gshapes, 0, self.gentries * sizeof(ShapeEntry))

    def load_tables(self, tables):
        """Install compiled tables (``tables.CoreTables``); forgets the table's entries (not the killer cards)
        when their context changed. A :meth:`set_position` must follow before any search (it derives the key words
        from the holders)."""
        cdef Tables* t = &self.s.t
        if tables.context != self.context:
            # the entries' meaning changes with the context; the killer cards are only move-ordering hints and
            # stay: the next context is often a close one (another call, card under or contract on the same
            # deal; callgrind: judging the bury and call of 8 hands 16%, choosing a contract in 6 worlds 3.9%, 20
            # bury rankings 0.6% fewer instructions than starting them afresh)
            self._forget_entries()
            self.context = tables.context
        # The struct depends on the tables alone: built once per tables object (the deals of a game and call
        # share one), then copied (building it cost 25 us a load, a twentieth of a 6-card deal's solve)
        hit = self.tables_cache.get(id(tables))
        if hit is not None and hit[0] is tables:
            memcpy(t, <const char*>hit[1], sizeof(Tables))
            return
        # Most of it depends on the card layout alone, which the contexts of a game and call share (the deals of
        # a game differ in the side; 100 sheepshead-jd deals load 24 contexts of one layout, built in full they
        # cost 0.8% of the instructions): built once per layout, the side's part filled in for each
        layout = (tables.n, tables.order, tables.cls, tables.pts, tables.cmask, tables.trump_cls, tables.called,
                  tables.called_cls, tables.special, tables.blocks)
        lay = self.layouts_cache.get(layout)
        if lay is not None:
            memcpy(t, <const char*>lay, sizeof(Tables))
        else:
            memset(t, 0, sizeof(Tables))
            self._build_layout(tables)
            if len(self.layouts_cache) >= 64:
                self.layouts_cache.clear()
            self.layouts_cache[layout] = (<char*>t)[:sizeof(Tables)]
        self._build_context(tables)
        if len(self.tables_cache) >= 256:
            self.tables_cache.clear()
        self.tables_cache[id(tables)] = (tables, (<char*>t)[:sizeof(Tables)])

    cdef _build_layout(self, tables):
        """The part of the Tables struct that depends on the card layout only: the seats, the cards' classes,
        points, order and blocks, the special and called cards (the fields of ``layout`` in load_tables)."""
        cdef Tables* t = &self.s.t
        cdef int i, j
        cdef uint32_t blk, m
        t.n = tables.n
        t.ncards = len(tables.order)
        for i in range(32):
            t.cls[i] = 7
            t.pts[i] = 0
        t.nclasses = 0
        for i in range(t.ncards):
            t.cls[i] = tables.cls[i]
            t.pts[i] = tables.pts[i]
            if t.cls[i] + 1 > t.nclasses:
                t.nclasses = t.cls[i] + 1
        if t.nclasses > 8 or t.ncards > 32:
            raise ValueError("the core takes at most 32 cards in at most 8 classes")
        for i in range(8):
            t.cmask[i] = tables.cmask[i]
        t.nlevels = 0
        for v in sorted(set(t.pts[i] for i in range(t.ncards))):
            t.level_pts[t.nlevels] = v
            t.level_mask[t.nlevels] = 0
            for i in range(t.ncards):
                if t.pts[i] == v:
                    t.level_mask[t.nlevels] |= <uint32_t>1 << i
            t.nlevels += 1
        t.mono = 0
        for i in range(t.nclasses):
            m = t.cmask[i]
            for j in range(t.ncards):
                if (m >> j) & 1 and j + 1 < t.ncards and (m >> (j + 1)) & 1 and t.pts[j + 1] < t.pts[j]:
                    m = 0
                    break
            t.mono |= m
        for i in range(t.ncards):
            t.above[i] = (t.cmask[t.cls[i]] & ~((<uint32_t>2 << i) - 1)) if i < 31 else 0
        t.shape_ext = 0
        t.shape_sep = 0
        for i in range(t.ncards):
            t.shape_ext |= <uint64_t>1 << (i + t.cls[i])
        m = 0  # the cards of the classes below class i
        for i in range(1, t.nclasses):  # class i's separator: after those cards and i - 1 separators
            m |= t.cmask[i - 1]
            t.shape_sep |= <uint64_t>1 << (ss_popcount(m) + i - 1)
        for i in range(32):
            t.lane_below[i] = 0
            if i < t.ncards:
                for j in range(t.ncards):
                    if t.cls[j] < t.cls[i] or (t.cls[j] == t.cls[i] and j < i):
                        t.lane_below[i] |= <uint32_t>1 << j
        t.special = tables.special
        t.cls_low = 0
        for i in range(8):
            t.cls_low |= t.cmask[i] & -t.cmask[i]
        t.trumps = tables.cmask[tables.trump_cls] if tables.trump_cls < 8 else 0
        t.has_eq = 0
        for i in range(32):
            t.same_cls[i] = t.cmask[t.cls[i]] if i < t.ncards else 0
            t.beat_lead[i] = ((t.trumps | t.same_cls[i]) & ~((<uint32_t>2 << i) - 1)) if i < 31 else 0
            t.eq_above[i] = 0
            if i < t.ncards and not (t.special >> i) & 1:
                for j in range(i + 1, t.ncards):
                    if (t.above[i] >> j) & 1 and t.pts[j] == t.pts[i] and not (t.special >> j) & 1:
                        t.eq_above[i] |= <uint32_t>1 << j
                        t.has_eq |= <uint32_t>1 << i
        rank_follow(t)
        t.called = tables.called
        t.called_bit = (<uint32_t>1 << tables.called) if tables.called >= 0 else 0
        t.called_cls = tables.called_cls
        for i in range(2 * MAXSEATS):
            t.seat_at[i] = i % t.n
        t.nblocks = 0
        for blk in tables.blocks:
            while blk:
                m = blk
                if ss_popcount(m) > MAXBLOCK:  # keep the lowest MAXBLOCK cards; the rest form the next block
                    m = blk & ((<uint32_t>1 << (ss_ctz(blk) + MAXBLOCK)) - 1)
                blk &= ~m
                i = t.nblocks
                t.nblocks += 1
                t.block_mask[i] = m
                t.block_base[i] = ss_ctz(m)
                t.block_len[i] = (<uint32_t>1 << ss_popcount(m)) - 1
                for j in range(32):
                    if (m >> j) & 1:
                        t.block_of[j] = i
                        t.card_base[j] = t.block_base[i]
                        t.card_len[j] = t.block_len[i]
        t.slot_p1 = 0
        t.slot_p2 = 0
        j = 0
        while j < 32:  # a card in no block (beyond ncards) is a block of its own
            m = t.block_mask[t.block_of[j]] if j < t.ncards else <uint32_t>1 << j
            i = ss_popcount(m)
            t.slot_p1 |= ((<uint64_t>1 << i) - 1) << (2 * j)
            t.slot_p2 |= ((<uint64_t>1 << i) - 1) << (2 * j + i)
            j += i
        for j in range(32):
            t.lane0[j] = (<uint64_t>1 << (3 * j)) if j < 21 else 0
            t.lane1[j] = (<uint64_t>1 << (3 * (j - 21))) if j >= 21 else 0

    cdef _build_context(self, tables):
        """The rest: the sides, who maximises, the partner and called-card rules, the gains and end values."""
        cdef Tables* t = &self.s.t
        cdef int i
        t.partner = tables.partner
        t.hold_seat = tables.hold_seat
        t.run_min = tables.run_min
        t.r2 = tables.r2
        t.sided = 1
        t.anti = 1
        for i in range(MAXSEATS):
            t.team[i] = tables.team[i] if i < t.n else 0
            t.maxer[i] = tables.maxer[i] if i < t.n else 0
            if i < t.n:
                if t.team[i] != t.maxer[i]:
                    t.sided = 0
                else:
                    t.anti = 0
        t.nside[0] = 0
        t.nside[1] = 0
        for i in range(t.n):
            t.side_seats[t.team[i]][t.nside[t.team[i]]] = i
            t.nside[t.team[i]] += 1
        t.gain_tricks = tables.gain_tricks
        for i in range(17):
            t.bonus_left[i] = tables.bonus_left[i]
            t.bonus_upto[i] = (t.bonus_upto[i - 1] if i > 0 else 0) + (t.bonus_left[i] if i > 0 else 0)
        t.tv[0] = tables.tv[0]
        t.tv[1] = tables.tv[1]
        t.use_took = 1 if t.tv[0] != t.tv[1] else 0

    def set_position(self, hands, trick, int leader, int open_, int took):
        """Set the mutable state: hands (core masks), cards on the table (core indices), leader, flags."""
        cdef Search* s = &self.s
        cdef int i, c, j, pm, base, slot
        cdef uint32_t h
        cdef uint64_t w0[1 << MAXBLOCK]
        cdef uint64_t w1[1 << MAXBLOCK]
        # the holders, the side's cards, the points in hand and the holder codes, card by card of each hand (a
        # loop over every card and seat cost as much as the rest of the call)
        memset(s.owner, 0xFF, sizeof(s.owner))  # -1: nobody
        s.team_cards = 0
        s.hand_pts = 0
        s.hcode0 = 0
        s.hcode1 = 0
        s.live = 0
        for i in range(MAXSEATS):
            h = hands[i] if i < s.t.n else 0
            s.hand[i] = h
            s.live |= h
            if i < s.t.n and s.t.team[i]:
                s.team_cards |= h
            while h:
                c = ss_ctz(h)
                h &= h - 1
                s.owner[c] = i
                s.hand_pts += s.t.pts[c]
                if c < 21:
                    s.hcode0 |= <uint64_t>(i + 1) << (3 * c)
                else:
                    s.hcode1 |= <uint64_t>(i + 1) << (3 * (c - 21))
        s.ntr = 0
        s.ontable = 0
        s.trick_pts = 0
        s.leader = leader
        s.open = open_
        s.took = took if s.t.use_took else 0
        s.led = 0
        s.beats = 0
        s.win_seat = leader
        for c in trick:
            s.ontable |= <uint32_t>1 << c
            s.trick_pts += s.t.pts[c]
            s.ntr += 1
            note_winner(s, c, s.t.seat_at[leader + s.ntr - 1])
        s.live |= s.ontable
        for c in range(32):
            s.scode[c] = 6 if c == s.t.called else <uint64_t>(s.owner[c] + 1)
        s.called_code = <uint64_t>(s.owner[s.t.called] + 1) << 59 if s.t.called >= 0 else 0
        # each block's key words for every set ``pm`` of its cards still out (the cards out take the block's
        # lowest slots, weakest first: the strongest of them the last slot), then what each card of the set
        # changes by leaving it (a loop over every set and MAXBLOCK places cost ~9k instructions a call)
        s.key0 = 0
        s.key1 = 0
        w0[0] = 0
        w1[0] = 0
        for i in range(s.t.nblocks):
            base = s.t.block_base[i]
            for pm in range(1, <int>s.t.block_len[i] + 1):
                j = ss_msb(pm)
                slot = base + ss_popcount(pm) - 1
                w0[pm] = w0[pm & ~(1 << j)] + <uint64_t>(s.owner[base + j] + 1) * s.t.lane0[slot]
                w1[pm] = w1[pm & ~(1 << j)] + <uint64_t>(s.owner[base + j] + 1) * s.t.lane1[slot]
                h = pm
                while h:
                    j = ss_ctz(h)
                    h &= h - 1
                    s.kdrop[base + j][pm][0] = w0[pm & ~(1 << j)] - w0[pm]
                    s.kdrop[base + j][pm][1] = w1[pm & ~(1 << j)] - w1[pm]
            pm = (s.live >> base) & s.t.block_len[i]
            s.key0 += w0[pm]
            s.key1 += w1[pm]
        s.keyed = s.live
        if SS_BMI2:
            # the search works the keys out at once from the holder codes and every card's shape words
            # (start_key, shape_key) and keeps no words of its own
            shape_words(s, (<uint32_t>1 << s.t.ncards) - 1 if s.t.ncards < 32 else 0xFFFFFFFFu, &s.shape_all0,
                        &s.shape_all1)
        else:
            shape_words(s, s.live, &s.shape0, &s.shape1)
            s.shaped = s.live

    def key_words(self, uint32_t cards):
        """The transposition key words (leader and flags not included) of the cards ``cards``, a subset of the
        cards still out at :meth:`set_position` (for tests)."""
        cdef uint64_t a, b
        cards_key(&self.s, cards, &a, &b)
        return a, b

    def shape_words(self, uint32_t cards):
        """The shape words (leader, flags and the called card's holder included) of the cards ``cards``, a subset
        of the cards still out at :meth:`set_position` (for tests; the position is left as it was)."""
        cdef Search* s = &self.s
        cdef uint64_t a, b, s0 = s.shape0, s1 = s.shape1
        cdef uint32_t live = s.live, shaped = s.shaped
        s.live = cards
        shape_key(s, key_meta(s, s.leader, s.open, s.took), &a, &b)
        s.live = live
        s.shape0 = s0
        s.shape1 = s1
        s.shaped = shaped
        return a, b

    def legal(self):
        """Legal core card indices of the player to move."""
        cdef int seat = (self.s.leader + self.s.ntr) % self.s.t.n
        cdef uint32_t m = legal_moves(&self.s, seat)
        return [c for c in range(32) if (m >> c) & 1]

    def representatives(self):
        """Legal cards with equivalent cards dropped: dict card -> the representative searched for it."""
        cdef int seat = (self.s.leader + self.s.ntr) % self.s.t.n
        cdef uint32_t m = legal_moves(&self.s, seat)
        cdef uint32_t r = drop_equivalent(&self.s, m)
        cdef uint32_t live = self.s.ontable
        cdef int i, c, nxt
        for i in range(self.s.t.n):
            live |= self.s.hand[i]
        out = {}
        for c in range(31, -1, -1):
            if not (m >> c) & 1:
                continue
            if (r >> c) & 1:
                out[c] = c
            else:
                nxt = ss_ctz(live & self.s.t.above[c])
                out[c] = out[nxt]
        return out

    def value(self, int guess=-1) -> int:
        """Exact future value of the position (MTD(f) over null-window searches)."""
        cdef int v
        self.fresh = False
        with nogil:
            v = exact_value(&self.s, guess)
        return v

    def search(self, int alpha, int beta) -> int:
        """One fail-soft alpha-beta search with window (alpha, beta), ``alpha < beta``: a result ``v`` with
        ``alpha < v < beta`` is the value, ``v <= alpha`` an upper bound, ``v >= beta`` a lower bound."""
        cdef int v
        if alpha >= beta:
            raise ValueError(f"empty search window ({alpha}, {beta}): alpha must be below beta")
        self.fresh = False
        with nogil:
            v = ab(&self.s, alpha, beta)
        return v

    def at_least(self, int target) -> bool:
        """Whether the future value is at least ``target`` (one null-window search)."""
        cdef int v
        self.fresh = False
        with nogil:
            v = ab(&self.s, target - 1, target)
        return v >= target

    cdef int _child(self, int c, int arg, bint exact) except? -1:
        """Play card ``c``, search, take it back. ``exact``: the exact future value (``arg`` a guess, or -1);
        else one null-window search at ``arg``. Values are in this position's future scale: the gain of a
        trick the card closes is included."""
        cdef Search* s = &self.s
        cdef Tables* t = &s.t
        cdef int seat = (s.leader + s.ntr) % t.n
        cdef int sv_win_seat = s.win_seat
        cdef uint32_t sv_beats = s.beats
        cdef int gain = 0, v
        cdef bint closes
        cdef TrickSave sv
        if not (s.hand[seat] >> c) & 1:
            raise ValueError("card not in hand")
        memset(&sv, 0, sizeof(TrickSave))  # filled only when the card closes a trick (and read only then)
        self.fresh = False
        play_card(s, c, seat)
        note_winner(s, c, seat)
        closes = s.ntr == t.n
        if closes:
            gain = close_trick(s, seat, &sv)
        with nogil:
            if exact:
                v = gain + exact_value(s, -1 if arg < 0 else (arg - gain if arg >= gain else 0))
            else:
                v = gain + ab(s, arg - gain - 1, arg - gain)
        if closes:
            reopen_trick(s, &sv)
        unplay_card(s, c, seat)
        s.beats = sv_beats
        s.win_seat = sv_win_seat
        return v

    def child_values(self, int guess=-1):
        """The future value after each legal card is played now (dict core index -> value), as the gain of a
        trick the card closes plus what follows. One search per card :meth:`representatives` keeps, from the
        highest index down; an equivalent card takes the value of its representative.

        ``guess`` (the position's value, say) starts each card's exact search. Without one, the first card's
        search starts from scratch and each other card's from the best value found so far: the position's
        own value need not be searched first, and a card that falls short of the best is shown so by its first
        search."""
        cdef int c, r, v, best = -1
        cdef int seat = (self.s.leader + self.s.ntr) % self.s.t.n
        cdef bint maxing = self.s.t.maxer[seat]
        out = {}
        for c, r in self.representatives().items():  # from the highest index down: a representative first
            if r != c:
                out[c] = out[r]
            elif guess >= 0:
                out[c] = self._child(c, guess, True)
            else:
                # a maximiser's card is asked first whether it reaches the best so far, a minimiser's whether
                # it stays above it
                v = self._child(c, best if best < 0 or maxing else best + 1, True)
                if best < 0 or (v > best if maxing else v < best):
                    best = v
                out[c] = v
        return out

    def child_at_least(self, int c, int target) -> bool:
        """Whether the future value after card ``c`` is played now is at least ``target`` (one null-window
        search)."""
        return self._child(c, target, False) >= target
