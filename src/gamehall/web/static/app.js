// gamehall's browser front end: client-side routes over one index.html.
//
//   /               home: start a game, list your games
//   /game/{id}      play or watch (live over WebSocket)
//   /replay/{id}    step through a game
//   /rules/{game}   the rules the engine plays

import { ApiError, absolute, api, getJSON, meta, postJSON } from "./api.js";
import { ago, append, capitalize, h, replace } from "./dom.js";
import { LiveGame } from "./live.js";
import { renderMarkdown } from "./markdown.js";
import { GenericBoard } from "./generic.js";
import { GameAssist } from "./assist.js";
import { reviewPage } from "./review.js";
import { puzzlesPage } from "./puzzles.js";

const app = document.getElementById("app");
const toasts = document.getElementById("toasts");
// What the server says of each game (GET /api/meta): titles, seats, options, board modules.
const GAMES = {};
try {
  for (const game of (await meta()).games || []) GAMES[game.name] = game;
} catch {
  // The pages say so themselves when they need the server.
}
const titleOf = (name) => GAMES[name]?.title || name;
const nav = document.querySelector(".site-head nav");
if (nav) {
  for (const game of Object.values(GAMES)) {
    if (game.rules) nav.append(h("a", { href: `/rules/${game.name}` }, `${game.title} rules`));
  }
  for (const game of Object.values(GAMES)) {
    if (game.puzzles) nav.append(h("a", { href: `/puzzles/${game.name}` }, `${game.title} puzzles`));
  }
}
const boardModules = {};

/** The game's own board module (served from its package), or the generic one. */
async function boardModule(name) {
  const url = GAMES[name]?.board_module;
  if (!url) return { Board: GenericBoard };
  const style = GAMES[name]?.board_style;
  if (style && !document.querySelector(`link[data-board="${name}"]`)) {
    document.head.append(h("link", { rel: "stylesheet", href: style, "data-board": name }));
  }
  if (!boardModules[name]) boardModules[name] = import(url).catch(() => ({ Board: GenericBoard }));
  return boardModules[name];
}
let cleanup = null;

// --- routing -------------------------------------------------------------------------------------

export function navigate(path, { replaceState = false } = {}) {
  history[replaceState ? "replaceState" : "pushState"]({}, "", path);
  route();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href]");
  if (!link || link.target || link.hasAttribute("download") || event.defaultPrevented) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || /^\/(api|static|ws)\//.test(url.pathname)) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});
window.addEventListener("popstate", route);

function route() {
  if (cleanup) cleanup();
  cleanup = null;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let match;
  document.body.dataset.page = "";
  if (path === "/" || path === "/index.html") cleanup = homePage();
  else if ((match = path.match(/^\/game\/([^/]+)$/))) cleanup = gamePage(decodeURIComponent(match[1]));
  else if ((match = path.match(/^\/replay\/([^/]+)$/))) cleanup = replayPage(decodeURIComponent(match[1]));
  else if ((match = path.match(/^\/rules\/([^/]+)$/))) cleanup = rulesPage(decodeURIComponent(match[1]));
  else if ((match = path.match(/^\/review\/([^/]+)$/))) cleanup = reviewPage(decodeURIComponent(match[1]), pageKit());
  else if ((match = path.match(/^\/puzzles\/([^/]+)$/))) cleanup = puzzlesPage(decodeURIComponent(match[1]), pageKit());
  else notFound();
  window.scrollTo(0, 0);
}

// --- shared bits ---------------------------------------------------------------------------------

/** What the review and puzzle pages (review.js, puzzles.js) take from the app. */
function pageKit() {
  return { page, loading, failure, notify, navigate, boardModule, titleOf, seatName };
}

/** Show a message to the user for a while (errors stay longer). */
export function notify(message, kind = "error") {
  const toast = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  const close = () => toast.remove();
  toast.append(h("button", { class: "toast-close", "aria-label": "Dismiss", onClick: close }, "×"));
  toasts.append(toast);
  setTimeout(close, kind === "error" ? 8000 : 4000);
}

function page(name, ...children) {
  document.body.dataset.page = name;
  replace(app, ...children);
}

function loading(text = "Loading…") {
  return h("p", { class: "loading" }, text);
}

function failure(error) {
  return h(
    "div",
    { class: "panel failure", role: "alert" },
    h("h2", {}, { 404: "Not found", 409: "This game cannot be opened here" }[error.status] || "Something went wrong"),
    h("p", {}, error.message || String(error)),
    h("p", {}, h("a", { href: "/" }, "Back to the start page")),
  );
}

function notFound() {
  page("missing", failure({ status: 404, message: `There is no page at ${location.pathname}.` }));
}

function seatName(name) {
  return capitalize(name || "");
}

function resultText(result, seats, you = []) {
  if (!result) return "";
  if (typeof result === "string") return result;
  const winner = result.winner ?? null;
  let head;
  if (winner === null || winner === undefined) head = "Drawn";
  else {
    const name = seatName(result.winner_name || seats?.[winner]?.name || `seat ${winner}`);
    head = you.length === 1 ? (you[0] === winner ? `You win (${name})` : `You lose — ${name} wins`) : `${name} wins`;
  }
  return head;
}

function scoreText(module, value) {
  return module?.scoreText ? module.scoreText(value) : String(value);
}

function modeName(mode) {
  return { computer: "vs computer", hotseat: "hot-seat", online: "online" }[mode] || mode || "";
}

// --- home ----------------------------------------------------------------------------------------

function homePage() {
  const forms = h("div", { class: "new-games" }, loading());
  const mine = h("div", { class: "my-games" }, loading());
  page(
    "home",
    h(
      "section",
      { class: "hero" },
      h("h1", {}, `Play ${Object.values(GAMES).map((g) => g.title).join(" and ") || "games"}`),
      h("p", {}, "Against the computer, with a friend on this screen, or online with a link."),
    ),
    forms,
    h("section", { class: "panel" }, h("h2", {}, "Your games"), mine),
  );
  meta()
    .then((info) => replace(forms, info.games.map((game) => newGameForm(game, info.levels || []))))
    .catch((error) => replace(forms, failure(error)));
  getJSON("/api/games")
    .then((data) => replace(mine, gameLists(data.games || [])))
    .catch((error) => replace(mine, failure(error)));
  return null;
}

function newGameForm(game, levels) {
  const id = (suffix) => `new-${game.name}-${suffix}`;
  const seats = game.seats || [];
  const modes = [
    ["computer", "Against the computer"],
    ["hotseat", "Hot-seat (one screen)"],
    ["online", "Online with a friend"],
  ];
  const seatSelect = h(
    "select",
    { name: "seat", id: id("seat") },
    seats.map((name, index) => h("option", { value: index }, seatName(typeof name === "string" ? name : name.name))),
  );
  const levelSelect = h(
    "select",
    { name: "level", id: id("level") },
    levels.map((level) => h("option", { value: level, selected: level === "easy" }, capitalize(level))),
  );
  const seatRow = h("div", { class: "field seat-field" }, h("label", { for: id("seat") }, "Play as"), seatSelect);
  const levelRow = h("div", { class: "field level-field" }, h("label", { for: id("level") }, "Computer level"), levelSelect);
  const optionRows = offered(game).map((option) => optionField(option, id));
  const submit = h("button", { type: "submit", class: "primary" }, "Start game");
  const form = h(
    "form",
    { class: "panel new-game", "data-game": game.name },
    h(
      "header",
      {},
      h("h2", {}, game.title || game.name),
      h("a", { href: `/rules/${game.name}`, class: "rules-link" }, "Rules"),
    ),
    h(
      "fieldset",
      { class: "modes" },
      h("legend", {}, "Mode"),
      modes.map(([value, label], index) =>
        h(
          "label",
          { class: "mode" },
          h("input", { type: "radio", name: "mode", value, checked: index === 0 }),
          h("span", {}, label),
        ),
      ),
    ),
    h("div", { class: "fields" }, seatRow, levelRow),
    optionRows.length ? h("details", { class: "variants" }, h("summary", {}, "Variants"), optionRows) : null,
    submit,
  );
  const sync = () => {
    const mode = form.elements.mode.value;
    levelRow.hidden = mode !== "computer";
    seatRow.hidden = mode === "hotseat";
  };
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const mode = form.elements.mode.value;
    const body = { game: game.name, mode, options: readOptions(form, game) };
    if (mode !== "hotseat") body.seat = Number(seatSelect.value);
    if (mode === "computer") body.level = levelSelect.value;
    submit.disabled = true;
    try {
      const created = await postJSON("/api/games", body);
      openCreated(created);
    } catch (error) {
      notify(error.message);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function openCreated(created) {
  navigate(`/game/${encodeURIComponent(created.id)}`);
}

// Option forms come from the option descriptions of /api/meta alone, by kind: bool a checkbox,
// int a number within its bounds, str a text field, choice a menu of its choices, data a text
// area; path options name files on the server and are never offered on the web.
const OFFERED_KINDS = new Set(["bool", "int", "str", "choice", "data"]);

function offered(game) {
  return (game.options || []).filter((option) => OFFERED_KINDS.has(option.kind));
}

function optionField(option, id) {
  const kind = option.kind;
  const name = `opt-${option.name}`;
  const label = option.name.replaceAll("_", " ");
  const common = { name, id: id(name) };
  let input;
  if (kind === "choice") {
    input = h(
      "select",
      common,
      (option.choices || []).map((choice) => h("option", { value: choice, selected: choice === option.default }, choice)),
    );
  } else if (kind === "bool") {
    input = h("input", { ...common, type: "checkbox", checked: Boolean(option.default) });
  } else if (kind === "int") {
    input = h("input", {
      ...common,
      type: "number",
      value: option.default,
      min: option.minimum ?? null,
      max: option.maximum ?? null,
      step: 1,
      inputmode: "numeric",
    });
  } else if (kind === "data") {
    input = h("textarea", { ...common, rows: 3, maxlength: option.max_length ?? null, spellcheck: false }, option.default ?? "");
  } else {
    input = h("input", { ...common, type: "text", value: option.default ?? "", maxlength: option.max_length ?? null });
  }
  return h(
    "div",
    { class: `field option option-${kind}` },
    h("label", { for: id(name) }, label),
    input,
    option.help ? h("small", { class: "help" }, option.help) : null,
  );
}

/** The options that differ from their defaults, typed as their kinds say. */
function readOptions(form, game) {
  const options = {};
  for (const option of offered(game)) {
    const input = form.elements[`opt-${option.name}`];
    if (!input) continue;
    let value;
    if (option.kind === "bool") value = input.checked;
    else if (option.kind === "int") {
      if (input.value === "") continue;
      value = Number(input.value);
    } else value = input.value;
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

function gameLists(games) {
  if (!games.length) return h("p", { class: "muted" }, "No games yet: start one above.");
  const ongoing = games.filter((g) => g.status !== "finished");
  const finished = games.filter((g) => g.status === "finished");
  const list = (items, empty) =>
    items.length ? h("ul", { class: "game-list" }, items.map(gameItem)) : h("p", { class: "muted" }, empty);
  return [
    h("h3", {}, `Ongoing (${ongoing.length})`),
    list(ongoing, "None."),
    h("h3", {}, `Finished (${finished.length})`),
    list(finished, "None."),
  ];
}

function gameItem(game) {
  const seats = (game.seats || [])
    .map((seat) => {
      const who = seat.kind === "computer" ? `computer${seat.level ? `, ${seat.level}` : ""}` : "human";
      return `${seatName(seat.name)} (${who})`;
    })
    .join(" vs ");
  const status =
    game.status === "finished" ? resultText(game.result, game.seats, game.you || []) || "finished" : `${game.version} action${game.version === 1 ? "" : "s"} so far`;
  return h(
    "li",
    { class: `game-item status-${game.status}`, "data-id": game.id },
    h("a", { href: `/game/${encodeURIComponent(game.id)}`, class: "game-link" }, h("strong", {}, titleOf(game.game)), ` · ${modeName(game.mode)}`),
    h("span", { class: "game-seats" }, seats),
    h("span", { class: "game-status" }, status),
    h("span", { class: "game-time muted" }, ago(game.updated || game.created)),
    h("a", { href: `/replay/${encodeURIComponent(game.id)}`, class: "replay-link" }, "Replay"),
  );
}

// --- the game page -------------------------------------------------------------------------------

function gamePage(id) {
  const params = new URLSearchParams(location.search);
  const token = params.get("seat");
  let state = null;
  let board = null;
  let boardKit = null;
  let live = null;
  let connection = "connecting";
  let pending = false;
  let closed = false;

  const title = h("h1", {}, "Game");
  const badge = h("span", { class: "conn", "data-status": "connecting", role: "status" }, "Connecting…");
  const inviteBox = h("div", { class: "invite-box", hidden: true });
  const seatsBox = h("div", { class: "seats" });
  const banner = h("div", { class: "turn-banner", role: "status", "aria-live": "polite" });
  const boardBox = h("div", { class: "board-box" }, loading());
  const controlsBox = h("div", { class: "controls-box" });
  const overBox = h("div", { class: "over-box" });
  const legalBox = h("details", { class: "panel legal", open: true });
  const movesBox = h("section", { class: "panel moves" });
  const links = h("nav", { class: "game-links" });
  const assist = new GameAssist({ id, notify, navigate });

  const root = h("div", { class: "game-page", "data-game-id": id });
  page(
    "game",
    append(
      root,
      [
      h("header", { class: "game-head" }, title, badge, links),
      inviteBox,
      seatsBox,
      banner,
      assist.indicator,
      h(
        "div",
        { class: "game-grid" },
        h("div", { class: "board-col" }, boardBox, controlsBox),
        h("aside", { class: "side-col" }, overBox, assist.panel, legalBox, movesBox),
      ),
      ],
    ),
  );

  const you = () => (state ? state.you || [] : []);
  const canMove = () =>
    Boolean(state) && !state.over && state.to_move !== null && state.to_move !== undefined && you().includes(state.to_move) && !pending;

  /** Send the move whose text is `action` (one of the server's legal items). */
  function play(action) {
    if (!state || !canMove()) return;
    if (!state.legal.some((item) => item.text === action)) {
      notify(`${action} is not a legal move here.`);
      return;
    }
    if (!live || !live.move(action)) {
      notify("Not connected: the move was not sent. Reconnecting…");
      live?.reconnectNow();
      return;
    }
    pending = true;
    render();
  }

  function setStatus(status, detail) {
    connection = status;
    badge.dataset.status = status;
    badge.textContent = {
      connecting: "Connecting…",
      live: "● Live",
      reconnecting: `Reconnecting${detail ? ` (${detail})` : "…"}`,
      closed: "Disconnected",
    }[status];
    if (state) renderSeats();
  }

  function onState(message) {
    if (state && message.version < state.version) return;
    const first = !state;
    state = message;
    pending = false;
    if (first) setup().then(render);
    render();
  }

  async function setup() {
    const name = state.game;
    title.textContent = titleOf(name);
    document.title = `${titleOf(name)} · gamehall`;
    replace(
      links,
      h("a", { href: `/replay/${encodeURIComponent(id)}` }, "Replay"),
      h("a", { href: `/rules/${name}` }, "Rules"),
    );
    boardKit = await boardModule(name);
    board = new boardKit.Board({ onMove: play });
    replace(boardBox, board.element);
    replace(controlsBox, board.controls, board.extras || null);
  }

  function seatLabel(seat) {
    const mine = you().includes(seat.index);
    return `${seatName(seat.name)}${mine && you().length === 1 ? " (you)" : ""}`;
  }

  function labels() {
    return (state.seats || []).map(seatLabel);
  }

  function renderSeats() {
    const view = state.view || {};
    const scores = view.scores || state.outcome?.scores || [];
    replace(
      seatsBox,
      (state.seats || []).map((seat) => {
        const mine = you().includes(seat.index);
        let presence;
        let presenceClass;
        if (seat.kind === "computer") {
          presence = `computer${seat.level ? ` · ${seat.level}` : ""}`;
          presenceClass = "computer";
        } else if (mine) {
          presence = connection === "live" ? "online" : "offline";
          presenceClass = connection === "live" ? "online" : "offline";
        } else {
          presence = seat.connected ? "online" : "offline";
          presenceClass = seat.connected ? "online" : "offline";
        }
        const toMove = !state.over && state.to_move === seat.index;
        return h(
          "div",
          { class: `seat seat-${seat.name}${toMove ? " to-move" : ""}${mine ? " mine" : ""}`, "data-seat": seat.index },
          h("span", { class: "seat-name" }, seatLabel(seat)),
          h("span", { class: "seat-score" }, scores[seat.index] !== undefined ? scoreText(boardKit, scores[seat.index]) : ""),
          h("span", { class: `presence presence-${presenceClass}`, "data-presence": presenceClass }, presence),
          toMove ? h("span", { class: "seat-turn" }, "to move") : h("span"),
        );
      }),
    );
  }

  function renderBanner() {
    const seats = state.seats || [];
    let text;
    let kind = "wait";
    if (state.over) {
      text = `Game over: ${resultText(state.outcome, seats, you())}`;
      kind = "over";
    } else if (state.to_move === null || state.to_move === undefined) {
      text = "Chance is deciding…";
    } else {
      const seat = seats[state.to_move] || { name: state.to_move_name };
      if (you().includes(state.to_move)) {
        text = you().length > 1 ? `${seatName(seat.name)} to move (hot-seat): your turn` : `Your turn (${seatName(seat.name)})`;
        kind = "mine";
        if (pending) text = "Sending your move…";
      } else if (seat.kind === "computer") text = `The computer (${seatName(seat.name)}) is thinking…`;
      else if (!you().length) text = `You are watching · ${seatName(seat.name)} to move`;
      else text = `Waiting for ${seatName(seat.name)}…`;
    }
    banner.dataset.kind = kind;
    replace(banner, h("strong", {}, text), h("span", { class: "summary" }, boardKit?.summary?.(state.view) || ""));
  }

  // The invite link of an online game's free seat: the server gives it to the browser holding
  // the other seat until someone takes the seat (then null), so it is asked again whenever the
  // seats' presence changes.
  let inviteUrl = null;
  let inviteAsked = null;
  function askInvite() {
    if (!state || state.mode !== "online" || state.over || !you().length) {
      inviteUrl = null;
      return Promise.resolve();
    }
    const asking = getJSON(`/api/games/${encodeURIComponent(id)}/invite`)
      .then((answer) => {
        if (inviteAsked === asking) inviteUrl = answer.invite ? absolute(answer.invite) : null;
      })
      .catch(() => {});
    inviteAsked = asking;
    return asking.then(() => state && renderInvite());
  }

  function renderInvite() {
    const url = inviteUrl;
    const friend = (state.seats || []).find((seat) => seat.kind !== "computer" && !you().includes(seat.index));
    if (!url || !friend || state.over || (state.mode && state.mode !== "online")) {
      inviteBox.hidden = true;
      return;
    }
    inviteBox.hidden = false;
    const input = h("input", { type: "text", readonly: true, value: url, class: "invite-url", "aria-label": "Invite link" });
    const copy = h("button", { type: "button", class: "primary copy" }, "Copy link");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        input.select();
        document.execCommand?.("copy");
      }
      copy.textContent = "Copied!";
      setTimeout(() => (copy.textContent = "Copy link"), 2000);
    });
    input.addEventListener("focus", () => input.select());
    const body = [
      h("p", {}, `Send this link to your friend; they play ${seatName(friend.name)}. The first to open it takes the seat:`),
      h("div", { class: "invite-row" }, input, copy),
    ];
    replace(inviteBox, body);
  }

  function renderLegal() {
    const legal = state.legal || [];
    const usable = canMove();
    replace(
      legalBox,
      h("summary", {}, `Legal moves (${legal.length})`),
      legal.length
        ? h(
            "ul",
            { class: "legal-list" },
            legal.map((item) =>
              h(
                "li",
                {},
                h(
                  "button",
                  { type: "button", class: "legal-move", "data-action": item.text, disabled: !usable, onClick: () => play(item.text) },
                  item.text,
                ),
              ),
            ),
          )
        : h("p", { class: "muted" }, state.over ? "The game is over." : "None for now."),
    );
  }

  function renderMoves() {
    const actions = state.actions || [];
    const movers = state.movers || [];
    const items = actions.map((action, index) => {
      const chance = movers[index] === -1;
      return h(
        "li",
        {
          class: `${chance ? "chance" : "move"}${index === actions.length - 1 ? " last" : ""}`,
          value: index + 1,
          title: chance ? "chance" : "",
        },
        h("span", { class: "num" }, `${index + 1}.`),
        h("code", {}, action),
      );
    });
    const list = h("ol", { class: "move-list" }, items);
    replace(movesBox, h("h2", {}, `Moves (${actions.length})`), list);
    list.scrollTop = list.scrollHeight;
  }

  function renderOver() {
    if (!state.over) {
      replace(overBox);
      return;
    }
    const rematch = h("button", { type: "button", class: "primary rematch" }, state.rematch ? "Go to the rematch" : "Rematch");
    rematch.addEventListener("click", async () => {
      rematch.disabled = true;
      try {
        openCreated(await postJSON(`/api/games/${encodeURIComponent(id)}/rematch`));
      } catch (error) {
        notify(error.message);
        rematch.disabled = false;
      }
    });
    const outcome = state.outcome || {};
    replace(
      overBox,
      h(
        "section",
        { class: "panel game-over", role: "status" },
        h("h2", {}, "Game over"),
        h("p", { class: "result" }, resultText(outcome, state.seats, you())),
        state.rematch && you().length ? h("p", { class: "rematch-note" }, "A rematch has been started.") : null,
        outcome.reason ? h("p", { class: "reason" }, outcome.reason) : null,
        h(
          "div",
          { class: "buttons" },
          you().length
            ? rematch
            : state.rematch
              ? h("a", { class: "button", href: `/game/${encodeURIComponent(state.rematch)}` }, "Watch the rematch")
              : null,
          h("a", { class: "button", href: `/replay/${encodeURIComponent(id)}` }, "Replay"),
          h("a", { class: "button", href: "/" }, "Home"),
        ),
      ),
    );
  }

  function render() {
    if (!state) return;
    // For tests and debugging: what the page shows, as attributes and on window.gamehall.
    root.dataset.version = state.version;
    root.dataset.position = state.position;
    root.dataset.over = state.over ? "true" : "false";
    root.dataset.pending = pending ? "true" : "false";
    window.gamehall = { state, live };
    renderSeats();
    renderBanner();
    renderInvite();
    renderLegal();
    renderMoves();
    renderOver();
    assist.update(state);
    if (board) {
      const mySeats = you();
      board.update({
        view: state.view,
        legal: state.legal || [],
        canMove: canMove(),
        last: state.last,
        key: state.version,
        perspective: mySeats.length === 1 ? mySeats[0] : 0,
        seatLabels: labels(),
      });
    }
  }

  const onKey = (event) => {
    if (event.key === "Escape" && board) board.clearSelection();
  };
  document.addEventListener("keydown", onKey);

  async function start() {
    if (token) {
      // The invite's secret leaves the address at once (history, bookmarks, screenshots); the
      // first browser to post it holds the seat from then on through its identity cookie.
      history.replaceState({}, "", `/game/${encodeURIComponent(id)}`);
      try {
        await postJSON(`/api/games/${encodeURIComponent(id)}/join`, { seat: token });
      } catch (error) {
        if (error.code === "seat_taken") notify(`${error.message}.`, "info");
        else notify(`Could not take the seat: ${error.message}`);
      }
    }
    try {
      onState(await getJSON(`/api/games/${encodeURIComponent(id)}`));
      await askInvite();
    } catch (error) {
      if (error.status === 404) {
        replace(app, failure({ status: 404, message: `There is no game ${id}.` }));
        return;
      }
      if (error.status === 409) {
        replace(app, failure(error)); // other rules (the message names both), or set aside
        return;
      }
      notify(error.message);
    }
    if (closed) return;
    live = new LiveGame(
      id,
      {
        onState,
        onPresence(seats) {
          if (!state) return;
          state = { ...state, seats };
          renderSeats();
          askInvite();
        },
        onError(message) {
          pending = false;
          if (message.code === "stale_version") notify("The game moved on: showing the latest position.", "info");
          else notify(message.message || message.code);
          if (state) render();
        },
        onStatus: setStatus,
      },
      state ? { version: state.version, actions: state.actions, movers: state.movers } : {},
    );
  }
  start();

  return () => {
    closed = true;
    assist.close();
    delete window.gamehall;
    document.removeEventListener("keydown", onKey);
    live?.close();
  };
}

// --- replay --------------------------------------------------------------------------------------

function replayPage(id) {
  const body = h("div", { class: "replay-page" }, loading());
  page("replay", body);
  let onKey = null;
  getJSON(`/api/games/${encodeURIComponent(id)}/replay`)
    .then(async (data) => {
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
        first: h("button", { type: "button", "data-step": "first", "aria-label": "First position", onClick: () => go(first) }, "◀◀ Start"),
        back: h("button", { type: "button", "data-step": "back", "aria-label": "Step back", onClick: () => go(step - 1) }, "◀ Back"),
        forward: h("button", { type: "button", "data-step": "forward", "aria-label": "Step forward", onClick: () => go(step + 1) }, "Forward ▶"),
        end: h("button", { type: "button", "data-step": "last", "aria-label": "Last position", onClick: () => go(last) }, "End ▶▶"),
      };
      actions.forEach((action, index) => {
        const mover = moverName(action);
        list.append(
          h(
            "li",
            { class: mover ? "move" : "chance", value: index + 1, "data-step": index + 1 },
            h(
              "button",
              { type: "button", class: "step-link", onClick: () => go(index + 1) },
              h("span", { class: "num" }, `${index + 1}.`),
              mover ? h("span", { class: "mover" }, mover) : null,
              h("code", {}, action.text),
            ),
          ),
        );
      });
      function go(k) {
        step = Math.max(first, Math.min(last, k));
        const view = viewAt(step);
        const action = step > 0 ? actions[step - 1] : null;
        if (board && view) {
          board.update({ view, legal: [], canMove: false, last: action, key: step, perspective: 0, seatLabels: replayLabels });
        }
        counter.textContent = `Move ${step} / ${last}`;
        const mover = moverName(action);
        caption.textContent = action ? `${mover}${mover ? ": " : ""}${action.text}` : "The start";
        buttons.first.disabled = buttons.back.disabled = step <= first;
        buttons.forward.disabled = buttons.end.disabled = step >= last;
        for (const item of list.children) item.classList.toggle("current", Number(item.dataset.step) === step);
        list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
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
          h(
            "nav",
            { class: "game-links" },
            h("a", { href: `/game/${encodeURIComponent(id)}` }, "Open the game"),
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

// --- rules ---------------------------------------------------------------------------------------

function rulesPage(game) {
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
      const text = typeof data === "string" ? data : data.markdown || data.text || data.rules || "";
      replace(article, renderMarkdown(text), h("p", {}, h("a", { href: "/" }, "Play ", titleOf(game))));
    })
    .catch((error) => replace(article, failure(error)));
  return null;
}

route();
