"""The exact solver's hold on its numba kernel (:mod:`gamehall.games.akros._kernel`): a board's
tables, the transposition table kept between solves on one board, and positions and moves
encoded as the kernel reads them. Private to :mod:`gamehall.games.akros.solver`."""

from __future__ import annotations

import threading
from math import comb
from typing import Any

import numpy as np

from gamehall.core.errors import GamehallError
from gamehall.games.akros import rules
from gamehall.games.akros.board import Board
from gamehall.games.akros.game import AkrosGame, AkrosState
from gamehall.games.akros.rules import IFRIT_PLACE, Keep, KeepDiscard, Place, Remove


def _board_table(board: Board) -> np.ndarray:
    """The kernel's tables of ``board`` in one array (``tab``: see the kernel's ``NB`` ...)."""
    from gamehall.games.akros import _kernel as kernel

    tab = np.zeros(kernel.TAB_SIZE, dtype=np.int64)
    for r, mask in enumerate(board.neighbour_masks):
        tab[kernel.NB + r] = mask
    for e, mask in enumerate(board.environment_masks):
        tab[kernel.ENVM + e] = mask
    for r in board.region_ids:
        tab[kernel.ENVOF + r] = board.environments[r]
    # the value scale: the number of possible draw sequences after turn t (turns t+1..6)
    scale = 1
    for t in range(10, -1, -1):
        if t + 1 <= rules.BAG_TURNS:
            scale *= comb(board.tile_count - rules.TILES_DRAWN * t, rules.TILES_DRAWN)
        tab[kernel.DAFTER + t] = scale
    for t in range(1, 10):
        pile = rules.discard_pile(t)
        tab[kernel.PILE + t] = -1 if pile is None else pile
    return tab


class _Context:
    """The kernel's tables for one board, and its transposition table. A helper of ``lead``
    shares the lead's board tables and transposition table, with move lists and counters of its
    own."""

    def __init__(self, game: AkrosGame, tt_bits: int, lead: _Context | None = None) -> None:
        from gamehall.games.akros import _kernel as kernel

        self.kernel = kernel
        board = game.board
        self.board = board
        self.tab = _board_table(board) if lead is None else lead.tab
        self.tt_bits = tt_bits
        self.tt = kernel.new_tt(tt_bits) if lead is None else lead.tt
        self.buf, self.stats = kernel.new_buffers()
        self.game = game
        self.helpers: list[_Context] = []
        """Contexts of the threads that search beside this one, sharing its table (each has its
        own move lists and counters); made on first use, then kept."""

    def team(self, workers: int) -> list[_Context]:
        """This context and ``workers - 1`` helpers, one per thread."""
        while len(self.helpers) < workers - 1:
            self.helpers.append(_Context(self.game, self.tt_bits, self))
        return [self, *self.helpers[: workers - 1]]

    def clear(self) -> None:
        self.tt[:, self.kernel.T_INFO] = -1

    def reset_stats(self, flags: int) -> None:
        self.stats[:] = 0
        self.stats[self.kernel.ST_FLAGS] = flags  # techniques switched off (measurements only)

    def stop(self) -> None:
        """Make this context's search (running in any thread) return at once, writing nothing."""
        self.stats[self.kernel.ST_ABORT] = 1

    def resume(self) -> None:
        self.stats[self.kernel.ST_ABORT] = 0

    def scale(self, enc: tuple[int, ...]) -> int:
        return int(self.kernel.scale_of(enc[0], enc[1], enc[2], self.tab))

    def search(self, enc: tuple[int, ...], alpha: int, beta: int) -> int:
        return int(
            self.kernel.search(*enc, alpha, beta, 0, self.tab, self.tt, self.buf, self.stats)
        )

    def child(self, enc: tuple[int, ...], code: int) -> tuple[int, ...]:
        return tuple(int(x) for x in self.kernel.apply_move(*enc, code, self.tab))

    def ordered_moves(self, enc: tuple[int, ...]) -> list[int]:
        """A decision's moves in the search's order (by key, the Ifrit's placements first by how
        few placements they leave the Jinn), as the kernel orders them without a table move."""
        turn, step, bag, _temple, draft, jt, it, jm, im, stacks = enc
        ply = self.kernel.MAXPLY - 1
        n = self.kernel.gen_moves(
            turn, step, bag, draft, jt, it, jm, im, stacks, self.tab, self.buf, ply, self.stats
        )
        out, keys = self.buf[ply, 0], self.buf[ply, 1]
        if step == IFRIT_PLACE and n > 1:
            self.kernel.order_by_replies(jt, jm, im, out, keys, n, self.tab)
        listed = [(int(out[i]), int(keys[i])) for i in range(n)]
        return [code for code, _key in sorted(listed, key=lambda m: -m[1])]

    def moves(self, enc: tuple[int, ...]) -> list[tuple[int, int]]:
        """(code, key) pairs: ordering keys for decisions, ways for draws."""
        turn, step, bag, _temple, draft, jt, it, jm, im, stacks = enc
        ply = self.kernel.MAXPLY - 1
        n = self.kernel.gen_moves(
            turn, step, bag, draft, jt, it, jm, im, stacks, self.tab, self.buf, ply, self.stats
        )
        return [(int(self.buf[ply, 0, i]), int(self.buf[ply, 1, i])) for i in range(n)]

    @property
    def aborted(self) -> bool:
        return bool(self.stats[1])

    @property
    def nodes(self) -> int:
        return int(self.stats[0])


_CONTEXTS: dict[Any, _Context] = {}
_ONE_SOLVE_AT_A_TIME = threading.Lock()
"""Solves in one process take turns (the kernel runs without Python's lock, and a context's
buffers serve one search at a time)."""


def supported(game: AkrosGame) -> bool:
    """Whether the kernel handles this board (its encodings have fixed widths)."""
    board = game.board
    return (
        board.size <= 19
        and max(board.bag) <= 7
        and board.tile_count - rules.TILES_DRAWN * rules.BAG_TURNS >= 0
        and board.tile_count <= 15 * 3
    )


def _context(game: AkrosGame, tt_bits: int) -> _Context:
    key = (game, tt_bits)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        if not supported(game):
            raise GamehallError(
                f"the Akros exact solver handles boards of at most 19 regions and 7 tiles per "
                f"environment; {game.board.name!r} is not one"
            )
        _CONTEXTS.clear()  # one table at a time (memory)
        ctx = _CONTEXTS[key] = _Context(game, tt_bits)
    return ctx


def _encode(state: AkrosState) -> tuple[int, ...]:
    bag = state.bag[0] | state.bag[1] << 4 | state.bag[2] << 8
    temple = 0
    for p, pile in enumerate(state.temple):
        for tile in pile:
            temple += 1 << (2 * (3 * p + tile))
    draft = 0
    for tile in state.draft:
        draft += 1 << (2 * tile)
    jt = -1 if state.jinn_tile is None else state.jinn_tile
    it = -1 if state.ifrit_tile is None else state.ifrit_tile
    jm = rules.servants_mask(state.jinn)
    im = rules.servants_mask(state.ifrit)
    stacks = 0
    for r, height in enumerate(state.stacks):
        stacks |= height << (3 * r)
    return (state.turn, state.step, bag, temple, draft, jt, it, jm, im, stacks)


def _action_code(action: Any) -> int:
    if isinstance(action, Place):
        return action.region << 8 | action.source
    if isinstance(action, Remove):
        return 0
    if isinstance(action, KeepDiscard):
        return action.keep
    if isinstance(action, Keep):
        return action.tile
    raise ValueError(f"{action!r} is not an Akros player action")


def _final_margins(enc: tuple[int, ...], board: Any) -> tuple[int, int, int]:
    _turn, _step, _bag, _temple, _draft, _jt, _it, jm, im, stacks = enc
    margin = [0, 0, 0]
    for r in board.region_ids:
        height = stacks >> (3 * (r - 1)) & 7
        if im >> r & 1:
            margin[board.environments[r]] += 1 + height
        elif jm >> r & 1:
            margin[board.environments[r]] -= 1 + height
    return (margin[0], margin[1], margin[2])
