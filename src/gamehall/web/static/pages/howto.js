// How to play (a first lesson: text and small diagrams of real positions, each drawn by the
// game's own board) and the complete rules, per game. The server sends the page's parts; the
// diagrams' positions live in the game's package.

import { ApiError, getJSON } from "../lib/api.js";
import { h, replace } from "../dom.js";
import { renderMarkdown } from "../lib/markdown.js";
import { GAMES, boardModule, failure, loading, page, seatName, titleOf } from "../lib/shared.js";

export function howToPage(game) {
  const article = h("article", { class: "panel rules howto" }, loading());
  page("howto", article);
  document.title = `How to play · ${titleOf(game)} · gamehall`;
  Promise.all([getJSON(`/api/howto/${encodeURIComponent(game)}`), boardModule(game)])
    .then(([data, kit]) => {
      const labels = (GAMES[game]?.seats || []).map(seatName);
      const parts = data.parts.map((part) => {
        if (part.kind === "text") return renderMarkdown(part.markdown);
        const board = new kit.Board({ mode: "diagram" });
        board.update({
          view: part.diagram.view,
          legal: [],
          canMove: false,
          last: part.diagram.last,
          key: part.diagram.position,
          perspective: 0,
          seatLabels: labels,
        });
        return h(
          "figure",
          { class: "diagram", "data-position": part.diagram.position },
          board.element,
          board.extras || null,
          part.diagram.caption ? h("figcaption", {}, part.diagram.caption) : null,
        );
      });
      replace(
        article,
        h("h1", {}, `How to play ${data.title}`),
        h("p", { class: "lead" }, data.summary),
        data.duration ? h("p", { class: "game-duration" }, h("strong", {}, "How long: "), data.duration) : null,
        parts,
        h(
          "p",
          { class: "howto-links" },
          h("a", { class: "button primary", href: "/" }, `Play ${data.title}`),
          data.rules ? h("a", { class: "button", href: `/rules/${game}` }, "The complete rules") : null,
        ),
      );
    })
    .catch((error) => replace(article, failure(error)));
  return null;
}

export function rulesPage(game) {
  const article = h("article", { class: "panel rules" }, loading());
  page("rules", article);
  document.title = `Rules · ${titleOf(game)} · gamehall`;
  fetch(`/api/rules/${encodeURIComponent(game)}`, { headers: { Accept: "text/markdown, text/plain, application/json" } })
    .then(async (response) => {
      const type = response.headers.get("Content-Type") || "";
      const data = type.includes("json") ? await response.json() : await response.text();
      if (!response.ok) {
        const problem = data?.error || {};
        throw new ApiError(problem.code, problem.message || `No rules for ${game}.`, response.status);
      }
      const text = typeof data === "string" ? data : "";
      replace(
        article,
        renderMarkdown(text),
        h(
          "p",
          { class: "howto-links" },
          h("a", { class: "button primary", href: "/" }, "Play ", titleOf(game)),
          GAMES[game]?.how_to_play ? h("a", { class: "button", href: `/howto/${game}` }, "How to play") : null,
        ),
      );
    })
    .catch((error) => replace(article, failure(error)));
  return null;
}
