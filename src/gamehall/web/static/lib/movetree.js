// The analysis board's move tree (as lichess's): each node is a position reached by a move from
// its parent; its first child is the main line, the others are branches. The rules stay on the
// server: a node holds the position text and view the server gave, and the move as it was played.

/** A tree whose root is the position `position` (its text) with `view`. */
export function lineTree(position, view) {
  let next = 0;
  const node = (fields) => ({ id: next++, parent: null, children: [], answer: null, played: null, ...fields });
  const root = node({ position, view });
  return {
    root,
    /** The child of `parent` reached by the step {played, position, view} (a new branch if
     * `parent` has children already). */
    add(parent, step) {
      const child = node({ parent, position: step.position, view: step.view, played: step.played });
      parent.children.push(child);
      return child;
    },
    /** The end of the main line from `from`. */
    end(from) {
      let at = from;
      while (at.children.length) at = at.children[0];
      return at;
    },
  };
}

/** The nodes from the root to `node`, both included. */
export function nodePath(node) {
  const path = [];
  for (let at = node; at; at = at.parent) path.unshift(at);
  return path;
}
