# Core: the Python-facing class. Owns the tables' memory, loads compiled tables (tables.py), sets a
# position and answers value, threshold and per-card questions.

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
        """Free the tables' memory."""
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
        """Bytes of this core's tables (see :meth:`bytes_for`)."""
        return (self.nentries + self.gentries) * (sizeof(TTEntry) + sizeof(ShapeEntry))

    @property
    def nodes(self) -> int:
        """Positions searched since the last :meth:`reset_nodes` (a forced last trick counts each of its cards)."""
        return self.s.nodes

    @property
    def shape_hits(self) -> int:
        """Shape-table probes that found the position's shape, since the core was made."""
        return self.s.shape_hits

    def reset_nodes(self):
        """Start counting nodes from 0."""
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
        would empty the tables twice as often."""
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
            # stay: the next context is often a close one (another call, card under or contract on the same deal)
            self._forget_entries()
            self.context = tables.context
        # The struct depends on the tables alone: built once per tables object (the deals of a game and call
        # share one), then copied (building it costs a noticeable part of a small solve)
        hit = self.tables_cache.get(id(tables))
        if hit is not None and hit[0] is tables:
            memcpy(t, <const char*>hit[1], sizeof(Tables))
            return
        # Most of it depends on the card layout alone, which the contexts of a game and call share (the deals of
        # a game differ in the side): built once per layout, the side's part filled in for each
        layout = (tables.n, tables.order, tables.cls, tables.pts, tables.cmask, tables.trump_cls, tables.called,
                  tables.called_cls, tables.special, tables.blocks)
        lay = self.layouts_cache.get(layout)
        if lay is not None:
            memcpy(t, <const char*>lay, sizeof(Tables))
        else:
            memset(t, 0, sizeof(Tables))
            build_layout(&self.s.t, tables)
            if len(self.layouts_cache) >= 64:
                self.layouts_cache.clear()
            self.layouts_cache[layout] = (<char*>t)[:sizeof(Tables)]
        build_context(&self.s.t, tables)
        if len(self.tables_cache) >= 256:
            self.tables_cache.clear()
        self.tables_cache[id(tables)] = (tables, (<char*>t)[:sizeof(Tables)])

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
            note_winner(s, c, s.t.seat_at[leader + s.ntr - 1], s.ntr - 1, s.beats)
        s.live |= s.ontable
        for c in range(32):
            s.scode[c] = 6 if c == s.t.called else <uint64_t>(s.owner[c] + 1)
        s.called_code = <uint64_t>(s.owner[s.t.called] + 1) << 59 if s.t.called >= 0 else 0
        # each block's key words for every set ``pm`` of its cards still out (the cards out take the block's
        # lowest slots, weakest first: the strongest of them the last slot), then what each card of the set
        # changes by leaving it (built from each block's smaller sets, not every set x MAXBLOCK places)
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
        cdef int gain = 0, v
        cdef bint closes
        cdef CardSave cs
        cdef TrickSave sv
        if not (s.hand[seat] >> c) & 1:
            raise ValueError("card not in hand")
        memset(&sv, 0, sizeof(TrickSave))  # filled only when the card closes a trick (and read only then)
        self.fresh = False
        save_card_state(s, seat, &cs)
        make_card(s, c, seat, &cs)
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
        unmake_card(s, seat, &cs)
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
        cdef bint maxing = self.s.t.maximizing[seat]
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
