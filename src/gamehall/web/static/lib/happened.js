// "What just happened": the line under the game page's banner that tells, in words, the last
// move that was not this browser's (the computer's, the opponent's, chance's), one after another
// as the pacer shows them; and a move played for the player because it was their only one.
// The words are the server's (`StateMessage.words`, `PlayedAction.words`: the game's plugin).

import { h } from "../dom.js";
import { resultText, seatName } from "./shared.js";

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
export function happenedLine(line, { k, words, forced = false, pacing = false, onSkip }) {
  // Redrawn only when it changes (each new step plays the entrance animation once).
  const key = JSON.stringify([k, words, forced, pacing]);
  if (line.dataset.key === key) return;
  line.dataset.key = key;
  line.hidden = k < 0 && !pacing;
  const fresh = line.dataset.step !== String(k + 1); // a new move told: it slides in
  line.dataset.step = String(k + 1);
  line.dataset.forced = forced ? "true" : "false";
  line.dataset.pacing = pacing ? "true" : "false";
  line.replaceChildren(
    ...[
      forced ? h("span", { class: "happened-tag" }, h("span", { class: "wide-only" }, "Played for you (your only move):"), h("span", { class: "narrow-only" }, "Only move:")) : null,
      h("span", { class: `happened-words${fresh ? " fresh" : ""}`, title: k < 0 ? null : forced ? `Played for you (your only move): ${words}` : words }, k < 0 ? "" : words),
      pacing ? h("button", { type: "button", class: "ghost small skip", title: "Show the present position now (or press any key)", onClick: onSkip }, "Skip ▸▸") : null,
    ].filter(Boolean),
  );
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

/** The banner's words and kind: a past position, the pacer catching up, the end, a pause,
 * chance, your turn, the computer's or another's. */
export function bannerText({ state, you, viewing, total, pacing, pending }) {
  const seats = state.seats || [];
  if (viewing !== null) return { text: viewing === 0 ? "Viewing the start" : `Viewing move ${viewing} of ${total}`, kind: "past" };
  if (pacing) return { text: "What just happened:", kind: "pacing" };
  if (state.over) return { text: `Game over: ${resultText(state.outcome, seats, you)}`, kind: "over" };
  if (state.pause) return { text: state.pause.reason, kind: "pause" };
  if (state.to_move === null || state.to_move === undefined) return { text: "Chance is deciding…", kind: "wait" };
  const seat = seats[state.to_move] || { name: state.to_move_name };
  const name = seatName(seat.name);
  if (you.includes(state.to_move)) {
    if (pending) return { text: "Sending your move…", kind: "mine" };
    return { text: you.length > 1 ? `${name} to move (hot-seat): your turn` : `Your turn (${name})`, kind: "mine" };
  }
  if (seat.kind === "computer") return { text: `The computer (${name}) is thinking…`, kind: "wait" };
  if (!you.length) return { text: `You are watching · ${name} to move`, kind: "wait" };
  return { text: `Waiting for ${name}…`, kind: "wait" };
}
