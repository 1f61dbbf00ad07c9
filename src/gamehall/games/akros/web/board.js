// Akros: the hex board (doubled-width coordinates: a hex at (row, col) touches (row, col ± 2)
// and (row ± 1, col ± 1)), tile stacks, servants, contested regions and a legend of them, the
// Temple, the bag, the draft as tiles in hand and the hands; moves by clicking. The end of the
// game is counted as the rulebook counts it (per environment: 1 per servant plus the tiles under
// it), from the view's own counts.
//
// Clicking: at a keep step the legal keeps are tile buttons; at a place step the regions the
// tile can go to light up → click one → if several servants can move there, they light up →
// click one. `remove M` is a button when it is the only legal action. The board reads the
// server's legal items by their parts ({kind: "place", tile, region, source}, "keep",
// "keep-discard" with its discard, "remove"), never by parsing their text.

import { capitalize, h, s, replace } from "/static/dom.js";

export const ENV_NAMES = { F: "Forest", S: "Sea", M: "Mountain" };
const KEEPS = new Set(["keep", "keep-discard"]);
const R = 34; // hex radius (centre to corner), pointy-top
const W = Math.sqrt(3) * R; // hex width: neighbours on a row are W apart, i.e. 2 columns

const isPlace = (item) => item?.kind === "place";

export function tile(letter, extra = {}) {
  return h(
    "span",
    { class: `tile tile-${letter}`, title: ENV_NAMES[letter], ...extra },
    letter,
  );
}

/** A button's move in the server's words, for a screen reader: after its visible text, which
 * stays the start of its name (the hall's stylesheet hides .sr-only from sight). */
function said(words) {
  return words ? h("span", { class: "sr-only" }, `: ${words}`) : null;
}

function tiles(list, empty = "—") {
  return list && list.length ? list.map((t) => tile(t)) : h("span", { class: "muted" }, empty);
}

function hexPoints(cx, cy, r) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const angle = (Math.PI / 180) * (60 * k - 90);
    points.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function defs() {
  return s(
    "defs",
    {},
    s(
      "pattern",
      { id: "akros-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: "transparent" }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#fff", "stroke-width": 3, "stroke-opacity": 0.55 }),
    ),
    s(
      "marker",
      { id: "akros-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
      s("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#ff9f1c" }),
    ),
  );
}

/** What the marks on the board mean. */
function legend() {
  const swatch = (cls, text) => h("span", { class: "legend-item" }, h("span", { class: `legend-swatch ${cls}` }), text);
  return h(
    "div",
    { class: "akros-legend", "aria-label": "Legend" },
    swatch("env-F", "Forest"),
    swatch("env-S", "Sea"),
    swatch("env-M", "Mountain"),
    h("span", { class: "legend-item" }, h("span", { class: "legend-servant servant-jinn" }, "J"), "Jinn servant"),
    h("span", { class: "legend-item" }, h("span", { class: "legend-servant servant-ifrit" }, "I"), "Ifrit servant"),
    h("span", { class: "legend-item" }, h("span", { class: "legend-stack" }, "2"), "tiles stacked"),
    h(
      "span",
      { class: "legend-item", title: "Next to two or more Ifrit servants: the Jinn may not place a tile there" },
      h("span", { class: "legend-swatch contested-swatch" }),
      "contested (the Jinn may not place there)",
    ),
  );
}

export class Board {
  /** mode "diagram" draws a picture only (no controls, nothing to click). */
  constructor({ onMove = () => {}, mode = "play" } = {}) {
    this.onMove = onMove;
    this.mode = mode;
    // tabindex -1: the focus can rest on the board when the choice that held it is gone (Tab
    // then goes on to the next choice).
    this.element = h("div", { class: `board board-akros${mode === "diagram" ? " diagram" : ""}`, tabindex: mode === "diagram" ? null : -1 });
    this.controls = h("div", { class: "controls", "aria-live": "polite" });
    // The Temple, the bag, the hands and the scores: shown under the controls.
    this.extras = h("div", { class: "board-extras" });
    this.chosen = null; // region picked, waiting for the servant
    this.key = null;
  }

  update(data) {
    if (data.key !== this.key) this.chosen = null;
    this.key = data.key;
    this.data = data;
    this.render();
  }

  clearSelection() {
    this.chosen = null;
    if (this.data) this.render();
  }

  places() {
    const { legal = [], canMove } = this.data;
    return canMove ? legal.filter(isPlace) : [];
  }

  clickRegion(id) {
    const places = this.places();
    if (this.chosen !== null) {
      const move = places.find((p) => p.region === this.chosen && p.source === id);
      if (move) return this.send(move.text);
    }
    const here = places.filter((p) => p.region === id);
    if (!here.length) {
      this.chosen = null;
      return this.render();
    }
    if (here.length === 1) return this.send(here[0].text);
    this.chosen = this.chosen === id ? null : id;
    this.render();
  }

  send(text) {
    this.chosen = null;
    this.render();
    this.onMove(text);
  }

  render() {
    const { view, last } = this.data;
    const places = this.places();
    const targets = new Set(places.map((p) => p.region));
    const sources = new Set(places.filter((p) => p.region === this.chosen).map((p) => p.source));
    const lastPlace = isPlace(last) ? last : null;

    const regions = view.regions || [];
    const xs = regions.map((r) => (r.col * W) / 2);
    const ys = regions.map((r) => r.row * 1.5 * R);
    const minX = Math.min(...xs) - W / 2 - 4;
    const minY = Math.min(...ys) - R - 4;
    const width = Math.max(...xs) - minX + W / 2 + 4;
    const height = Math.max(...ys) - minY + R + 4;
    const svg = s("svg", {
      viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
      class: "akros-svg",
      role: "group",
      "aria-label": "Akros board",
    });
    svg.append(defs());
    const centre = {};
    regions.forEach((region, i) => (centre[region.id] = [xs[i], ys[i]]));

    for (const [i, region] of regions.entries()) {
      const [cx, cy] = [xs[i], ys[i]];
      const classes = ["region", `env-${region.environment}`];
      const isTarget = targets.has(region.id) && this.chosen === null;
      const isSource = sources.has(region.id);
      if (isTarget) classes.push("target");
      if (isSource) classes.push("source");
      if (this.chosen === region.id) classes.push("chosen");
      if (region.contested) classes.push("contested");
      if (lastPlace && lastPlace.region === region.id) classes.push("last");
      const clickable = isTarget || isSource || (this.chosen !== null && targets.has(region.id));
      const name = clickable ? this.choiceName(region, places) : regionLabel(region);
      const g = s("g", {
        class: classes.join(" "),
        "data-region": region.id,
        "data-environment": region.environment,
        "data-stack": region.stack,
        "data-servant": region.servant || "",
        role: clickable ? "button" : "img",
        tabindex: clickable ? 0 : null,
        "aria-label": name,
      });
      g.append(s("polygon", { class: "hex", points: hexPoints(cx, cy, R - 1) }));
      if (region.contested) {
        g.append(s("polygon", { class: "hatch", points: hexPoints(cx, cy, R - 2), fill: "url(#akros-hatch)" }));
      }
      g.append(s("text", { class: "region-id", x: cx, y: cy - R * 0.52, "text-anchor": "middle" }, region.id));
      if (region.stack > 0) {
        // A little stack of tiles with its height, down-left of the centre.
        const sx = cx - R * 0.62;
        const sy = cy + R * 0.12;
        const layers = Math.min(region.stack, 4);
        for (let k = layers - 1; k >= 0; k--) {
          g.append(s("rect", { class: "stack-tile", x: sx, y: sy - k * 3.5, width: 17, height: 12, rx: 2 }));
        }
        g.append(s("text", { class: "stack-count", x: sx + 8.5, y: sy + 9.5, "text-anchor": "middle" }, region.stack));
      }
      if (region.servant) {
        const kind = region.servant === "J" ? "jinn" : "ifrit";
        const mx = cx + (region.stack > 0 ? R * 0.3 : 0);
        const my = cy + R * 0.14;
        g.append(s("circle", { class: `servant servant-${kind}`, cx: mx, cy: my, r: 12.5 }));
        g.append(s("text", { class: `servant-letter servant-letter-${kind}`, x: mx, y: my + 5, "text-anchor": "middle" }, region.servant));
      }
      g.append(s("title", {}, name));
      if (clickable) {
        g.addEventListener("click", () => this.clickRegion(region.id));
        g.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            this.clickRegion(region.id);
          }
        });
      }
      svg.append(g);
    }
    if (lastPlace && centre[lastPlace.source] && centre[lastPlace.region]) {
      const [x1, y1] = centre[lastPlace.source];
      const [x2, y2] = centre[lastPlace.region];
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const shrink = 14 / len; // start just off the source's centre
      const stop = (R * 0.62) / len; // and stop at the edge of the servant on the target
      svg.append(
        s("line", {
          class: "last-arrow",
          x1: x1 + (x2 - x1) * shrink,
          y1: y1 + (y2 - y1) * shrink,
          x2: x2 - (x2 - x1) * stop,
          y2: y2 - (y2 - y1) * stop,
          "marker-end": "url(#akros-arrow)",
        }),
      );
    }
    const focused = this.element.contains(document.activeElement) ? document.activeElement.dataset?.region ?? "" : undefined;
    replace(this.element, svg, legend());
    replace(this.extras, this.panels(view));
    if (this.mode !== "diagram") this.renderControls();
    if (focused !== undefined) this.refocus(svg, focused);
  }

  /** What choosing `region` does, told in words: the move's own words when it makes one move
   * (the server's `LegalAction.words`), else how many servants can move there. */
  choiceName(region, places) {
    const label = regionLabel(region);
    if (this.chosen !== null && this.chosen !== region.id) {
      const move = places.find((p) => p.region === this.chosen && p.source === region.id);
      if (move) return move.words || `${label}: its servant moves`;
    }
    const here = places.filter((p) => p.region === region.id);
    if (here.length === 1) return here[0].words || label;
    if (this.chosen === region.id) return `${label}, chosen: choose again to cancel`;
    return `${label}: ${here.length} servants can move here; choose it, then the servant`;
  }

  /** Keyboard focus kept across a redraw: on the same region, or on the first servant to
   * choose once a region is chosen (a keyboard player goes on where the board asks). */
  refocus(svg, region) {
    const next = (this.chosen !== null && svg.querySelector(".region.source")) || svg.querySelector(`.region[data-region="${region}"][tabindex]`);
    (next || this.element).focus();
  }

  /**
   * A hint's move drawn on the board (the game page calls it after every drawing): a placement
   * as a marked region with an arrow from the servant's region; a keep or a removal, its button.
   * clearHint() takes it off.
   */
  showHint(item) {
    const svg = this.element.querySelector("svg.akros-svg");
    if (isPlace(item) && svg) {
      const centre = (id) => {
        const hex = svg.querySelector(`.region[data-region="${id}"] .hex`);
        if (!hex) return null;
        const box = hex.getBBox();
        return [box.x + box.width / 2, box.y + box.height / 2];
      };
      const to = centre(item.region);
      const from = item.source !== undefined && item.source !== null ? centre(item.source) : null;
      if (to) svg.append(s("polygon", { class: "hint-mark hint-region", points: hexPoints(to[0], to[1], R - 3) }));
      if (from && to && (from[0] !== to[0] || from[1] !== to[1])) {
        const [x1, y1] = from;
        const [x2, y2] = to;
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const shrink = 14 / len;
        const stop = (R * 0.5) / len;
        svg.append(
          s("line", {
            class: "hint-mark hint-arrow",
            x1: x1 + (x2 - x1) * shrink,
            y1: y1 + (y2 - y1) * shrink,
            x2: x2 - (x2 - x1) * stop,
            y2: y2 - (y2 - y1) * stop,
            "marker-end": "url(#akros-hint-arrow)",
          }),
          s(
            "marker",
            { class: "hint-mark", id: "akros-hint-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" },
            s("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "hint-arrowhead" }),
          ),
        );
      }
    }
    for (const button of this.controls.querySelectorAll("[data-action]")) {
      if (button.dataset.action === item.text) button.classList.add("hinted");
    }
  }

  clearHint() {
    for (const mark of this.element.querySelectorAll(".hint-mark")) mark.remove();
    for (const button of this.controls.querySelectorAll(".hinted")) button.classList.remove("hinted");
  }

  panels(view) {
    const hands = view.hands || {};
    const temple = view.temple || {};
    const bag = view.bag || {};
    const removed = view.removed || {};
    const labels = this.data.seatLabels || [];
    const took = discardPile(view, this.data.history || []); // marked until the turn's end
    return h(
      "div",
      { class: "akros-panels" },
      h(
        "div",
        { class: "panel-box hands" },
        h("h3", {}, "Hands"),
        h("div", { class: "row" }, h("span", { class: "who jinn" }, labels[0] || "Jinn"), hands.jinn ? tile(hands.jinn) : h("span", { class: "muted" }, "—")),
        h("div", { class: "row" }, h("span", { class: "who ifrit" }, labels[1] || "Ifrit"), hands.ifrit ? tile(hands.ifrit) : h("span", { class: "muted" }, "—")),
        h("div", { class: "row draft" }, h("span", { class: "who" }, "Draft"), tiles(view.draft)),
      ),
      h(
        "div",
        { class: "panel-box temple" },
        h("h3", {}, "Temple"),
        ["7", "8", "9"].map((pile) =>
          h(
            "div",
            { class: `row${took?.pile === pile ? " took-discard" : ""}`, "data-pile": pile },
            h("span", { class: "who" }, `Pile ${pile}`),
            tiles(temple[pile]),
            took?.pile === pile ? h("span", { class: "took-note", title: `The Ifrit discarded a ${ENV_NAMES[took.tile] || "tile"} here this turn` }, "← discard") : null,
          ),
        ),
      ),
      h(
        "div",
        { class: "panel-box bag" },
        h("h3", {}, "Bag"),
        h("div", { class: "row" }, ["F", "S", "M"].map((t) => h("span", { class: "count-chip" }, tile(t), `×${bag[t] ?? 0}`))),
        h("h3", {}, "Out of the game"),
        h("div", { class: "row" }, ["F", "S", "M"].map((t) => h("span", { class: "count-chip" }, tile(t), `×${removed[t] ?? 0}`))),
      ),
      this.mode === "diagram" && view.step !== "over" ? null : h("div", { class: "panel-box scores" }, h("h3", {}, "Environments"), countTable(view, labels)),
    );
  }

  renderControls() {
    const { view, legal = [], canMove } = this.data;
    const items = [];
    if (canMove) {
      const keeps = legal.filter((item) => KEEPS.has(item.kind));
      const removes = legal.filter((item) => item.kind === "remove");
      const hand = view.step === "ifrit-place" ? view.hands?.ifrit : view.hands?.jinn;
      if (keeps.length) {
        const pile = view.step === "ifrit-keep" ? view.discard_pile : null;
        items.push(
          h(
            "p",
            { class: "hint" },
            view.step === "jinn-keep"
              ? "Your draft: keep one tile; the others go to the Ifrit."
              : pile
                ? `Your draft: keep one tile; the other goes to the Temple, pile ${pile}.`
                : "Keep your tile.",
          ),
        );
        items.push(
          h(
            "div",
            { class: "choices hand" },
            // One button per legal keep, in the draft's order (two alike are one choice).
            handTiles(view.draft, keeps).map((item) =>
              h(
                "button",
                {
                  class: "choice tile-choice",
                  "data-action": item.text,
                  title: item.discard ? `Keep the ${ENV_NAMES[item.tile]}, discard the ${ENV_NAMES[item.discard]}` : `Keep the ${ENV_NAMES[item.tile]}`,
                  onClick: () => this.send(item.text),
                },
                h("span", { class: `hand-tile tile-${item.tile}` }, item.tile, h("small", {}, ENV_NAMES[item.tile])),
                h("span", { class: "hand-label" }, "Keep", item.discard ? [" · discard ", tile(item.discard)] : null),
                said(item.words),
              ),
            ),
          ),
        );
      } else if (removes.length) {
        const [remove] = removes;
        items.push(h("p", { class: "hint" }, `Your ${ENV_NAMES[remove.tile]} tile has no legal place: it leaves the game.`));
        items.push(
          h("button", { class: "primary", "data-action": remove.text, onClick: () => this.send(remove.text) }, "Remove ", tile(remove.tile), said(remove.words)),
        );
      } else if (this.chosen !== null) {
        items.push(h("p", { class: "hint" }, `Region ${this.chosen}: click the highlighted servant that moves onto it.`));
        items.push(h("button", { class: "ghost", onClick: () => ((this.chosen = null), this.render()) }, "Cancel"));
      } else if (legal.some(isPlace)) {
        items.push(h("p", { class: "hint" }, "Place your ", hand ? tile(hand) : "tile", " tile: click a highlighted region."));
      }
    }
    replace(this.controls, items);
  }
}

/** The legal keeps in the draft's order, each once: a draft of two alike (FF after the Jinn
 * kept from FFF) has one keep, not two identical buttons. */
function handTiles(draft, keeps) {
  const tiles = draft && draft.length ? draft : keeps.map((item) => item.tile);
  const found = tiles.flatMap((letter) => keeps.filter((item) => item.tile === letter));
  const rest = keeps.filter((item) => !found.includes(item));
  return [...new Set([...found, ...rest])];
}

/** The Temple pile that took this turn's discard, if the Ifrit has discarded this turn: the
 * turn's discard pile, read from the history back to the turn's start. */
export function discardPile(view, history = []) {
  for (let k = history.length - 1; k >= 0; k--) {
    const kind = history[k]?.kind;
    if (kind === "keep-discard") return view.discard_pile ? { pile: view.discard_pile, tile: history[k].discard } : null;
    if (kind === "draw" || kind === "keep") return null; // the turn began (a draw or the Jinn's keep)
  }
  return null;
}

/** Each environment counted as the rulebook counts it: 1 per servant plus the tiles under it. */
function countTable(view, labels = []) {
  const count = (servants, tiles) =>
    h("span", { class: "count", title: `${servants} servant${servants === 1 ? "" : "s"} + ${tiles} tile${tiles === 1 ? "" : "s"} under them` }, `${servants} + ${tiles} = `, h("strong", {}, servants + tiles));
  return h(
    "table",
    { class: "count-table" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", {}, ""), h("th", {}, labels[0] || "Jinn"), h("th", {}, labels[1] || "Ifrit"), h("th", {}, "claimed")),
      h("tr", { class: "count-help" }, h("th", {}, ""), h("th", { colspan: 2 }, "servants + tiles under them"), h("th", {}, "")),
    ),
    h(
      "tbody",
      {},
      (view.environments || []).map((e) =>
        h(
          "tr",
          { class: e.claimed_by ? `claimed-${e.claimed_by}` : "", "data-environment": e.environment },
          h("th", {}, tile(e.environment), " ", e.name),
          h("td", {}, count(e.jinn_servants, e.jinn_tiles)),
          h("td", {}, count(e.ifrit_servants, e.ifrit_tiles)),
          h("td", {}, e.claimed_by ? capitalize(e.claimed_by) : "nobody"),
        ),
      ),
    ),
  );
}

/** At the end: the count of every environment, and the claims. */
export function resultDetails(view, labels = []) {
  if (view.step !== "over") return null;
  const [jinn, ifrit] = view.scores || [0, 0];
  return h(
    "div",
    { class: "akros-result" },
    countTable(view, labels),
    h("p", {}, `Claims: Jinn ${jinn}, Ifrit ${ifrit}. The player who claims more environments wins; equal claims go to the Ifrit.`),
  );
}

function regionLabel(region) {
  const parts = [`Region ${region.id}`, ENV_NAMES[region.environment]];
  if (region.stack) parts.push(`${region.stack} tile${region.stack === 1 ? "" : "s"}`);
  if (region.servant) parts.push(region.servant === "J" ? "Jinn servant" : "Ifrit servant");
  if (region.contested) parts.push("contested");
  return parts.join(", ");
}

export function summary(view) {
  const claims = view.scores || [0, 0];
  return `Turn ${view.turn}/9 · claims Jinn ${claims[0]} – ${claims[1]} Ifrit`;
}

/** A seat's score as the page shows it. */
export function scoreText(value) {
  return `${value} claim${value === 1 ? "" : "s"}`;
}

/** The turn a position belongs to, for pages that mark turns (the review). */
export function sectionOf(view) {
  if (!view || !view.turn) return null;
  return { word: "Turn", key: view.turn, number: view.turn };
}
