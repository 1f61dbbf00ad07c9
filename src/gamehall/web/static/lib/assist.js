// The game page's help from the engine: "thinking…" while the computer (or a hint) takes time,
// the hint button (games against the computer and hot-seat games, never online ones: the server
// refuses them there too) and, once the game is over, the way to its review.
//
// The page makes one GameAssist, puts its `indicator` under the turn banner and its `panel` in
// the side column, calls update(state) with every state message and attach(board, ...) once its
// board is made. A hint is told in the server's sentences (gamehall.ai.hint_words: the same as
// the terminal's): its first line, one word for exact or estimate, the notation as a small label
// and the statistics and the line of play behind "Details". The hint shown is drawn on the board
// (the board's showHint(item)/clearHint(), or a generic mark on whatever carries the move's
// data-action) and "Play it" plays it as a click would, while it is legal and the asker's turn.

import { getJSON, postJSON } from "./api.js";
import { capitalize, h, replace } from "../dom.js";

/** How long a wait may last before the page shows that something is happening. */
export const THINKING_DELAY = 500;
const HINT_MODES = new Set(["computer", "hotseat"]);

/**
 * Whether the server's computer players are ready. A server just started loads them in the
 * background (GET /api/ready); a computer move or hint asked for meanwhile waits, and the page
 * says so ("The computer is getting ready…") instead of "Thinking…". Once ready, it stays so.
 */
let serverReady = false;

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
    this.shown = 0; // which hint of the answer is drawn on the board
    this.board = null;
    this.play = () => {};
    this.canMove = () => false;
    this.live = () => true;
    this.observer = null;
    this.readyMessage = null; // what the server says while its computer players get ready
    this.readyAsked = false;
  }

  /** Ask the server (once at a time) whether its computer players are ready, and until they
   * are, show what it says instead of "Thinking…". */
  async checkReady() {
    if (serverReady || this.readyAsked) return;
    this.readyAsked = true;
    try {
      let answer = await getJSON("/api/ready");
      while (!answer.ready && !this.closed) {
        this.readyMessage = answer.message;
        if (this.state) this.update(this.state);
        answer = await getJSON("/api/ready?wait=true");
      }
      serverReady = answer.ready;
    } catch {
      serverReady = true; // no answer to this: stop asking (the move or hint still comes)
    } finally {
      this.readyAsked = false;
      this.readyMessage = null;
      if (!this.closed && this.state) this.update(this.state);
    }
  }

  close() {
    this.closed = true;
    this.thinking.stop();
    this.observer?.disconnect();
  }

  /**
   * The page's board, how the page plays a move (play(text), as a click on the board would),
   * whether the asker may move now (canMove()) and whether the live position is shown (live()).
   * The board redraws itself from scratch: each time it does, the hint is drawn again.
   */
  attach(board, { play, canMove, live }) {
    this.observer?.disconnect();
    this.board = board;
    this.play = play;
    this.canMove = canMove;
    this.live = live;
    this.observer = new MutationObserver(() => this.drawHint());
    for (const element of [board.element, board.controls, board.extras]) {
      if (element) this.observer.observe(element, { childList: true });
    }
    this.drawHint();
  }

  /** The legal item of the hint drawn on the board, when it is still to be played. */
  shownItem() {
    const answer = this.hint?.answer;
    const hint = answer?.hints?.[this.shown];
    if (!hint || !this.state || answer.version !== this.state.version) return null;
    return (this.state.legal || []).find((item) => item.text === hint.move) || null;
  }

  drawHint() {
    const board = this.board;
    if (!board) return;
    const item = this.live() ? this.shownItem() : null;
    // Marks are taken off and put back in one go, so the observer sees no change of its own.
    if (typeof board.clearHint === "function") board.clearHint();
    else clearMarks(board);
    if (!item) return;
    if (typeof board.showHint === "function") board.showHint(item);
    else markAction(board, item.text);
  }

  show(index) {
    this.shown = index;
    this.render();
    this.drawHint();
  }

  playHint(move) {
    if (!this.canMove()) return;
    this.play(move);
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
    if ((computer || this.asking !== null) && !serverReady) this.checkReady();
    if ((computer || this.asking !== null) && this.readyMessage) this.thinking.start(this.readyMessage);
    else if (computer) this.thinking.start(`Thinking… (${capitalize(state.to_move_name)}, the computer)`);
    else if (this.asking !== null) this.thinking.start("Working out a hint…");
    else this.thinking.stop();
    this.render();
  }

  async askHint() {
    const state = this.state;
    if (!state || this.asking !== null) return;
    const version = state.version;
    this.asking = version;
    this.thinking.start(this.readyMessage || "Working out a hint…");
    if (!serverReady) this.checkReady();
    this.render();
    try {
      const answer = await postJSON(`/api/games/${encodeURIComponent(this.id)}/hint`, { version });
      if (this.state && this.state.version === version) {
        this.hint = { version, answer };
        this.shown = 0;
      }
    } catch (error) {
      if (this.state && this.state.version === version) this.hint = { version, error: error.message };
      else if (error.code !== "stale_version") this.notify(error.message);
    } finally {
      if (this.asking === version) this.asking = null;
      if (!this.closed && this.state) this.update(this.state);
      this.drawHint();
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
      this.asking !== null ? this.readyMessage || "Working out a hint…" : "Hint",
    );
    button.addEventListener("click", () => this.askHint());
    const body = [h("div", { class: "assist-head" }, h("h2", {}, "Hints"), button)];
    if (this.hint?.error) body.push(h("p", { class: "hint-error", role: "alert" }, this.hint.error));
    else if (this.hint?.answer) {
      const legal = new Set((state.legal || []).map((item) => item.text));
      body.push(
        hintList(this.hint.answer, {
          shown: this.shown,
          onShow: (index) => this.show(index),
          onSee: () => this.board?.element.scrollIntoView({ block: "center", behavior: "smooth" }),
          canPlay: (move) => mine && this.canMove() && legal.has(move),
          onPlay: (move) => this.playHint(move),
        }),
      );
    }
    else body.push(h("p", { class: "muted" }, mine ? "The best moves for you, with what they are worth." : "Hints are for the player to move."));
    replace(this.panel, body);
  }
}

/**
 * The hints of a position: each one's sentence, one word for exact or estimate, the notation as a
 * small label and its details (statistics, bounds, the line of play in words) behind "Details".
 * With `onShow`/`onPlay` (the game page) each can be drawn on the board and played.
 */
export function hintList(answer, { shown = -1, onShow = null, onSee = null, canPlay = () => false, onPlay = null } = {}) {
  const notes = [answer.unit, answer.note].filter(Boolean);
  return h(
    "div",
    { class: "hints", "data-version": answer.version },
    answer.headline ? h("p", { class: "hint-headline" }, answer.headline) : null,
    answer.summary ? h("p", { class: "hint-summary" }, answer.summary) : null,
    h(
      "ol",
      { class: "hint-list" },
      answer.hints.map((hint, index) => {
        const drawn = index === shown;
        const actions = [];
        if (onShow && !drawn) {
          actions.push(h("button", { type: "button", class: "ghost small hint-show", onClick: () => onShow(index) }, "Show on the board"));
        }
        if (onPlay && canPlay(hint.move)) {
          actions.push(h("button", { type: "button", class: "primary small hint-play", "data-move": hint.move, onClick: () => onPlay(hint.move) }, "Play it"));
        }
        const details = [...(hint.details || [])];
        if (hint.line_words?.length) details.push(`${hint.line_kind}: ${hint.line_words.join("; ")}.`);
        return h(
          "li",
          { class: `hint hint-${hint.method}${drawn && onShow ? " drawn" : ""}`, "data-move": hint.move },
          h(
            "p",
            { class: "hint-eval" },
            h("span", { class: "hint-sentence" }, hint.sentence),
            " ",
            h("span", { class: `method method-${hint.method}` }, hint.method === "exact" ? "exact" : "estimate"),
          ),
          h(
            "div",
            { class: "hint-foot" },
            h("code", { class: "hint-move", title: "The move in notation" }, hint.move),
            drawn && onShow
              ? h("button", { type: "button", class: "hint-drawn", title: "Bring the board into view", onClick: () => onSee?.() }, "drawn on the board")
              : null,
            actions.length ? h("span", { class: "hint-actions" }, actions) : null,
          ),
          details.length
            ? h(
                "details",
                { class: "hint-details" },
                h("summary", {}, "Details"),
                details.map((text) => h("p", { class: "hint-detail" }, text)),
              )
            : null,
        );
      }),
    ),
    notes.length ? h("p", { class: "muted small hint-notes" }, notes.join(" ")) : null,
  );
}

/** The generic hint mark of a board with no showHint: whatever carries the move's data-action. */
export function markAction(board, move) {
  for (const root of [board.element, board.controls, board.extras]) {
    if (!root) continue;
    for (const element of root.querySelectorAll("[data-action]")) {
      if (element.dataset.action === move) element.classList.add("hinted");
    }
  }
}

/** Take every hint mark off a board (the generic marks, and the "hint-mark" drawings of any). */
export function clearMarks(board) {
  for (const root of [board.element, board.controls, board.extras]) {
    if (!root) continue;
    for (const element of root.querySelectorAll(".hinted")) element.classList.remove("hinted");
    for (const element of root.querySelectorAll(".hint-mark")) element.remove();
  }
}
