// Your move (/your-move): the games where it is your move (GET /api/me/turns), the header's
// badge's list; each opens the game.

import { getJSON } from "../lib/api.js";
import { ago, capitalize, h, replace } from "../dom.js";
import { headerBadge } from "../lib/header.js";

const MODES = { online: "online", computer: "vs computer" };

export function yourMovePage(ctx) {
  const body = h("div", { class: "turns-body" }, ctx.loading());
  ctx.page("your-move", h("h1", {}, "Your move"), body);
  document.title = "Your move · gamehall";
  getJSON("/api/me/turns")
    .then((answer) => {
      headerBadge("turns", { count: answer.count, href: "/your-move", label: "Your move" });
      if (!answer.games.length) {
        replace(body, h("section", { class: "panel" }, h("p", {}, "No game waits for your move."), h("p", {}, h("a", { href: "/" }, "Your games and a new one"), " · ", h("a", { href: "/lobby" }, "Find an opponent in the lobby"))));
        return;
      }
      replace(
        body,
        h(
          "ul",
          { class: "panel turn-list" },
          answer.games.map((game) =>
            h(
              "li",
              { class: "turn-game", "data-id": game.id },
              h("a", { href: game.url, class: "turn-open" }, h("strong", {}, ctx.titleOf(game.game)), ` · ${MODES[game.mode] || game.mode}${game.clock ? ` · ${game.clock}` : ""}`),
              h("span", { class: "turn-who" }, `You play ${capitalize(game.seat_name)} against ${game.opponents.join(" and ") || "nobody yet"}`),
              h("span", { class: "muted" }, `${game.version} move${game.version === 1 ? "" : "s"} · ${ago(game.updated)}`),
            ),
          ),
        ),
      );
    })
    .catch((error) => replace(body, ctx.failure(error)));
  return null;
}
