/* The search kernels of engine `fast`, included twice by _kernels.c.
 *
 * Why twice: the counting loops spend their time in popcount, count-trailing-zeros
 * and shifts. A wheel must run on any x86-64, whose baseline has no POPCNT or BMI
 * instructions (a popcount becomes a dozen instructions); so _kernels.c compiles
 * these functions once for the baseline (K(name) = name_generic) and, on x86-64 with
 * GCC or Clang, once more for CPUs with POPCNT/BMI1/BMI2/LZCNT (K(name) = name_v3),
 * and picks one when the module loads. KATTR carries the target attribute.
 *
 * Every function here is a line-for-line port of the interpreted kernels in
 * cp_queens/engines/fast/ (bits.py, kernels.py, dynamic.py), which stay the
 * readable statement of the algorithm and the fallback where no compiler was found
 * at install; tests/test_fast_kernels.py checks that both count every small board
 * and subtree alike. Masks are uint64_t: bit c of a row mask is column c, n <= 62.
 */

KATTR int K(column_of)(u64 bit) { return bit ? (int)CTZ(bit) : -1; }

KATTR u64 K(row_options)(int row, u64 cols, u64 left, u64 right, const u64 *allow, int side_row,
                         u64 side) {
    u64 free_ = ~(cols | left | right) & allow[row];
    if (row == side_row) {
        u64 taken = cols & side;
        if (taken == 0) return 0;
        if (taken != side) free_ &= side;
    }
    return free_;
}

/* Orbit size of the complete board `bits` if it is canonical, else 0 (bits.edge_orbit). */
KATTR int K(edge_orbit)(int n, const u64 *bits, i64 *queen_cols, i64 *inverse) {
    int last = n - 1;
    u64 top = (u64)1 << last;
    int first = K(column_of)(bits[0]);
    int bottom = K(column_of)(bits[last]);
    int row_left = 0, row_right = 0;
    for (int r = 0; r < n; r++) {
        if (bits[r] == 1)
            row_left = r;
        else if (bits[r] == top)
            row_right = r;
    }
    int starts[6] = {bottom, last - bottom, row_left, last - row_right, last - row_left,
                     row_right};
    int built = 0, stabiliser = 1;
    for (int image = 1; image < 7; image++) {
        if (starts[image - 1] != first) continue;
        if (!built) {
            for (int r = 0; r < n; r++) {
                int c = K(column_of)(bits[r]);
                queen_cols[r] = c;
                inverse[c & 63] = r;
            }
            built = 1;
        }
        int order = 0;
        for (int i = 0; i < n; i++) {
            i64 v;
            switch (image) {
                case 1: v = queen_cols[last - i]; break;
                case 2: v = last - queen_cols[last - i]; break;
                case 3: v = inverse[i]; break;
                case 4: v = last - inverse[last - i]; break;
                case 5: v = last - inverse[i]; break;
                default: v = inverse[last - i]; break;
            }
            if (v != queen_cols[i]) {
                order = v < queen_cols[i] ? -1 : 1;
                break;
            }
        }
        if (order < 0) return 0;
        if (order == 0) stabiliser++;
    }
    return 8 / stabiliser;
}

/* Fill `allow` for a subtree of `kind`; return its side_row (bits.kind_rules). */
KATTR int K(kind_rules)(int n, int kind, const u64 *bits, const u64 *base, u64 *allow) {
    for (int r = 0; r < n; r++) allow[r] = base[r];
    int side_row = -1;
    if (kind == KIND_CORNER) {
        allow[0] &= 1;
        if (n > 1) {
            int below = K(column_of)(bits[1]);
            for (int r = 2; r < below; r++) allow[r] &= ~(u64)2;
        }
    } else if (kind == KIND_EDGE) {
        int b = K(column_of)(bits[0]);
        u64 side = 1 | ((u64)1 << (n - 1));
        allow[0] &= (u64)1 << b;
        for (int r = 1; r < b; r++) allow[r] &= ~side;
        u64 near_corners = (((u64)1 << b) - 1) | ((((u64)1 << b) - 1) << (n - b));
        allow[n - 1] &= ~near_corners;
        side_row = n - 1 - b;
    }
    return side_row;
}

/* Whether the preset rows keep the kind's rules and attack nothing (kernels.prefix_fits). */
KATTR int K(prefix_fits)(int n, int depth, const u64 *bits, const u64 *allow, int side_row) {
    u64 mask = ((u64)1 << n) - 1;
    u64 side = 1 | ((u64)1 << (n - 1));
    u64 cols = 0, left = 0, right = 0;
    for (int r = 0; r < depth; r++) {
        u64 bit = bits[r];
        if ((bit & K(row_options)(r, cols, left, right, allow, side_row, side)) == 0) return 0;
        cols |= bit;
        left = ((left | bit) << 1) & mask;
        right = (right | bit) >> 1;
    }
    return 1;
}

KATTR int K(popcount2)(u64 free_) {
    if (free_ == 0) return 0;
    return (free_ & (free_ - 1)) == 0 ? 1 : 2;
}

/* Which of the (at most two) squares of row n-2 complete a board (kernels.last_two). */
KATTR int K(last_two)(u64 mask, u64 cols, u64 left, u64 right, u64 free_, u64 closed) {
    u64 rest = mask & ~cols;
    u64 low = free_ & (0 - free_);
    u64 high = free_ ^ low;
    int ways = 0;
    u64 other = rest ^ low;
    if (other & ~(((left | low) << 1) | ((right | low) >> 1)) & ~closed) ways = 1;
    if (high) {
        other = rest ^ high;
        if (other & ~(((left | high) << 1) | ((right | high) >> 1)) & ~closed) ways |= 2;
    }
    return ways;
}

/* Leaves and nodes below a legal corner prefix (kernels.count_corner). */
KATTR NOINLINE void K(count_corner)(int n, int depth, const u64 *bits, int bound1, u64 *stack, i64 *out_leaves,
                           i64 *out_nodes) {
    u64 mask = ((u64)1 << n) - 1;
    int pen = n - 2;
    u64 cols = 0, left = 0, right = 0;
    for (int r = 0; r < depth; r++) {
        u64 bit = bits[r];
        cols |= bit;
        left = (left | bit) << 1;
        right = (right | bit) >> 1;
    }
    int row = depth;
    u64 free_ = mask & ~(cols | left | right);
    if (row < bound1) free_ &= ~(u64)2;
    i64 leaves = 0, nodes = 0;
    for (;;) {
        if (free_ == 0) {
            if (row == depth || STOPPED()) break;
            row--;
            int k = (row & 63) << 2;
            free_ = stack[k];
            cols = stack[k + 1];
            left = stack[k + 2];
            right = stack[k + 3];
            continue;
        }
        u64 bit = free_ & (0 - free_);
        free_ ^= bit;
        nodes++;
        u64 below_cols = cols | bit;
        u64 below_left = (left | bit) << 1;
        u64 below_right = (right | bit) >> 1;
        int below = row + 1;
        u64 below_free = mask & ~(below_cols | below_left | below_right);
        if (below < bound1) below_free &= ~(u64)2;
        if (below_free == 0) continue;
        if (below == pen) {
            int ways = K(last_two)(mask, below_cols, below_left, below_right, below_free, 0);
            leaves += (ways & 1) + (ways >> 1);
            nodes += K(popcount2)(below_free) + (ways & 1) + (ways >> 1);
            continue;
        }
        int k = (row & 63) << 2;
        stack[k] = free_;
        stack[k + 1] = cols;
        stack[k + 2] = left;
        stack[k + 3] = right;
        row = below;
        free_ = below_free;
        cols = below_cols;
        left = below_left;
        right = below_right;
    }
    *out_leaves = leaves;
    *out_nodes = nodes;
}

/* Orbit-weighted solutions, orbits and nodes below a legal edge prefix (kernels.count_edge). */
KATTR NOINLINE void K(count_edge)(int n, int depth, u64 *bits, u64 *stack, i64 *queen_cols, i64 *inverse,
                         i64 *result) {
    u64 mask = ((u64)1 << n) - 1;
    int last = n - 1;
    int pen = n - 2;
    u64 side = 1 | ((u64)1 << last);
    int b = K(column_of)(bits[0]);
    int bound2 = last - b;
    u64 near = (((u64)1 << b) - 1) | ((((u64)1 << b) - 1) << (n - b));
    u64 cols = 0, left = 0, right = 0;
    for (int r = 0; r < depth; r++) {
        u64 bit = bits[r];
        cols |= bit;
        left = (left | bit) << 1;
        right = (right | bit) >> 1;
    }
    int row = depth;
    u64 free_ = mask & ~(cols | left | right);
    if (row < b) {
        free_ &= ~side;
    } else if (row == bound2) {
        u64 taken = cols & side;
        if (taken == 0)
            free_ = 0;
        else if (taken != side)
            free_ &= side;
    }
    i64 total = 0, leaves = 0, nodes = 0;
    for (;;) {
        if (free_ == 0) {
            if (row == depth || STOPPED()) break;
            row--;
            int k = (row & 63) << 2;
            free_ = stack[k];
            cols = stack[k + 1];
            left = stack[k + 2];
            right = stack[k + 3];
            continue;
        }
        u64 bit = free_ & (0 - free_);
        free_ ^= bit;
        bits[row & 63] = bit;
        nodes++;
        u64 below_cols = cols | bit;
        u64 below_left = (left | bit) << 1;
        u64 below_right = (right | bit) >> 1;
        int below = row + 1;
        u64 below_free = mask & ~(below_cols | below_left | below_right);
        if (below < b) {
            below_free &= ~side;
        } else if (below == bound2) {
            u64 taken = below_cols & side;
            if (taken == 0) continue;
            if (taken != side) below_free &= side;
        }
        if (below_free == 0) continue;
        if (below == pen) {
            int ways = K(last_two)(mask, below_cols, below_left, below_right, below_free, near);
            nodes += K(popcount2)(below_free) + (ways & 1) + (ways >> 1);
            if (ways) {
                u64 rest = mask & ~below_cols;
                u64 low = below_free & (0 - below_free);
                for (int choice = 0; choice < 2; choice++) {
                    if ((ways >> choice) & 1) {
                        u64 square = choice == 0 ? low : (below_free ^ low);
                        bits[pen] = square;
                        bits[last] = rest ^ square;
                        int orbit = K(edge_orbit)(n, bits, queen_cols, inverse);
                        if (orbit) {
                            total += orbit;
                            leaves++;
                        }
                    }
                }
            }
            continue;
        }
        int k = (row & 63) << 2;
        stack[k] = free_;
        stack[k + 1] = cols;
        stack[k + 2] = left;
        stack[k + 3] = right;
        row = below;
        free_ = below_free;
        cols = below_cols;
        left = below_left;
        right = below_right;
    }
    result[0] = total;
    result[1] = leaves;
    result[2] = nodes;
}

/* The most constrained row first, diagonals by index (dynamic.count_dynamic). Written once
 * and specialised twice (by_orbit a constant: count_dynamic_plain, count_dynamic_orbit),
 * and the stack is walked by a pointer (`top`, six slots a level; at most n <= 32 levels):
 * fewer live values in the loop, so none of them is kept in memory. */
KINLINE void K(dynamic_body)(int n, int depth, u64 *bits, const u64 *allow, const int by_orbit,
                             u64 *stack, i64 *queen_cols, i64 *inverse, i64 *result) {
    const i64 last = n - 1;
    const u64 mask = ((u64)1 << n) - 1;
    u64 rows = mask ^ (((u64)1 << depth) - 1);
    u64 cols = 0, d1 = 0, d2 = 0;
    result[0] = result[1] = result[2] = 0;
    for (i64 r = 0; r < depth; r++) {
        u64 bit = bits[r];
        cols |= bit;
        d1 |= bit << r;
        d2 |= bit << (last - r);
    }
    i64 total = 0, leaves = 0, nodes = 0;
    u64 key = (u64)1 << 62;
    u64 reach = 0;
    u64 scan = rows;
    while (scan) {
        i64 r = (i64)CTZ(scan);
        scan &= scan - 1;
        u64 f = allow[r & 63] & ~(cols | (d1 >> r) | (d2 >> (last - r)));
        reach |= f;
        u64 k = ((u64)POPCOUNT(f) << 8) | (u64)r;
        key = k < key ? k : key;
        if (k < 256) return;
    }
    if (mask & ~cols & ~reach) return;
    i64 row = (i64)(key & 255);
    u64 free_ = allow[row & 63] & ~(cols | (d1 >> row) | (d2 >> (last - row)));
    u64 *top = stack;
    for (;;) {
        if (free_ == 0) {
            if (top == stack || STOPPED()) break;
            top -= 6;
            free_ = top[0];
            row = (i64)top[1];
            cols = top[2];
            d1 = top[3];
            d2 = top[4];
            rows = top[5];
            continue;
        }
        u64 bit = free_ & (0 - free_);
        free_ ^= bit;
        nodes++;
        if (by_orbit) bits[row & 63] = bit;
        u64 below_rows = rows ^ ((u64)1 << row);
        u64 below_cols = cols | bit;
        u64 below_d1 = d1 | (bit << row);
        u64 below_d2 = d2 | (bit << (last - row));
        /* The open row with the fewest free squares, as the smallest key 256 * squares + row,
         * taken without a branch (see dynamic.py for why). */
        key = (u64)1 << 62;
        reach = 0;
        scan = below_rows;
        while (scan) {
            i64 r = (i64)CTZ(scan);
            scan &= scan - 1;
            u64 f = allow[r & 63] & ~(below_cols | (below_d1 >> r) | (below_d2 >> (last - r)));
            reach |= f;
            u64 k = ((u64)POPCOUNT(f) << 8) | (u64)r;
            key = k < key ? k : key;
            if (k < 256) break;
        }
        if (key < 256) continue;
        if (mask & ~below_cols & ~reach) continue;
        i64 best = (i64)(key & 255);
        u64 below_free =
            allow[best & 63] & ~(below_cols | (below_d1 >> best) | (below_d2 >> (last - best)));
        if ((below_rows & (below_rows - 1)) == 0) {
            nodes++;
            if (by_orbit) {
                bits[best & 63] = below_free;
                int orbit = K(edge_orbit)(n, bits, queen_cols, inverse);
                if (orbit) {
                    total += orbit;
                    leaves++;
                }
            } else {
                leaves++;
            }
            continue;
        }
        top[0] = free_;
        top[1] = (u64)row;
        top[2] = cols;
        top[3] = d1;
        top[4] = d2;
        top[5] = rows;
        top += 6;
        row = best;
        free_ = below_free;
        cols = below_cols;
        d1 = below_d1;
        d2 = below_d2;
        rows = below_rows;
    }
    result[0] = total;
    result[1] = leaves;
    result[2] = nodes;
}

KATTR NOINLINE void K(count_dynamic_plain)(int n, int depth, u64 *bits, const u64 *allow,
                                           u64 *stack, i64 *queen_cols, i64 *inverse,
                                           i64 *result) {
    K(dynamic_body)(n, depth, bits, allow, 0, stack, queen_cols, inverse, result);
}

KATTR NOINLINE void K(count_dynamic_orbit)(int n, int depth, u64 *bits, const u64 *allow,
                                           u64 *stack, i64 *queen_cols, i64 *inverse,
                                           i64 *result) {
    K(dynamic_body)(n, depth, bits, allow, 1, stack, queen_cols, inverse, result);
}

/* The fixed-order search of any subtree (dynamic.count_subtree). */
KATTR NOINLINE void K(count_subtree)(int n, int depth, u64 *bits, const u64 *allow, int side_row,
                            int weight, u64 *stack, i64 *queen_cols, i64 *inverse, i64 *result) {
    u64 mask = ((u64)1 << n) - 1;
    u64 side = 1 | ((u64)1 << (n - 1));
    int last = n - 1;
    u64 cols = 0, left = 0, right = 0;
    result[0] = result[1] = result[2] = 0;
    for (int r = 0; r < depth; r++) {
        u64 bit = bits[r];
        if ((bit & K(row_options)(r, cols, left, right, allow, side_row, side)) == 0) return;
        cols |= bit;
        left = ((left | bit) << 1) & mask;
        right = (right | bit) >> 1;
    }
    if (depth == n) {
        if (weight != BY_ORBIT) {
            result[0] = weight;
            result[1] = 1;
            return;
        }
        int orbit = K(edge_orbit)(n, bits, queen_cols, inverse);
        result[0] = orbit;
        result[1] = orbit ? 1 : 0;
        return;
    }
    i64 total = 0, leaves = 0, nodes = 0;
    int row = depth;
    u64 free_ = K(row_options)(row, cols, left, right, allow, side_row, side);
    if (row == last) {
        if (free_ == 0) return;
        bits[last] = free_;
        result[2] = 1;
        if (weight != BY_ORBIT) {
            result[0] = weight;
            result[1] = 1;
            return;
        }
        int orbit = K(edge_orbit)(n, bits, queen_cols, inverse);
        result[0] = orbit;
        result[1] = orbit ? 1 : 0;
        return;
    }
    for (;;) {
        if (free_ == 0) {
            if (row == depth || STOPPED()) break;
            row--;
            int k = (row & 63) << 2;
            free_ = stack[k];
            cols = stack[k + 1];
            left = stack[k + 2];
            right = stack[k + 3];
            continue;
        }
        u64 bit = free_ & (0 - free_);
        free_ ^= bit;
        bits[row] = bit;
        nodes++;
        u64 below_cols = cols | bit;
        u64 below_left = (left | bit) << 1;
        u64 below_right = (right | bit) >> 1;
        int below = row + 1;
        u64 below_free =
            K(row_options)(below, below_cols, below_left, below_right, allow, side_row, side);
        if (below_free == 0) continue;
        if (below == last) {
            nodes++;
            bits[last] = below_free;
            if (weight != BY_ORBIT) {
                total += weight;
                leaves++;
            } else {
                int orbit = K(edge_orbit)(n, bits, queen_cols, inverse);
                if (orbit) {
                    total += orbit;
                    leaves++;
                }
            }
            continue;
        }
        int k = (row & 63) << 2;
        stack[k] = free_;
        stack[k + 1] = cols;
        stack[k + 2] = left;
        stack[k + 3] = right;
        row = below;
        free_ = below_free;
        cols = below_cols;
        left = below_left;
        right = below_right;
    }
    result[0] = total;
    result[1] = leaves;
    result[2] = nodes;
}

/* Count a batch of subtrees (kernels.count_many); inputs were checked by the caller. */
KATTR i64 K(count_many)(int n, i64 m, const i64 *kinds, const i64 *depths, const u64 *prefixes,
                        const u64 *base, i64 *results, u64 *allow, u64 *bits, u64 *stack,
                        i64 *queen_cols, i64 *inverse) {
    for (i64 i = 0; i < m; i++) {
        if (STOPPED()) return i;
        int kind = (int)kinds[i];
        int depth = (int)depths[i];
        i64 part[3] = {0, 0, 0};
        for (int r = 0; r < depth; r++) bits[r] = prefixes[i * n + r];
        int side_row = K(kind_rules)(n, kind, bits, base, allow);
        int weight = 1;
        if (kind == KIND_CORNER && n > 1)
            weight = 8;
        else if (kind == KIND_EDGE)
            weight = BY_ORBIT;
        if (kind == KIND_PLAIN || depth > n - 3 || (kind == KIND_CORNER && depth < 2)) {
            K(count_subtree)(n, depth, bits, allow, side_row, weight, stack, queen_cols, inverse,
                             part);
        } else if (!K(prefix_fits)(n, depth, bits, allow, side_row)) {
            /* nothing below */
        } else if (n <= DYNAMIC_UP_TO) {
            if (kind == KIND_EDGE) {
                int b = K(column_of)(bits[0]);
                for (int r = n - b; r < n; r++) allow[r] &= ~(1 | ((u64)1 << (n - 1)));
            }
            if (kind == KIND_EDGE)
                K(count_dynamic_orbit)(n, depth, bits, allow, stack, queen_cols, inverse, part);
            else
                K(count_dynamic_plain)(n, depth, bits, allow, stack, queen_cols, inverse, part);
            if (kind == KIND_CORNER) part[0] = 8 * part[1];
        } else if (kind == KIND_CORNER) {
            K(count_corner)(n, depth, bits, K(column_of)(bits[1]), stack, &part[1], &part[2]);
            part[0] = 8 * part[1];
        } else {
            K(count_edge)(n, depth, bits, stack, queen_cols, inverse, part);
        }
        if (STOPPED()) return i; /* this subtree's figures are partial */
        results[3 * i] = part[0];
        results[3 * i + 1] = part[1];
        results[3 * i + 2] = part[2];
    }
    return m;
}
