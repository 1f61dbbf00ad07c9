// Äcädmü: both sides' tokens as coloured shapes, grouped by pairing with counts, the two circles
// of who beats whom always in view between them, and moves by clicking. Pairings are indexed
// colour-major (RT RS RC BT BS BC YT YS YC), as in the view.
//
// Clicking: one of your highlighted groups (the token you give up) → the opponent groups it can
// take light up → click one (a capture by colour) or two (by shape; or pick among the listed
// combinations). The board only maps clicks onto the server's legal items, whose parts say what
// each capture gives up and takes ({kind: "capture", own, taken, by}); it never parses a move nor
// judges legality, and who made the last move is the server's `mover` (a seat index). The
// first-player draw's parts carry who goes first and why, and a finished round's view says why
// it ended and who scored: the board shows them, it does not work them out.

import { h, s, replace } from "/static/dom.js";

export const PAIRINGS = ["RT", "RS", "RC", "BT", "BS", "BC", "YT", "YS", "YC"];
const COLOUR_NAMES = { R: "Red", B: "Blue", Y: "Yellow" };
const SHAPE_NAMES = { T: "Triangle", S: "Square", C: "Circle" };
const FILL = { R: "#d43d3d", B: "#2e6fd8", Y: "#f0b900" };
const SIDE_NAMES = { d: "Dark", l: "Light" };
const SIDES = ["d", "l"]; // seat index → the view's side letter

/** The board can be drawn from either side (a spectator may turn it round). */
export const flippable = true;

/** What the button that ends a round's pause says. */
export const continueLabel = "Next round";

export function describe(pairing) {
  return `${COLOUR_NAMES[pairing[0]]} ${SHAPE_NAMES[pairing[1]]}`;
}

const isCapture = (item) => item?.kind === "capture";
const isPlay = (item) => item?.kind === "capture" || item?.kind === "pass";

function shapePath(shape, cx, cy, size) {
  const r = size / 2;
  if (shape === "T") {
    const top = cy - r * 1.05;
    const bottom = cy + r * 0.8;
    return s("polygon", { points: `${cx},${top} ${cx + r * 1.05},${bottom} ${cx - r * 1.05},${bottom}` });
  }
  if (shape === "S") return s("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, rx: size / 10 });
  return s("circle", { cx, cy, r: r * 0.95 });
}

function token(pairing, cx, cy, size) {
  const shape = shapePath(pairing[1], cx, cy, size);
  shape.setAttribute("fill", FILL[pairing[0]]);
  shape.setAttribute("class", "token");
  return shape;
}

/** A pairing as a small inline picture (for the move list and the hints). */
export function icon(pairing, size = 16) {
  return s(
    "svg",
    { class: "acadmu-icon", viewBox: "0 0 20 20", width: size, height: size, role: "img", "aria-label": describe(pairing) },
    token(pairing, 10, 10.5, 15),
  );
}

/** A drawn disc: its up-face large, the face underneath small beside it. */
function disc(faces, side, label) {
  const [up, down] = faces;
  return h(
    "span",
    { class: `acadmu-disc disc-${side}` },
    s(
      "svg",
      { viewBox: "0 0 44 44", width: 40, height: 40, role: "img", "aria-label": `${label}: ${describe(up)} up, ${describe(down)} underneath` },
      s("circle", { class: "disc-body", cx: 22, cy: 22, r: 20 }),
      token(up, 22, 23, 22),
    ),
    h("span", { class: "disc-text" }, h("strong", {}, label), ` ${describe(up)}`, h("small", {}, " (under: ", icon(down, 12), ` ${describe(down)})`)),
  );
}

// --- geometry --------------------------------------------------------------------------------------

const CELL_W = 104;
const CELL_H = 48;
const PAD = 10;
const HEAD = 28;
const PANEL_H = HEAD + 3 * CELL_H + PAD;
const WIDTH = PAD * 2 + 3 * CELL_W;
const BAND = 58; // the legend of who beats whom, between the two sides

/** One circle of the legend: three icons round a ring, an arrow from each to the one it beats. */
function cycle(cx, cy, items) {
  const g = s("g", { class: "legend-cycle" });
  const ring = 15;
  for (let k = 0; k < 3; k++) {
    // A short arc from item k towards item k+1 (clockwise), with an arrowhead.
    const a0 = (Math.PI / 180) * (-90 + 120 * k + 30);
    const a1 = (Math.PI / 180) * (-90 + 120 * (k + 1) - 32);
    const r = ring + 1;
    g.append(
      s("path", {
        class: "legend-arrow",
        d: `M ${cx + r * Math.cos(a0)} ${cy + r * Math.sin(a0)} A ${r} ${r} 0 0 1 ${cx + r * Math.cos(a1)} ${cy + r * Math.sin(a1)}`,
        "marker-end": "url(#acadmu-arrow)",
      }),
    );
  }
  items.forEach((item, k) => {
    const angle = (Math.PI / 180) * (-90 + 120 * k);
    g.append(item(cx + ring * Math.cos(angle), cy + ring * Math.sin(angle)));
  });
  return g;
}

/** The band between the two sides: who beats whom (both circles) and the round's standing. */
function legend(y, middle) {
  const g = s("g", { class: "legend", transform: `translate(0 ${y})` });
  const cy = BAND / 2;
  const colours = ["R", "B", "Y"].map((c) => (x, yy) => s("circle", { cx: x, cy: yy, r: 6.5, fill: FILL[c], class: "token" }));
  const shapes = ["T", "S", "C"].map((shape) => (x, yy) => {
    const el = shapePath(shape, x, yy + 0.5, 12);
    el.setAttribute("class", "legend-shape");
    return el;
  });
  g.append(
    s(
      "defs",
      {},
      s(
        "marker",
        { id: "acadmu-arrow", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
        s("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "legend-arrowhead" }),
      ),
    ),
    cycle(PAD + 22, cy, colours),
    s("text", { x: PAD + 46, y: cy - 3, class: "legend-text" }, "colour:"),
    s("text", { x: PAD + 46, y: cy + 12, class: "legend-text strong" }, "takes 1"),
    cycle(WIDTH - PAD - 22, cy, shapes),
    s("text", { x: WIDTH - PAD - 46, y: cy - 3, class: "legend-text", "text-anchor": "end" }, "shape:"),
    s("text", { x: WIDTH - PAD - 46, y: cy + 12, class: "legend-text strong", "text-anchor": "end" }, "takes 2"),
    s("title", {}, "Red beats Blue beats Yellow beats Red: a token takes one token of the colour it beats. Triangle beats Square beats Circle beats Triangle: a token takes two tokens of the shape it beats."),
  );
  const [head, line] = middle;
  if (head) g.append(s("text", { x: WIDTH / 2, y: cy - 3, class: "acadmu-band sub", "text-anchor": "middle" }, head));
  if (line) g.append(s("text", { x: WIDTH / 2, y: cy + 13, class: "acadmu-band", "text-anchor": "middle" }, line));
  return g;
}

// --- the board -------------------------------------------------------------------------------------

export class Board {
  /**
   * onMove(actionText) is called with the text of one of the legal items. mode "diagram" draws
   * a picture only (no controls, nothing to click).
   */
  constructor({ onMove = () => {}, mode = "play" } = {}) {
    this.onMove = onMove;
    this.mode = mode;
    // tabindex -1: the focus can rest on the board when the choice that held it is gone (Tab
    // then goes on to the next choice).
    this.element = h("div", { class: `board board-acadmu${mode === "diagram" ? " diagram" : ""}`, tabindex: mode === "diagram" ? null : -1 });
    this.controls = h("div", { class: "controls", "aria-live": "polite" });
    this.selected = null; // own pairing chosen to give up
    this.picked = null; // first opponent pairing of a capture by shape
    this.key = null;
  }

  /**
   * data: {view, legal (the server's legal items), canMove, last (the played item, with its
   * mover), key, perspective (the seat drawn at the bottom: 0 Dark, 1 Light), seatLabels (the
   * seats' labels, by seat index), over (the game has ended, on the board or off it: resigned,
   * on time), history (the played items so far, when known)}
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

  label(side) {
    return this.data.seatLabels?.[SIDES.indexOf(side)] || SIDE_NAMES[side];
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
      viewBox: `0 0 ${WIDTH} ${PANEL_H * 2 + BAND}`,
      class: "acadmu-svg",
      role: "group",
      "aria-label": "Äcädmü tokens",
    });
    const panels = [
      [top, 0],
      [perspective, PANEL_H + BAND],
    ];
    for (const [side, y] of panels) {
      svg.append(this.panel(view, side, y, { canMove, ownSide, owners, targets, lastMove, lastMover, moves }));
    }
    svg.append(legend(PANEL_H, this.bandText(view)));
    const focused = this.element.contains(document.activeElement) ? document.activeElement.dataset?.pairing ?? "" : undefined;
    const focusedSide = focused === undefined ? null : document.activeElement.dataset.side;
    replace(this.element, svg);
    if (this.mode !== "diagram") this.renderControls(moves, canMove);
    if (focused !== undefined) this.refocus(svg, focusedSide, focused);
  }

  /** What choosing a group does, told in words: the move's own words (the server's
   * `LegalAction.words`) when it makes one move, else what choosing it starts. */
  choiceName(side, pairing, count, attacker, moves) {
    const base = `${SIDE_NAMES[side]} ${describe(pairing)} × ${count}`;
    if (attacker) {
      if (this.selected === pairing) return `${base}, chosen to give up: choose again to cancel`;
      const n = moves.filter((m) => m.own === pairing).length;
      return `${base}: give it up, to take one of ${n} choice${n === 1 ? "" : "s"}`;
    }
    const mine = moves.filter((m) => m.own === this.selected);
    if (this.picked && this.partners(mine).includes(pairing)) {
      const move = mine.find((m) => m.taken.length === 2 && [...m.taken].sort().join() === [this.picked, pairing].sort().join());
      if (move?.words) return move.words;
    }
    if (pairing === this.picked) return `${base}, chosen to take: choose again to cancel`;
    const candidates = mine.filter((m) => m.taken.includes(pairing));
    if (candidates.length === 1 && candidates[0].taken.length === 1) return candidates[0].words || `${base}: take it`;
    return `${base}: take it, then choose how`;
  }

  /** Keyboard focus kept across a redraw: after giving up a group is chosen, on the first group
   * to take; after a first group to take, on the first way to go on; else on the same group. */
  refocus(svg, side, pairing) {
    const same = svg.querySelector(`.group[data-side="${side}"][data-pairing="${pairing}"][tabindex]`);
    const next = this.picked
      ? this.controls.querySelector("button.choice") || svg.querySelector(".group.target")
      : this.selected && same?.classList.contains("selected")
        ? svg.querySelector(".group.target")
        : null;
    (next || same || this.element).focus();
  }

  /** The middle of the band: a small heading and the round's standing. */
  bandText(view) {
    if (view.phase === "draw") return ["before round 1", "drawing"];
    if (view.phase !== "play") return ["next round", "the pour"];
    const diff = view.round_difference;
    const standing = diff === 0 ? "level" : `${this.label(diff > 0 ? "d" : "l")} +${Math.abs(diff)}`;
    return [view.round_over ? "round over" : "this round", standing];
  }

  panel(view, side, y, ctx) {
    const counts = view[side === "d" ? "dark" : "light"] || [];
    const total = counts.reduce((a, b) => a + b, 0);
    const g = s("g", { class: `side side-${side}`, transform: `translate(0 ${y})` });
    g.append(s("rect", { class: "side-bg", x: 0, y: 0, width: WIDTH, height: PANEL_H, rx: 10 }));
    const tags = [];
    if (view.phase === "play" && !view.round_over && !this.data.over && view.to_move === side) tags.push("to move");
    if (view.passed === side) tags.push("passed");
    g.append(
      s(
        "text",
        { x: PAD + 2, y: 20, class: "side-label" },
        `${this.label(side)} · ${total} token${total === 1 ? "" : "s"}`,
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
        "aria-label": clickable ? this.choiceName(side, pairing, count, attacker, ctx.moves) : `${SIDE_NAMES[side]} ${describe(pairing)} × ${count}`,
        role: clickable ? "button" : "img",
        tabindex: clickable ? 0 : null,
      });
      cell.append(s("rect", { class: "hit", x: x + 3, y: cy - CELL_H / 2 + 3, width: CELL_W - 6, height: CELL_H - 6, rx: 8 }));
      if (last) {
        // Its own mark, so it still shows on a group that is also highlighted for a move.
        cell.append(s("rect", { class: "last-mark", x: x + 8, y: cy - CELL_H / 2 + 8, width: CELL_W - 16, height: CELL_H - 16, rx: 6 }));
      }
      cell.append(token(pairing, x + 30, cy, 28));
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

  /** The first-player draw, while no one has moved since it: two discs and the reason. */
  drawNote() {
    const history = this.data.history || [];
    let index = -1;
    history.forEach((item, k) => {
      if (item.kind === "draw" && item.first) index = k;
    });
    if (index < 0 || history.slice(index).some(isPlay)) return null;
    return drawPicture(history[index], this.data.seatLabels);
  }

  /**
   * A hint's move drawn on the board (the game page calls it after every drawing): the token
   * given up and the tokens taken get a mark; a pass, its button. clearHint() takes it off.
   */
  showHint(item) {
    const mover = this.data?.view?.to_move;
    const cells = [];
    if (isCapture(item) && mover) {
      const other = mover === "d" ? "l" : "d";
      cells.push(this.element.querySelector(`.group[data-side="${mover}"][data-pairing="${item.own}"]`));
      for (const taken of new Set(item.taken)) cells.push(this.element.querySelector(`.group[data-side="${other}"][data-pairing="${taken}"]`));
    }
    for (const cell of cells.filter(Boolean)) {
      const hit = cell.querySelector(".hit");
      const [x, y, width, height] = ["x", "y", "width", "height"].map((name) => Number(hit.getAttribute(name)));
      cell.append(s("rect", { class: "hint-mark", x: x - 1, y: y - 1, width: width + 2, height: height + 2, rx: 9 }));
    }
    for (const button of this.controls.querySelectorAll("[data-action]")) {
      if (button.dataset.action === item.text) button.classList.add("hinted");
    }
  }

  clearHint() {
    for (const mark of this.element.querySelectorAll(".hint-mark")) mark.remove();
    for (const button of this.controls.querySelectorAll(".hinted")) button.classList.remove("hinted");
  }

  renderControls(moves, canMove) {
    const { legal = [] } = this.data;
    const items = [];
    const pass = legal.find((item) => item.kind === "pass");
    if (canMove && pass && !moves.length) {
      items.push(
        h("p", { class: "hint" }, "You have no capture: you must pass."),
        h("button", { class: "primary", "data-action": pass.text, onClick: () => this.send(pass.text) }, "Pass", pass.words ? h("span", { class: "sr-only" }, `: ${pass.words}`) : null),
      );
    } else if (canMove && this.selected) {
      const mine = moves.filter((m) => m.own === this.selected);
      const cancel = h("button", { class: "ghost", onClick: () => this.clearSelection() }, "Cancel");
      if (this.picked) {
        const options = mine.filter((m) => m.taken.includes(this.picked));
        items.push(
          h(
            "p",
            { class: "hint" },
            "Your ",
            icon(this.selected),
            ` ${describe(this.selected)} takes `,
            icon(this.picked),
            ` ${describe(this.picked)}: click a second token, or choose:`,
          ),
          h(
            "div",
            { class: "choices" },
            options.map((m) =>
              h(
                "button",
                {
                  class: "choice",
                  "data-action": m.text,
                  title: `${m.taken.map(describe).join(" + ")}, by ${m.by}`,
                  "aria-label": `${m.words || `take ${m.taken.map(describe).join(" and ")}, by ${m.by}`}${m.by === "colour" ? " (alone)" : ""}`,
                  onClick: () => this.send(m.text),
                },
                m.taken.map((t) => icon(t, 20)),
                m.by === "colour" ? " alone" : null,
              ),
            ),
            cancel,
          ),
        );
      } else {
        items.push(h("p", { class: "hint" }, "Your ", icon(this.selected), ` ${describe(this.selected)}: click a highlighted token to take.`), cancel);
      }
    } else if (canMove && moves.length) {
      items.push(h("p", { class: "hint" }, "Your move: click one of your highlighted tokens (the one you give up)."));
    }
    // The draw comes after what to do now, so the choices stay next to the board (in view).
    items.push(this.drawNote());
    replace(this.controls, items);
  }
}

/** The first-player draw as two discs and why one goes first (the reason is the server's). */
function drawPicture(item, labels = []) {
  const names = [labels[0] || "Dark", labels[1] || "Light"];
  const first = item.first === "dark" ? names[0] : item.first === "light" ? names[1] : null;
  return h(
    "div",
    { class: "acadmu-draw", "data-first": item.first || "" },
    h("p", { class: "draw-title" }, "Who goes first: each side drew a disc"),
    h("div", { class: "draw-discs" }, disc(item.dark, "d", names[0]), disc(item.light, "l", names[1])),
    h("p", { class: "draw-reason" }, `${capitalize(item.reason)}${first ? `: ${first} goes first.` : "."}`),
  );
}

function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

/** A played action's pictures, beside its words in the move list: a capture's own token and
 * the tokens it takes, the draw's two up-faces (the words come from the server). */
export function moveIcons(item) {
  if (item.kind === "capture") {
    return h("span", { class: "acadmu-move", "aria-hidden": "true" }, icon(item.own), h("span", { class: "takes" }, "×"), item.taken.map((t) => icon(t)));
  }
  if (item.kind === "draw") {
    return h("span", { class: "acadmu-move draw", "aria-hidden": "true" }, icon(item.dark[0]), " / ", icon(item.light[0]));
  }
  return null;
}

/** What a finished round (or the match's last round) came to, for the round-end panel. */
export function resultDetails(view, labels = []) {
  const end = view.round_end;
  if (!end) return null;
  const names = [labels[0] || "Dark", labels[1] || "Light"];
  return h(
    "div",
    { class: "acadmu-round-end" },
    h("p", { class: "round-reason" }, `The round is over: ${end.reason}.`),
    h(
      "table",
      { class: "round-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "tokens left"), h("th", {}, "points"), end.match_score ? h("th", {}, "match") : null)),
      h(
        "tbody",
        {},
        [0, 1].map((seat) =>
          h(
            "tr",
            { class: end.points[seat] ? "scored" : "" },
            h("th", {}, names[seat]),
            h("td", {}, end.counts[seat]),
            h("td", {}, end.points[seat] ? `+${end.points[seat]}` : "0"),
            end.match_score ? h("td", {}, end.match_score[seat]) : null,
          ),
        ),
      ),
    ),
    h("p", { class: "round-result" }, `${capitalize(end.result)}${end.match_score ? ` (the match is played to ${view.target})` : ""}.`),
  );
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

/** The round a position belongs to, for pages that mark rounds (the review): a new round is a
 * new pour, so who went first and the match score before it tell rounds apart (who goes first
 * alternates). Null outside play (the draw, a pour). */
export function sectionOf(view) {
  if (!view || view.phase !== "play") return null;
  return { word: "Round", key: `${view.first}|${(view.match_score || []).join("-")}` };
}
