"""The analysis board's lines: a small tree of moves from a starting position.

Each node is a position and the move that led to it. Playing a move from a position goes on
along a line that already has it, or starts a new branch beside the ones there (the first child
is the main line). Back and forward step along the line you are on: forward goes the way you
last came back from. No Textual here: the analysis screen (:mod:`gamehall.tui.analysis`) draws
it, the tests drive it directly.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from gamehall.core import Action, State
from gamehall.core.words import move_label, move_words


@dataclass(eq=False)
class Line:
    """A position in the tree: the move that led here (None at the start) and what follows."""

    state: State
    action: Action | None = None
    parent: Line | None = None
    words: str = ""
    """The move that led here in words (told in the parent's position)."""
    children: list[Line] = field(default_factory=list)
    chosen: int = 0
    """The child forward goes to (the one last visited)."""

    @property
    def depth(self) -> int:
        """How many moves from the start."""
        depth, node = 0, self
        while node.parent is not None:
            depth, node = depth + 1, node.parent
        return depth

    @property
    def label(self) -> str:
        return "" if self.action is None else move_label(self.action)

    def path(self) -> list[Line]:
        """The nodes from the start to here, the start first."""
        nodes: list[Line] = []
        node: Line | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def is_branch(self) -> bool:
        """Whether this move is an alternative to its parent's main line."""
        return self.parent is not None and self.parent.children[0] is not self


class MoveTree:
    """The lines explored from ``start``, and the position looked at (``current``)."""

    def __init__(self, start: State, actions: Sequence[Action] = ()) -> None:
        self.root = Line(start)
        self.current = self.root
        for action in actions:
            self.play(action)

    @property
    def state(self) -> State:
        return self.current.state

    def play(self, action: Action) -> Line:
        """Play ``action`` (legal in the current position, checked) from the current position:
        along the line that has it, else as a new branch. Returns the new current node."""
        node = self.current
        for index, child in enumerate(node.children):
            if child.action == action:
                node.chosen = index
                self.current = child
                return child
        after = node.state.apply(action)
        child = Line(after, action, node, move_words(node.state, action))
        node.children.append(child)
        node.chosen = len(node.children) - 1
        self.current = child
        return child

    def back(self) -> bool:
        """One move back; False at the start."""
        parent = self.current.parent
        if parent is None:
            return False
        parent.chosen = parent.children.index(self.current)
        self.current = parent
        return True

    def forward(self) -> bool:
        """One move forward along the line last followed; False at its end."""
        node = self.current
        if not node.children:
            return False
        self.current = node.children[min(node.chosen, len(node.children) - 1)]
        return True

    def go(self, node: Line) -> None:
        """Look at ``node`` (a node of this tree); forward from its ancestors leads back to it."""
        path = node.path()
        if path[0] is not self.root:
            raise ValueError("that position is not in this tree")
        for parent, child in itertools.pairwise(path):
            parent.chosen = parent.children.index(child)
        self.current = node

    def start(self) -> None:
        self.current = self.root

    def end(self) -> None:
        """Forward to the end of the line last followed."""
        while self.forward():
            pass

    def reset(self, start: State) -> None:
        """A new starting position: the lines so far are dropped."""
        self.root = Line(start)
        self.current = self.root

    def cut(self) -> bool:
        """Remove the current move and everything after it (back to its parent); False at the
        start."""
        node = self.current
        parent = node.parent
        if parent is None:
            return False
        parent.children.remove(node)
        parent.chosen = 0
        self.current = parent
        return True

    def line(self) -> list[Line]:
        """The line looked at: the start, the moves to the current position and on along the
        line last followed to its end."""
        nodes = self.current.path()
        node = self.current
        while node.children:
            node = node.children[min(node.chosen, len(node.children) - 1)]
            nodes.append(node)
        return nodes

    def walk(self) -> Iterator[Line]:
        """Every node, depth first, main lines first."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


__all__ = ["Line", "MoveTree"]
