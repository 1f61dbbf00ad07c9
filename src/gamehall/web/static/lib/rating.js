// Ratings as every page shows them (lobby, profile, leaderboard, game room): the number with a
// "?" while it is provisional (the server decides which: gamehall.web.hall.standings.shown),
// the time control in the lobby's words, a hall game's "Rated · 3+2" label and, at the end of a
// rated game, each side's change.

import { h } from "../dom.js";
import { botTag } from "./hall.js";

/** What a "?" after a rating means, for a title or a note. */
export const PROVISIONAL_NOTE = "A \"?\" after a rating: provisional, too few rated games to be sure of it yet";

/** A rating as text: "1662?" while provisional, else "1662". */
export function ratingText({ rating, provisional }) {
  return `${rating}${provisional ? "?" : ""}`;
}

/** A rating as a small element (the "?" explained in its title). */
export function ratingBadge(shown, extra = {}) {
  return h(
    "span",
    { class: "rating", "data-rating": shown.rating, "data-provisional": shown.provisional ? "yes" : "no", title: shown.provisional ? PROVISIONAL_NOTE : "rating", ...extra },
    ratingText(shown),
  );
}

/** A time control as the lobby states it: "3+2", "3 days a move", "untimed". */
export function controlText(clock) {
  if (!clock) return "untimed";
  if (clock.startsWith("d")) return `${clock.slice(1)} day${clock === "d1" ? "" : "s"} a move`;
  return clock;
}

/** A hall game's label: "Rated · 3+2", "Casual · 3 days a move" (null: not a hall game). */
export function tableLabel(table) {
  if (!table) return null;
  return `${table.rated ? "Rated" : "Casual"} · ${controlText(table.clock)}`;
}

/** A seat's rating in a rated game's table (undefined: none shown). */
export function seatRating(table, seat) {
  return table?.ratings?.find((entry) => entry.seat === seat);
}

/** A signed change: "+162", "−40", "±0". */
export function changeText(change) {
  if (change > 0) return `+${change}`;
  if (change < 0) return `−${-change}`;
  return "±0";
}

/**
 * The end panel's lines of a rated game: each side's "1500? → 1662? (+162)", in green or red;
 * null for a casual game, or while the result is not yet in the ratings.
 */
export function ratingChanges(state, nameOf) {
  const table = state.table;
  if (!table?.rated || !state.over) return null;
  const changed = table.ratings.filter((entry) => entry.change !== null && entry.after);
  if (!changed.length) {
    if (state.outcome?.result === "*") return h("p", { class: "rating-changes muted" }, "Aborted: no rating changes.");
    return null;
  }
  return h(
    "ul",
    { class: "rating-changes", "aria-label": "Rating changes" },
    changed.map((entry) =>
      h(
        "li",
        { "data-seat": entry.seat, class: entry.change > 0 ? "up" : entry.change < 0 ? "down" : "same" },
        h("span", { class: "who" }, state.seats?.[entry.seat]?.bot ? [botTag(), " "] : null, nameOf(entry.seat)),
        " ",
        h("span", { class: "change-ratings" }, `${ratingText(entry.rating)} → ${ratingText(entry.after)}`),
        " ",
        h("strong", { class: "change" }, `(${changeText(entry.change)})`),
      ),
    ),
  );
}
