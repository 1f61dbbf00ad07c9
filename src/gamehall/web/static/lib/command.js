// "Type a move": a text box in the game room that takes a move in words or in notation, as
// lichess's blind mode does, for a player who cannot or would rather not point at the board.
// The typed text is matched, ignoring case and spacing, against each legal move's notation
// (`LegalAction.text`) and its words (`LegalAction.words`, with or without the mover's name in
// front); an unambiguous beginning of either is enough. Nothing or several matching gives an
// error beside the box, naming a few of the candidates, and plays nothing.

import { h } from "../dom.js";

const SHOWN = 4; // candidates named in an error

/** Lower case, one space between words, no full stop at the end. */
function norm(text) {
  return String(text || "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[.!]+$/, "")
    .trim();
}

/** The ways a legal move may be typed: its notation, its words, its words without the mover. */
function keys(item) {
  const words = norm(item.words);
  const out = [norm(item.text)];
  if (words) out.push(words, words.replace(/^\S+\s+/, ""));
  return out.filter(Boolean);
}

/**
 * The legal move that `typed` names: {move} (a legal item), or {error} (a sentence to show).
 * An exact match of a notation or words wins; else the one move whose notation or words begin
 * with the text.
 */
export function matchMove(typed, legal) {
  const text = norm(typed);
  if (!text) return { error: "Type a move: its words or its notation." };
  const unique = (items) => [...new Map(items.map((item) => [item.text, item])).values()];
  const exact = unique(legal.filter((item) => keys(item).includes(text)));
  if (exact.length === 1) return { move: exact[0] };
  const begun = exact.length ? exact : unique(legal.filter((item) => keys(item).some((key) => key.startsWith(text))));
  if (begun.length === 1) return { move: begun[0] };
  if (!begun.length) {
    const some = legal.slice(0, SHOWN).map(told);
    return { error: `No legal move matches “${typed.trim()}”.${some.length ? ` Legal moves are, for example: ${some.join("; ")}.` : ""}` };
  }
  const more = begun.length > SHOWN ? `; and ${begun.length - SHOWN} more` : "";
  return { error: `“${typed.trim()}” could be ${begun.length} moves: ${begun.slice(0, SHOWN).map(told).join("; ")}${more}. Type more of it.` };
}

function told(item) {
  return item.words && norm(item.words) !== norm(item.text) ? `${item.words} (${item.text})` : item.text;
}

/**
 * The box: `play(text)` sends a legal move (false when it was not sent); update({legal,
 * canMove, seated, over}) after every state shows the box to a player of an unfinished game.
 */
export class CommandBox {
  constructor({ play }) {
    this.play = play;
    this.data = { legal: [], canMove: false };
    this.input = h("input", {
      type: "text",
      id: "command-input",
      name: "move",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      placeholder: "words or notation",
      "aria-describedby": "command-error",
    });
    this.error = h("p", { class: "command-error", id: "command-error", role: "alert" });
    this.element = h(
      "form",
      { class: "command", onSubmit: (event) => (event.preventDefault(), this.submit()) },
      h("label", { for: "command-input" }, "Type a move"),
      h("div", { class: "command-row" }, this.input, h("button", { type: "submit" }, "Play")),
      this.error,
    );
  }

  update({ legal = [], canMove = false, seated = false, over = false }) {
    this.data = { legal, canMove };
    this.element.hidden = !seated || over;
  }

  submit() {
    const { legal, canMove } = this.data;
    if (!canMove) return this.fail("It is not your move yet.");
    const found = matchMove(this.input.value, legal);
    if (found.error) return this.fail(found.error);
    if (!this.play(found.move.text)) return this.fail("The move was not sent: try again.");
    this.input.value = "";
    this.fail("");
  }

  fail(message) {
    this.error.textContent = message;
    this.input.setAttribute("aria-invalid", message ? "true" : "false");
  }
}
