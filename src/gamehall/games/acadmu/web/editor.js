// Äcädmü's position editor for the analysis board: each side's tokens by pairing (a count each,
// with − and +), who is to move, who has passed, and the match around the round if any. It only
// writes the position text (counts/counts to-move passed [score first]); the server checks it
// with the game's own parser and says in words what cannot be (more tokens than the discs show,
// counts no sequence of captures leaves, ...).

import { h, replace } from "/static/dom.js";
import { PAIRINGS, describe, icon } from "./board.js";

const SIDES = [
  ["d", "Dark"],
  ["l", "Light"],
];

function select(label, choices, value) {
  const element = h("select", { "aria-label": label }, choices.map(([v, text]) => h("option", { value: v }, text)));
  element.value = value;
  return element;
}

export class Editor {
  constructor() {
    this.element = h("div", { class: "editor editor-acadmu" });
    this.counts = { d: Array(9).fill(0), l: Array(9).fill(0) };
  }

  /** Start from a position's view (a round in play; else empty sides, Dark to move). */
  load(view) {
    const inPlay = view?.phase === "play";
    this.counts = { d: inPlay ? [...view.dark] : Array(9).fill(0), l: inPlay ? [...view.light] : Array(9).fill(0) };
    const match = inPlay && view.first !== null && view.first !== undefined;
    this.toMove = select("To move", SIDES, inPlay ? view.to_move : "d");
    this.passed = select("Passed", [["-", "nobody"], ...SIDES], inPlay ? view.passed || "-" : "-");
    this.inMatch = h("input", { type: "checkbox", "aria-label": "In a match" });
    this.inMatch.checked = match;
    const score = (value, label) => h("input", { type: "number", min: 0, max: 999, value, "aria-label": label });
    this.darkScore = score(match ? view.match_score[0] : 0, "Dark's match score");
    this.lightScore = score(match ? view.match_score[1] : 0, "Light's match score");
    this.first = select("First player of the round", SIDES, match ? view.first : "d");
    replace(
      this.element,
      SIDES.map(([side, name]) => this.side(side, name)),
      h(
        "div",
        { class: "editor-fields" },
        h("label", {}, "To move", this.toMove),
        h("label", {}, "Passed", this.passed),
      ),
      h(
        "div",
        { class: "editor-fields" },
        h("label", {}, this.inMatch, "In a match:"),
        h("label", {}, "Dark", this.darkScore),
        h("label", {}, "Light", this.lightScore),
        h("label", {}, "first", this.first),
      ),
    );
  }

  side(side, name) {
    return h(
      "div",
      { class: "editor-side", "data-side": side },
      h("h3", {}, `${name}'s tokens`),
      h(
        "div",
        { class: "editor-counts" },
        PAIRINGS.map((pairing, index) => {
          const shown = h("output", { "data-count": `${side}-${pairing}` }, String(this.counts[side][index]));
          const change = (by) => {
            this.counts[side][index] = Math.max(0, Math.min(99, this.counts[side][index] + by));
            shown.textContent = String(this.counts[side][index]);
          };
          return h(
            "div",
            { class: "editor-count", title: describe(pairing) },
            icon(pairing, 18),
            h("span", { class: "name" }, describe(pairing)),
            h("button", { type: "button", "aria-label": `One ${describe(pairing)} less for ${name}`, "data-less": `${side}-${pairing}`, onClick: () => change(-1) }, "−"),
            shown,
            h("button", { type: "button", "aria-label": `One ${describe(pairing)} more for ${name}`, "data-more": `${side}-${pairing}`, onClick: () => change(1) }, "+"),
          );
        }),
      ),
    );
  }

  /** The edited position as Äcädmü's position text. */
  text() {
    const base = `${this.counts.d.join(",")}/${this.counts.l.join(",")} ${this.toMove.value} ${this.passed.value}`;
    if (!this.inMatch.checked) return base;
    const score = (input) => Math.max(0, Math.floor(Number(input.value) || 0));
    return `${base} ${score(this.darkScore)}-${score(this.lightScore)} ${this.first.value}`;
  }
}
