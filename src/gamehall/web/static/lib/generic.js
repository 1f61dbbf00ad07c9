// The board of a game that brings no board module of its own: its position text, and its legal
// actions (the server's legal items) as buttons by their text. Every game plays in the browser
// through this, from the protocol alone.

import { h, replace } from "../dom.js";

export class GenericBoard {
  constructor({ onMove = () => {} } = {}) {
    this.onMove = onMove;
    this.element = h("div", { class: "board board-generic" });
    this.controls = h("div", { class: "controls", "aria-live": "polite" });
  }

  update(data) {
    this.data = data;
    const { view = {}, legal = [], canMove, last } = data;
    replace(
      this.element,
      h("p", { class: "generic-position" }, h("code", {}, view.position || "")),
      last ? h("p", { class: "muted" }, "Last: ", h("code", {}, last.text)) : null,
    );
    replace(
      this.controls,
      canMove && legal.length
        ? [
            h("p", { class: "hint" }, "Your move:"),
            h(
              "div",
              { class: "choices" },
              legal.map((item) =>
                h("button", { type: "button", class: "choice", "data-action": item.text, onClick: () => this.onMove(item.text) }, item.text),
              ),
            ),
          ]
        : null,
    );
  }

  clearSelection() {}
}

export function summary(view) {
  return (view.scores || []).join(" – ");
}
