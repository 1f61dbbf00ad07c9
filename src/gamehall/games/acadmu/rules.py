"""The rules of Äcädmü as pure functions over token counts (no I/O, no state objects).

A side's tokens are nine counts, one per pairing (see ``tokens``). A move is identified by the
pairing of the token the mover gives up and the sorted pairings it takes: moves that leave the
same position are one move (``RTxBS`` by colour and, under the variant, a lone ``RTxBS`` by shape
are the same move).
"""

from __future__ import annotations

from gamehall.games.acadmu.tokens import beaten, colour_of, pairing, shape_of

Counts = tuple[int, ...]
Capture = tuple[int, tuple[int, ...]]
"""(own pairing given up, sorted pairings taken)."""


# Precomputed for speed (the engines sit under search): for each own pairing, the captures it
# could make, as ready-made (own, taken) tuples.
_BY_COLOUR: tuple[tuple[Capture, ...], ...] = tuple(
    tuple((mine, (pairing(beaten(colour_of(mine)), shape),)) for shape in range(3))
    for mine in range(9)
)
_BY_SHAPE: tuple[tuple[Capture, ...], ...] = tuple(
    tuple(
        (mine, (pairing(a, beaten(shape_of(mine))), pairing(b, beaten(shape_of(mine)))))
        for a in range(3)
        for b in range(a, 3)
    )
    for mine in range(9)
)


def captures_by_colour(own: Counts, opponent: Counts) -> list[Capture]:
    """'One by colour': one own token removes one opponent token of the colour it beats."""
    return [
        capture
        for mine in range(9)
        if own[mine]
        for capture in _BY_COLOUR[mine]
        if opponent[capture[1][0]]
    ]


def captures_by_shape(
    own: Counts, opponent: Counts, *, take_one_if_last: bool = False
) -> list[Capture]:
    """'Two by shape': one own token removes two opponent tokens of the shape it beats
    (any colours, possibly the same colour).

    With the variant ``shape_capture_takes_one_if_last``, when exactly one opponent token of the
    beaten shape is left, it may be taken alone.
    """
    moves = []
    for mine in range(9):
        if not own[mine]:
            continue
        for capture in _BY_SHAPE[mine]:
            first, second = capture[1]
            if opponent[first] >= (2 if first == second else 1) and opponent[second]:
                moves.append(capture)
        if take_one_if_last:
            victims = [pairing(colour, beaten(shape_of(mine))) for colour in range(3)]
            if sum(opponent[v] for v in victims) == 1:
                moves.append((mine, tuple(v for v in victims if opponent[v])))
    return moves


def _dense_order(capture: Capture) -> tuple[int, int, tuple[int, ...]]:
    """The order of the dense action index: one-token takes, then two-token takes by shape,
    each by own pairing and then the pairings taken."""
    return (len(capture[1]), capture[0], capture[1])


def captures(own: Counts, opponent: Counts, *, take_one_if_last: bool = False) -> list[Capture]:
    """Every capture open to ``own`` (by colour and by shape), each resulting position once, in
    the order of the dense action index: every one-token take (by colour, or the variant's lone
    take by shape) by own pairing and pairing taken, then every two-token take by shape."""
    moves = captures_by_colour(own, opponent) + captures_by_shape(
        own, opponent, take_one_if_last=take_one_if_last
    )
    if take_one_if_last:  # the lone takes by shape join the one-token takes, each move once
        return sorted(set(moves), key=_dense_order)
    return moves


def can_capture(own: Counts, opponent: Counts, *, take_one_if_last: bool = False) -> bool:
    """Whether any capture is open to ``own``: rule 3 says a player without one must pass."""
    for mine in range(9):
        if not own[mine]:
            continue
        colour, shape = colour_of(mine), shape_of(mine)
        victim_colour = beaten(colour)
        if (
            opponent[victim_colour * 3]
            or opponent[victim_colour * 3 + 1]
            or opponent[victim_colour * 3 + 2]
        ):
            return True
        victim_shape = beaten(shape)
        left = opponent[victim_shape] + opponent[3 + victim_shape] + opponent[6 + victim_shape]
        if left >= 2 or (take_one_if_last and left == 1):
            return True
    return False


def remove(counts: Counts, pairings: tuple[int, ...]) -> Counts:
    """Take the tokens ``pairings`` out of ``counts``."""
    out = list(counts)
    for p in pairings:
        out[p] -= 1
    return tuple(out)


def round_difference(dark: Counts, light: Counts) -> int:
    """Rule 4: each counts remaining tokens; the difference (Dark's count minus Light's)."""
    return sum(dark) - sum(light)


def potential(own: Counts, opponent: Counts) -> int:
    """A side's potential: the sum over shapes s of min(own tokens of shape s, ⌊opponent's
    tokens of the shape s beats / 2⌋) — the most the side can still gain by shape captures."""
    total = 0
    for shape in range(3):
        mine = own[shape] + own[3 + shape] + own[6 + shape]
        victim = beaten(shape)
        theirs = opponent[victim] + opponent[3 + victim] + opponent[6 + victim]
        total += min(mine, theirs // 2)
    return total
