"""Numba kernel of the Akros exact solver (private: use ``gamehall.games.akros.solver``).

The state is a handful of integers (all public information)::

    turn, step            as in ``rules`` (DRAW, JINN_KEEP, IFRIT_KEEP, IFRIT_PLACE, JINN_PLACE, OVER)
    bag                   tiles left per environment, 4 bits each (F | S << 4 | M << 8)
    temple                Temple piles as counts, 2 bits per (pile, environment): bit 2*(3*pile+env)
    draft                 tiles in hand as counts, 2 bits per environment
    jt, it                the Jinn's / the Ifrit's kept tile, -1 for none
    jm, im                the servants as region bitmasks (bit = region id)
    stacks                tiles per region, 3 bits each: region r at bit 3*(r-1)

Values are integers: the Ifrit's win probability times ``scale(turn, step)``, the product of the
number of possible draws (``C(bag, 3)``) of every draw still to come (a draw node includes its
own). A draw node's value is ``sum(ways_i * child_i)``; the scale never changes at a decision node,
so every value is an exact integer and alpha-beta compares exact probabilities.

Search: fail-soft alpha-beta at decision nodes (the Ifrit maximises, the Jinn minimises) with the
window clamped to [0, scale] (a maximiser stops at a sure win, a minimiser at a sure loss) and
principal variation search (every move after the first is first tested with a null window: is it
better than the best so far?), Star1 at draw nodes (outcomes heaviest first, each searched with the
window that would let the remaining probability mass still cut, every outcome starting from the
bounds the table already holds for it), a two-slot transposition table keyed on the whole state
(three exact words, no hash-only matches; on turn 8 only at the Jinn's keep, below which the
Ifrit's keep and both placements are evaluated inline as booleans, without move lists for the
keeps, recursion or table), enhanced transposition cut-offs at decisions up to turn 7 (a child
whose stored bound refutes the window ends the node), the table's best move first then moves
that raise the mover's claims, and the whole last turn (turn 9: keep, the Ifrit's then the Jinn's
placement) evaluated inline as a boolean, without recursion or table (the Jinn's last placement
by three candidates: the highest target, and per environment the mover on the lowest stack).

Move ordering (it changes which moves are searched first, never a value: alpha-beta returns the
minimax value whatever the order, and the inline booleans are an OR or an AND over all moves):
the Ifrit's placements, on every turn, by how few placements they leave the Jinn (her win has to
be proved against each of his answers, so that proof is smallest, and fewer answers are likelier
to hold none that wins; two to three times fewer nodes from turn 4), then by claims; on turn 8 the
Jinn's placement and his kept tile that last won come first (killer moves).

``stats[ST_FLAGS]`` switches techniques off (``NO_TT`` ...), for measurements and tests only
(``TT_DEEP`` puts turn 8's keeps and placements back into the recursive search, with the table;
``NO_REPLIES`` and ``NO_KILLER`` switch the orderings above off).
``stats[ST_HIST + 6 * turn + step]`` counts the nodes per turn and step: the tree's shape.

Move codes: a draw is ``F | S << 2 | M << 4`` (counts drawn), a keep is the environment kept (the
Ifrit's discard is the other tile in hand), a placement is ``region << 8 | source``, a removal 0.
"""

# ruff: noqa: ANN001, SIM108, SIM109
# (numba kernels: untyped scalar arguments, branches kept plain for the compiler)
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from gamehall.games.akros.rules import (  # the game's own encodings (constants to numba)
    DRAW,
    IFRIT_KEEP,
    IFRIT_PLACE,
    JINN_KEEP,
    JINN_PLACE,
    OVER,
)
from gamehall.kernels import popcount

MAXPLY = 64
MAXMOVES = 128

# stats slots
# stats[ST_ABORT] is set from outside (the solver's alarm at its time limit, or a thread that no
# longer needs another's help): every search call then returns at once and writes nothing
ST_NODES, ST_ABORT, ST_FLAGS = 0, 1, 3
ST_HIST = 8  # stats[ST_HIST + 6 * turn + step]: search calls per turn and step (the tree's shape)
# switches in stats[ST_FLAGS], for measuring each technique (0: all on)
NO_TT, NO_ORDER, NO_STAR1, NO_CLAMP, NO_HEURISTIC, TT_DEEP, NO_ETC, NO_PVS, NO_CHANCE_TT = (
    1,
    2,
    4,
    8,
    16,
    32,
    64,
    128,
    256,
)
NO_REPLIES, NO_KILLER = 512, 1024
# killer moves (move ordering only): stats[KILL]: the Jinn's last winning placement on turn 8,
# stats[KILL + 1]: the tile he last kept and won with on turn 8
KILL = ST_HIST + 6 * 10
STATS_SIZE = KILL + 8


# The board's tables in one array ``tab`` (fewer arguments per recursive call):
NB = 0  # tab[NB + r]: neighbours of region r (bitmask)
ENVM = 64  # tab[ENVM + e]: the regions of environment e
ENVOF = 68  # tab[ENVOF + r]: the environment of region r
DAFTER = 132  # tab[DAFTER + t]: draw sequences possible after turn t (the value scale)
PILE = 144  # tab[PILE + t]: the Temple pile the Ifrit discards to on turn t
TAB_SIZE = 160
# stats: nodes, abort flag, (unused), switched-off techniques, 3 scratch margins
MARG = 4
# A transposition table row: k1, k2, k3 (the whole state), lower bound, upper bound, info
# (best move | work << 24; -1: empty), a check word over the six, and one word of padding (a row
# is one 64-byte cache line). Buckets of two rows: the first keeps the bigger search.
T_LO, T_HI, T_INFO, T_CHECK = 3, 4, 5, 6
T_WIDTH = 8


def new_tt(bits: int) -> np.ndarray:
    """A transposition table of 2**bits two-slot buckets."""
    tt = np.zeros((2 << bits, T_WIDTH), dtype=np.int64)
    tt[:, T_INFO] = -1
    return tt


def new_buffers() -> tuple[np.ndarray, np.ndarray]:
    """Per-ply move lists (codes and ordering keys) and the stats array."""
    return np.zeros((MAXPLY, 4, MAXMOVES), dtype=np.int64), np.zeros(STATS_SIZE, dtype=np.int64)


@njit(cache=True, inline="always")
def _bits(x):
    """The number of set bits of ``x``."""
    return popcount(x)


@njit(cache=True, inline="always")
def _low(x):
    """The index of the lowest set bit of ``x`` (x > 0)."""
    return trailing_zeros(x)  # the processor's count-trailing-zeros, as in ``fast``


@njit(cache=True)
def contested(im, tab):
    once = 0
    twice = 0
    x = im
    while x:
        r = _low(x)
        x &= x - 1
        around = tab[NB + r]
        twice |= once & around
        once |= around
    return twice


@njit(cache=True)
def comb3(n):
    if n < 3:
        return 0
    return n * (n - 1) * (n - 2) // 6


@njit(cache=True)
def comb(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True)
def scale_of(turn, step, bag, tab):
    if step == OVER:
        return 1
    if step == DRAW:
        n = (bag & 15) + ((bag >> 4) & 15) + ((bag >> 8) & 15)
        return comb3(n) * tab[DAFTER + turn]
    return tab[DAFTER + turn]


@njit(cache=True, inline="always")
def _placed(servants, stacks, code):
    """A placement ``code`` (``r << 8 | s``: the servant on ``s`` goes to the target ``r``,
    whose stack grows by one; 0: no placement): the side's servants and the stacks after it."""
    if code:
        r = code >> 8
        servants = servants ^ (1 << r) ^ (1 << (code & 255))
        stacks = stacks + (1 << (3 * (r - 1)))
    return servants, stacks


@njit(cache=True, inline="always")
def _discarded(temple, rest, pile):
    """The Ifrit's keep: the draft's other tile (``rest``, if any) goes to the Temple's
    ``pile``."""
    if rest:
        d = 0
        while not ((rest >> (2 * d)) & 3):
            d += 1
        temple = temple + (1 << (2 * (3 * pile + d)))
    return temple


@njit(cache=True)
def apply_move(turn, step, bag, temple, draft, jt, it, jm, im, stacks, code, tab):
    """The state after move ``code``."""
    if step == DRAW:
        c0 = code & 3
        c1 = (code >> 2) & 3
        c2 = (code >> 4) & 3
        bag = bag - c0 - (c1 << 4) - (c2 << 8)
        return turn, JINN_KEEP, bag, temple, code, jt, it, jm, im, stacks
    if step == JINN_KEEP:
        return turn, IFRIT_KEEP, bag, temple, draft - (1 << (2 * code)), code, it, jm, im, stacks
    if step == IFRIT_KEEP:
        temple = _discarded(temple, draft - (1 << (2 * code)), tab[PILE + turn])
        return turn, IFRIT_PLACE, bag, temple, 0, jt, code, jm, im, stacks
    if step == IFRIT_PLACE:
        im, stacks = _placed(im, stacks, code)
        return turn, JINN_PLACE, bag, temple, 0, jt, -1, jm, im, stacks
    # JINN_PLACE: the turn ends
    jm, stacks = _placed(jm, stacks, code)
    turn += 1
    if turn > 9:
        return 9, OVER, bag, temple, 0, -1, -1, jm, im, stacks
    if turn <= 6:
        return turn, DRAW, bag, temple, 0, -1, -1, jm, im, stacks
    if turn == 7:
        bag = 0
    p = turn - 7
    draft = (temple >> (6 * p)) & 63
    temple = temple & ~(63 << (6 * p))
    return turn, JINN_KEEP, bag, temple, draft, -1, -1, jm, im, stacks


@njit(cache=True)
def ifrit_wins(jm, im, stacks, tab):
    """After turn 9: the Ifrit wins with at least as many claims as the Jinn."""
    d0, d1, d2 = _score_differences(jm, im, stacks, tab)
    jc = (d0 > 0) + (d1 > 0) + (d2 > 0)
    ic = (d0 < 0) + (d1 < 0) + (d2 < 0)
    return ic >= jc


@njit(cache=True)
def _margins(jm, im, stacks, tab, stats):
    """out[e] = Jinn's minus Ifrit's score in environment e."""
    stats[MARG] = 0
    stats[MARG + 1] = 0
    stats[MARG + 2] = 0
    x = jm
    while x:
        r = _low(x)
        x &= x - 1
        stats[MARG + tab[ENVOF + r]] += 1 + ((stacks >> (3 * (r - 1))) & 7)
    x = im
    while x:
        r = _low(x)
        x &= x - 1
        stats[MARG + tab[ENVOF + r]] -= 1 + ((stacks >> (3 * (r - 1))) & 7)


@njit(cache=True)
def _claims_margin(d0, d1, d2):
    # Jinn claims minus Ifrit claims for score differences d (Jinn - Ifrit)
    return ((d0 > 0) - (d0 < 0)) + ((d1 > 0) - (d1 < 0)) + ((d2 > 0) - (d2 < 0))


@njit(cache=True, inline="always")
def _score_differences(jm, im, stacks, tab):
    """The Jinn's score minus the Ifrit's in each environment (Forest, Sea, Mountain)."""
    d0 = 0
    d1 = 0
    d2 = 0
    x = jm
    while x:
        r = _low(x)
        x &= x - 1
        v = 1 + ((stacks >> (3 * (r - 1))) & 7)
        e = tab[ENVOF + r]
        if e == 0:
            d0 += v
        elif e == 1:
            d1 += v
        else:
            d2 += v
    x = im
    while x:
        r = _low(x)
        x &= x - 1
        v = 1 + ((stacks >> (3 * (r - 1))) & 7)
        e = tab[ENVOF + r]
        if e == 0:
            d0 -= v
        elif e == 1:
            d1 -= v
        else:
            d2 -= v
    return d0, d1, d2


@njit(cache=True)
def _jinn_wins_from(jt, jm, im, stacks, tab, d0, d1, d2):
    """The Jinn's last placement (turn 9), score differences (Jinn - Ifrit) ``d`` before it:
    can some placement win for him?"""
    return _jinn_wins_given(jt, jm, im, stacks, tab, d0, d1, d2, contested(im, tab))


@njit(cache=True, inline="always")
def _jinn_wins_given(jt, jm, im, stacks, tab, d0, d1, d2, con):
    """:func:`_jinn_wins_from` with the contested regions ``con`` of ``im`` already known.

    The game ends with it, so only the scores count: a higher stack under the placed tile only
    raises his score in the tile's environment, and a servant leaving a lower stack only costs
    him less where it stood. So the highest target is the best, and per environment the mover
    on the lowest stack: at most three placements to try, whatever the counts of targets and
    movers."""
    occ = jm | im
    targets = tab[ENVM + jt] & ~occ & ~con
    movers = jm & con
    if movers == 0:
        movers = jm
    if targets == 0:
        return _claims_margin(d0, d1, d2) > 0
    top = 0
    t = targets
    while t:
        r = _low(t)
        t &= t - 1
        h = (stacks >> (3 * (r - 1))) & 7
        if h > top:
            top = h
    gain = 2 + top
    if jt == 0:
        d0 += gain
    elif jt == 1:
        d1 += gain
    else:
        d2 += gain
    # the least a mover standing in each environment gives up (8 + 1: none there)
    l0 = 9
    l1 = 9
    l2 = 9
    m = movers
    while m:
        s = _low(m)
        m &= m - 1
        loss = 1 + ((stacks >> (3 * (s - 1))) & 7)
        es = tab[ENVOF + s]
        if es == 0:
            if loss < l0:
                l0 = loss
        elif es == 1:
            if loss < l1:
                l1 = loss
        elif loss < l2:
            l2 = loss
    if l0 < 9 and _claims_margin(d0 - l0, d1, d2) > 0:
        return True
    if l1 < 9 and _claims_margin(d0, d1 - l1, d2) > 0:
        return True
    return l2 < 9 and _claims_margin(d0, d1, d2 - l2) > 0


@njit(cache=True)
def jinn_can_win_last(jt, jm, im, stacks, tab, stats):
    """The Jinn's last placement (turn 9): can any placement win for him?"""
    d0, d1, d2 = _score_differences(jm, im, stacks, tab)
    return _jinn_wins_from(jt, jm, im, stacks, tab, d0, d1, d2)


@njit(cache=True)
def ifrit_can_win_last(it, jt, jm, im, stacks, tab, stats):
    """The Ifrit's last placement (turn 9) then the Jinn's: can the Ifrit make sure to win?"""
    d0, d1, d2 = _score_differences(jm, im, stacks, tab)
    return _ifrit_can_win_from(it, jt, jm, im, stacks, tab, d0, d1, d2)


@njit(cache=True)
def _ifrit_can_win_from(it, jt, jm, im, stacks, tab, d0, d1, d2):
    """:func:`ifrit_can_win_last` with the score differences ``d`` (Jinn - Ifrit) known.

    The regions contested after her move from ``s`` to ``r``: those next to two of the servants
    that stay, or next to one of them and to ``r`` (counted once per ``s``, not per move)."""
    free = tab[ENVM + it] & ~(jm | im)
    found = False
    x = im
    while x:
        s = _low(x)
        x &= x - 1
        t = tab[NB + s] & free
        if t == 0:
            continue
        once = 0
        twice = 0
        y = im ^ (1 << s)
        while y:
            q = _low(y)
            y &= y - 1
            around = tab[NB + q]
            twice |= once & around
            once |= around
        loss = 1 + ((stacks >> (3 * (s - 1))) & 7)
        es = tab[ENVOF + s]
        e0 = d0
        e1 = d1
        e2 = d2
        if es == 0:
            e0 += loss
        elif es == 1:
            e1 += loss
        else:
            e2 += loss
        while t:
            r = _low(t)
            t &= t - 1
            found = True
            gain = 2 + ((stacks >> (3 * (r - 1))) & 7)
            nim = im ^ (1 << r) ^ (1 << s)
            nst = stacks + (1 << (3 * (r - 1)))
            con = twice | (once & tab[NB + r])
            if it == 0:
                jw = _jinn_wins_given(jt, jm, nim, nst, tab, e0 - gain, e1, e2, con)
            elif it == 1:
                jw = _jinn_wins_given(jt, jm, nim, nst, tab, e0, e1 - gain, e2, con)
            else:
                jw = _jinn_wins_given(jt, jm, nim, nst, tab, e0, e1, e2 - gain, con)
            if not jw:
                return True
    if not found:
        return not _jinn_wins_from(jt, jm, im, stacks, tab, d0, d1, d2)
    return False


@njit(cache=True, inline="always")
def _check(k1, k2, k3, lo, hi, info):
    """The check word of a table row: a mix of its six words.

    Threads that search side by side share one table without locks, so a row can be read while
    another thread writes it, and two threads can write one row at once: a row read whole is then
    a mixture of two writes. A reader keeps a row only when its check word is the check of the six
    words it read; a torn row fails that (it is passed over, as an empty one), except by a chance
    of about 2**-64 against each torn read, itself a rare event. A row is used only through the
    copies read and checked, never read again."""
    h = np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15)
    h = (h ^ (h >> np.uint64(31)) ^ np.uint64(k2)) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(29)) ^ np.uint64(k3)) * np.uint64(0x94D049BB133111EB)
    h = (h ^ (h >> np.uint64(31)) ^ np.uint64(lo)) * np.uint64(0xC2B2AE3D27D4EB4F)
    h = (h ^ (h >> np.uint64(29)) ^ np.uint64(hi)) * np.uint64(0x165667B19E3779F9)
    h = (h ^ (h >> np.uint64(31)) ^ np.uint64(info)) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h ^ (h >> np.uint64(32)))


@njit(cache=True, inline="always")
def _probe(tt, b, k1, k2, k3):
    """The bucket ``b``'s row for the state (k1, k2, k3): (row, lower, upper, info), row -1 when
    neither row holds it (or the one that does was torn: see :func:`_check`)."""
    for j in range(2):
        i = b + j
        info = tt[i, T_INFO]
        if info >= 0 and tt[i, 0] == k1 and tt[i, 1] == k2 and tt[i, 2] == k3:
            lo = tt[i, T_LO]
            hi = tt[i, T_HI]
            if tt[i, T_CHECK] == _check(k1, k2, k3, lo, hi, info):
                return i, lo, hi, info
            return -1, 0, 0, 0
    return -1, 0, 0, 0


@njit(cache=True, inline="always")
def _store(tt, i, k1, k2, k3, lo, hi, info):
    """Write row ``i`` whole, its check word last."""
    tt[i, 0] = k1
    tt[i, 1] = k2
    tt[i, 2] = k3
    tt[i, T_LO] = lo
    tt[i, T_HI] = hi
    tt[i, T_INFO] = info
    tt[i, T_CHECK] = _check(k1, k2, k3, lo, hi, info)


@njit(cache=True, inline="always")
def _hash(k1, k2, k3, mask):
    h = np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15)
    h ^= np.uint64(k2) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= np.uint64(k3) * np.uint64(0x165667B19E3779F9)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(mask))


@njit(cache=True)
def gen_moves(turn, step, bag, draft, jt, it, jm, im, stacks, tab, buf, ply, stats):
    out = buf[ply, 0]
    keys = buf[ply, 1]
    """Fill ``out`` with the moves (codes) and ``keys`` with ordering keys (higher first for the
    mover); return how many. Draws: ``keys`` holds the number of ways."""
    n = 0
    if step == DRAW:
        b0 = bag & 15
        b1 = (bag >> 4) & 15
        b2 = (bag >> 8) & 15
        for c0 in range(4):
            for c1 in range(4 - c0):
                c2 = 3 - c0 - c1
                w = comb(b0, c0) * comb(b1, c1) * comb(b2, c2)
                if w:
                    out[n] = c0 | (c1 << 2) | (c2 << 4)
                    keys[n] = w
                    n += 1
        return n
    if step == JINN_KEEP or step == IFRIT_KEEP:
        for e in range(3):
            if (draft >> (2 * e)) & 3:
                out[n] = e
                keys[n] = 0
                n += 1
        return n
    _margins(jm, im, stacks, tab, stats)
    occ = jm | im
    if step == IFRIT_PLACE:
        tile = it
        free = tab[ENVM + tile] & ~occ
        x = im
        while x:
            s = _low(x)
            x &= x - 1
            t = tab[NB + s] & free
            loss = 1 + ((stacks >> (3 * (s - 1))) & 7)
            es = tab[ENVOF + s]
            while t:
                r = _low(t)
                t &= t - 1
                gain = 2 + ((stacks >> (3 * (r - 1))) & 7)
                e0 = stats[MARG + 0]
                e1 = stats[MARG + 1]
                e2 = stats[MARG + 2]
                if es == 0:
                    e0 += loss
                elif es == 1:
                    e1 += loss
                else:
                    e2 += loss
                if tile == 0:
                    e0 -= gain
                elif tile == 1:
                    e1 -= gain
                else:
                    e2 -= gain
                out[n] = (r << 8) | s
                keys[n] = -_claims_margin(e0, e1, e2) * 64 + gain - loss
                n += 1
        if n == 0:
            out[0] = 0
            keys[0] = 0
            n = 1
        return n
    # JINN_PLACE
    tile = jt
    con = contested(im, tab)
    targets = tab[ENVM + tile] & ~occ & ~con
    movers = jm & con
    if movers == 0:
        movers = jm
    while targets:
        r = _low(targets)
        targets &= targets - 1
        gain = 2 + ((stacks >> (3 * (r - 1))) & 7)
        m = movers
        while m:
            s = _low(m)
            m &= m - 1
            loss = 1 + ((stacks >> (3 * (s - 1))) & 7)
            es = tab[ENVOF + s]
            e0 = stats[MARG + 0]
            e1 = stats[MARG + 1]
            e2 = stats[MARG + 2]
            if es == 0:
                e0 -= loss
            elif es == 1:
                e1 -= loss
            else:
                e2 -= loss
            if tile == 0:
                e0 += gain
            elif tile == 1:
                e1 += gain
            else:
                e2 += gain
            out[n] = (r << 8) | s
            keys[n] = _claims_margin(e0, e1, e2) * 64 + gain - loss
            n += 1
    if n == 0:
        out[0] = 0
        keys[0] = 0
        n = 1
    return n


@njit(cache=True)
def jinn_replies(jt, jm, im, tab):
    """How many placements the Jinn has for his tile ``jt`` against the Ifrit's servants ``im``
    (targets times movers; a removal counts as one)."""
    return _replies_given(jt, jm, im, contested(im, tab), tab)


@njit(cache=True, inline="always")
def _replies_given(jt, jm, im, con, tab):
    """:func:`jinn_replies` with the contested regions ``con`` of ``im`` already known."""
    targets = tab[ENVM + jt] & ~(jm | im) & ~con
    if targets == 0:
        return 1
    movers = jm & con
    if movers == 0:
        movers = jm
    return _bits(targets) * _bits(movers)


@njit(cache=True)
def order_by_replies(jt, jm, im, out, keys, n, tab):
    """Move ordering for the Ifrit's placements: the one that leaves the Jinn the fewest
    placements first (her win must be proved against each of them, and fewer answers are
    likelier to leave him none that wins), then the claims key. Only the order changes."""
    source = -1
    once = 0
    twice = 0
    for a in range(n):
        code = out[a]
        if code == 0:  # her removal: his replies against her servants as they stand
            keys[a] = -jinn_replies(jt, jm, im, tab) * 4096 + keys[a]
            continue
        s = code & 255
        if s != source:  # the regions next to one, and to two, of the servants that stay
            source = s
            once = 0
            twice = 0
            y = im ^ (1 << s)
            while y:
                q = _low(y)
                y &= y - 1
                around = tab[NB + q]
                twice |= once & around
                once |= around
        r = code >> 8
        nim = im ^ (1 << r) ^ (1 << s)
        keys[a] = -_replies_given(jt, jm, nim, twice | (once & tab[NB + r]), tab) * 4096 + keys[a]


@njit(cache=True)
def ifrit_wins_last_turn(draft, jm, im, stacks, tab, stats):
    """Turn 9 from its start: the Jinn keeps one of pile 9's two tiles (``draft``), the Ifrit
    gets the other, then both place. Does the Ifrit win whichever tile he keeps?"""
    d0, d1, d2 = _score_differences(jm, im, stacks, tab)
    for e in range(3):
        if (draft >> (2 * e)) & 3:
            rest = draft - (1 << (2 * e))
            o = 0 if rest & 3 else (1 if rest & 12 else 2)
            if not _ifrit_can_win_from(o, e, jm, im, stacks, tab, d0, d1, d2):
                return False
    return True


@njit(cache=True, inline="always")
def _sort_moves(out, keys, n):
    """Moves by key, highest first (insertion sort, stable: the search's own order)."""
    for a in range(1, n):
        mv = out[a]
        kv = keys[a]
        c = a - 1
        while c >= 0 and keys[c] < kv:
            out[c + 1] = out[c]
            keys[c + 1] = keys[c]
            c -= 1
        out[c + 1] = mv
        keys[c + 1] = kv


@njit(cache=True)
def ifrit_wins_turn8_jinn_place(jt, temple, jm, im, stacks, tab, buf, ply, stats):
    """The Jinn's placement on turn 8, then the whole of turn 9 (from pile 9, the last of the
    Temple): does the Ifrit win whatever he places? Evaluated inline, as the search would (the
    same moves in its order, the placement that last won for him first, each counted as a node),
    without recursion or table.

    The killer is tried before the moves are listed (it is legal if its target is free and
    uncontested and its servant may move): most of the time it is the answer, and listing and
    sorting the rest is saved. The order stays the one above."""
    pile9 = (temple >> 12) & 63
    killer = stats[KILL]
    tried = -1
    if killer > 0 and not (stats[ST_FLAGS] & NO_KILLER):
        con = contested(im, tab)
        targets = tab[ENVM + jt] & ~(jm | im) & ~con
        movers = jm & con
        if movers == 0:
            movers = jm
        if (targets >> (killer >> 8)) & 1 and (movers >> (killer & 255)) & 1:
            njm, nst = _placed(jm, stacks, killer)
            stats[ST_NODES] += 1
            stats[ST_HIST + 6 * 9 + JINN_KEEP] += 1
            if not ifrit_wins_last_turn(pile9, njm, im, nst, tab, stats):
                return False
            tried = killer
    n = gen_moves(8, JINN_PLACE, 0, 0, jt, -1, jm, im, stacks, tab, buf, ply, stats)
    out = buf[ply, 0]
    _sort_moves(out, buf[ply, 1], n)
    for a in range(n):
        code = out[a]
        if code == tried:
            continue
        njm, nst = _placed(jm, stacks, code)
        stats[ST_NODES] += 1
        stats[ST_HIST + 6 * 9 + JINN_KEEP] += 1
        if not ifrit_wins_last_turn(pile9, njm, im, nst, tab, stats):
            stats[KILL] = code
            return False
    return True


@njit(cache=True)
def ifrit_wins_turn8_place(it, jt, temple, jm, im, stacks, tab, buf, ply, stats):
    """The Ifrit's placement on turn 8, then the Jinn's and turn 9: can she make sure to win?
    Inline, like :func:`ifrit_wins_turn8_jinn_place`."""
    n = gen_moves(8, IFRIT_PLACE, 0, 0, jt, it, jm, im, stacks, tab, buf, ply, stats)
    out = buf[ply, 0]
    if not (stats[ST_FLAGS] & NO_REPLIES):
        order_by_replies(jt, jm, im, out, buf[ply, 1], n, tab)
    _sort_moves(out, buf[ply, 1], n)
    for a in range(n):
        nim, nst = _placed(im, stacks, out[a])
        stats[ST_NODES] += 1
        stats[ST_HIST + 6 * 8 + JINN_PLACE] += 1
        if ifrit_wins_turn8_jinn_place(jt, temple, jm, nim, nst, tab, buf, ply + 1, stats):
            return True
    return False


@njit(cache=True)
def ifrit_wins_turn8_ifrit_keep(draft, jt, temple, jm, im, stacks, tab, buf, ply, stats):
    """The Ifrit's keep on turn 8 (the other tile of ``draft`` goes to pile 9), then the
    placements and turn 9: can she make sure to win? Inline, like the placements below it."""
    pile = tab[PILE + 8]
    for e in range(3):
        if not ((draft >> (2 * e)) & 3):
            continue
        ntemple = _discarded(temple, draft - (1 << (2 * e)), pile)
        stats[ST_NODES] += 1
        stats[ST_HIST + 6 * 8 + IFRIT_PLACE] += 1
        if ifrit_wins_turn8_place(e, jt, ntemple, jm, im, stacks, tab, buf, ply, stats):
            return True
    return False


@njit(cache=True)
def ifrit_wins_turn8(draft, temple, jm, im, stacks, tab, buf, ply, stats):
    """Turn 8 from the Jinn's keep (``draft``: pile 8), with turn 9: does the Ifrit win whatever
    he keeps? Inline (the tile he last kept and won with first)."""
    killer = stats[KILL + 1]
    for a in range(4):
        e = killer if a == 0 else a - 1
        if a > 0 and e == killer:
            continue
        if e < 0 or e > 2 or not ((draft >> (2 * e)) & 3):
            continue
        stats[ST_NODES] += 1
        stats[ST_HIST + 6 * 8 + IFRIT_KEEP] += 1
        rest = draft - (1 << (2 * e))
        if not ifrit_wins_turn8_ifrit_keep(rest, e, temple, jm, im, stacks, tab, buf, ply, stats):
            if not (stats[ST_FLAGS] & NO_KILLER):
                stats[KILL + 1] = e
            return False
    return True


@njit(cache=True, nogil=True)  # nogil: threads search a draw's outcomes side by side
def search(
    turn, step, bag, temple, draft, jt, it, jm, im, stacks, alpha, beta, ply, tab, tt, buf,
    stats,
):  # fmt: skip
    """The Ifrit's win probability times ``scale_of(turn, step)``, fail-soft in (alpha, beta)."""
    stats[ST_NODES] += 1
    stats[ST_HIST + 6 * turn + step] += 1
    if stats[ST_ABORT]:
        return 0
    if step == OVER:
        return 1 if ifrit_wins(jm, im, stacks, tab) else 0
    if turn == 9:
        if step == JINN_PLACE:
            return 0 if jinn_can_win_last(jt, jm, im, stacks, tab, stats) else 1
        if step == IFRIT_PLACE:
            return 1 if ifrit_can_win_last(it, jt, jm, im, stacks, tab, stats) else 0
        if step == IFRIT_KEEP:  # she keeps her lone tile
            e = 0 if draft & 3 else (1 if draft & 12 else 2)
            return 1 if ifrit_can_win_last(e, jt, jm, im, stacks, tab, stats) else 0
        if step == JINN_KEEP:
            return 1 if ifrit_wins_last_turn(draft, jm, im, stacks, tab, stats) else 0
    # values lie in [0, scale]: a window reaching past them is clamped, so that a maximiser stops
    # at a sure win and a minimiser at a sure loss
    top = scale_of(turn, step, bag, tab)
    if not (stats[ST_FLAGS] & NO_CLAMP):
        if beta <= 0:
            return 0
        if alpha >= top:
            return top
        if alpha < 0:
            alpha = 0
        if beta > top:
            beta = top
    inline8 = turn == 8 and not (stats[ST_FLAGS] & TT_DEEP)
    if inline8 and step >= IFRIT_PLACE:
        # the last two placements before the inline last turn: inline too (booleans)
        if step == IFRIT_PLACE:
            win = ifrit_wins_turn8_place(it, jt, temple, jm, im, stacks, tab, buf, ply, stats)
        else:
            win = ifrit_wins_turn8_jinn_place(jt, temple, jm, im, stacks, tab, buf, ply, stats)
        return 1 if win else 0

    # transposition table
    use_tt = not (stats[ST_FLAGS] & NO_TT)
    k1 = stacks | (step << 57) | (turn << 60)
    k2 = jm | (im << 32)
    k3 = bag | (temple << 12) | (draft << 30) | ((jt + 1) << 36) | ((it + 1) << 38)
    mask = tt.shape[0] // 2 - 1
    ttmove = -1
    if use_tt:
        slot, lo, hi, info = _probe(tt, _hash(k1, k2, k3, mask) * 2, k1, k2, k3)
        if slot >= 0:
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            ttmove = info & 0xFFFFFF
    nodes_before = stats[ST_NODES]

    out = buf[ply, 0]
    keys = buf[ply, 1]
    n = 0
    best_move = 0
    if not inline8:
        n = gen_moves(turn, step, bag, draft, jt, it, jm, im, stacks, tab, buf, ply, stats)
        best_move = out[0]

    if inline8:
        # turn 8's keeps: inline booleans too (below the table, which keeps their values)
        if step == JINN_KEEP:
            win = ifrit_wins_turn8(draft, temple, jm, im, stacks, tab, buf, ply, stats)
        else:
            win = ifrit_wins_turn8_ifrit_keep(
                draft, jt, temple, jm, im, stacks, tab, buf, ply, stats
            )
        value = 1 if win else 0
    elif step == DRAW:
        # Star1: outcomes by weight, heaviest first
        for a in range(1, n):
            mv = out[a]
            kv = keys[a]
            c = a - 1
            while c >= 0 and keys[c] < kv:
                out[c + 1] = out[c]
                keys[c + 1] = keys[c]
                c -= 1
            out[c + 1] = mv
            keys[c + 1] = kv
        u = tab[DAFTER + turn]  # child scale
        los = buf[ply, 2]  # each outcome's known bounds: from the table, then from its search
        his = buf[ply, 3]
        lo_sum = 0  # sum of w * (lower bound)
        hi_sum = 0  # sum of w * (upper bound)
        probe = use_tt and not (stats[ST_FLAGS] & NO_CHANCE_TT)
        for a in range(n):
            los[a] = 0
            his[a] = u
            if probe:
                # the outcome's position: the Jinn keeps from the drawn tiles (see apply_move)
                code = out[a]
                nbg = bag - (code & 3) - (((code >> 2) & 3) << 4) - (((code >> 4) & 3) << 8)
                ck1 = stacks | (JINN_KEEP << 57) | (turn << 60)
                ck2 = jm | (im << 32)
                ck3 = nbg | (temple << 12) | (code << 30) | (0 << 36) | (0 << 38)
                i, clo, chi, _info = _probe(tt, _hash(ck1, ck2, ck3, mask) * 2, ck1, ck2, ck3)
                if i >= 0:
                    los[a] = clo
                    his[a] = chi
            lo_sum += keys[a] * los[a]
            hi_sum += keys[a] * his[a]
        value = -1
        if lo_sum >= beta:
            value = lo_sum
        elif hi_sum <= alpha:
            value = hi_sum
        for a in range(n):
            if value >= 0:
                break
            w = keys[a]
            if los[a] == his[a]:
                continue  # known exactly
            hi_ex = hi_sum - w * his[a]
            lo_ex = lo_sum - w * los[a]
            ca = alpha - hi_ex
            if ca >= 0:
                ca = ca // w
            else:
                ca = -((-ca + w - 1) // w)
            cb = beta - lo_ex
            if cb >= 0:
                cb = (cb + w - 1) // w
            else:
                cb = -((-cb) // w)
            if ca < los[a] - 1:
                ca = los[a] - 1
            if cb > his[a] + 1:
                cb = his[a] + 1
            if stats[ST_FLAGS] & NO_STAR1:
                ca = los[a] - 1
                cb = his[a] + 1
            nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst = apply_move(
                turn, step, bag, temple, draft, jt, it, jm, im, stacks, out[a], tab
            )
            v = search(
                nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst, ca, cb, ply + 1,
                tab, tt, buf, stats,
            )  # fmt: skip
            if stats[ST_ABORT]:
                return 0
            if v <= ca:  # an upper bound: the whole node fails low
                value = hi_ex + w * v
                break
            if v >= cb:  # a lower bound: the whole node fails high
                value = lo_ex + w * v
                break
            lo_sum = lo_ex + w * v
            hi_sum = hi_ex + w * v
        if value < 0:
            value = lo_sum  # every outcome exact: lo_sum == hi_sum
        best_move = 0
    else:
        maximise = step == IFRIT_KEEP or step == IFRIT_PLACE
        # ordering: TT move first, then by key (insertion sort, stable)
        if stats[ST_FLAGS] & NO_ORDER:
            n_sort = 1
            ttmove = -1
        elif stats[ST_FLAGS] & NO_HEURISTIC:
            n_sort = 1
        else:
            n_sort = n
        if step == IFRIT_PLACE and n_sort > 1 and not (stats[ST_FLAGS] & NO_REPLIES):
            order_by_replies(jt, jm, im, out, keys, n, tab)
        for a in range(1, n_sort):
            mv = out[a]
            kv = keys[a]
            c = a - 1
            while c >= 0 and keys[c] < kv:
                out[c + 1] = out[c]
                keys[c + 1] = keys[c]
                c -= 1
            out[c + 1] = mv
            keys[c + 1] = kv
        if ttmove >= 0:
            for a in range(n):
                if out[a] == ttmove:
                    for c in range(a, 0, -1):
                        out[c] = out[c - 1]
                    out[0] = ttmove
                    break
        if use_tt and turn <= 6 and not (stats[ST_FLAGS] & NO_ETC):
            # enhanced transposition cut-offs: a child whose stored bound already refutes the
            # window ends the node before any child is searched (the scale is the same)
            for a in range(n):
                nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst = apply_move(
                    turn, step, bag, temple, draft, jt, it, jm, im, stacks, out[a], tab
                )
                ck1 = nst | (ns << 57) | (nt << 60)
                ck2 = njm | (nim << 32)
                ck3 = nbg | (ntp << 12) | (ndf << 30) | ((njt + 1) << 36) | ((nit + 1) << 38)
                i, clo, chi, _info = _probe(tt, _hash(ck1, ck2, ck3, mask) * 2, ck1, ck2, ck3)
                if i >= 0:
                    if maximise and clo >= beta:
                        return clo
                    if not maximise and chi <= alpha:
                        return chi
        if maximise:
            value = -1
        else:
            value = top + 1
        a0 = alpha
        b0 = beta
        pvs = not (stats[ST_FLAGS] & NO_PVS)
        for a in range(n):
            mv = out[a]
            nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst = apply_move(
                turn, step, bag, temple, draft, jt, it, jm, im, stacks, mv, tab
            )
            if a == 0 or not pvs or b0 - a0 <= 1:
                v = search(
                    nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst, a0, b0, ply + 1,
                    tab, tt, buf, stats,
                )  # fmt: skip
            elif maximise:
                # principal variation search: first prove the move no better than the best so far
                v = search(
                    nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst, a0, a0 + 1, ply + 1,
                    tab, tt, buf, stats,
                )  # fmt: skip
                if v > a0 and v < b0 and not stats[ST_ABORT]:
                    v = search(
                        nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst, v - 1, b0, ply + 1,
                        tab, tt, buf, stats,
                    )  # fmt: skip
            else:
                v = search(
                    nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst, b0 - 1, b0, ply + 1,
                    tab, tt, buf, stats,
                )  # fmt: skip
                if v < b0 and v > a0 and not stats[ST_ABORT]:
                    v = search(
                        nt, ns, nbg, ntp, ndf, njt, nit, njm, nim, nst, a0, v + 1, ply + 1,
                        tab, tt, buf, stats,
                    )  # fmt: skip
            if stats[ST_ABORT]:
                return 0
            if maximise:
                if v > value:
                    value = v
                    best_move = mv
                    if v > a0:
                        a0 = v
                        if a0 >= b0:
                            break
            else:
                if v < value:
                    value = v
                    best_move = mv
                    if v < b0:
                        b0 = v
                        if a0 >= b0:
                            break

    if use_tt:
        work = stats[ST_NODES] - nodes_before
        # the row as it is now (another thread may have written the bucket since the probe)
        b = _hash(k1, k2, k3, mask) * 2
        slot, lo, hi, info = _probe(tt, b, k1, k2, k3)
        if slot < 0:
            # slot 0 keeps the bigger search, slot 1 always replaced
            if tt[b, T_INFO] < 0 or (tt[b, T_INFO] >> 24) <= work:
                slot = b
                if tt[b, T_INFO] >= 0:
                    # demote the old entry to the always-replace slot (a torn one stays torn)
                    for w in range(T_WIDTH):
                        tt[b + 1, w] = tt[b, w]
            else:
                slot = b + 1
            lo = 0
            hi = top
            info = 0
        if value <= alpha:
            if value < hi:
                hi = value
        elif value >= beta:
            if value > lo:
                lo = value
        else:
            lo = value
            hi = value
        info = (best_move & 0xFFFFFF) | (((info >> 24) + work) << 24)
        _store(tt, slot, k1, k2, k3, lo, hi, info)
    return value
