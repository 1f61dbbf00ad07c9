// The game page's help from the engine: "thinking…" while the computer (or a hint) takes time,
// the hint button (games against the computer and hot-seat games, never online ones: the server
// refuses them there too) and, once the game is over, the way to its review.
//
// The page makes one GameAssist, puts its `indicator` under the turn banner and its `panel` in
// the side column, and calls update(state) with every state message.

import { postJSON } from "./api.js";
import { capitalize, h, replace } from "../dom.js";

/** How long a wait may last before the page shows that something is happening. */
export const THINKING_DELAY = 500;
const HINT_MODES = new Set(["computer", "hotseat"]);

/**
 * A visible "thinking…" indicator (a spinner, a line of text and, after a few seconds, the time
 * so far) that appears only when a wait lasts longer than THINKING_DELAY: start(text) arms it,
 * stop() hides it.
 */
export class Thinking {
  constructor() {
    this.text = h("span", { class: "thinking-text" });
    this.clock = h("span", { class: "thinking-clock muted" });
    this.element = h(
      "div",
      { class: "thinking", role: "status", "aria-live": "polite", hidden: true },
      h("span", { class: "spinner", "aria-hidden": "true" }),
      this.text,
      this.clock,
    );
    this.timer = null;
    this.ticker = null;
    this.label = null;
  }

  start(label) {
    if (this.label === label) return;
    this.stop();
    this.label = label;
    const since = Date.now();
    this.timer = setTimeout(() => {
      this.text.textContent = label;
      this.clock.textContent = "";
      this.element.hidden = false;
      this.ticker = setInterval(() => {
        const seconds = Math.floor((Date.now() - since) / 1000);
        this.clock.textContent = seconds >= 2 ? `${seconds} s` : "";
      }, 1000);
    }, THINKING_DELAY);
  }

  stop() {
    clearTimeout(this.timer);
    clearInterval(this.ticker);
    this.timer = this.ticker = null;
    this.label = null;
    this.element.hidden = true;
  }
}

export class GameAssist {
  /** notify(message, kind) shows a message; navigate(path) opens a page of the app. */
  constructor({ id, notify, navigate }) {
    this.id = id;
    this.notify = notify;
    this.navigate = navigate;
    this.thinking = new Thinking();
    this.indicator = this.thinking.element;
    this.panel = h("section", { class: "panel assist", hidden: true });
    this.state = null;
    this.hint = null; // {version, answer} | {version, error}
    this.asking = null; // the version a hint is being asked for
    this.closed = false;
  }

  close() {
    this.closed = true;
    this.thinking.stop();
  }

  /** Whether this reader may ask for a hint now (the server decides; this only hides the button). */
  canHint(state) {
    const you = state.you || [];
    return HINT_MODES.has(state.mode) && !state.over && !state.pause && state.to_move !== null && state.to_move !== undefined && you.includes(state.to_move);
  }

  update(state) {
    this.state = state;
    if (this.hint && this.hint.version !== state.version) this.hint = null;
    const computer = !state.over && !state.pause && state.to_move !== null && state.to_move !== undefined && state.seats?.[state.to_move]?.kind === "computer";
    if (this.asking !== null && this.asking !== state.version) this.asking = null;
    if (computer) this.thinking.start(`Thinking… (${capitalize(state.to_move_name)}, the computer)`);
    else if (this.asking !== null) this.thinking.start("Working out a hint…");
    else this.thinking.stop();
    this.render();
  }

  async askHint() {
    const state = this.state;
    if (!state || this.asking !== null) return;
    const version = state.version;
    this.asking = version;
    this.thinking.start("Working out a hint…");
    this.render();
    try {
      const answer = await postJSON(`/api/games/${encodeURIComponent(this.id)}/hint`, { version });
      if (this.state && this.state.version === version) this.hint = { version, answer };
    } catch (error) {
      if (this.state && this.state.version === version) this.hint = { version, error: error.message };
      else if (error.code !== "stale_version") this.notify(error.message);
    } finally {
      if (this.asking === version) this.asking = null;
      if (!this.closed && this.state) this.update(this.state);
    }
  }

  async startReview(button) {
    button.disabled = true;
    try {
      await postJSON(`/api/games/${encodeURIComponent(this.id)}/review`);
      this.navigate(`/review/${encodeURIComponent(this.id)}`);
    } catch (error) {
      this.notify(error.message);
      button.disabled = false;
    }
  }

  render() {
    const state = this.state;
    if (!state) return;
    if (state.over) {
      // Nothing to judge where no player made a move (an aborted game, a game ended at once).
      if (!(state.movers || []).some((mover) => mover >= 0)) {
        this.panel.hidden = true;
        replace(this.panel);
        return;
      }
      const button = h("button", { type: "button", class: "primary review-button" }, "Review this game");
      button.addEventListener("click", () => this.startReview(button));
      this.panel.hidden = false;
      replace(
        this.panel,
        h("h2", {}, "Review"),
        h("p", { class: "muted" }, "Every move judged by the exact solver, however the game ended: each player's accuracy, mistakes and blunders, and the better moves."),
        h("div", { class: "buttons" }, button),
      );
      return;
    }
    if (!HINT_MODES.has(state.mode) || !(state.you || []).length) {
      this.panel.hidden = true;
      replace(this.panel);
      return;
    }
    this.panel.hidden = false;
    const mine = this.canHint(state);
    const button = h(
      "button",
      { type: "button", class: "hint-button", disabled: !mine || this.asking !== null, "aria-busy": this.asking !== null ? "true" : null },
      this.asking !== null ? "Working out a hint…" : "Hint",
    );
    button.addEventListener("click", () => this.askHint());
    const body = [h("div", { class: "assist-head" }, h("h2", {}, "Hints"), button)];
    if (this.hint?.error) body.push(h("p", { class: "hint-error", role: "alert" }, this.hint.error));
    else if (this.hint?.answer) body.push(hintList(this.hint.answer));
    else body.push(h("p", { class: "muted" }, mine ? "The best moves for you, with what they are worth." : "Hints are for the player to move."));
    replace(this.panel, body);
  }
}

/** The hints of a position: each move with its evaluation in words and its line of play. */
export function hintList(answer) {
  return h(
    "div",
    { class: "hints", "data-version": answer.version },
    answer.headline ? h("p", { class: "hint-headline" }, answer.headline) : null,
    h(
      "ol",
      { class: "hint-list" },
      answer.hints.map((hint) =>
        h(
          "li",
          { class: `hint hint-${hint.method}`, "data-move": hint.move },
          h("code", { class: "hint-move" }, hint.move),
          h("span", { class: `method method-${hint.method}` }, hint.method === "exact" ? "exact" : hint.method === "bounds" ? "bounds" : "estimate"),
          h("p", { class: "hint-eval" }, hint.evaluation),
          hint.line.length
            ? h("p", { class: "hint-line muted" }, hint.line_exact ? "Perfect play: " : "Likeliest line: ", h("code", {}, [hint.move, ...hint.line].join(" ")))
            : null,
        ),
      ),
    ),
    answer.proven ? null : h("p", { class: "muted small" }, "Not every move is settled: unsettled moves are ranked by estimates within what the solver proved."),
  );
}
