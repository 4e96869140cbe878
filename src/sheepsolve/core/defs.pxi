# Definitions: the C helpers (bit tricks, the BMI2 key words, aligned allocation), the constants and the
# structs: a table entry (TTEntry, ShapeEntry), the compiled game (Tables), the search state (Search) and what
# playing a card or closing a trick saves (CardSave, TrickSave).

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
    uint64_t pad            # 32 bytes, on 64-byte aligned memory: an entry never spans two cache lines

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
    int throw_off_last_only
    int team[MAXSEATS]
    int nside[2]            # the seats of each side (team 0, team 1)
    int side_seats[2][MAXSEATS]
    int seat_at[2 * MAXSEATS]  # i % n: the seat ``p`` places after the leader is seat_at[leader + p]
    int maximizing[MAXSEATS]
    int sided               # every seat's side maximises if it is the objective's side, else minimises: a trick
                            # a side takes is a gain for it (not in ramsch or leaster)
    int anti                # every seat's side minimises if it is the objective's side, else maximises: each side
                            # would rather the other took the points (ramsch and leaster)
    int gain_tricks
    int bonus_left[17]
    int bonus_upto[17]      # bonus_left[1] + ... + bonus_left[i]
    int end_value[2]
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


ctypedef struct CardSave:  # what playing a card to a trick changes, saved before the node's first card
    uint32_t hand
    uint32_t ontable
    uint32_t beats
    int ntr
    int win_seat
    int trick_pts
    int hand_pts


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


ctypedef struct Probe:  # a trick start's table keys and shape slot, from the probe to the store
    uint64_t k0             # the transposition key (leader and flags included)
    uint64_t k1
    uint64_t sk0            # the shape key
    uint64_t sk1
    ShapeEntry* se          # the shape table's slot for it
    uint32_t rem            # the cards still out
