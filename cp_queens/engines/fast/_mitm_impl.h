/* The meet-in-the-middle counter, included three times by _mitm.c.
 *
 * Why three times: the join spends its time OR-ing rows of bitsets and counting their
 * bits. A wheel must run on any x86-64, so _mitm.c compiles these functions once for
 * the baseline (K(name) = name_scalar, MITM_PATH 0), and on x86-64 with GCC or Clang
 * once for AVX2 (name_avx2, MITM_PATH 1) and once for AVX-512 with its vector popcount
 * (name_avx512, MITM_PATH 2), and picks one when the module loads (or as a test asks).
 * Everything but the scan of the join (K(scan)) is the same source in the three.
 *
 * The method is stated, readably, in mitm.py; the names here are the same.
 */

/* The bits of `x` laid on the members of `mask`, lowest first (pdep). */
KINLINE u64 K(deposit)(u64 x, u64 mask) {
#if MITM_PATH >= 1
    return _pdep_u64(x, mask);
#else
    u64 out = 0;
    for (u64 bit = 1; mask; bit <<= 1) {
        u64 low = mask & (0 - mask);
        if (x & bit) out |= low;
        mask ^= low;
    }
    return out;
#endif
}

/* The halves of one column class: every placement of queens in the top k rows that uses
 * exactly the columns `cls` and keeps clear of the middle queen, as its key (mitm.py:
 * halves); `as_bottom` swaps each key's two halves (the half turned upside down). A key
 * is the window of the half's "/" and "\" diagonals that the other half can reach
 * (from n - k, `width` of each: mitm.key_tables), cut out of the pair's sums and
 * differences with a few shifts: the quarters need not hold keys of their own (a third
 * less to read of the second quarter's groups, which is what the pairing waits for). Made
 * from the quarters (see Quarters in _mitm.c): each split of the class into the columns
 * A of rows 0..a-1 and B of rows a..k-1 pairs the placements of the two quarters on them
 * that share no diagonal (nor one of the middle queen's). A few AND-s per pair and no
 * branch: several times faster than a search restricted to the class, which tries and
 * abandons most prefixes (a class is a few columns). Appends to *buf (grown as needed);
 * returns how many, or -1 when out of memory; `nodes` counts the pairs of quarters
 * tried. */
KATTR i64 K(halves_q)(const Quarters *q, int middle, u64 cls, int as_bottom, int width, u64 **buf,
                      i64 *cap, u64 *nodes) {
    int n = q->n, k = q->k, a = q->a;
    u64 s0 = 0, d0 = 0;
    if (middle >= 0) {
        s0 = (u64)1 << (k + middle);
        d0 = (u64)1 << (middle - k + n - 1);
    }
    u64 low = ((u64)1 << width) - 1;
    int lo = n - k, put_s = as_bottom ? width : 0, put_d = as_bottom ? 0 : width;
    i64 found = 0;
    u64 tried = 0;
    /* The splits of the class (each a's columns x among the class's k), looked up AHEAD
     * splits before they are paired: their groups of the second quarter are scattered
     * over megabytes, and the prefetch has their first lines on the way meanwhile. */
    enum { AHEAD = 4, RING = 8 };
    i64 ring_a[RING], ring_b[RING];
    int made = 0, used = 0;
    u64 next = ((u64)1 << a) - 1, end = (u64)1 << k;
    for (;;) {
        while (made - used < AHEAD && next < end) {
            u64 cols_a = K(deposit)(next, cls);
            i64 ra = (i64)colex_rank(cols_a), rb = (i64)colex_rank(cls ^ cols_a);
            i64 at = q->start2[rb];
            PREFETCH(q->s2 + at);
            PREFETCH(q->d2 + at);
            PREFETCH(q->s1 + q->start1[ra]);
            ring_a[made % RING] = ra;
            ring_b[made % RING] = rb;
            made++;
            next = next_subset(next);
        }
        if (used == made) break;
        i64 ra = ring_a[used % RING], rb = ring_b[used % RING];
        used++;
        i64 first2 = q->start2[rb], last2 = q->start2[rb + 1];
        i64 many = last2 - first2;
        if (many == 0) continue;
        const u64 *s2 = q->s2 + first2, *d2 = q->d2 + first2;
        for (i64 i = q->start1[ra]; i < q->start1[ra + 1]; i++) {
            u64 s1 = q->s1[i], d1 = q->d1[i];
            if ((s1 & s0) | (d1 & d0)) continue;
            u64 sums = s1 | s0, diffs = d1 | d0;
            if (found + many + 8 > *cap) {
                i64 grown = *cap < 1024 ? 1024 : *cap;
                while (grown < found + many + 8) grown *= 2;
                u64 *more = realloc(*buf, (size_t)grown * sizeof(u64));
                if (more == NULL) return -1;
                *buf = more;
                *cap = grown;
            }
            u64 *out = *buf;
            tried += (u64)many;
#if MITM_PATH == 2
            __m512i vs = _mm512_set1_epi64((long long)sums), vd = _mm512_set1_epi64((long long)diffs);
            __m512i vs1 = _mm512_set1_epi64((long long)s1), vd1 = _mm512_set1_epi64((long long)d1);
            __m512i vlow = _mm512_set1_epi64((long long)low);
            __m128i from = _mm_cvtsi32_si128(lo), to_s = _mm_cvtsi32_si128(put_s),
                    to_d = _mm_cvtsi32_si128(put_d);
            /* Eight partners a step, the last step masked (groups are often small). */
            for (i64 j = 0; j < many; j += 8) {
                __mmask8 in = many - j >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (many - j)) - 1);
                __m512i vs2 = _mm512_maskz_loadu_epi64(in, (const void *)(s2 + j));
                __m512i vd2 = _mm512_maskz_loadu_epi64(in, (const void *)(d2 + j));
                __m512i hit = _mm512_or_si512(_mm512_and_si512(vs, vs2), _mm512_and_si512(vd, vd2));
                __mmask8 ok = _mm512_mask_testn_epi64_mask(in, hit, hit);
                __m512i ks = _mm512_and_si512(_mm512_srl_epi64(_mm512_or_si512(vs1, vs2), from), vlow);
                __m512i kd = _mm512_and_si512(_mm512_srl_epi64(_mm512_or_si512(vd1, vd2), from), vlow);
                __m512i keys = _mm512_or_si512(_mm512_sll_epi64(ks, to_s), _mm512_sll_epi64(kd, to_d));
                /* Compressed in a register and stored whole (a compressing store to
                 * memory is microcoded on some CPUs); the buffer has 8 spare slots. */
                _mm512_storeu_si512((void *)(out + found), _mm512_maskz_compress_epi64(ok, keys));
                found += POPCOUNT((u64)ok);
            }
#else
            for (i64 j = 0; j < many; j++) {
                out[found] = ((((s1 | s2[j]) >> lo) & low) << put_s) |
                             ((((d1 | d2[j]) >> lo) & low) << put_d);
                found += ((sums & s2[j]) | (diffs & d2[j])) == 0;
            }
#endif
        }
    }
    *nodes += tried;
    return found;
}

/* Move the keys with `bit` clear to the front (in their order); return how many there
 * are. Branch-free (a key's side is a coin toss to the branch predictor): each key is
 * written to both places, and only the cursor of its own side moves; the keys with the
 * bit go through `spare` (room for `count`). */
KINLINE i64 K(partition)(u64 *keys, i64 count, u64 bit, u64 *spare) {
    i64 front = 0, back = 0, i = 0;
#if MITM_PATH == 2
    /* Eight keys a step, each side compressed in a register and stored whole: the
     * stores reach at most 7 slots past the cursor, keys of this step already loaded
     * (keys) or spare room (spare has 8 slots more than `count`). */
    __m512i vbit = _mm512_set1_epi64((long long)bit);
    for (; i + 8 <= count; i += 8) {
        __m512i x = _mm512_loadu_si512((const void *)(keys + i));
        __mmask8 has = _mm512_test_epi64_mask(x, vbit);
        _mm512_storeu_si512((void *)(keys + front), _mm512_maskz_compress_epi64((__mmask8)~has, x));
        _mm512_storeu_si512((void *)(spare + back), _mm512_maskz_compress_epi64(has, x));
        int ones = POPCOUNT((u64)has);
        front += 8 - ones;
        back += ones;
    }
#endif
    for (; i < count; i++) {
        u64 x = keys[i];
        i64 has = (i64)((x & bit) != 0);
        keys[front] = x;
        spare[back] = x;
        front += 1 - has;
        back += has;
    }
    memcpy(keys + front, spare, (size_t)back * sizeof(u64));
    return front;
}

/* Add to on[j] how many of every `step`-th key have bit j of `common`; how many keys
 * were looked at. Branch-free: a fixed loop over the bits (AVX-512: eight keys a step,
 * one vector test per bit). */
KINLINE i64 K(tally)(const u64 *keys, i64 count, i64 step, u64 common, i64 *on) {
    i64 seen = 0, i = 0;
    int top = 64 - __builtin_clzll(common | 1);
#if MITM_PATH == 2
    __m512i index = _mm512_set_epi64(7 * step, 6 * step, 5 * step, 4 * step, 3 * step, 2 * step,
                                     step, 0);
    for (; i + 7 * step < count; i += 8 * step, seen += 8) {
        __m512i x = _mm512_and_si512(_mm512_i64gather_epi64(index, (const void *)(keys + i), 8),
                                     _mm512_set1_epi64((long long)common));
        for (int j = 0; j < top; j++)
            on[j] += POPCOUNT((u64)_mm512_test_epi64_mask(x, _mm512_set1_epi64((long long)((u64)1 << j))));
    }
#endif
    for (; i < count; i += step, seen++) {
        u64 x = keys[i] & common;
        for (int j = 0; j < top; j++) on[j] += (i64)((x >> j) & 1);
    }
    return seen;
}

#if MITM_PATH == 2
/* The scan below with the number of chunks known when compiled (each caller passes a
 * constant): the loops over the chunks unroll, and the popcounts add up in one vector
 * summed once at the end. */
KINLINE u64 K(scan_chunks)(const u64 *big, i64 nbig, const u64 *rows, const int chunks, int words,
                           const u64 *pad) {
    const i64 table = (i64)256 * words;
    const int vectors = words / 8;
    __m512i total = _mm512_setzero_si512();
    for (i64 i = 0; i < nbig; i++) {
        u64 x = big[i];
        const u64 *row[8];
        for (int c = 0; c < chunks; c++) row[c] = rows + c * table + (i64)((x >> (8 * c)) & 255) * words;
        for (int v = 0; v < vectors; v++) {
            __m512i acc = _mm512_loadu_si512((const void *)(pad + 8 * v));
            for (int c = 0; c < chunks; c++)
                acc = _mm512_or_si512(acc, _mm512_loadu_si512((const void *)(row[c] + 8 * v)));
            total = _mm512_add_epi64(total, _mm512_popcnt_epi64(acc));
        }
    }
    return (u64)nbig * (u64)(64 * words) - (u64)_mm512_reduce_add_epi64(total);
}
#endif

/* Count the x in `big` whose bits meet none of the block's members: the scan of the
 * bit-sliced join. `rows` holds `chunks` tables of 256 rows of `words` 64-bit words
 * (row v of table c: the members having any bit of v in chunk c, as a bitset); `pad`
 * has the bits of the missing members set. Returns the pairs with no common bit. */
KATTR NOINLINE u64 K(scan)(const u64 *big, i64 nbig, const u64 *rows, int chunks, int words,
                           const u64 *pad) {
    u64 zeros = 0;
    const i64 table = (i64)256 * words;
#if MITM_PATH == 2
    (void)table;
    switch (chunks) {
    case 1: return K(scan_chunks)(big, nbig, rows, 1, words, pad);
    case 2: return K(scan_chunks)(big, nbig, rows, 2, words, pad);
    case 3: return K(scan_chunks)(big, nbig, rows, 3, words, pad);
    case 4: return K(scan_chunks)(big, nbig, rows, 4, words, pad);
    case 5: return K(scan_chunks)(big, nbig, rows, 5, words, pad);
    case 6: return K(scan_chunks)(big, nbig, rows, 6, words, pad);
    case 7: return K(scan_chunks)(big, nbig, rows, 7, words, pad);
    default: return K(scan_chunks)(big, nbig, rows, 8, words, pad);
    }
#elif MITM_PATH == 1
    int vectors = words / 4;
    for (i64 i = 0; i < nbig; i++) {
        u64 x = big[i];
        u64 ones = 0;
        for (int v = 0; v < vectors; v++) {
            __m256i acc = _mm256_loadu_si256((const __m256i *)(pad + 4 * v));
            const u64 *base = rows + 4 * v;
            for (int c = 0; c < chunks; c++) {
                const u64 *row = base + c * table + (i64)((x >> (8 * c)) & 255) * words;
                acc = _mm256_or_si256(acc, _mm256_loadu_si256((const __m256i *)row));
            }
            ones += (u64)POPCOUNT((u64)_mm256_extract_epi64(acc, 0)) +
                    (u64)POPCOUNT((u64)_mm256_extract_epi64(acc, 1)) +
                    (u64)POPCOUNT((u64)_mm256_extract_epi64(acc, 2)) +
                    (u64)POPCOUNT((u64)_mm256_extract_epi64(acc, 3));
        }
        zeros += (u64)(64 * words) - ones;
    }
#else
    for (i64 i = 0; i < nbig; i++) {
        u64 x = big[i];
        u64 ones = 0;
        for (int w = 0; w < words; w++) {
            u64 acc = pad[w];
            for (int c = 0; c < chunks; c++)
                acc |= rows[c * table + (i64)((x >> (8 * c)) & 255) * words + w];
            ones += (u64)POPCOUNT(acc);
        }
        zeros += (u64)(64 * words) - ones;
    }
#endif
    return zeros;
}

/* The block's members as bitsets, one per key bit: bit i of row j (of `words` words)
 * is bit j of member i; the rows come zeroed. */
KINLINE void K(slice)(const u64 *members, i64 count, int width, int words, u64 *bits) {
#if MITM_PATH == 2
    /* Eight members a step: one vector test per key bit gives their eight bits of it. */
    i64 i = 0;
    for (; i + 8 <= count; i += 8) {
        __m512i keys = _mm512_loadu_si512((const void *)(members + i));
        unsigned char *at = (unsigned char *)bits + (i >> 3);
        for (int j = 0; j < width; j++) {
            __mmask8 have = _mm512_test_epi64_mask(keys, _mm512_set1_epi64((long long)((u64)1 << j)));
            at[(i64)j * words * 8] = (unsigned char)have;
        }
    }
    for (; i < count; i++)
        for (int j = 0; j < width; j++)
            bits[j * words + (i >> 6)] |= ((members[i] >> j) & 1) << (i & 63);
#else
    for (i64 i = 0; i < count; i++)
        for (int j = 0; j < width; j++)
            bits[j * words + (i >> 6)] |= ((members[i] >> j) & 1) << (i & 63);
#endif
}

/* One table of the bit-sliced join: row v (of `words` words) is the union of the bitsets
 * of the `span` bits set in v (bits: the chunk's first bitset). AVX-512: the unions of
 * the low four bits and of the high four are made first (in registers), and each row is
 * one OR of the two; row by row from an earlier row, every row would wait on the store
 * of the one before (the tables were half of a small join, at n = 17). */
KINLINE void K(table)(const u64 *bits, int span, int words, u64 *t) {
    int entries = 1 << span;
#if MITM_PATH == 2
    if (span == 8) {
        for (int at = 0; at < words; at += 8) {
            __m512i low[16], high[16];
            low[0] = high[0] = _mm512_setzero_si512();
            for (int v = 1; v < 16; v++) {
                int bit = CTZ((u64)v);
                low[v] = _mm512_or_si512(low[v & (v - 1)],
                                         _mm512_loadu_si512((const void *)(bits + bit * words + at)));
                high[v] = _mm512_or_si512(
                    high[v & (v - 1)], _mm512_loadu_si512((const void *)(bits + (4 + bit) * words + at)));
            }
            for (int h = 0; h < 16; h++)
                for (int l = 0; l < 16; l++)
                    _mm512_storeu_si512((void *)(t + (i64)(16 * h + l) * words + at),
                                        _mm512_or_si512(low[l], high[h]));
        }
        return;
    }
#endif
    memset(t, 0, sizeof(u64) * (size_t)words);
    for (int v = 1; v < entries; v++) {
        const u64 *from = t + (i64)(v & (v - 1)) * words;
        const u64 *add = bits + (i64)CTZ((u64)v) * words;
        u64 *to = t + (i64)v * words;
        for (int w = 0; w < words; w++) to[w] = from[w] | add[w];
    }
}

/* Pairs (a in small, b in big) with a & b == 0, the keys compressed to `width` bits:
 * the small side is cut into blocks of at most BLOCK members, each block bit-sliced
 * into tables, and every key of the big side scans them. */
KATTR u64 K(sliced)(const u64 *small, i64 nsmall, const u64 *big, i64 nbig, int width,
                    Work *work) {
    u64 pairs = 0;
    int chunks = (width + 7) / 8;
    for (i64 start = 0; start < nsmall; start += BLOCK) {
        if (STOPPED()) return pairs;
        i64 members = nsmall - start < BLOCK ? nsmall - start : BLOCK;
        int words = (int)((members + 511) / 512) * 8;
        u64 *bits = work->bits;  /* one bitset of the block's members per key bit */
        memset(bits, 0, sizeof(u64) * (size_t)(64 * words));
        K(slice)(small + start, members, width, words, bits);
        u64 *rows = work->rows;
        const i64 table = (i64)256 * words;
        for (int c = 0; c < chunks; c++) {
            u64 *t = rows + c * table;
            int span = width - 8 * c < 8 ? width - 8 * c : 8;
            K(table)(bits + (i64)(8 * c) * words, span, words, t);
        }
        u64 *pad = work->pad;
        for (int w = 0; w < words; w++) {
            i64 first = (i64)w * 64;
            if (first >= members)
                pad[w] = ~(u64)0;
            else if (first + 64 <= members)
                pad[w] = 0;
            else
                pad[w] = ~(u64)0 << (members - first);
        }
        double started = TIC(work);
        pairs += K(scan)(big, nbig, rows, chunks, words, pad);
        if (work->timed) work->spent[PHASE_SCAN] += now() - started;
        work->pairs += (u64)members * (u64)nbig;
    }
    return pairs;
}

/* The keys compressed to the bits of `common` (pext), into `out`. */
KINLINE void K(compress)(const u64 *keys, i64 count, u64 common, u64 *out) {
#if MITM_PATH >= 1
    for (i64 i = 0; i < count; i++) out[i] = _pext_u64(keys[i], common);
#else
    for (i64 i = 0; i < count; i++) {
        u64 x = keys[i], packed = 0, m = common;
        int at = 0;
        while (m) {
            u64 low = m & (0 - m);
            if (x & low) packed |= (u64)1 << at;
            at++;
            m ^= low;
        }
        out[i] = packed;
    }
#endif
}

/* Pairs (a in A, b in B) with a & b == 0 (see mitm.py: join). Reorders A and B. */
KATTR u64 K(join)(u64 *a, i64 na, u64 *b, i64 nb, Work *work) {
    if (na == 0 || nb == 0) return 0;
    if (STOPPED()) return 0;
    u64 any_a = 0, any_b = 0;
    for (i64 i = 0; i < na; i++) any_a |= a[i];
    for (i64 i = 0; i < nb; i++) any_b |= b[i];
    u64 common = any_a & any_b;
    if (common == 0) return (u64)na * (u64)nb;
    u64 product = (u64)na * (u64)nb;
    if (product >= work->split_from) {
        /* The bit most likely to be in both members of a pair: pairs having it on both
         * sides never count, so they need not be looked at. Estimated on a sample of
         * each side (SAMPLE keys, evenly spread): exact counts cost more than the
         * split saves. */
        double started = TIC(work);
        i64 on_a[64], on_b[64];
        memset(on_a, 0, sizeof on_a);
        memset(on_b, 0, sizeof on_b);
        i64 step_a = na > SAMPLE ? na / SAMPLE : 1, step_b = nb > SAMPLE ? nb / SAMPLE : 1;
        i64 seen_a = K(tally)(a, na, step_a, common, on_a);
        i64 seen_b = K(tally)(b, nb, step_b, common, on_b);
        int best = -1;
        u64 saved = 0;
        for (int j = 0; j < 64; j++) {
            u64 both = (u64)on_a[j] * (u64)on_b[j];
            if (both > saved) {
                saved = both;
                best = j;
            }
        }
        if (best < 0 || saved * SPLIT_SHARE < (u64)seen_a * (u64)seen_b) {
            if (work->timed) work->spent[PHASE_PARTITION] += now() - started;
        } else {
            u64 bit = (u64)1 << best;
            u64 *spare = scratch(&work->sp, &work->cap_sp, (na > nb ? na : nb) + 8);
            if (spare == NULL) {
                work->failed = 1;
                return 0;
            }
            i64 a0 = K(partition)(a, na, bit, spare);
            i64 b0 = K(partition)(b, nb, bit, spare);
            if (work->timed) work->spent[PHASE_PARTITION] += now() - started;
            /* The prefix call first: it reorders only b[0:b0], the full one after. */
            u64 upper = K(join)(a + a0, na - a0, b, b0, work);
            return upper + K(join)(a, a0, b, nb, work);
        }
    }
    int width = POPCOUNT(common);
    /* Compressed into scratch buffers: a and b are parts of larger arrays that the
     * caller's other half of a split still reads. */
    u64 *ca = scratch(&work->sa, &work->cap_sa, na);
    u64 *cb = scratch(&work->sb, &work->cap_sb, nb);
    if (ca == NULL || cb == NULL) {
        work->failed = 1;
        return 0;
    }
    K(compress)(a, na, common, ca);
    K(compress)(b, nb, common, cb);
    const u64 *small = na <= nb ? ca : cb;
    const u64 *big = na <= nb ? cb : ca;
    i64 nsmall = na <= nb ? na : nb;
    i64 nbig = na <= nb ? nb : na;
    if (nsmall < DIRECT_BELOW) {
        u64 pairs = 0;
        for (i64 i = 0; i < nsmall; i++) {
            u64 x = small[i];
            for (i64 j = 0; j < nbig; j++) pairs += (x & big[j]) == 0;
        }
        work->pairs += (u64)nsmall * (u64)nbig;
        return pairs;
    }
    return K(sliced)(small, nsmall, big, nbig, width, work);
}

/* Count every class orbit whose representative has its rank in [lo, hi) (see mitm.py:
 * count_range). Adds to out[0] the solutions (each representative's pairs times its
 * orbit), out[1] the representatives, out[2] the search nodes of the halves and out[3]
 * the pairs looked at. Returns 0, 1 when stopped, -1 when out of memory. */
KATTR int K(count_range)(const Board *board, const Quarters *quarters, u64 lo, u64 hi, u64 *out,
                         Work *work) {
    u64 cls = unrank(lo, board->places, board->k);
    for (u64 rank = lo; rank < hi; rank++) {
        if (rank != lo) cls = next_subset(cls);
        if (STOPPED()) return 1;
        u64 top = expand(board, cls);
        int weight = orbit_weight(board, top);
        if (weight == 0) continue;
        u64 bottom = board->all ^ top;
        double started = TIC(work);
        i64 na = K(halves_q)(quarters, board->middle, top, 0, board->width, &work->a,
                             &work->cap_a, &out[2]);
        if (na < 0) return -1;
        if (na == 0) {
            out[1]++;
            if (work->timed) work->spent[PHASE_HALVES] += now() - started;
            continue;
        }
        i64 nb = K(halves_q)(quarters, board->middle, bottom, 1, board->width, &work->b,
                             &work->cap_b, &out[2]);
        if (nb < 0) return -1;
        double joined = TIC(work);
        if (work->timed) work->spent[PHASE_HALVES] += joined - started;
        u64 pairs = K(join)(work->a, na, work->b, nb, work);
        if (work->timed) work->spent[PHASE_JOIN] += now() - joined;
        if (work->failed) return -1;
        if (STOPPED()) return 1;
        out[0] += (u64)weight * pairs;
        out[1]++;
    }
    out[3] += work->pairs;
    work->pairs = 0;
    return 0;
}

/* Pairs of one ordered class (top columns `top`), unweighted: for tests. */
KATTR int K(count_class)(const Board *board, const Quarters *quarters, u64 top, u64 *out,
                         Work *work) {
    u64 bottom = board->all ^ top;
    i64 na = K(halves_q)(quarters, board->middle, top, 0, board->width, &work->a, &work->cap_a,
                         &out[2]);
    i64 nb = K(halves_q)(quarters, board->middle, bottom, 1, board->width, &work->b,
                         &work->cap_b, &out[2]);
    if (na < 0 || nb < 0) return -1;
    out[0] += K(join)(work->a, na, work->b, nb, work);
    if (work->failed) return -1;
    out[3] += work->pairs;
    work->pairs = 0;
    return STOPPED() ? 1 : 0;
}
