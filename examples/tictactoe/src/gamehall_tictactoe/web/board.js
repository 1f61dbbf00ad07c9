// Tic-tac-toe's board: the three by three squares in SVG, rank 3 at the top, crosses and noughts
// drawn as strokes, the last move and a winning line marked (a diagram's move still to make shows
// as a faint mark on its empty square). A move is one click: the squares of the legal items light
// up, and clicking one plays the item whose parts ({kind: "place", file, rank}) name it; the
// board never builds or reads move text.

import { h, replace, s } from "/static/dom.js";

const FILES = "abc";
const SQUARE = 100; // one square in SVG units; the board is 300 by 300
const INSET = 24; // how far a mark keeps from its square's edges
const MARKS = "xo"; // each seat's mark, by seat index

const nameOf = (file, rank) => `${FILES[file]}${rank + 1}`;
const at = (file, rank) => [file * SQUARE, (2 - rank) * SQUARE]; // the square's top left corner
const centre = (square) => at(square % 3, Math.floor(square / 3)).map((v) => v + SQUARE / 2);

function mark(letter, x, y) {
  const [a, b] = [INSET, SQUARE - INSET];
  if (letter === "x") {
    return s(
      "g",
      { class: "ttt-x" },
      s("line", { x1: x + a, y1: y + a, x2: x + b, y2: y + b }),
      s("line", { x1: x + b, y1: y + a, x2: x + a, y2: y + b }),
    );
  }
  if (letter === "o") return s("circle", { class: "ttt-o", cx: x + SQUARE / 2, cy: y + SQUARE / 2, r: SQUARE / 2 - INSET });
  return null;
}

export class Board {
  /** mode "diagram" draws a picture only (nothing to click). */
  constructor({ onMove = () => {}, mode = "play" } = {}) {
    this.onMove = onMove;
    this.mode = mode;
    this.element = h("div", { class: "board board-tictactoe" });
    this.controls = h("div", { class: "controls", "aria-live": "polite" });
  }

  update(data) {
    const { view, legal = [], canMove = false, last = null } = data;
    const playable = canMove && this.mode !== "diagram" ? legal.filter((item) => item.kind === "place") : [];
    const items = new Map(playable.map((item) => [item.file + 3 * item.rank, item]));
    const lastSquare = last?.kind === "place" ? last.file + 3 * last.rank : null;
    const squares = [];
    for (let rank = 2; rank >= 0; rank--) {
      for (let file = 0; file < 3; file++) {
        const square = file + 3 * rank;
        const item = items.get(square);
        const [x, y] = at(file, rank);
        const letter = view.marks[square];
        const ghost = square === lastSquare && letter === "." ? MARKS[last.mover] : null;
        const play = item ? () => this.onMove(item.text) : null;
        squares.push(
          s(
            "g",
            {
              class: `ttt-square${item ? " playable" : ""}${square === lastSquare ? " last" : ""}`,
              "data-square": nameOf(file, rank),
              "data-mark": letter,
              // A playable square is a button named by the move's words (the server's); the
              // others are pictures named by their square and mark.
              role: item ? "button" : "img",
              tabindex: item ? 0 : null,
              "aria-label": item?.words || `${nameOf(file, rank)}${letter === "." ? ", empty" : `: ${letter.toUpperCase()}`}`,
              onClick: play,
              onKeydown: play && ((event) => (event.key === "Enter" || event.key === " ") && (event.preventDefault(), play())),
            },
            s("rect", { x: x + 6, y: y + 6, width: SQUARE - 12, height: SQUARE - 12, rx: 10 }),
            mark(letter, x, y),
            ghost ? s("g", { class: "ttt-ghost" }, mark(ghost, x, y)) : null,
          ),
        );
      }
    }
    const grid = [1, 2].map((k) => [
      s("line", { class: "ttt-grid", x1: k * SQUARE, y1: 8, x2: k * SQUARE, y2: 3 * SQUARE - 8 }),
      s("line", { class: "ttt-grid", x1: 8, y1: k * SQUARE, x2: 3 * SQUARE - 8, y2: k * SQUARE }),
    ]);
    const line = view.line;
    const won = line
      ? s("line", { class: "ttt-line", x1: centre(line[0])[0], y1: centre(line[0])[1], x2: centre(line[2])[0], y2: centre(line[2])[1] })
      : null;
    replace(this.element, s("svg", { class: "ttt-svg", viewBox: "0 0 300 300", role: "group", "aria-label": `Tic-tac-toe board: ${view.position}` }, squares, grid, won));
    replace(this.controls, playable.length ? h("p", { class: "hint" }, "Your move: click an empty square.") : null);
  }

  clearSelection() {} // a move is one click: nothing is ever half made
}

/** A seat's score at the end (its return: 1 won, 0 drawn, -1 lost) as chess counts it. */
export function scoreText(value) {
  return value > 0 ? "1" : value < 0 ? "0" : "½";
}
