// "What just happened": the line under the game page's banner that tells, in words, the last
// move that was not this browser's (the computer's, the opponent's, chance's), one after another
// as the pacer shows them; and a move played for the player because it was their only one.
// The words are the server's (`StateMessage.words`, `PlayedAction.words`: the game's plugin).

import { h } from "../dom.js";

/**
 * The index of the action to tell when the board shows the position after `shown` actions:
 * the latest one if it is not by `you` (a seat of this browser), else -1 (you moved last).
 * A spectator (no seats) is told the latest action.
 */
export function toldIndex(movers, shown, you) {
  const k = shown - 1;
  return k >= 0 && !you.includes(movers[k]) ? k : -1; // your own move last: nothing new to tell
}

/** Action k told in words: the server's words, else who played it and its notation. */
export function wordsOf(state, history, k, moverName) {
  const words = state.words?.[k] || history?.items?.[k]?.words;
  if (words) return words;
  const text = state.actions?.[k] ?? history?.items?.[k]?.text ?? "";
  const mover = state.movers?.[k];
  return mover === -1 ? `Chance: ${text}` : `${moverName(mover)}: ${text}`;
}

/**
 * The line's content: the move told (k, its words), whether it was forced (played for you),
 * whether the pacer is still behind the game (then a button shows the present at once).
 */
export function happenedLine(line, { k, words, forced = false, pacing = false, step = 0, steps = 0, onSkip }) {
  line.hidden = k < 0 && !pacing;
  line.dataset.step = String(k + 1);
  line.dataset.forced = forced ? "true" : "false";
  line.dataset.pacing = pacing ? "true" : "false";
  line.replaceChildren(
    ...[
      forced ? h("span", { class: "happened-tag" }, "Played for you (your only move):") : null,
      h("span", { class: "happened-words" }, k < 0 ? "" : words),
      pacing && steps > 1 ? h("span", { class: "happened-count muted" }, `${step} of ${steps}`) : null,
      pacing ? h("button", { type: "button", class: "ghost small skip", title: "Show the present position now (or press any key)", onClick: onSkip }, "Skip ▸▸") : null,
    ].filter(Boolean),
  );
  // Start the entrance animation again for each new step.
  if (line.dataset.shownStep !== line.dataset.step) {
    line.dataset.shownStep = line.dataset.step;
    line.classList.remove("fresh");
    void line.offsetWidth;
    line.classList.add("fresh");
  }
}

/**
 * The move to play for the player, if their seat at this browser has exactly one legal move
 * (as the terminal app does); null otherwise.
 */
export function forcedMove(state, canMove) {
  if (!canMove) return null;
  const legal = state.legal || [];
  const texts = new Set(legal.map((item) => item.text));
  return texts.size === 1 ? legal[0].text : null;
}
