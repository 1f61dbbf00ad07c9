// The game told to a screen reader: a polite live region that says every move in words as it is
// played (yours, the other side's, the computer's, chance's: a pour, a draw), then whose turn it
// is or how the game ended. The words are the server's (`StateMessage.words`, `state.last.words`:
// the game's plugin), the same as the move list's; the region is visually hidden.

import { h } from "../dom.js";
import { bannerText } from "./happened.js";

const KEEP = 20; // the last announcements stay in the region, for a reader who goes back over them

export class Announcer {
  constructor() {
    this.element = h("div", { class: "sr-only announcer", "aria-live": "polite", "aria-atomic": "false", "aria-relevant": "additions" });
    this.told = null; // how many actions have been told (null: nothing seen yet)
    this.status = null; // the last turn or end told
  }

  /**
   * Tell what is new in `state`: the actions played since the last call, in words (`words(k)`
   * for action k), then `status` (your turn, the end) if it changed. The first state sets where
   * the telling starts: a page opened on a game does not read out its whole past.
   */
  follow(state, { words, status = "" }) {
    const count = (state.actions || []).length;
    const lines = [];
    if (this.told !== null && count > this.told) {
      for (let k = this.told; k < count; k++) lines.push(sentence(words(k)));
    } else if (this.told !== null && count < this.told) {
      const back = this.told - count;
      lines.push(`${back} move${back === 1 ? "" : "s"} taken back.`);
    }
    if (this.told !== null && status && (status !== this.status || lines.length)) lines.push(sentence(status));
    this.told = count;
    this.status = status;
    if (lines.length) this.say(lines.join(" "));
  }

  /** Say `text` now (a new line in the region: a reader announces additions). */
  say(text) {
    this.element.append(h("p", {}, text));
    while (this.element.childElementCount > KEEP) this.element.firstElementChild.remove();
  }

  /** The last thing said (for tests and debugging). */
  get last() {
    return this.element.lastElementChild?.textContent || "";
  }
}

/** What to tell after the moves: your turn (with your side's name), a pause, the end; else "". */
export function turnStatus(state, you) {
  const { text, kind } = bannerText({ state, you, viewing: null, total: 0, pacing: false, pending: false });
  return ["mine", "pause", "over"].includes(kind) ? text : "";
}

function sentence(text) {
  const trimmed = String(text || "").trim();
  return /[.!?…:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
