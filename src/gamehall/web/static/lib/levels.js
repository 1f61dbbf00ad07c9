// The computer levels as a menu shows them: what each does (the server's words for the game,
// /api/meta's level_words) and its rating, with what that rating means (level_note).

import { capitalize, h } from "../dom.js";

/** A level's rating as shown: "rated ≈3231 ± 413" ("" when the game has none). */
export function levelRating(game, level) {
  const rating = game.level_ratings?.[level];
  if (!rating) return "";
  const within = game.level_intervals?.[level];
  return `rated ≈${rating}${within ? ` ± ${within}` : ""}`;
}

/** A level menu's label: "Easy — takes the move that looks best right now (rated ≈3231 ± 413)". */
export function levelLabel(game, level) {
  const words = game.level_words?.[level];
  const rating = levelRating(game, level);
  return `${capitalize(level)}${words ? ` — ${words}` : ""}${rating ? ` (${rating})` : ""}`;
}

/**
 * The note under a level menu: the chosen level in full (a phone's closed menu cuts it) and
 * what the ratings mean in this game. Returns the element and a function to show a level.
 */
export function levelNote(game) {
  const chosen = h("span", { class: "level-chosen" });
  const note = game.level_note && Object.keys(game.level_ratings || {}).length ? h("span", { class: "level-scale" }, ` ${game.level_note}`) : null;
  const element = h("p", { class: "level-note muted", id: `level-note-${game.name}` }, chosen, note);
  const show = (level) => {
    chosen.textContent = `${levelLabel(game, level)}.`;
  };
  return { element, show };
}
