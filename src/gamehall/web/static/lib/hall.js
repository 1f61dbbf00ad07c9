// The hall's shared parts: who you are (GET /api/me), your name and account, and the
// lobby's live connection (WebSocket /ws/lobby). Pages get the app's helpers as `ctx`
// ({ page, failure, loading, notify, navigate, titleOf, GAMES }), so this module stands alone.

import { api, getJSON, postJSON } from "./api.js";
import { h, replace } from "../dom.js";

let mePromise = null;
const listeners = new Set();

/** GET /api/me, once per page load (again after a change). */
export function me() {
  if (!mePromise) mePromise = getJSON("/api/me").catch((e) => ((mePromise = null), Promise.reject(e)));
  return mePromise;
}

function changed(answer) {
  mePromise = Promise.resolve(answer);
  for (const listener of listeners) listener(answer);
  return answer;
}

/** Call `listener(me)` now and whenever the name or account changes; returns an unsubscribe. */
export function onMe(listener) {
  listeners.add(listener);
  me().then(listener, () => {});
  return () => listeners.delete(listener);
}

export const rename = (name) => api("PUT", "/api/me/name", { name }).then(changed);
export const signUp = (username, password) => postJSON("/api/account/signup", { username, password }).then(changed);
export const signIn = (username, password) => postJSON("/api/account/login", { username, password }).then(changed);
export const signOut = (everywhere = false) => postJSON("/api/account/logout", { everywhere }).then(changed);

/** A player's name, linked to their profile; ``{ bot: true }`` tags a bot account "BOT" (as
 * lichess does: a program plays it). */
export function playerLink(name, { bot = false, ...attrs } = {}) {
  if (!name) return h("span", { class: "muted" }, "—");
  const link = h("a", { href: `/player/${encodeURIComponent(name)}`, class: "player-link", ...attrs }, name);
  return bot ? h("span", { class: "player-bot" }, botTag(), link) : link;
}

/** The "BOT" tag of a bot account (its title says what it means). */
export function botTag() {
  return h("abbr", { class: "bot-tag", title: "A bot: a program plays this account" }, "BOT");
}

const ASKED = "gh_name_asked";

/** Ask a new player once for the name to play under (a random one stands until then). */
export function askNameOnce(notify) {
  let asked = false;
  try {
    asked = localStorage.getItem(ASKED) === "1";
  } catch {}
  if (asked) return;
  me().then((who) => {
    if (who.account) return;
    const done = () => {
      try {
        localStorage.setItem(ASKED, "1");
      } catch {}
      box.remove();
    };
    const input = h("input", { name: "name", value: who.name, maxlength: 20, autocomplete: "nickname", "aria-label": "Your name" });
    const save = h("button", { type: "submit", class: "primary" }, "Play as this name");
    const keep = h("button", { type: "button", class: "ghost" }, "Keep ", who.name);
    const form = h("form", { class: "row" }, input, save, keep);
    const box = h("div", { class: "name-prompt", role: "dialog", "aria-label": "Your name" }, h("p", {}, "Welcome! Others see you by a name: choose one, or keep the one you were given."), form);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      save.disabled = true;
      try {
        await rename(input.value);
        done();
      } catch (error) {
        notify(error.message);
        save.disabled = false;
      }
    });
    keep.addEventListener("click", done);
    const main = document.querySelector("main");
    if (main) main.before(box);
    const unsubscribe = onMe((now) => {
      if (now.account || now.name !== who.name) {
        done(); // signed in, or named elsewhere: asked enough
        unsubscribe();
      }
    });
  }, () => {});
}

/** A panel to choose your name, sign out, and the way to the sign-up and sign-in pages. */
export function accountPanel(ctx) {
  const body = h("div", { class: "account-body" }, ctx.loading());
  const panel = h("section", { class: "panel account" }, h("h2", {}, "You"), body);
  const guard = (button, work) => async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      await work();
    } catch (error) {
      ctx.notify(error.message);
    } finally {
      button.disabled = false;
    }
  };
  const render = (who) => {
    if (who.account) {
      const out = h("button", { type: "button" }, "Sign out");
      const everywhere = h("button", { type: "button", class: "ghost" }, "Sign out everywhere");
      out.addEventListener("click", guard(out, () => signOut(false)));
      everywhere.addEventListener("click", guard(everywhere, () => signOut(true)));
      replace(
        body,
        h("p", {}, "Signed in as ", playerLink(who.name, { "data-me": who.name }), `. ${who.sessions} session${who.sessions === 1 ? "" : "s"} open.`),
        h("div", { class: "row" }, out, everywhere),
      );
      return;
    }
    const nameInput = h("input", { name: "name", value: who.name, maxlength: 20, autocomplete: "nickname", "aria-label": "Your name" });
    const save = h("button", { type: "submit" }, "Change name");
    const nameForm = h("form", { class: "row name-form" }, nameInput, save);
    nameForm.addEventListener("submit", guard(save, () => rename(nameInput.value)));
    const back = encodeURIComponent(location.pathname);
    const accountLinks = h(
      "div",
      { class: "row account-links" },
      h("a", { class: "button primary", href: `/signup?next=${back}` }, "Sign up"),
      h("a", { class: "button", href: `/signin?next=${back}` }, "Sign in"),
    );
    replace(
      body,
      h("p", {}, "You play as ", playerLink(who.name, { "data-me": who.name }), " (a guest). Casual games need no account; rated games do."),
      nameForm,
      h("p", { class: "muted small" }, "Sign up or in: your username becomes your name, and the games you played here come along."),
      accountLinks,
    );
  };
  const unsubscribe = onMe(render);
  return { element: panel, close: unsubscribe };
}

const PING_EVERY_MS = 20000;

/** The lobby's live connection: handlers onLobby(message), onPaired(message), onError(message),
 * onStatus(status). Reconnects by itself (0.5 s doubling to 15 s). */
export class LobbySocket {
  constructor(handlers) {
    this.handlers = handlers;
    this.closed = false;
    this.attempt = 0;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
    this.socket = socket;
    this.handlers.onStatus?.(this.attempt ? "reconnecting" : "connecting");
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.send({ type: "hello" });
      this.handlers.onStatus?.("live");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "lobby") this.handlers.onLobby?.(message);
      else if (message.type === "paired") this.handlers.onPaired?.(message);
      else if (message.type === "challenges") this.handlers.onChallenges?.(message);
      else if (message.type === "error") this.handlers.onError?.(message);
    });
    socket.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.closed || socket !== this.socket) return;
      this.handlers.onStatus?.("reconnecting");
      const wait = Math.min(15000, 500 * 2 ** this.attempt++);
      this.retry = setTimeout(() => this.connect(), wait);
    });
  }

  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Connect again (after signing in or out: the lobby knows the browser by its cookies). */
  reconnect() {
    this.attempt = 0;
    this.socket?.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pinger);
    this.socket?.close();
  }
}
