// The game page: play or watch one game, live over the WebSocket (docs/web-protocol.md).
//
// What it shows comes from the server's state messages: the board (the game's own module), the
// seats with their presence and clocks, whose turn it is, the moves with who played each, a pause
// between rounds, the end. Everything about a game is the board module's; the page itself is
// generic. The moves can be stepped through while the game goes on ("Back to live" returns).

import { absolute, getJSON, postJSON } from "../lib/api.js";
import { append, h, replace } from "../dom.js";
import { LiveGame } from "../lib/live.js";
import { openCreated } from "./home.js";
import { TurnAlert } from "../lib/alert.js";
import { playerLink } from "../lib/hall.js";
import { ChatPanel, Clocks, clockText, isLow, roomButtons } from "../lib/room.js";
import { GameAssist } from "../lib/assist.js";
import {
  app,
  boardModule,
  failure,
  loading,
  navigate,
  notify,
  page,
  preference,
  resultText,
  scoreText,
  seatName,
  setPreference,
  titleOf,
} from "../lib/shared.js";

export function gamePage(id) {
  const params = new URLSearchParams(location.search);
  const token = params.get("seat");
  let state = null;
  let board = null;
  let boardKit = null;
  let live = null;
  let connection = "connecting";
  let pending = false;
  let closed = false;
  let viewing = null; // null: live; k: the position after k actions
  let flipped = false;
  // Every played action with its parts and the view after each (GET /replay), kept up to date
  // from the state messages: the move list and stepping back read it.
  let past = null;
  let historyFetch = null;

  const title = h("h1", {}, "Game");
  const badge = h("span", { class: "conn", "data-status": "connecting", role: "status" }, "Connecting…");
  const links = h("nav", { class: "game-links" });
  const tools = h("div", { class: "game-tools" });
  const inviteBox = h("div", { class: "invite-box", hidden: true });
  const seatsBox = h("div", { class: "seats" });
  const banner = h("div", { class: "turn-banner", role: "status", "aria-live": "polite" });
  const boardBox = h("div", { class: "board-box" }, loading());
  const pauseBox = h("div", { class: "pause-box" });
  const controlsBox = h("div", { class: "controls-box" });
  const extrasBox = h("div", { class: "extras-box" });
  const overBox = h("div", { class: "over-box" });
  const movesBox = h("section", { class: "panel moves" });
  const legalBox = h("details", { class: "panel legal" });
  const roomBox = h("div", { class: "room-box" });
  const clocks = new Clocks();
  const assist = new GameAssist({ id, notify, navigate });
  let received = performance.now(); // when the last state arrived
  let absentAt = performance.now(); // when the last news of who is away arrived (state or presence)
  const chat = new ChatPanel({
    enabled: preference("chat", true),
    onToggle: (on) => setPreference("chat", on),
    onSend: (text) => {
      if (!live || !live.send({ type: "chat", text })) {
        notify("Not connected: the message was not sent.");
        return false;
      }
      return true;
    },
  });

  const root = h("div", { class: "game-page", "data-game-id": id });
  page(
    "game",
    append(root, [
      h("header", { class: "game-head" }, title, badge, links),
      inviteBox,
      h(
        "div",
        { class: "game-grid" },
        h("div", { class: "seats-area" }, seatsBox),
        h("div", { class: "banner-area" }, banner, assist.indicator),
        h("div", { class: "board-col" }, boardBox, controlsBox, extrasBox),
        h("aside", { class: "side-col" }, pauseBox, overBox, assist.panel, roomBox, movesBox, chat.element, tools, legalBox),
      ),
    ]),
  );

  const alert = new TurnAlert({ sound: preference("sound", false) });
  const you = () => (state ? state.you || [] : []);
  const isLive = () => viewing === null;
  const canMove = () =>
    Boolean(state) && isLive() && !state.over && !state.pause && state.to_move !== null && state.to_move !== undefined && you().includes(state.to_move) && !pending;

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
      live: state?.over ? "Finished" : "● Live", // a finished game has nothing live to show
      reconnecting: `Reconnecting${detail ? ` (${detail})` : "…"}`,
      closed: "Disconnected",
    }[status];
    if (state) renderSeats();
  }

  function onState(message) {
    if (state && message.version < state.version) return;
    const first = !state;
    const couldMove = canMove();
    state = message;
    pending = false;
    received = absentAt = performance.now();
    clocks.set(message.clock);
    follow(message);
    if (first) setup().then(render);
    render();
    if (!first && !couldMove && canMove()) alert.yourTurn(`Your turn · ${titleOf(state.game)}`);
  }

  async function setup() {
    const name = state.game;
    title.textContent = titleOf(name);
    document.title = `${titleOf(name)} · gamehall`;
    replace(
      links,
      h("a", { href: `/replay/${encodeURIComponent(id)}` }, "Replay"),
      h("a", { href: `/howto/${name}` }, "How to play"),
      h("a", { href: `/rules/${name}` }, "Rules"),
    );
    boardKit = await boardModule(name);
    board = new boardKit.Board({ onMove: play });
    replace(boardBox, board.element);
    replace(controlsBox, board.controls);
    replace(extrasBox, board.extras || null);
    renderTools();
  }

  // --- the past of the game: the played items and the views after them ---

  function follow(message) {
    if (!past) {
      fetchHistory();
      return;
    }
    const actions = message.actions || [];
    const known = past.items.length;
    const same = (n) => past.items.slice(0, n).every((item, k) => item.text === actions[k]);
    if (actions.length === known + 1 && message.last && same(known)) {
      past.items.push(message.last);
      past.views.push(message.view);
    } else if (actions.length <= known && same(actions.length)) {
      past.items.length = actions.length; // a takeback
      past.views.length = actions.length + 1;
      past.views[actions.length] = message.view;
    } else if (actions.length !== known || !same(known)) {
      fetchHistory();
    }
    if (viewing !== null && viewing > past.items.length) viewing = null;
  }

  function fetchHistory() {
    if (historyFetch) return;
    historyFetch = getJSON(`/api/games/${encodeURIComponent(id)}/replay`)
      .then((data) => {
        const items = data.actions || [];
        // states[k] is the view after k actions (states[0]: the start).
        past = { items, views: data.states || [] };
        historyFetch = null;
        if (state && (state.actions || []).length !== items.length) fetchHistory();
        else render();
      })
      .catch(() => {
        historyFetch = null;
      });
  }

  function go(step) {
    if (!past || !state) return;
    const last = past.items.length;
    if (step === null || step >= last) viewing = null;
    else viewing = Math.max(0, step);
    if (board) board.clearSelection();
    render();
  }

  // --- rendering ---

  function seatLabel(seat) {
    const mine = you().includes(seat.index);
    return `${seatName(seat.name)}${mine && you().length === 1 ? " (you)" : ""}`;
  }

  function labels() {
    return (state.seats || []).map(seatLabel);
  }

  function perspective() {
    const mine = you();
    const seats = (state.seats || []).length || 1;
    const base = mine.length === 1 ? mine[0] : 0;
    return flipped ? (base + 1) % seats : base;
  }

  /** Send a message of the game room (resign, abort, takeback, claim, continue). */
  function send(message) {
    if (!live || !live.send(message)) {
      notify("Not connected: nothing was sent. Reconnecting…");
      live?.reconnectNow();
      return false;
    }
    return true;
  }

  function renderRoom() {
    const names = (state.seats || []).map((seat) => seatName(seat.name));
    replace(
      roomBox,
      isLive() ? roomButtons({ state, you: you(), send, names, absentLeft: (away) => away.claim_in_ms - (performance.now() - absentAt) }) : [],
    );
  }

  function presenceOf(seat) {
    if (seat.kind === "computer") return ["computer", `computer${seat.level ? ` · ${seat.level}` : ""}`];
    const online = you().includes(seat.index) ? connection === "live" : seat.connected;
    return online ? ["online", "online"] : ["offline", "offline"];
  }

  function renderSeats() {
    const view = state.view || {};
    const scores = view.scores || state.outcome?.scores || [];
    const order = (state.seats || []).slice();
    // Your own seat last (nearest the board's bottom on a phone, below the opponent's).
    const bottom = perspective();
    order.sort((a, b) => (a.index === bottom) - (b.index === bottom));
    replace(
      seatsBox,
      order.map((seat) => {
        const mine = you().includes(seat.index);
        const [presenceClass, presence] = presenceOf(seat);
        const toMove = !state.over && !state.pause && state.to_move === seat.index;
        return h(
          "div",
          { class: `seat seat-${seat.name}${toMove ? " to-move" : ""}${mine ? " mine" : ""}`, "data-seat": seat.index },
          h("span", { class: "seat-name" }, seatLabel(seat)),
          h("span", { class: "seat-score" }, scores[seat.index] !== undefined ? scoreText(boardKit, scores[seat.index]) : ""),
          // The second row: who holds the seat, after the presence dot (the word "online" is
          // for screen readers; "offline" is said to everyone).
          h(
            "span",
            { class: `presence presence-${presenceClass}`, "data-presence": presenceClass, title: presence },
            seat.player && presenceClass !== "computer"
              ? [
                  playerLink(seat.player, { class: "seat-player" }),
                  presenceClass === "offline" ? " · offline" : h("span", { class: "sr-only" }, " (online)"),
                ]
              : presence,
          ),
          toMove ? h("span", { class: "seat-turn" }, "to move") : h("span"),
          state.clock && state.clock.remaining[seat.index] !== null
            ? h("span", { class: "seat-clock", "data-clock": seat.index, role: "timer", "aria-label": `${seatName(seat.name)}'s clock` })
            : null,
        );
      }),
    );
  }

  function renderBanner() {
    const seats = state.seats || [];
    let text;
    let kind = "wait";
    let extra = null;
    if (!isLive()) {
      text = viewing === 0 ? "Viewing the start" : `Viewing move ${viewing} of ${past.items.length}`;
      kind = "past";
      extra = h("button", { type: "button", class: "primary back-to-live", onClick: () => go(null) }, "Back to live");
    } else if (state.over) {
      text = `Game over: ${resultText(state.outcome, seats, you())}`;
      kind = "over";
    } else if (state.pause) {
      text = state.pause.reason;
      kind = "pause";
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
    replace(banner, h("strong", {}, text), extra, h("span", { class: "summary" }, boardKit?.summary?.(state.view) || ""));
  }

  function renderTools() {
    const items = [];
    if (boardKit?.flippable && state && !you().length) {
      items.push(
        h(
          "button",
          { type: "button", class: "ghost small flip", "aria-pressed": flipped ? "true" : "false", onClick: () => ((flipped = !flipped), render()) },
          "Flip the board",
        ),
      );
    }
    const sound = h(
      "button",
      { type: "button", class: "ghost small sound", "aria-pressed": alert.sound ? "true" : "false", title: "A sound when it becomes your turn while this tab is in the background" },
      alert.sound ? "Sound at your turn: on" : "Sound at your turn: off",
    );
    sound.addEventListener("click", () => {
      alert.setSound(!alert.sound);
      setPreference("sound", alert.sound);
      renderTools();
    });
    if (state && you().length) items.push(sound);
    replace(tools, items);
  }

  /** The players' chat only where another person holds a seat (not against the computer, nor
   * hot-seat, where nobody would read it); spectators always have theirs. */
  function renderChat() {
    const other = (state.seats || []).some((seat) => seat.kind !== "computer" && !you().includes(seat.index));
    chat.element.hidden = you().length > 0 && !other;
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
    const played = friend && (state.movers || []).includes(friend.index);
    if (!url || !friend || played || state.over || (state.mode && state.mode !== "online")) {
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
    legalBox.hidden = Boolean(state.over); // no moves left to list once the game is over
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

  function moverName(mover) {
    if (mover === -1 || mover === undefined) return "";
    return seatName(state.seats?.[mover]?.name || "");
  }

  function renderMoves() {
    const actions = state.actions || [];
    const movers = state.movers || [];
    const items = past && past.items.length === actions.length ? past.items : null;
    const current = isLive() ? actions.length : viewing;
    const entries = actions.map((action, index) => {
      const chance = movers[index] === -1;
      const item = items?.[index];
      const shown = item && boardKit?.describeAction ? boardKit.describeAction(item, labels()) : h("code", {}, action);
      return h(
        "li",
        {
          class: `${chance ? "chance" : "move"}${index === actions.length - 1 ? " last" : ""}${index + 1 === current ? " current" : ""}`,
          value: index + 1,
          "data-step": index + 1,
        },
        h(
          "button",
          { type: "button", class: "step-link", title: `Show the position after move ${index + 1}`, onClick: () => go(index + 1) },
          h("span", { class: "num" }, `${index + 1}.`),
          h("span", { class: "mover" }, chance ? "chance" : moverName(movers[index])),
          shown,
        ),
      );
    });
    const list = h("ol", { class: "move-list" }, entries);
    const back = h("button", { type: "button", "data-step": "back", "aria-label": "Step back", disabled: !past || current <= 0, onClick: () => go(current - 1) }, "◀");
    const forward = h("button", { type: "button", "data-step": "forward", "aria-label": "Step forward", disabled: isLive(), onClick: () => go(current + 1) }, "▶");
    const toLive = h("button", { type: "button", class: "back-to-live", disabled: isLive(), onClick: () => go(null) }, "Back to live");
    replace(movesBox, h("div", { class: "moves-head" }, h("h2", {}, `Moves (${actions.length})`), h("div", { class: "step-bar" }, back, forward, toLive)), list);
    const mark = list.querySelector(".current") || list.lastElementChild;
    if (mark) list.scrollTop = mark.offsetTop - list.clientHeight / 2;
  }

  let shownPause = null; // the version whose pause was last brought into view

  function renderPause() {
    const pause = state.pause;
    if (!pause || !isLive()) {
      replace(pauseBox);
      return;
    }
    if (shownPause !== state.version) {
      // A new pause: bring the panel into view (on a phone it is under the board).
      shownPause = state.version;
      requestAnimationFrame(() => pauseBox.scrollIntoView({ block: "nearest" }));
    }
    const details = boardKit?.resultDetails?.(state.view, labels()) || h("p", {}, pause.reason);
    const mine = you().filter((seat) => (pause.waiting || []).includes(seat));
    const label = boardKit?.continueLabel || "Continue";
    const button = h("button", { type: "button", class: "primary continue", disabled: !mine.length }, label);
    button.addEventListener("click", () => {
      if (live?.send({ type: "continue", version: state.version })) button.disabled = true;
    });
    const waitingFor = (pause.waiting || []).filter((seat) => !you().includes(seat)).map((seat) => seatName(state.seats?.[seat]?.name));
    const countdown = h("span", { class: "pause-countdown" });
    replace(
      pauseBox,
      h(
        "section",
        { class: "panel pause-panel", role: "status" },
        details,
        h(
          "div",
          { class: "buttons" },
          you().length ? button : null,
          countdown,
          !mine.length && waitingFor.length ? h("span", { class: "muted" }, `Waiting for ${waitingFor.join(" and ")}…`) : null,
        ),
      ),
    );
    tick();
  }

  /** What moves with time between messages: the clocks, the pause's and a claim's countdown. */
  function tick() {
    if (!state) return;
    for (const element of seatsBox.querySelectorAll(".seat-clock")) {
      const seat = Number(element.dataset.clock);
      const left = clocks.remaining(seat);
      if (left === null) continue;
      element.textContent = clockText(left);
      element.classList.toggle("running", state.clock?.running === seat);
      element.classList.toggle("low", isLow(left, state.clock?.control));
      element.classList.toggle("flagged", left <= 0);
    }
    const countdown = pauseBox.querySelector(".pause-countdown");
    const pause = state.pause;
    if (countdown && pause && pause.left_ms !== null && pause.left_ms !== undefined) {
      const left = Math.max(0, Math.ceil((pause.left_ms - (performance.now() - received)) / 1000));
      countdown.textContent = `Going on by itself in ${left} s`;
    }
    for (const element of roomBox.querySelectorAll(".claim-countdown")) {
      const away = (state.absent || []).find((a) => String(a.seat) === element.closest("[data-claim-seat]").dataset.claimSeat);
      const left = away ? away.claim_in_ms - (performance.now() - absentAt) : 0;
      if (left <= 0) renderRoom();
      else element.textContent = clockText(left);
    }
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
        boardKit?.resultDetails?.(state.view, labels()) || null,
        h(
          "div",
          { class: "buttons" },
          you().length
            ? rematch
            : state.rematch
              ? h("a", { class: "button", href: `/game/${encodeURIComponent(state.rematch)}` }, "Watch the rematch")
              : null,
          h("a", { class: "button", href: `/replay/${encodeURIComponent(id)}` }, "Replay"),
          h("a", { class: "button", "data-action": "analyse", href: `/analysis/${encodeURIComponent(state.game)}?from=${encodeURIComponent(id)}&step=${state.version}` }, "Analyse"),
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
    root.dataset.viewing = isLive() ? "live" : String(viewing);
    root.dataset.paused = state.pause ? "true" : "false";
    window.gamehall = { state, live, history: past };
    if (connection === "live") badge.textContent = state.over ? "Finished" : "● Live";
    renderSeats();
    renderBanner();
    renderInvite();
    renderLegal();
    renderMoves();
    renderPause();
    renderOver();
    assist.update(state);
    renderRoom();
    renderTools();
    renderChat();
    tick();
    if (board) {
      const shownView = isLive() ? state.view : past.views[viewing];
      const last = isLive() ? state.last : viewing > 0 ? past.items[viewing - 1] : null;
      board.update({
        view: shownView,
        legal: isLive() ? state.legal || [] : [],
        canMove: canMove(),
        last,
        key: isLive() ? state.version : `past-${viewing}`,
        perspective: perspective(),
        seatLabels: labels(),
        over: isLive() && state.over,
        history: past ? past.items.slice(0, isLive() ? undefined : viewing) : [],
      });
    }
  }

  const onKey = (event) => {
    if (event.target.closest?.("input, textarea, select")) return;
    if (event.key === "Escape" && board) board.clearSelection();
    if (!past || !state) return;
    const current = isLive() ? past.items.length : viewing;
    if (event.key === "ArrowLeft") go(current - 1);
    else if (event.key === "ArrowRight" && !isLive()) go(current + 1);
    else if (event.key === "End") go(null);
  };
  document.addEventListener("keydown", onKey);
  const ticker = setInterval(tick, 100);

  async function start() {
    if (token) {
      // The invite's secret leaves the address at once (history, bookmarks, screenshots); the
      // first browser to post it holds the seat from then on through its identity cookie.
      window.history.replaceState({}, "", `/game/${encodeURIComponent(id)}`);
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
        onPresence(message) {
          if (!state) return;
          absentAt = performance.now();
          state = { ...state, seats: message.seats || [], absent: message.absent || [] };
          renderSeats();
          askInvite();
          renderRoom();
          tick();
        },
        onChat(message) {
          if (state) chat.receive(message, labels());
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
    clearInterval(ticker);
    alert.stop();
    delete window.gamehall;
    document.removeEventListener("keydown", onKey);
    live?.close();
  };
}
