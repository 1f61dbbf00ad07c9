// The site's header: Play, Lobby, Puzzles, Analysis, Leaderboard and How to play (a menu each
// where there is a game to choose), small counted badges (your move, and what other pages add
// with headerBadge), and Sign in or your name (a menu: your profile, sign out). On a phone the
// links fold into one Menu button, so the header stays one line.
//
//   buildHeader(nav)                        fills the header's <nav> (app.js, once)
//   headerBadge(key, { count, href, label }) shows or updates the badge `key` (hidden at 0)
//   updateHeader()                          after each route: menus closed, the current link
//                                           marked, the sign-in link's way back, your move

import { getJSON } from "./api.js";
import { h, replace } from "../dom.js";
import { onMe, signOut } from "./hall.js";
import { GAMES, notify } from "./shared.js";

const TURNS_EVERY_MS = 20000;
const badges = new Map(); // key -> the badge's link
let badgeBox = null;
let nav = null;
let signedIn = null;

/** Show (count > 0) or hide the header's badge `key`: a link to `href` reading `label` and the
 * count. Any page may call it, before or after the header is built. */
export function headerBadge(key, { count, href, label }) {
  let badge = badges.get(key);
  if (!badge) {
    badge = h("a", { class: "nav-badge", "data-badge": key }, h("span", { class: "badge-label" }), h("span", { class: "badge-count" }));
    badges.set(key, badge);
    badgeBox?.append(badge);
  }
  const number = Math.max(0, Number(count) || 0);
  badge.href = href;
  badge.hidden = number === 0;
  badge.dataset.count = String(number);
  badge.querySelector(".badge-label").textContent = label;
  badge.querySelector(".badge-count").textContent = String(number);
  badge.setAttribute("aria-label", `${label}: ${number}`);
  badge.title = `${label}: ${number}`;
  return badge;
}

/** A link, or a menu of links when there are several (one per game, say). */
function menu(name, title, entries) {
  if (!entries.length) return null;
  if (entries.length === 1 && !entries[0].children) {
    return h("a", { href: entries[0].href, "data-nav": name }, title);
  }
  return h(
    "details",
    { class: "nav-menu", "data-menu": name },
    h("summary", {}, title),
    h(
      "div",
      { class: "nav-menu-list" },
      entries.map((entry) =>
        entry.children
          ? h("div", { class: "nav-menu-group" }, h("span", { class: "nav-menu-title" }, entry.label), entry.children.map((child) => h("a", { href: child.href }, child.label)))
          : h("a", { href: entry.href }, entry.label),
      ),
    ),
  );
}

const here = () => location.pathname + location.search;

/** Where the sign-in pages send you back to: this page, unless it is one of them. */
function back() {
  return /^\/sign(in|up)$/.test(location.pathname) ? new URLSearchParams(location.search).get("next") || "/" : here();
}

/** Fill the header's <nav> (once). */
export function buildHeader(element) {
  nav = element;
  const games = Object.values(GAMES);
  const toggle = h(
    "button",
    { type: "button", class: "nav-toggle", "aria-expanded": "false", "aria-controls": "nav-links", "aria-label": "Menu" },
    h("span", { "aria-hidden": "true" }, "☰"),
    h("span", { class: "nav-toggle-text", "aria-hidden": "true" }, "Menu"),
  );
  const links = h(
    "div",
    { class: "nav-links", id: "nav-links" },
    h("a", { href: "/", "data-nav": "play" }, "Play"),
    h("a", { href: "/lobby", class: "nav-lobby", "data-nav": "lobby" }, "Lobby"),
    menu("puzzles", "Puzzles", games.filter((g) => g.puzzles).map((g) => ({ href: `/puzzles/${g.name}`, label: `${g.title} puzzles` }))),
    menu("analysis", "Analysis", games.filter((g) => g.puzzles).map((g) => ({ href: `/analysis/${g.name}`, label: `${g.title} analysis board` }))),
    games.length ? h("a", { href: "/leaderboard", "data-nav": "leaderboard" }, "Leaderboard") : null,
    menu(
      "howto",
      "How to play",
      games
        .filter((g) => g.how_to_play || g.rules)
        .map((g) => ({
          label: g.title,
          children: [g.how_to_play ? { href: `/howto/${g.name}`, label: "How to play" } : null, g.rules ? { href: `/rules/${g.name}`, label: "Rules" } : null].filter(Boolean),
        })),
    ),
  );
  badgeBox = h("div", { class: "nav-badges" }, [...badges.values()]);
  const account = h("div", { class: "nav-account" });
  replace(nav, toggle, links, badgeBox, account);
  nav.setAttribute("aria-label", "Site");

  toggle.addEventListener("click", () => setOpen(!nav.classList.contains("open")));
  // One menu open at a time; a click elsewhere or Escape closes them.
  nav.addEventListener("toggle", (event) => {
    if (event.target.open) for (const other of document.querySelectorAll(".site-head details[open]")) if (other !== event.target) other.open = false;
  }, true);
  document.addEventListener("click", (event) => {
    for (const open of document.querySelectorAll(".site-head details[open]")) if (!open.contains(event.target)) open.open = false;
    if (nav.classList.contains("open") && !nav.contains(event.target)) setOpen(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const open = document.querySelector(".site-head details[open]");
    if (open) {
      open.open = false;
      open.querySelector("summary").focus();
    } else if (nav.classList.contains("open")) {
      setOpen(false);
      toggle.focus();
    }
  });

  onMe((who) => {
    const changed = signedIn !== null && signedIn !== who.account;
    signedIn = who.account;
    renderAccount(account, who);
    if (changed || badges.get("turns") === undefined) refreshTurns();
  });
  setInterval(() => document.visibilityState === "visible" && refreshTurns(), TURNS_EVERY_MS);
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && refreshTurns());
  updateHeader(false);
}

function setOpen(open) {
  nav.classList.toggle("open", open);
  nav.querySelector(".nav-toggle").setAttribute("aria-expanded", String(open));
}

function renderAccount(account, who) {
  if (!who.account) {
    replace(account, h("a", { class: "nav-signin", href: `/signin?next=${encodeURIComponent(back())}` }, "Sign in"));
    return;
  }
  const out = h("button", { type: "button", class: "nav-signout" }, "Sign out");
  out.addEventListener("click", async () => {
    out.disabled = true;
    try {
      await signOut(false);
      notify("You are signed out.", "info");
    } catch (error) {
      notify(error.message);
    } finally {
      out.disabled = false;
    }
  });
  replace(
    account,
    h(
      "details",
      { class: "nav-menu nav-user", "data-menu": "account" },
      h("summary", { class: "nav-me", title: `Signed in as ${who.name}` }, who.name),
      h(
        "div",
        { class: "nav-menu-list" },
        h("a", { href: `/player/${encodeURIComponent(who.name)}` }, "Your profile"),
        h("a", { href: "/your-move" }, "Games where it is your move"),
        out,
      ),
    ),
  );
}

let asking = null;
/** Ask the server where it is your move, and show the count. */
export function refreshTurns() {
  if (asking) return asking;
  asking = getJSON("/api/me/turns")
    .then((answer) => headerBadge("turns", { count: answer.count, href: "/your-move", label: "Your move" }))
    .catch(() => {})
    .finally(() => (asking = null));
  return asking;
}

/** After each route: menus closed, the current page's link marked, the sign-in link leading
 * back here, the your-move count asked again. */
export function updateHeader(ask = true) {
  if (!nav) return;
  setOpen(false);
  for (const open of nav.querySelectorAll("details[open]")) open.open = false;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  for (const link of nav.querySelectorAll(".nav-links a, .nav-badge")) {
    const target = new URL(link.href, location.href).pathname;
    const current = target === "/" ? path === "/" : path === target || path.startsWith(`${target}/`);
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  for (const summary of nav.querySelectorAll(".nav-links summary")) {
    summary.classList.toggle("current", !!summary.parentElement.querySelector('[aria-current="page"]'));
  }
  const signin = nav.querySelector(".nav-signin");
  if (signin) signin.href = `/signin?next=${encodeURIComponent(back())}`;
  if (ask) refreshTurns();
}
