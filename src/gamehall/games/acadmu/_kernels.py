"""Numba kernels of the Äcädmü exact solver (private: use ``gamehall.games.acadmu.solver``).

State, from the search's point of view (``me`` is the side to move, ``op = 1 - me``)::

    cnt[side, pairing]   token counts, pairing = colour*3 + shape (RT RS RC BT BS BC YT YS YC)
    col[side, colour]    per-colour totals      shp[side, shape]  per-shape totals
    tot[side]            token totals           pk[side]          the 9 counts packed 3 bits each

Only totals matter to the static facts: a side can capture iff for some colour c it has c and the
opponent has c+1, or for some shape s it has s and the opponent has two or more of s+1; its
potential is sum_s min(shp[me, s], shp[op, s+1] // 2).

A move is ``own*9 + sub``: ``sub`` 0..2 takes, by colour, the opponent's token of the colour
``own`` beats and shape ``sub``; ``sub`` 3..8 takes, by shape, two opponent tokens of the shape
``own`` beats with colours ``PAIRS[sub-3]``.

Positions after a pass are never searched: the side still able to capture plays alone and gains
exactly its potential. The transposition key is mover-relative (``pk[me] | pk[op] << 27``): the
rules treat Dark and Light alike, so a position and its twin with the sides exchanged share an
entry, and entries stay true from one solve to the next.

Static bounds come from the shape-race tables (``race_tables``): exact DP values of a shape-totals
game that favours one side, two per root, looked up by a linear index into the box of shape
totals below the root's.
"""

# ruff: noqa: ANN001, SIM108, SIM110, E741
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from gamehall.games.acadmu.tokens import COLOUR_PAIRS

MAXPLY = 64
NMOVES = 81
INF = 1000

# Colour pairs (c1 <= c2) of the two tokens taken by shape, in the game's own order (numba
# freezes module-level arrays as constants, so reading them from the game costs nothing).
PAIR1 = np.array([a for a, _ in COLOUR_PAIRS], dtype=np.int64)
PAIR2 = np.array([b for _, b in COLOUR_PAIRS], dtype=np.int64)

# --- symmetry ---------------------------------------------------------------------------------
# The rules are unchanged by turning the colour circle (c -> c+a) and the shape circle (s -> s+b)
# together on both sides: 9 symmetries, numbered a*3 + b. The table keys a position by the least
# of its 9 images (its canonical form) and stores its move in the canonical frame. In the packed
# key (pairing p = c*3 + s in bits 3p..3p+2 of each side's 27-bit half) a colour turn rotates the
# three 9-bit colour groups of each half and a shape turn rotates the three 3-bit fields of every
# group, so an image is a few shifts and masks.
_HALF = np.int64((1 << 27) | 1)  # a mask times this repeats it in both halves
_G0 = np.int64((1 << 9) - 1) * _HALF
_G12 = np.int64(((1 << 27) - 1) ^ ((1 << 9) - 1)) * _HALF
_F0 = np.int64(7 | (7 << 9) | (7 << 18)) * _HALF
_F12 = np.int64((1 << 27) - 1) * _HALF ^ _F0


def _move_images() -> np.ndarray:
    """SYM_MOVE[k, m]: move m under symmetry k (colour +k//3, shape +k%3)."""
    images = np.empty((9, 81), dtype=np.int64)
    for a in range(3):
        for b in range(3):
            for m in range(81):
                p, sub = divmod(m, 9)
                c, sh = divmod(p, 3)
                p2 = ((c + a) % 3) * 3 + (sh + b) % 3
                if sub < 3:
                    sub2 = (sub + b) % 3
                else:
                    c1, c2 = COLOUR_PAIRS[sub - 3]
                    pair = tuple(sorted(((c1 + a) % 3, (c2 + a) % 3)))
                    sub2 = 3 + COLOUR_PAIRS.index(pair)
                images[a * 3 + b, m] = p2 * 9 + sub2
    return images


SYM_MOVE = _move_images()
SYM_INV = np.array([((3 - a) % 3) * 3 + (3 - b) % 3 for a in range(3) for b in range(3)])


@njit(cache=True, inline="always")
def _turn_colours(x):
    return ((x << 9) & _G12) | ((x >> 18) & _G0)


@njit(cache=True, inline="always")
def _turn_shapes(x):
    return ((x << 3) & _F12) | ((x >> 6) & _F0)


@njit(cache=True)
def canonical(key):
    """The least of the 9 images of ``key`` and the symmetry that gives it."""
    best = key
    sym = 0
    x = key
    for a in range(3):
        y = x
        for b in range(3):
            if y < best:
                best = y
                sym = a * 3 + b
            y = _turn_shapes(y)
        x = _turn_colours(x)
    return best, sym


@intrinsic
def _prefetch(typingctx, arr, idx):
    """Ask the CPU to start loading ``arr[idx]`` into the cache (LLVM's prefetch intrinsic)."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty, _ = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


# --- transposition table layout -------------------------------------------------------------
# Buckets of four 8-byte entries (32 bytes, one cache line holds two buckets). The key goes
# through a bijective multiplicative hash h (64 bits); the top ``bits`` bits of h pick the bucket
# and an entry keeps the low 43 bits of h, so bucket and entry together give back all of h (for
# ``bits`` >= 21), hence the key: a match is never a collision. Entry:
# bits 0-6 lower+64, 7-13 upper+64, 14-20 move+1, 21-63 the check bits of h. A bound is never
# below -60, so an entry's low bits are never all zero and an empty slot (0) matches nothing.
# Each entry is one 64-bit store, so threads share the table without locks.
_MUL = np.uint64(0x9E3779B97F4A7C15)
_UNMUL = np.uint64(pow(0x9E3779B97F4A7C15, -1, 1 << 64))
_CHECK_BITS = 43
_CHECK = np.uint64((1 << _CHECK_BITS) - 1)
_DATA = np.int64((1 << 21) - 1)
MIN_TT_BITS = 64 - _CHECK_BITS
WAYS = 4


@njit(cache=True, inline="always")
def _pack(lo, hi, move):
    return (lo + 64) | ((hi + 64) << 7) | ((move + 1) << 14)


@njit(cache=True, inline="always")
def _slot(key, bits):
    """The first entry of ``key``'s bucket and the entry's check bits (already shifted)."""
    h = np.uint64(key) * _MUL
    b = np.int64(h >> np.uint64(64 - bits)) * WAYS
    return b, np.int64(h & _CHECK) << 21


@njit(cache=True, inline="always")
def _tokens_of(entry, bucket, bits):
    """The number of tokens of the position an entry holds (its key's 18 counts summed)."""
    h = (np.uint64(bucket // WAYS) << np.uint64(64 - bits)) | (np.uint64(entry >> 21) & _CHECK)
    key = np.int64(h * _UNMUL)
    n = 0
    for i in range(18):
        n += (key >> (3 * i)) & 7
    return n


@njit(cache=True, inline="always")
def tt_prefetch(tt, bits, key):
    """Start loading ``key``'s bucket."""
    b, _ = _slot(key, bits)
    _prefetch(tt, b)


@njit(cache=True)
def tt_probe(tt, bits, key):
    """Return the entry for ``key`` (its low 21 bits are the data) or 0."""
    b, check = _slot(key, bits)
    for j in range(WAYS):
        e = tt[b + j]
        if e != 0 and (e & ~_DATA) == check:
            return e
    return np.int64(0)


@njit(cache=True)
def tt_store(tt, bits, key, lo, hi, move):
    """Store bounds for ``key``: merged with its entry if it has one, else in an empty slot or
    in place of the entry with the fewest tokens (the cheapest to search again)."""
    b, check = _slot(key, bits)
    # Same key: merge the bounds (every stored bound is exact-solve valid).
    for j in range(WAYS):
        e = tt[b + j]
        if e != 0 and (e & ~_DATA) == check:
            olo = (e & 127) - 64
            ohi = ((e >> 7) & 127) - 64
            if olo > lo:
                lo = olo
            if ohi < hi:
                hi = ohi
            if move < 0:
                move = ((e >> 14) & 127) - 1
            if lo > hi:  # cannot happen with correct bounds; keep the newest
                lo = hi
            tt[b + j] = check | _pack(lo, hi, move)
            return
    victim = -1
    fewest = 1 << 20
    for j in range(WAYS):
        e = tt[b + j]
        if e == 0:
            victim = j
            break
        n = _tokens_of(e, b, bits)
        if n < fewest:
            fewest = n
            victim = j
    tt[b + victim] = check | _pack(lo, hi, move)


# --- static facts ---------------------------------------------------------------------------


@njit(cache=True)
def potential(shp, me):
    op = 1 - me
    return (
        min(shp[me, 0], shp[op, 1] // 2)
        + min(shp[me, 1], shp[op, 2] // 2)
        + min(shp[me, 2], shp[op, 0] // 2)
    )


# --- the shape-race bound tables -----------------------------------------------------------------
# Scoring depends only on the six shape totals. Relax the game for one side X (it may take, by
# colour, any opposing token with any own token, and pass whenever it has no shape capture) and
# restrict the other side Y (it makes only shape captures when it has one; otherwise it plays the
# colour capture, or pass, that is *worst* for it). Every real option of X is an option here and
# every option of Y here is a real option or no better for Y than all real ones, so the value of
# this shape-totals game bounds X's real gain from above. It is an exact DP over the box of shape
# totals below the root's: table[t, idx] = X's gain (final difference minus current) with t = 0:
# X to move, 1: Y to move; idx = mixed radix of (X0, X1, X2, Y0, Y1, Y2), radices root+1.


@njit(cache=True)
def _race_table(dims):
    size = dims[0] * dims[1] * dims[2] * dims[3] * dims[4] * dims[5]
    tab = np.zeros((2, size), dtype=np.int8)
    w = np.empty(6, dtype=np.int64)
    w[5] = 1
    for k in range(4, -1, -1):
        w[k] = w[k + 1] * dims[k + 1]
    st = np.zeros(6, dtype=np.int64)
    for idx in range(size):
        r = idx
        for k in range(6):
            st[k] = r // w[k]
            r -= st[k] * w[k]
        # st[0..2]: X's shape totals, st[3..5]: Y's
        px = 0
        py = 0
        x_shape = False
        y_shape = False
        for s in range(3):
            t = (s + 1) % 3
            px += min(st[s], st[3 + t] // 2)
            py += min(st[3 + s], st[t] // 2)
            if st[s] >= 1 and st[3 + t] >= 2:
                x_shape = True
            if st[3 + s] >= 1 and st[t] >= 2:
                y_shape = True
        # X to move (relaxed): any shape capture, any own token for any opposing token, or a
        # pass (Y then plays alone and gains its potential) when it has no shape capture
        best = -127
        if not x_shape:
            best = -py
        for s in range(3):
            if st[s] == 0:
                continue
            t = (s + 1) % 3
            if st[3 + t] >= 2:
                v = 1 + tab[1, idx - w[s] - 2 * w[3 + t]]
                if v > best:
                    best = v
            for u in range(3):
                if st[3 + u] >= 1:
                    v = tab[1, idx - w[s] - w[3 + u]]
                    if v > best:
                        best = v
        tab[0, idx] = best
        # Y to move (restricted): its shape captures if it has one, else the worst for it of
        # passing (X then gains its potential) and any token-for-token capture
        if y_shape:
            worst = 127
            for s in range(3):
                t = (s + 1) % 3
                if st[3 + s] >= 1 and st[t] >= 2:
                    v = -1 + tab[0, idx - w[3 + s] - 2 * w[t]]
                    if v < worst:
                        worst = v
            tab[1, idx] = worst
        else:
            worst = px
            for u in range(3):
                if st[3 + u] == 0:
                    continue
                for s in range(3):
                    if st[s] >= 1:
                        v = tab[0, idx - w[3 + u] - w[s]]
                        if v > worst:
                            worst = v
            tab[1, idx] = worst
    return tab, w


@njit(cache=True)
def race_tables(shp):
    """Both sides' tables over the box below the shape totals ``shp`` (2 x 3).

    Returns ``tabs[x, t, idx]`` (X = side x; t = 0: x to move, 1: the other) and weights
    ``W[x]`` with idx = sum_s W[x, s] * shp[x, s] + W[x, 3 + s] * shp[1 - x, s]."""
    dims = np.empty(6, dtype=np.int64)
    W = np.empty((2, 6), dtype=np.int64)
    size = 1
    for s in range(3):
        size *= (shp[0, s] + 1) * (shp[1, s] + 1)
    tabs = np.empty((2, 2, size), dtype=np.int8)
    for x in range(2):
        for s in range(3):
            dims[s] = shp[x, s] + 1
            dims[3 + s] = shp[1 - x, s] + 1
        tab, w = _race_table(dims)
        tabs[x] = tab
        W[x] = w
    return tabs, W


@njit(cache=True)
def race_index(shp, W, x):
    y = 1 - x
    return (
        W[x, 0] * shp[x, 0]
        + W[x, 1] * shp[x, 1]
        + W[x, 2] * shp[x, 2]
        + W[x, 3] * shp[y, 0]
        + W[x, 4] * shp[y, 1]
        + W[x, 5] * shp[y, 2]
    )


@njit(cache=True)
def can_capture(col, shp, me):
    op = 1 - me
    for c in range(3):
        if col[me, c] > 0 and col[op, (c + 1) % 3] > 0:
            return True
    for s in range(3):
        if shp[me, s] > 0 and shp[op, (s + 1) % 3] >= 2:
            return True
    return False


@njit(cache=True)
def legal(cnt, me, m):
    op = 1 - me
    p = m // 9
    if cnt[me, p] == 0:
        return False
    sub = m % 9
    if sub < 3:
        return cnt[op, ((p // 3 + 1) % 3) * 3 + sub] > 0
    v = (p % 3 + 1) % 3
    q1 = PAIR1[sub - 3] * 3 + v
    q2 = PAIR2[sub - 3] * 3 + v
    if q1 == q2:
        return cnt[op, q1] >= 2
    return cnt[op, q1] > 0 and cnt[op, q2] > 0


@njit(cache=True, inline="always")
def apply(cnt, col, shp, tot, pk, me, m, delta):
    """Play move ``m`` for ``me`` (delta=-1) or take it back (delta=+1)."""
    op = 1 - me
    p = m // 9
    sub = m % 9
    c = p // 3
    s = p % 3
    cnt[me, p] += delta
    col[me, c] += delta
    shp[me, s] += delta
    tot[me] += delta
    pk[me] += delta << (3 * p)
    if sub < 3:
        vc = (c + 1) % 3
        q = vc * 3 + sub
        cnt[op, q] += delta
        col[op, vc] += delta
        shp[op, sub] += delta
        tot[op] += delta
        pk[op] += delta << (3 * q)
    else:
        v = (s + 1) % 3
        c1 = PAIR1[sub - 3]
        c2 = PAIR2[sub - 3]
        q1 = c1 * 3 + v
        q2 = c2 * 3 + v
        cnt[op, q1] += delta
        cnt[op, q2] += delta
        col[op, c1] += delta
        col[op, c2] += delta
        shp[op, v] += 2 * delta
        tot[op] += 2 * delta
        pk[op] += (delta << (3 * q1)) + (delta << (3 * q2))


# --- the search -----------------------------------------------------------------------------
# An explicit-stack fail-soft alpha-beta: no recursion (numba caches it reliably) and a stop flag
# ends it at once. A node lists the children its static bounds leave open, computes their
# canonical keys and prefetches their table lines in one pass (the loads overlap: a table line
# is a ~200 ns miss); enhanced transposition cut-offs (the children's stored bounds, read in a
# second pass) run at nodes with at least ``etc_min`` tokens on the board (0: never), and a
# child searched later gets its key from the list.
#
# Move order: the table's move, then two killers per ply (the last two moves that refuted a
# sibling by search: the same capture is very often good again one branch over; killers from
# static cut-offs and counter-moves measured worse), then by ``order``: 0 the potential
# difference after the move, then the midpoint of the child's race bounds; 1 the midpoint first.
# The two orders are about as good on average and fail on different pours (one order's worst
# pour is cheap for the other), so two threads searching one probe use one each.


@njit(cache=True, nogil=True)
def search(
    cnt, col, shp, tot, pk, me0, alpha0, beta0, tt, bits, tabs, W, stats, etc_min, order, stop
):
    """Fail-soft alpha-beta from the root (``me0`` to move, able to capture).

    Returns the value for ``me0``; ``stats[7]`` is the root move that gave it (-1 if none was
    searched). ``stats[0]`` counts nodes; ``stats[1]`` is set to 1 when
    ``stop[0]`` ended the search early (the value is then meaningless and the position arrays are
    left mid-search; the TT holds only sound bounds)."""
    A = np.empty(MAXPLY, np.int64)
    B = np.empty(MAXPLY, np.int64)
    BEST = np.empty(MAXPLY, np.int64)
    BESTM = np.empty(MAXPLY, np.int64)
    KEY = np.empty(MAXPLY, np.int64)
    SYM = np.empty(MAXPLY, np.int64)
    KILLER = np.full((MAXPLY, 2), -1, np.int64)
    N = np.empty(MAXPLY, np.int64)
    I = np.empty(MAXPLY, np.int64)
    ME = np.empty(MAXPLY, np.int64)
    MOVE = np.empty(MAXPLY, np.int64)
    mv = np.empty((MAXPLY, NMOVES), np.int64)
    sc = np.empty((MAXPLY, NMOVES), np.int64)
    CK = np.empty((MAXPLY, NMOVES), np.int64)
    CS = np.empty((MAXPLY, NMOVES), np.int64)
    CHIS = np.empty(NMOVES, np.int64)
    CHI = np.empty(12, np.int64)
    CLO = np.empty(12, np.int64)
    ORD = np.empty(12, np.int64)
    nodes = stats[0]
    root_move = -1
    ply = 0
    A[0] = alpha0
    B[0] = beta0
    ME[0] = me0
    while True:
        # ---------------- enter the node at ply ----------------
        nodes += 1
        if (nodes & 1023) == 0 and stop[0] != 0:
            stats[0] = nodes
            stats[1] = 1
            return 0
        me = ME[ply]
        op = 1 - me
        alpha = A[ply]
        beta = B[ply]
        diff = tot[me] - tot[op]
        ia = race_index(shp, W, me)
        ib = race_index(shp, W, op)
        hi = diff + tabs[me, 0, ia]
        lo = diff - tabs[op, 1, ib]
        done = False
        v = 0
        if lo >= beta:
            v = lo
            done = True
        elif hi <= alpha:
            v = hi
            done = True
        else:
            if ply == 0:
                KEY[0], SYM[0] = canonical(pk[me] | (pk[op] << 27))
            key = KEY[ply]
            sym = SYM[ply]
            ttmove = -1
            d = tt_probe(tt, bits, key)
            if d != 0:
                tlo = (d & 127) - 64
                thi = ((d >> 7) & 127) - 64
                ttmove = ((d >> 14) & 127) - 1
                if ttmove >= 0:
                    ttmove = SYM_MOVE[SYM_INV[sym], ttmove]
                if tlo > lo:
                    lo = tlo
                if thi < hi:
                    hi = thi
                if lo >= beta:
                    v = lo
                    done = True
                elif hi <= alpha or lo == hi:
                    v = hi
                    done = True
        if not done:
            depth = tot[0] + tot[1]
            use_etc = etc_min > 0 and depth >= etc_min
            # Static bounds of the children by their effect on the shape totals: a colour capture
            # giving up shape s and taking shape t (index s*3+t), a shape capture giving up s
            # (index 9+s). Both tables are linear-indexed, so a child's index is a difference.
            for s in range(3):
                if shp[me, s] == 0:
                    continue
                for t in range(3):
                    if shp[op, t] > 0:
                        CHI[s * 3 + t] = diff + tabs[me, 1, ia - W[me, s] - W[me, 3 + t]]
                        CLO[s * 3 + t] = diff - tabs[op, 0, ib - W[op, 3 + s] - W[op, t]]
                        shp[me, s] -= 1
                        shp[op, t] -= 1
                        ORD[s * 3 + t] = 2 * diff + potential(shp, me) - potential(shp, op)
                        shp[me, s] += 1
                        shp[op, t] += 1
                vv = (s + 1) % 3
                if shp[op, vv] >= 2:
                    CHI[9 + s] = diff + 1 + tabs[me, 1, ia - W[me, s] - 2 * W[me, 3 + vv]]
                    CLO[9 + s] = diff + 1 - tabs[op, 0, ib - W[op, 3 + s] - 2 * W[op, vv]]
                    shp[me, s] -= 1
                    shp[op, vv] -= 2
                    ORD[9 + s] = 2 * diff + 2 + potential(shp, me) - potential(shp, op)
                    shp[me, s] += 1
                    shp[op, vv] += 2
            # The opponent surely keeps a capture after any move of mine (which takes at most
            # two of its tokens and one of mine): then no child needs the pass test.
            robust = False
            for c in range(3):
                if col[op, c] >= 3 and col[me, (c + 1) % 3] >= 2:
                    robust = True
            for s in range(3):
                if shp[op, s] >= 3 and shp[me, (s + 1) % 3] >= 3:
                    robust = True
            best = -INF
            bestm = -1
            n = 0
            pkme = pk[me]
            pkop = pk[op]
            k0 = KILLER[ply, 0]
            k1 = KILLER[ply, 1]
            for p in range(9):
                if cnt[me, p] == 0:
                    continue
                c = p // 3
                s = p % 3
                vc = (c + 1) % 3
                vv = (s + 1) % 3
                for sub in range(9):
                    if sub < 3:
                        q1 = vc * 3 + sub
                        if cnt[op, q1] == 0:
                            continue
                        q2 = -1
                        e = s * 3 + sub
                    else:
                        q1 = PAIR1[sub - 3] * 3 + vv
                        q2 = PAIR2[sub - 3] * 3 + vv
                        if q1 == q2:
                            if cnt[op, q1] < 2:
                                continue
                        elif cnt[op, q1] == 0 or cnt[op, q2] == 0:
                            continue
                        e = 9 + s
                    m = p * 9 + sub
                    if not robust:
                        apply(cnt, col, shp, tot, pk, me, m, -1)
                        opcan = can_capture(col, shp, op)
                        cv = tot[me] - tot[op] + potential(shp, me)
                        apply(cnt, col, shp, tot, pk, me, m, 1)
                        if not opcan:
                            # the opponent must pass: I play alone and gain exactly my potential
                            if cv > best:
                                best = cv
                                bestm = m
                                if cv >= beta:
                                    break
                            continue
                    chi = CHI[e]
                    clo = CLO[e]
                    if clo >= beta:
                        best = clo
                        bestm = m
                        break
                    if chi <= alpha or chi <= best:
                        if chi > best:
                            best = chi
                            bestm = m
                        continue
                    # an open child: its table key now (the table line starts loading)
                    ckme = pkme - (1 << (3 * p))
                    ckop = pkop - (1 << (3 * q1))
                    if q2 >= 0:
                        ckop -= 1 << (3 * q2)
                    ckey, csym = canonical(ckop | (ckme << 27))
                    tt_prefetch(tt, bits, ckey)
                    if order == 0:
                        sv = (ORD[e] << 8) + chi + clo
                    else:
                        sv = ((chi + clo) << 12) + ORD[e]
                    if m == ttmove:
                        sv += 1 << 40
                    elif m == k0:
                        sv += 1 << 39
                    elif m == k1:
                        sv += 1 << 38
                    mv[ply, n] = m
                    sc[ply, n] = sv
                    CK[ply, n] = ckey
                    CS[ply, n] = csym
                    CHIS[n] = chi
                    n += 1
                if best >= beta:
                    break
            if use_etc and best < beta:
                # enhanced transposition cut-offs: the children's table bounds
                k = 0
                for i in range(n):
                    m = mv[ply, i]
                    chi = CHIS[i]
                    cd = tt_probe(tt, bits, CK[ply, i])
                    if cd != 0:
                        a = -(((cd >> 7) & 127) - 64)
                        b2 = -((cd & 127) - 64)
                        if a >= beta:
                            best = a
                            bestm = m
                            break
                        if b2 < chi:
                            chi = b2
                    if chi <= alpha or chi <= best:
                        if chi > best:
                            best = chi
                            bestm = m
                        continue
                    mv[ply, k] = m
                    sc[ply, k] = sc[ply, i]
                    CK[ply, k] = CK[ply, i]
                    CS[ply, k] = CS[ply, i]
                    k += 1
                n = k
            if ply == 0:
                root_move = bestm
            sm = SYM_MOVE[sym, bestm] if bestm >= 0 else -1
            if best >= beta:
                tt_store(tt, bits, key, best, 60, sm)
                v = best
                done = True
            elif n == 0:
                tt_store(tt, bits, key, -60, best, sm)
                v = best
                done = True
            else:
                BEST[ply] = best
                BESTM[ply] = bestm
                N[ply] = n
                I[ply] = 0
        # ---------------- return values up / descend into the next move ----------------
        while True:
            if done:
                if ply == 0:
                    stats[0] = nodes
                    stats[7] = root_move
                    return v
                ply -= 1
                me = ME[ply]
                apply(cnt, col, shp, tot, pk, me, MOVE[ply], 1)
                v = -v
                if v > BEST[ply]:
                    BEST[ply] = v
                    BESTM[ply] = MOVE[ply]
                if v < B[ply]:
                    done = False
                elif KILLER[ply, 0] != MOVE[ply]:
                    KILLER[ply, 1] = KILLER[ply, 0]
                    KILLER[ply, 0] = MOVE[ply]
            if not done:
                i = I[ply]
                n = N[ply]
                if i < n:
                    j = i
                    for k in range(i + 1, n):
                        if sc[ply, k] > sc[ply, j]:
                            j = k
                    m = mv[ply, j]
                    sv = sc[ply, j]
                    ck = CK[ply, j]
                    cs = CS[ply, j]
                    mv[ply, j] = mv[ply, i]
                    sc[ply, j] = sc[ply, i]
                    CK[ply, j] = CK[ply, i]
                    CS[ply, j] = CS[ply, i]
                    mv[ply, i] = m
                    sc[ply, i] = sv
                    CK[ply, i] = ck
                    CS[ply, i] = cs
                    KEY[ply + 1] = ck
                    SYM[ply + 1] = cs
                    I[ply] = i + 1
                    me = ME[ply]
                    MOVE[ply] = m
                    apply(cnt, col, shp, tot, pk, me, m, -1)
                    a2 = A[ply] if A[ply] > BEST[ply] else BEST[ply]
                    ME[ply + 1] = 1 - me
                    A[ply + 1] = -B[ply]
                    B[ply + 1] = -a2
                    ply += 1
                    break
            # the node at ply is finished: store and return its value
            best = BEST[ply]
            if ply == 0:
                root_move = BESTM[0]
            sm = SYM_MOVE[SYM[ply], BESTM[ply]] if BESTM[ply] >= 0 else -1
            if best >= B[ply]:
                tt_store(tt, bits, KEY[ply], best, 60, sm)
            elif best <= A[ply]:
                tt_store(tt, bits, KEY[ply], -60, best, sm)
            else:
                tt_store(tt, bits, KEY[ply], best, best, sm)
            v = best
            done = True
