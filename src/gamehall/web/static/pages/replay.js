// The replay page: who played (bots tagged), then step through a stored game, move by move
// (buttons or arrow keys), each move told in words with its notation as a small label; download
// its record, and open its review once the game is over (where a player made a move: there is
// something to judge).

import { getJSON } from "../lib/api.js";
import { h, replace } from "../dom.js";
import { playerLink } from "../lib/hall.js";
import { boardModule, failure, loading, page, seatName, titleOf } from "../lib/shared.js";
import { computerName, notation, scrollWithin, sectionsOf } from "./review.js";

export function replayPage(id) {
  const body = h("div", { class: "replay-page" }, loading());
  page("replay", body);
  let onKey = null;
  const enc = encodeURIComponent(id);
  Promise.all([getJSON(`/api/games/${enc}/replay`), getJSON(`/api/games/${enc}`).catch(() => null)])
    .then(async ([data, game]) => {
      const actions = data.actions || []; // played items: {text, mover, ...parts}
      const states = data.states || [];
      const moverName = (item) => (item && item.mover >= 0 ? seatName(data.seats?.[item.mover]) : "");
      // states[k] is the view after k actions (states[0]: the start), when there is one more.
      const offset = states.length - actions.length;
      const first = offset >= 1 ? 0 : 1;
      const last = actions.length;
      const viewAt = (k) => states[Math.min(states.length - 1, Math.max(0, k - 1 + offset))];
      let step = last;
      const replayLabels = (data.seats || []).map(seatName);
      const kit = await boardModule(data.game);
      const board = new kit.Board({});
      const caption = h("p", { class: "replay-caption", role: "status", "aria-live": "polite" });
      const counter = h("span", { class: "replay-counter" });
      const list = h("ol", { class: "move-list replay-list" });
      const buttons = {
        first: h("button", { type: "button", "data-step": "first", "aria-label": "Start: the first position", onClick: () => go(first) }, "◀◀ Start"),
        back: h("button", { type: "button", "data-step": "back", "aria-label": "Step back", onClick: () => go(step - 1) }, "◀ Back"),
        forward: h("button", { type: "button", "data-step": "forward", "aria-label": "Step forward", onClick: () => go(step + 1) }, "Forward ▶"),
        end: h("button", { type: "button", "data-step": "last", "aria-label": "End: the last position", onClick: () => go(last) }, "End ▶▶"),
      };
      // The moves grouped by round or turn, as the review groups them.
      const sections = sectionsOf(kit, data, actions.map((_, index) => index + 1), game);
      let lastSection = null;
      actions.forEach((action, index) => {
        const mover = moverName(action);
        const section = sections[index];
        if (section && section.label !== lastSection) {
          lastSection = section.label;
          list.append(h("li", { class: "move-section", "data-section": section.label }, section.label));
        }
        list.append(
          h(
            "li",
            { class: mover ? "move" : "chance", value: index + 1, "data-step": index + 1 },
            h(
              "button",
              { type: "button", class: "step-link", onClick: () => go(index + 1) },
              h("span", { class: "num" }, `${index + 1}.`),
              action.words ? null : h("span", { class: "mover" }, mover || "chance"), // the words name the mover
              action.words ? h("span", { class: "words" }, action.words, notation(action.words, action.text)) : kit.describeAction ? kit.describeAction(action, replayLabels) : h("code", {}, action.text),
            ),
          ),
        );
      });
      function go(k) {
        step = Math.max(first, Math.min(last, k));
        const view = viewAt(step);
        const action = step > 0 ? actions[step - 1] : null;
        if (board && view) {
          board.update({ view, legal: [], canMove: false, last: action, key: step, perspective: 0, seatLabels: replayLabels, history: actions.slice(0, step) });
        }
        counter.textContent = `Move ${step} / ${last}`;
        const mover = moverName(action);
        if (!action) caption.textContent = "The start";
        else if (action.words) replace(caption, action.words, notation(action.words, action.text));
        else caption.textContent = `${mover}${mover ? ": " : ""}${action.text}`;
        buttons.first.disabled = buttons.back.disabled = step <= first;
        buttons.forward.disabled = buttons.end.disabled = step >= last;
        for (const item of list.children) item.classList.toggle("current", Number(item.dataset.step) === step);
        scrollWithin(list, list.querySelector(".current"));
      }
      onKey = (event) => {
        if (event.target.closest("input, textarea, select")) return;
        const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: first, End: last };
        if (event.key in moves) {
          event.preventDefault();
          go(moves[event.key]);
        }
      };
      document.addEventListener("keydown", onKey);
      document.title = `Replay · ${titleOf(data.game)} · gamehall`;
      replace(
        body,
        h(
          "header",
          { class: "game-head" },
          h("h1", {}, `Replay: ${titleOf(data.game)}`),
          players(game, replayLabels),
          h(
            "nav",
            { class: "game-links" },
            h("a", { href: `/game/${enc}` }, "Open the game"),
            game?.over && actions.some((item) => item.mover >= 0) ? h("a", { class: "button review-link", href: `/review/${enc}` }, "Review this game") : null,
            h("a", { class: "button download", href: `/api/games/${encodeURIComponent(id)}/record`, download: `${id}.txt` }, "Download record"),
          ),
        ),
        h("div", { class: "replay-bar" }, buttons.first, buttons.back, counter, buttons.forward, buttons.end),
        caption,
        h(
          "div",
          { class: "game-grid" },
          h("div", { class: "board-col" }, board.element, board.extras || null),
          h("aside", { class: "side-col" }, h("section", { class: "panel moves" }, h("h2", {}, "Moves"), list), h("p", { class: "muted hint" }, "Keys: ← → step, Home / End jump.")),
        ),
      );
      go(step);
    })
    .catch((error) => replace(body, failure(error)));
  return () => onKey && document.removeEventListener("keydown", onKey);
}

/** Who played: each seat's player (a bot tagged, the computer with its level), by seat. */
function players(game, labels) {
  const seats = game?.seats || [];
  if (!seats.length) return null;
  const who = (seat) => computerName(seat) || (seat.player ? playerLink(seat.player, { bot: seat.bot }) : h("span", { class: "muted" }, "nobody"));
  return h(
    "p",
    { class: "replay-players" },
    seats.map((seat, index) => [index ? " vs " : "", who(seat), h("small", { class: "muted" }, ` (${labels[index] || seatName(seat)})`)]),
  );
}
