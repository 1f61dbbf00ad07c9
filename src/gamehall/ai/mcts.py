"""Monte Carlo tree search (UCT) for any game on the core protocol.

:class:`MCTSAgent` knows nothing of a particular game: it uses ``current_player``,
``legal_actions``, ``apply_trusted``, ``sample_chance``, ``returns`` and ``horizon_returns``.

Design
------

**Closed-loop tree.** Every node holds its (immutable) state; a decision node's children are keyed
by action, a chance node's children by outcome. Statistics below a chance node are therefore
conditional on the outcome that actually happened (after a draw of tiles the legal keeps depend on
the tiles drawn, so an open-loop tree, which pools statistics over outcomes, would mix apples and
oranges), and tree reuse can follow the real outcome down the tree.

**Chance by sampling, not by averaging.** At a chance node the search draws one outcome with
``state.sample_chance(rng)``, i.e. with its exact probability, and descends to that outcome's
child (creating it if new). Averaging over listed outcomes (expectimax style) would need
``chance_outcomes()``, which a pour of many two-faced discs cannot give (2^54 face combinations raise
:class:`~gamehall.core.TooManyOutcomesError`) and which costs a list of Fractions per visit where it
can. Sampling works at every chance node, is unbiased, and each chance child is visited with a
frequency that converges to its probability. A node whose outcomes are too many ever to repeat
would grow one child per visit and never deepen, so chance nodes use *progressive widening*: a
new outcome is drawn only while the node has fewer than ``widening * sqrt(visits)`` children;
otherwise one of the node's earlier fresh draws is picked uniformly. Each pick is still distributed
exactly as the chance law (a uniform pick from i.i.d. draws), so no bias is introduced; nodes
with few outcomes (a draw of three tiles from three kinds has at most 10) are not affected in practice.

**Returns.** Each node sums the returns of the player who moved into it (``returns()[mover]``,
any number of players; chance moves carry none), so a parent picks the child best for its own
player to move. Leaves are terminal states (``returns()``) and, below the root, states where
``horizon_returns()`` is not None (e.g. a round's end inside a match): the game's estimate
is used and the search does not look past it. Random playouts stop there too.

**Scale.** Returns are used raw (a bare round of a points game returns the count difference, e.g. +7; a
match returns ±1 at its end and a lead/target estimate at a round's end). UCT compares
``(mean - lo) / (hi - lo) + c * sqrt(ln N / n)`` where ``[lo, hi]`` is the range of returns the
search has seen so far (MuZero-style min-max normalisation), so ``c`` means the same on every
scale: on a win/loss game it is the usual [0, 1] win-rate scale, and small horizon estimates (a
two-point lead is 0.17 of a 12-point match) are not drowned by exploration. Values reported by
:meth:`MCTSAgent.analyse` are raw mean returns.

**Reuse.** After a search the tree is kept. :meth:`MCTSAgent.observe` (told of every action:
own, opponent's and chance) moves the root to the matching child, or drops the tree when there is
none (e.g. after a pour no search had drawn). A later :meth:`MCTSAgent.choose` on the root's state
continues from its visits.

**Reproducibility.** All randomness comes from one ``random.Random(seed)``; children are kept in
insertion-ordered dicts and never in sets, so results do not depend on ``PYTHONHASHSEED``. With
a simulation budget (and no time limit) the same seed gives the same moves; a ``seconds`` budget
depends on the machine's speed.

**Final choice.** The most visited root child; ties go to the higher mean, then to the child
expanded first (the expansion order is drawn from the seeded generator).

**Compiled.** Where the game offers a compiled simulator (its plugin's ``simulator``) and no
custom rollout policy is given, the whole search runs compiled
(:mod:`gamehall.kernels.tree`, driven by :mod:`gamehall.ai.compiled_tree`): the same
algorithm, the same statistics and reuse, tens of times more simulations a second; its random
numbers come from the kernels' generator, so its games differ from the Python search's for a
seed (each is reproducible). ``compiled=False`` keeps the Python search.
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from gamehall.core import CHANCE, TERMINAL, Action, Agent, GamehallError, State

if TYPE_CHECKING:
    from gamehall.ai.compiled_tree import CompiledTree
    from gamehall.kernels.simulator import Simulator

RolloutPolicy = Callable[[State, random.Random], Action]
"""Picks the action to play in a rollout at a decision node (default: uniformly random)."""


class MoveStat(NamedTuple):
    """One root action after a search: its visits and mean return for the player to move."""

    action: Action
    visits: int
    value: float


class Node:
    """A search-tree node: a state, the player who moved into it, and its statistics.

    ``value`` is the sum of ``mover``'s returns over the ``visits`` simulations through the node
    and ``squares`` the sum of their squares, for the spread of an estimate (``mover`` is
    :data:`CHANCE` for a chance outcome, which keeps no value). ``children`` maps an
    action or chance outcome to its node, in the order they were added. ``leaf`` is the returns
    the search uses instead of looking further (terminal or horizon), else None.
    """

    __slots__ = (
        "children",
        "draws",
        "leaf",
        "mover",
        "pending",
        "player",
        "squares",
        "state",
        "value",
        "visits",
    )

    def __init__(self, state: State, mover: int, horizon: bool) -> None:
        self.state = state
        self.mover = mover
        player = state.current_player
        self.player = player
        self.children: dict[Action, Node] = {}
        self.pending: list[Action] | None = None
        """Decision node: legal actions not yet expanded (filled on the first visit)."""
        self.draws: list[Action] | None = None
        """Chance node: the fresh outcome draws, for progressive widening."""
        self.visits = 0
        self.value = 0.0
        self.squares = 0.0
        if player == TERMINAL:
            self.leaf: tuple[float, ...] | None = tuple(state.returns())
        elif horizon:
            self.leaf = state.horizon_returns()
        else:
            self.leaf = None

    @property
    def mean(self) -> float:
        """The mover's mean return through this node (0 before any visit)."""
        return self.value / self.visits if self.visits else 0.0

    def __repr__(self) -> str:
        return f"Node({str(self.state)!r}, visits={self.visits}, mean={self.mean:+.3f})"


class MCTSAgent(Agent):
    """UCT Monte Carlo tree search with random (or custom) rollouts; see the module docstring.

    ``simulations`` and/or ``seconds`` bound each search (at least one is required; with both it
    stops at whichever comes first). ``c`` is the UCT exploration constant, for mean returns
    normalised to [0, 1] by the range seen so far. ``horizon=False`` searches and plays out past ``horizon_returns`` resting points to
    the real end of the game. ``widening`` controls progressive widening at chance nodes.
    """

    name = "mcts"

    def __init__(
        self,
        simulations: int | None = None,
        seconds: float | None = None,
        c: float = 1.0,
        seed: int | None = None,
        *,
        rollout_policy: RolloutPolicy | None = None,
        horizon: bool = True,
        widening: float = 8.0,
        reuse_tree: bool = True,
        compiled: bool = True,
    ) -> None:
        if simulations is None and seconds is None:
            raise GamehallError("MCTSAgent needs a budget: simulations, seconds or both")
        if simulations is not None and simulations < 1:
            raise GamehallError(f"simulations must be at least 1, not {simulations}")
        if seconds is not None and not seconds > 0:
            raise GamehallError(f"seconds must be positive, not {seconds}")
        self.simulations = simulations
        self.seconds = seconds
        self.c = c
        self.seed = seed
        self.rollout_policy = rollout_policy
        self.horizon = horizon
        self.widening = widening
        self.reuse_tree = reuse_tree
        self.compiled = compiled and rollout_policy is None
        self._compiled: CompiledTree | None = None
        self.rng = random.Random(seed)
        self._root: Node | None = None
        self._lo = math.inf
        self._hi = -math.inf
        self.last_simulations = 0
        """Simulations run by the last search."""
        self.last_reused = 0
        """Root visits carried over from earlier searches when the last search began."""
        self.last_stats: list[MoveStat] = []
        self._last_note: str | None = None

    # --- the agent interface ---

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise GamehallError(f"MCTS can only choose at a decision node, not at {state}")
        if len(legal) == 1:
            self.last_simulations = 0
            self.last_stats = []
            self._last_note = "MCTS: the only legal move"
            return legal[0]
        stats = self.analyse(state)
        best = stats[0]
        reused = f" (+{self.last_reused:,} reused)" if self.last_reused else ""
        self._last_note = (
            f"MCTS {self.last_simulations:,} simulations{reused}, {self.value_text(best.value)}"
        )
        return best.action

    def observe(self, state: State, action: Action) -> None:
        tree = self._compiled
        if tree is not None:
            same = tree.root_state is state or tree.root_state == state
            if not (self.reuse_tree and same and tree.move_root(state, action)):
                self._compiled = None
            return
        root = self._root
        if root is None:
            return
        if not self.reuse_tree or not (root.state is state or root.state == state):
            self._drop_tree()
            return
        child = root.children.get(action)
        if child is None:
            self._drop_tree()
        else:
            self._root = child

    def describe_last_choice(self) -> str | None:
        return self._last_note

    # --- analysis ---

    def analyse(
        self, state: State, simulations: int | None = None, seconds: float | None = None
    ) -> list[MoveStat]:
        """Search from ``state`` and return its actions as (action, visits, mean value), best
        first; values are mean returns for the player to move. The budget defaults to the
        agent's own; the tree is kept for reuse."""
        if simulations is None and seconds is None:
            simulations, seconds = self.simulations, self.seconds
        simulator = self._simulator(state)
        if simulator is not None:
            return self._analyse_compiled(simulator, state, simulations, seconds)
        root = self._root
        if root is None or not self.reuse_tree or not (root.state is state or root.state == state):
            self._drop_tree()
            root = self._root = Node(state, CHANCE, self.horizon)
        if root.player == CHANCE or root.player == TERMINAL:
            raise GamehallError(f"MCTS can only analyse a decision node, not {state}")
        root.leaf = None  # the root is searched even at a resting point
        self.last_reused = root.visits
        self.last_simulations = self._search(root, simulations, seconds)
        order = {action: index for index, action in enumerate(root.children)}
        stats = [MoveStat(a, child.visits, child.mean) for a, child in root.children.items()]
        stats.sort(key=lambda s: (-s.visits, -s.value, order[s.action]))
        self.last_stats = stats
        return stats

    @property
    def tree(self) -> Node | None:
        """The current root node (None when there is no tree). For a compiled search, a
        snapshot of the tree as :class:`Node` values."""
        if self._compiled is not None:
            return _snapshot(self._compiled)
        return self._root

    # --- the compiled search ---

    def _simulator(self, state: State) -> Simulator | None:
        if not self.compiled or state.game.num_players != 2:
            return None
        from gamehall.fast import simulator_for

        return simulator_for(state.game)

    def _analyse_compiled(
        self,
        simulator: Simulator,
        state: State,
        simulations: int | None,
        seconds: float | None,
    ) -> list[MoveStat]:
        from gamehall.ai.compiled_tree import CompiledTree

        self._root = None
        tree = self._compiled
        if (
            tree is None
            or not self.reuse_tree
            or not (tree.root_state is state or tree.root_state == state)
        ):
            if tree is None:
                seed = self.rng.getrandbits(63)
                tree = self._compiled = CompiledTree(simulator, state, seed, self.horizon)
            else:
                tree.reset(state)
        if tree.player_of(tree.root) in (CHANCE, TERMINAL):
            raise GamehallError(f"MCTS can only analyse a decision node, not {state}")
        self.last_reused = tree.root_visits
        deadline = None if seconds is None else time.perf_counter() + seconds
        count = 0
        while simulations is None or count < simulations:
            chunk = (
                256
                if simulations is None
                else min(256 if deadline else simulations, simulations - count)
            )
            count += tree.search(chunk, self.c, self.widening)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_simulations = count
        self._lo, self._hi = float(tree.bounds[0]), float(tree.bounds[1])
        raw = tree.root_stats()
        order = {action: index for index, (action, _, _) in enumerate(raw)}
        stats = [MoveStat(a, visits, mean) for a, visits, mean in raw]
        stats.sort(key=lambda s: (-s.visits, -s.value, order[s.action]))
        self.last_stats = stats
        return stats

    def value_text(self, value: float) -> str:
        """A mean return as people read it: a win rate when every return seen lay in [-1, 1],
        else the mean return itself."""
        if self._lo >= -1.0 and self._hi <= 1.0:
            return f"win rate {(value + 1) / 2:.0%}"
        return f"mean return {value:+.2f}"

    def _drop_tree(self) -> None:
        self._root = None
        self._compiled = None
        self._lo, self._hi = math.inf, -math.inf

    # --- the search ---

    def _search(self, root: Node, simulations: int | None, seconds: float | None) -> int:
        deadline = None if seconds is None else time.perf_counter() + seconds
        count = 0
        simulate = self._simulate
        clock = time.perf_counter
        while True:
            if simulations is not None and count >= simulations:
                break
            if deadline is not None and count and clock() >= deadline:
                break
            simulate(root)
            count += 1
        return count

    def _simulate(self, root: Node) -> None:
        rng = self.rng
        horizon = self.horizon
        log, sqrt = math.log, math.sqrt
        node = root
        path = [node]
        while True:
            leaf = node.leaf
            if leaf is not None:
                returns = leaf
                break
            if node.player == CHANCE:
                draws = node.draws
                if draws is None:
                    draws = node.draws = []
                if len(node.children) < self.widening * sqrt(node.visits + 1):
                    outcome = node.state.sample_chance(rng)
                    draws.append(outcome)
                else:
                    outcome = draws[rng.randrange(len(draws))]
                child = node.children.get(outcome)
                if child is None:
                    child = Node(node.state.apply_trusted(outcome), CHANCE, horizon)
                    node.children[outcome] = child
                    path.append(child)
                    returns = child.leaf if child.leaf is not None else self._rollout(child.state)
                    break
                node = child
                path.append(child)
                continue
            pending = node.pending
            if pending is None:
                pending = node.pending = list(node.state.legal_actions())
                if not pending:
                    raise GamehallError(f"no legal actions at a decision node: {node.state}")
            if pending:
                action = pending.pop(rng.randrange(len(pending)))
                child = Node(node.state.apply_trusted(action), node.player, horizon)
                node.children[action] = child
                path.append(child)
                returns = child.leaf if child.leaf is not None else self._rollout(child.state)
                break
            # UCT over the expanded children (all of them, by now).
            spread = self._hi - self._lo
            scale = 1.0 / spread if spread > 0 else 1.0
            explore = self.c * sqrt(log(node.visits))
            best = None
            best_score = -math.inf
            for child in node.children.values():
                n = child.visits
                score = child.value * scale / n + explore / sqrt(n)
                if score > best_score:
                    best, best_score = child, score
            node = best  # type: ignore[assignment]
            path.append(node)
        for r in returns:
            if r < self._lo:
                self._lo = r
            if r > self._hi:
                self._hi = r
        for visited in path:
            visited.visits += 1
            mover = visited.mover
            if mover >= 0:
                r = returns[mover]
                visited.value += r
                visited.squares += r * r

    def _rollout(self, state: State) -> tuple[float, ...]:
        """Play on at random (or by the rollout policy) to the end or a horizon point."""
        rng = self.rng
        uniform = (
            rng.random
        )  # int(uniform() * n) is a seeded draw in range(n), faster than randrange
        policy = self.rollout_policy
        horizon = self.horizon
        while True:
            player = state.current_player
            if player == TERMINAL:
                return tuple(state.returns())
            if horizon:
                estimate = state.horizon_returns()
                if estimate is not None:
                    return estimate
            if player == CHANCE:
                action = state.sample_chance(rng)
            elif policy is not None:
                action = policy(state, rng)
            else:
                actions = state.legal_actions()
                action = actions[int(uniform() * len(actions))]
            state = state.apply_trusted(action)

    def __repr__(self) -> str:
        return (
            f"MCTSAgent(simulations={self.simulations!r}, seconds={self.seconds!r}, "
            f"c={self.c!r}, seed={self.seed!r})"
        )


def _snapshot(tree: CompiledTree) -> Node:
    """The compiled tree as :class:`Node` values (for inspection; search never reads them).

    The statistics are copied now, so later searches leave the snapshot as it was, and a node's
    children are made when first read: a hint or a review reads the root's children and a line
    or two below them, not every one of a big tree's hundreds of thousands of nodes (making all
    of them took seconds)."""
    frozen = copy.copy(tree)
    used = tree.nodes
    frozen.meta = tree.meta[:used].copy()
    frozen.value = tree.value[:used].copy()
    frozen.outcome = tree.outcome[:used].copy()
    return _SnapshotNode(frozen, frozen.root, tree.root_state)


class _SnapshotNode(Node):
    """A :class:`Node` of a compiled tree's snapshot, its children made on first reading."""

    __slots__ = ("_frozen", "_row")

    def __init__(self, tree: CompiledTree, row: int, state: State) -> None:
        from gamehall.kernels.tree import MOVER, SQUARES, SUM, VISITS

        self._frozen = tree
        self._row = row
        self.state = state
        self.mover = int(tree.meta[row, MOVER])
        self.player = tree.player_of(row)
        self.visits = int(tree.meta[row, VISITS])
        self.value = float(tree.value[row, SUM])
        self.squares = float(tree.value[row, SQUARES])
        self.leaf = None if row == tree.root else tree.leaf_of(row)
        self.pending = None
        self.draws = None
        Node.children.__set__(self, None)  # type: ignore[attr-defined]

    @property  # type: ignore[override]
    def children(self) -> dict[Action, Node]:
        made: dict[Action, Node] | None = Node.children.__get__(self)  # type: ignore[attr-defined]
        if made is None:
            made = {}
            tree, state = self._frozen, self.state
            for row in tree.children(self._row):
                action = tree.action_of(row, state)
                made[action] = _SnapshotNode(tree, row, state.apply_trusted(action))
            Node.children.__set__(self, made)  # type: ignore[attr-defined]
        return made

    @children.setter
    def children(self, made: dict[Action, Node]) -> None:
        Node.children.__set__(self, made)  # type: ignore[attr-defined]


__all__ = ["MCTSAgent", "MoveStat", "Node", "RolloutPolicy"]
