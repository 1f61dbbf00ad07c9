// Akros's position editor for the analysis board: each region's tile stack (− and +) and its
// servant (none, a Jinn's or an Ifrit's: click to change), the turn and its step, the bag, the
// Temple piles, the tiles in hand and the tiles out of the game. It only writes the position
// text (turn=… step=… bag=… temple=… draft=… jinn=… ifrit=… out=… regions=…); the server checks
// it with the game's own parser and says in words what cannot be (tiles that do not add up to
// the bag, a wrong number of servants, a draft of the wrong size for the step, ...).

import { h, replace } from "/static/dom.js";
import { ENV_NAMES, tile } from "./board.js";

const STEPS = [
  ["draw", "the draw (chance)"],
  ["jinn-keep", "the Jinn keeps"],
  ["ifrit-keep", "the Ifrit keeps"],
  ["ifrit-place", "the Ifrit places"],
  ["jinn-place", "the Jinn places"],
  ["over", "the game is over"],
];
const SERVANTS = ["", "J", "I"];
const SERVANT_NAMES = { "": "no servant", J: "Jinn's servant", I: "Ifrit's servant" };

const letters = (list) => (list && list.length ? [...list].sort((a, b) => "FSM".indexOf(a) - "FSM".indexOf(b)).join("") : "-");

function tilesField(label, value) {
  return h("input", { type: "text", value, maxlength: 20, "aria-label": label, spellcheck: "false", autocapitalize: "characters" });
}

function cleanTiles(input) {
  const text = input.value.toUpperCase().replace(/[^FSM]/g, "");
  return text ? letters(text.split("")) : "-";
}

export class Editor {
  constructor() {
    this.element = h("div", { class: "editor editor-akros" });
    this.regions = [];
  }

  /** Start from a position's view. */
  load(view) {
    this.regions = view.regions.map((region) => ({ ...region, servant: region.servant || "" }));
    this.turn = h("input", { type: "number", min: 1, max: 9, value: view.turn, "aria-label": "Turn" });
    this.step = h("select", { "aria-label": "Step" }, STEPS.map(([value, text]) => h("option", { value }, text)));
    this.step.value = view.step;
    const count = (letter, value, what) => h("input", { type: "number", min: 0, max: 30, value, "aria-label": `${ENV_NAMES[letter]} tiles ${what}` });
    this.bag = Object.fromEntries(["F", "S", "M"].map((l) => [l, count(l, view.bag[l], "in the bag")]));
    this.temple = ["7", "8", "9"].map((pile) => tilesField(`Temple pile ${pile}`, letters(view.temple[pile])));
    this.draft = tilesField("Tiles in the draft", letters(view.draft));
    const hand = (label, value) => {
      const element = h("select", { "aria-label": label }, [["-", "none"], ...Object.entries(ENV_NAMES)].map(([v, t]) => h("option", { value: v }, t)));
      element.value = value || "-";
      return element;
    };
    this.jinnHand = hand("The Jinn's kept tile", view.hands.jinn);
    this.ifritHand = hand("The Ifrit's kept tile", view.hands.ifrit);
    this.out = tilesField("Tiles out of the game", letters(Object.entries(view.removed).flatMap(([l, n]) => Array(n).fill(l))));
    replace(
      this.element,
      h("div", { class: "editor-fields" }, h("label", {}, "Turn", this.turn), h("label", {}, "Step:", this.step)),
      h("div", { class: "editor-fields" }, "Bag:", ["F", "S", "M"].map((l) => h("label", {}, ENV_NAMES[l], this.bag[l]))),
      h("div", { class: "editor-fields" }, "Temple piles:", this.temple.map((field, i) => h("label", {}, String(7 + i), field))),
      h(
        "div",
        { class: "editor-fields" },
        h("label", {}, "Draft", this.draft),
        h("label", {}, "Jinn holds", this.jinnHand),
        h("label", {}, "Ifrit holds", this.ifritHand),
        h("label", {}, "Out", this.out),
      ),
      h("p", { class: "muted small" }, "Tiles are letters: F Forest, S Sea, M Mountain (- for none)."),
      h("h3", {}, "Regions: tiles stacked and servants"),
      h("div", { class: "editor-regions" }, this.regions.map((region) => this.region(region))),
    );
  }

  region(region) {
    const stack = h("output", { "data-stack": region.id }, String(region.stack));
    const servant = h("button", { type: "button", class: "servant", "data-servant": region.servant, "data-region": region.id }, SERVANT_NAMES[region.servant]);
    const change = (by) => {
      region.stack = Math.max(0, Math.min(19, region.stack + by));
      stack.textContent = String(region.stack);
    };
    servant.addEventListener("click", () => {
      region.servant = SERVANTS[(SERVANTS.indexOf(region.servant) + 1) % SERVANTS.length];
      servant.dataset.servant = region.servant;
      servant.textContent = SERVANT_NAMES[region.servant];
    });
    return h(
      "div",
      { class: "editor-region", "data-region": region.id },
      h("strong", {}, String(region.id)),
      h(
        "div",
        { class: "region-controls" },
        tile(region.environment),
        h("span", {}, ENV_NAMES[region.environment]),
        h("button", { type: "button", "aria-label": `One tile less on region ${region.id}`, "data-less": region.id, onClick: () => change(-1) }, "−"),
        stack,
        h("button", { type: "button", "aria-label": `One tile more on region ${region.id}`, "data-more": region.id, onClick: () => change(1) }, "+"),
        servant,
      ),
    );
  }

  /** The edited position as Akros's position text. */
  text() {
    const number = (input) => Math.max(0, Math.floor(Number(input.value) || 0));
    const regions = this.regions.map((r) => `${r.stack}${r.servant}`).join(",");
    return [
      `turn=${number(this.turn)}`,
      `step=${this.step.value}`,
      `bag=F${number(this.bag.F)}S${number(this.bag.S)}M${number(this.bag.M)}`,
      `temple=${this.temple.map(cleanTiles).join("/")}`,
      `draft=${cleanTiles(this.draft)}`,
      `jinn=${this.jinnHand.value}`,
      `ifrit=${this.ifritHand.value}`,
      `out=${cleanTiles(this.out)}`,
      `regions=${regions}`,
    ].join(" ");
  }
}
