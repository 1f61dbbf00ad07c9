// Äcädmü: both sides' tokens as coloured shapes, grouped by pairing with counts, and moves by
// clicking. Pairings are indexed colour-major (RT RS RC BT BS BC YT YS YC), as in the view.
//
// Clicking: one of your highlighted groups (the token you give up) → the opponent groups it can
// take light up → click one (a capture by colour) or two (by shape; or pick among the listed
// combinations). The board only maps clicks onto the server's legal items, whose parts say what
// each capture gives up and takes ({kind: "capture", own, taken, by}); it never parses a move nor
// judges legality, and who made the last move is the server's `mover` (a seat index).

import { h, s, replace } from "/static/dom.js";

export const PAIRINGS = ["RT", "RS", "RC", "BT", "BS", "BC", "YT", "YS", "YC"];
const COLOUR_NAMES = { R: "Red", B: "Blue", Y: "Yellow" };
const SHAPE_NAMES = { T: "Triangle", S: "Square", C: "Circle" };
const FILL = { R: "#d43d3d", B: "#2e6fd8", Y: "#f0b900" };
const SIDE_NAMES = { d: "Dark", l: "Light" };
const SIDES = ["d", "l"]; // seat index → the view's side letter

export function describe(pairing) {
  return `${COLOUR_NAMES[pairing[0]]} ${SHAPE_NAMES[pairing[1]]}`;
}

const isCapture = (item) => item?.kind === "capture";

function shapePath(shape, cx, cy, size) {
  const r = size / 2;
  if (shape === "T") {
    const top = cy - r * 1.05;
    const bottom = cy + r * 0.8;
    return s("polygon", { points: `${cx},${top} ${cx + r * 1.05},${bottom} ${cx - r * 1.05},${bottom}` });
  }
  if (shape === "S") return s("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, rx: 3 });
  return s("circle", { cx, cy, r: r * 0.95 });
}

const CELL_W = 104;
const CELL_H = 50;
const PAD = 10;
const HEAD = 30;
const PANEL_H = HEAD + 3 * CELL_H + PAD;
const WIDTH = PAD * 2 + 3 * CELL_W;

export class Board {
  /** onMove(actionText) is called with the text of one of the legal items. */
  constructor({ onMove = () => {} } = {}) {
    this.onMove = onMove;
    this.element = h("div", { class: "board board-acadmu" });
    this.controls = h("div", { class: "controls", "aria-live": "polite" });
    this.selected = null; // own pairing chosen to give up
    this.picked = null; // first opponent pairing of a capture by shape
    this.key = null;
  }

  /**
   * data: {view, legal (the server's legal items), canMove, last (the played item, with its
   * mover), key, perspective (the seat drawn at the bottom: 0 Dark, 1 Light), seatLabels (the
   * seats' labels, by seat index)}
   */
  update(data) {
    if (data.key !== this.key) {
      this.selected = null;
      this.picked = null;
    }
    this.key = data.key;
    this.data = data;
    this.render();
  }

  clearSelection() {
    this.selected = null;
    this.picked = null;
    if (this.data) this.render();
  }

  moves() {
    const { legal = [], canMove } = this.data;
    if (!canMove) return [];
    return legal.filter(isCapture);
  }

  /** Opponent groups the selected token can take next (first or second pick). */
  targets(moves) {
    if (!this.selected) return new Set();
    const mine = moves.filter((m) => m.own === this.selected);
    if (!this.picked) return new Set(mine.flatMap((m) => m.taken));
    return new Set(this.partners(mine));
  }

  partners(mine) {
    const out = [];
    for (const m of mine) {
      if (m.taken.length !== 2) continue;
      const [a, b] = m.taken;
      if (a === this.picked) out.push(b);
      else if (b === this.picked) out.push(a);
    }
    return out;
  }

  clickOwn(pairing) {
    this.selected = this.selected === pairing ? null : pairing;
    this.picked = null;
    this.render();
  }

  clickOpponent(pairing) {
    const mine = this.moves().filter((m) => m.own === this.selected);
    if (this.picked) {
      if (this.partners(mine).includes(pairing)) {
        const move = mine.find(
          (m) => m.taken.length === 2 && [...m.taken].sort().join() === [this.picked, pairing].sort().join(),
        );
        if (move) return this.send(move.text);
      }
      if (pairing === this.picked) {
        this.picked = null;
        return this.render();
      }
    }
    const candidates = mine.filter((m) => m.taken.includes(pairing));
    if (!candidates.length) return;
    const pairs = candidates.filter((m) => m.taken.length === 2);
    if (!pairs.length && candidates.length === 1) return this.send(candidates[0].text);
    this.picked = pairing;
    this.render();
  }

  send(text) {
    this.selected = null;
    this.picked = null;
    this.render();
    this.onMove(text);
  }

  render() {
    const { view, canMove, last } = this.data;
    const perspective = SIDES[this.data.perspective ?? 0] || "d";
    const moves = this.moves();
    const ownSide = view.to_move;
    const owners = new Set(moves.map((m) => m.own));
    const targets = this.targets(moves);
    const lastMove = isCapture(last) ? last : null;
    const lastMover = lastMove ? SIDES[lastMove.mover] : null;

    const top = perspective === "d" ? "l" : "d";
    const svg = s("svg", {
      viewBox: `0 0 ${WIDTH} ${PANEL_H * 2 + 34}`,
      class: "acadmu-svg",
      role: "group",
      "aria-label": "Äcädmü tokens",
    });
    const panels = [
      [top, 0],
      [perspective, PANEL_H + 34],
    ];
    for (const [side, y] of panels) {
      svg.append(this.panel(view, side, y, { canMove, ownSide, owners, targets, lastMove, lastMover }));
    }
    // The middle band: the match and the round.
    const score = view.scores || view.match_score || [0, 0];
    const middle = PANEL_H + 17;
    let line = `Match ${score[0]}–${score[1]} · target ${view.target}`;
    if (view.phase === "play") {
      const diff = view.round_difference;
      line += ` · round: ${diff === 0 ? "level" : `${diff > 0 ? "Dark" : "Light"} +${Math.abs(diff)}`}`;
    } else if (view.phase === "draw") line += " · drawing for first player";
    else line += " · pouring the discs";
    svg.append(s("text", { x: WIDTH / 2, y: middle + 5, class: "acadmu-band", "text-anchor": "middle" }, line));
    replace(this.element, svg);
    this.renderControls(moves, canMove);
  }

  panel(view, side, y, ctx) {
    const counts = view[side === "d" ? "dark" : "light"] || [];
    const total = counts.reduce((a, b) => a + b, 0);
    const g = s("g", { class: `side side-${side}`, transform: `translate(0 ${y})` });
    g.append(s("rect", { class: "side-bg", x: 0, y: 0, width: WIDTH, height: PANEL_H, rx: 10 }));
    const tags = [];
    if (view.phase === "play" && !view.round_over && view.to_move === side) tags.push("to move");
    if (view.passed === side) tags.push("passed");
    const label = this.data.seatLabels?.[SIDES.indexOf(side)] || SIDE_NAMES[side];
    g.append(
      s(
        "text",
        { x: PAD + 2, y: 21, class: "side-label" },
        `${label} · ${total} token${total === 1 ? "" : "s"}`,
        tags.length ? s("tspan", { class: "side-tag", dx: 8 }, tags.join(" · ")) : null,
      ),
    );
    const attacker = side === ctx.ownSide;
    PAIRINGS.forEach((pairing, index) => {
      const count = counts[index] ?? 0;
      const col = index % 3;
      const row = Math.floor(index / 3);
      const x = PAD + col * CELL_W;
      const cy = HEAD + row * CELL_H + CELL_H / 2;
      const classes = ["group"];
      if (!count) classes.push("empty");
      let clickable = false;
      if (ctx.canMove && attacker && ctx.owners.has(pairing)) {
        classes.push("selectable");
        clickable = true;
        if (this.selected === pairing) classes.push("selected");
      }
      if (ctx.canMove && !attacker && ctx.targets.has(pairing)) {
        classes.push("target");
        clickable = true;
      }
      if (ctx.canMove && !attacker && this.picked === pairing) {
        classes.push("picked");
        clickable = true; // clicking it again takes it back (or takes two of it, if legal)
      }
      let last = false;
      if (ctx.lastMove && ctx.lastMover) {
        last = side === ctx.lastMover ? ctx.lastMove.own === pairing : ctx.lastMove.taken.includes(pairing);
        if (last) classes.push("last");
      }
      const cell = s("g", {
        class: classes.join(" "),
        "data-side": side,
        "data-pairing": pairing,
        "data-count": count,
        "aria-label": `${SIDE_NAMES[side]} ${describe(pairing)} × ${count}`,
        role: clickable ? "button" : "img",
        tabindex: clickable ? 0 : null,
      });
      cell.append(s("rect", { class: "hit", x: x + 3, y: cy - CELL_H / 2 + 3, width: CELL_W - 6, height: CELL_H - 6, rx: 8 }));
      if (last) {
        // Its own mark, so it still shows on a group that is also highlighted for a move.
        cell.append(s("rect", { class: "last-mark", x: x + 8, y: cy - CELL_H / 2 + 8, width: CELL_W - 16, height: CELL_H - 16, rx: 6 }));
      }
      const shape = shapePath(pairing[1], x + 30, cy, 30);
      shape.setAttribute("fill", FILL[pairing[0]]);
      shape.setAttribute("class", "token");
      cell.append(shape);
      cell.append(s("text", { x: x + 56, y: cy + 7, class: "count" }, count ? `×${count}` : "–"));
      cell.append(s("title", {}, `${SIDE_NAMES[side]}: ${count} ${describe(pairing)}${count === 1 ? "" : "s"}`));
      if (clickable) {
        const act = () => (attacker ? this.clickOwn(pairing) : this.clickOpponent(pairing));
        cell.addEventListener("click", act);
        cell.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            act();
          }
        });
      }
      g.append(cell);
    });
    return g;
  }

  renderControls(moves, canMove) {
    const { legal = [] } = this.data;
    const items = [];
    const pass = legal.find((item) => item.kind === "pass");
    if (canMove && pass && !moves.length) {
      items.push(
        h("p", { class: "hint" }, "You have no capture: you must pass."),
        h("button", { class: "primary", "data-action": pass.text, onClick: () => this.send(pass.text) }, "Pass"),
      );
    } else if (canMove && this.selected) {
      const mine = moves.filter((m) => m.own === this.selected);
      if (this.picked) {
        const options = mine.filter((m) => m.taken.includes(this.picked));
        items.push(
          h(
            "p",
            { class: "hint" },
            `Your ${describe(this.selected)} takes ${describe(this.picked)}: click a second highlighted token, or choose:`,
          ),
          h(
            "div",
            { class: "choices" },
            options.map((m) =>
              h(
                "button",
                { class: "choice", "data-action": m.text, onClick: () => this.send(m.text) },
                h("code", {}, m.text),
                " ",
                m.by === "colour" ? "by colour" : `by shape: ${m.taken.map(describe).join(" + ")}`,
              ),
            ),
          ),
        );
      } else {
        items.push(h("p", { class: "hint" }, `Your ${describe(this.selected)}: click a highlighted token to take.`));
      }
      items.push(h("button", { class: "ghost", onClick: () => this.clearSelection() }, "Cancel"));
    } else if (canMove && moves.length) {
      items.push(h("p", { class: "hint" }, "Your move: click one of your highlighted tokens."));
    }
    replace(this.controls, items);
  }
}

/** One line about the position for headers and lists. */
export function summary(view) {
  const score = view.scores || view.match_score || [0, 0];
  return `Dark ${score[0]} – ${score[1]} Light (to ${view.target})`;
}

/** A seat's score as the page shows it. */
export function scoreText(value) {
  return `${value} point${value === 1 ? "" : "s"}`;
}
