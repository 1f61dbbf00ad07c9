// What every page of the front end shares: the games the server offers (GET /api/meta), their
// board modules, page frames, messages to the user and names. Nothing here names a game.

import { meta } from "./api.js";
import { capitalize, h, replace } from "../dom.js";
import { GenericBoard } from "./generic.js";

export const app = document.getElementById("app");
const toasts = document.getElementById("toasts");

/** What the server says of each game (GET /api/meta): titles, seats, options, board modules. */
export const GAMES = {};
try {
  for (const game of (await meta()).games || []) GAMES[game.name] = game;
} catch {
  // The pages say so themselves when they need the server.
}

export const titleOf = (name) => GAMES[name]?.title || name;

const boardModules = {};

/** The game's own board module (served from its package), or the generic one. */
export async function boardModule(name) {
  const url = GAMES[name]?.board_module;
  if (!url) return { Board: GenericBoard };
  const style = GAMES[name]?.board_style;
  if (style && !document.querySelector(`link[data-board="${name}"]`)) {
    document.head.append(h("link", { rel: "stylesheet", href: style, "data-board": name }));
  }
  if (!boardModules[name]) boardModules[name] = import(url).catch((error) => fallback(name, url, error));
  return boardModules[name];
}

/** A board module that does not load (a syntax error, a failed import, a 404): said on the
 * console with its URL and the error, and on the page by the generic board that stands in. */
function fallback(name, url, error) {
  console.error(`The board module of ${titleOf(name)} (${url}) could not be loaded:`, error);
  const note = `The board for ${titleOf(name)} could not be loaded; the generic board is shown.`;
  class FallbackBoard extends GenericBoard {
    update(data) {
      super.update(data);
      this.element.prepend(h("p", { class: "muted board-fallback", role: "note" }, note));
    }
  }
  return { Board: FallbackBoard };
}

// --- navigation (the router in app.js registers itself) ---

let router = () => {};

export function setRouter(route) {
  router = route;
}

export function navigate(path, { replaceState = false } = {}) {
  history[replaceState ? "replaceState" : "pushState"]({}, "", path);
  router();
}

// --- page frames ---

/** Show a message to the user for a while (errors stay longer). */
export function notify(message, kind = "error") {
  const toast = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  const close = () => toast.remove();
  toast.append(h("button", { class: "toast-close", "aria-label": "Dismiss", onClick: close }, "×"));
  toasts.append(toast);
  setTimeout(close, kind === "error" ? 8000 : 4000);
}

export function page(name, ...children) {
  document.body.dataset.page = name;
  replace(app, ...children);
}

export function loading(text = "Loading…") {
  return h("p", { class: "loading" }, text);
}

export function failure(error) {
  return h(
    "div",
    { class: "panel failure", role: "alert" },
    h("h2", {}, { 404: "Not found", 409: "This game cannot be opened here" }[error.status] || "Something went wrong"),
    h("p", {}, error.message || String(error)),
    h("p", {}, h("a", { href: "/" }, "Back to the start page")),
  );
}

// --- names ---

export function seatName(name) {
  return capitalize(name || "");
}

export function resultText(result, seats, you = []) {
  if (!result) return "";
  if (typeof result === "string") return result;
  const winner = result.winner ?? null;
  if (result.result === "*") return "No result";
  if (winner === null || winner === undefined) return "Drawn";
  const name = seatName(result.winner_name || seats?.[winner]?.name || `seat ${winner}`);
  return you.length === 1 ? (you[0] === winner ? `You win (${name})` : `You lose — ${name} wins`) : `${name} wins`;
}

export function scoreText(module, value) {
  return module?.scoreText ? module.scoreText(value) : String(value);
}

export function modeName(mode) {
  return { computer: "vs computer", hotseat: "hot-seat", online: "online" }[mode] || mode || "";
}

/** A stored preference of this browser (localStorage), with a default. */
export function preference(name, fallback) {
  try {
    const value = localStorage.getItem(`gh_pref_${name}`);
    return value === null ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
}

export function setPreference(name, value) {
  try {
    localStorage.setItem(`gh_pref_${name}`, JSON.stringify(value));
  } catch {}
}
