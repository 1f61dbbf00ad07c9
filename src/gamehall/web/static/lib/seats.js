// The seat cards of the game page: each seat's name, score, who holds it (and whether they are
// here) with their rating in a rated game, whose turn it is and a place for its clock (filled by
// the page's ticker); above them, a hall game's "Rated · 3+2" label.

import { h } from "../dom.js";
import { playerLink } from "./hall.js";
import { seatName } from "./shared.js";
import { changeText, ratingBadge, seatRating, tableLabel } from "./rating.js";

/** Whether a seat's holder is here: [class, words] (computers always are). */
function presenceOf(seat, mine, connection) {
  if (seat.kind === "computer") return ["computer", `computer${seat.level ? ` · ${seat.level}` : ""}`];
  const online = mine ? connection === "live" : seat.connected;
  return online ? ["online", "online"] : ["offline", "offline"];
}

/** A rated game's change beside the seat's rating, once the result counted. */
function changeBadge(change) {
  if (change === null || change === undefined) return null;
  return h("span", { class: `seat-change ${change > 0 ? "up" : change < 0 ? "down" : "same"}` }, ` ${changeText(change)}`);
}

/**
 * The cards, the `bottom` seat last (nearest the board's bottom on a phone, below the
 * opponent's). scores: each seat's score in the position shown; label(seat), score(value): the
 * page's words for them.
 */
export function seatCards({ state, you, bottom, scores, connection, label, score }) {
  const order = (state.seats || []).slice();
  order.sort((a, b) => (a.index === bottom) - (b.index === bottom));
  const tableText = tableLabel(state.table);
  const cards = order.map((seat) => {
    const rated = seatRating(state.table, seat.index);
    const mine = you.includes(seat.index);
    const [presenceClass, presence] = presenceOf(seat, mine, connection);
    const toMove = !state.over && !state.pause && state.to_move === seat.index;
    return h(
      "div",
      { class: `seat seat-${seat.name}${toMove ? " to-move" : ""}${mine ? " mine" : ""}`, "data-seat": seat.index },
      h("span", { class: "seat-name" }, label(seat)),
      h("span", { class: "seat-score" }, scores[seat.index] !== undefined ? score(scores[seat.index]) : ""),
      // The second row: who holds the seat, after the presence dot (the word "online" is
      // for screen readers; "offline" is said to everyone).
      h(
        "span",
        { class: `presence presence-${presenceClass}`, "data-presence": presenceClass, title: presence },
        seat.player && presenceClass !== "computer"
          ? [
              playerLink(seat.player, { class: "seat-player", bot: seat.bot }),
              rated ? [" ", ratingBadge(rated.rating, { class: "rating seat-rating" }), changeBadge(rated.change)] : null,
              presenceClass === "offline" ? " · offline" : h("span", { class: "sr-only" }, " (online)"),
            ]
          : presence,
      ),
      toMove ? h("span", { class: "seat-turn" }, "to move") : h("span"),
      state.clock && state.clock.remaining[seat.index] !== null
        ? h("span", { class: "seat-clock", "data-clock": seat.index, role: "timer", "aria-label": `${seatName(seat.name)}'s clock` })
        : null,
    );
  });
  return tableText ? [h("p", { class: "table-label", "data-rated": state.table.rated ? "yes" : "no" }, tableText), ...cards] : cards;
}
