// The game page: play or watch one game, live over the WebSocket (docs/web-protocol.md).
//
// What it shows comes from the server's state messages: the board (the game's own module), the
// seats with their presence and clocks, whose turn it is, the moves with who played each, a pause
// between rounds, the end. Everything about a game is the board module's; the page itself is
// generic. The moves can be stepped through while the game goes on ("Back to live" returns).
// Others' moves are told in words under the banner and shown one after another at a person's
// pace (lib/pacing.js, lib/happened.js); a player's only legal move is played for them.

import { getJSON, postJSON } from "../lib/api.js";
import { append, h, replace } from "../dom.js";
import { HISTORY, LiveGame } from "../lib/live.js";
import { moveList } from "../lib/movelist.js";
import { openCreated } from "./home.js";
import { TurnAlert } from "../lib/alert.js";
import { ChatPanel, Clocks, clockText, gameOverPanel, legalList, pausePanel, roomButtons, toggle } from "../lib/room.js";
import { seatCards } from "../lib/seats.js";
import { GameAssist } from "../lib/assist.js";
import { Announcer, turnStatus } from "../lib/announce.js";
import { CommandBox } from "../lib/command.js";
import { InviteBox } from "../lib/invite.js";
import { refreshTurns } from "../lib/header.js";
import { Pacer, STEP_MS } from "../lib/pacing.js";
import { Sounds, soundOf } from "../lib/sound.js";
import { bannerText, forcedMove, happenedLine, toldIndex, wordsOf } from "../lib/happened.js";
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
  let flipped = preference(`flip_${id}`, false); // remembered per game
  // Every played action with its parts and the view after each (GET /replay), kept up to date
  // from the state messages: the move list and stepping back read it.
  let past = null;
  let historyFetch = null;

  const title = h("h1", {}, "Game");
  const badge = h("span", { class: "conn", "data-status": "connecting", role: "status" }, "Connecting…");
  const links = h("nav", { class: "game-links" });
  const tools = h("div", { class: "game-tools" });
  const invite = new InviteBox(id, () => ({ state, you: you() }));
  const seatsBox = h("div", { class: "seats" });
  const banner = h("div", { class: "turn-banner" }); // told to a screen reader by the announcer
  const happened = h("p", { class: "happened", hidden: true });
  const boardBox = h("div", { class: "board-box" }, loading());
  const pauseBox = h("div", { class: "pause-box" });
  const controlsBox = h("div", { class: "controls-box" });
  const extrasBox = h("div", { class: "extras-box" });
  const overBox = h("div", { class: "over-box" });
  const movesBox = h("section", { class: "panel moves" });
  const legalBox = h("details", { class: "panel legal" });
  const roomBox = h("div", { class: "room-box" });
  const clocks = new Clocks();
  const announcer = new Announcer(); // every move in words, for a screen reader
  const command = new CommandBox({ play: (text) => play(text) }); // "Type a move"
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
      invite.element,
      h(
        "div",
        { class: "game-grid" },
        h("div", { class: "seats-area" }, seatsBox),
        h("div", { class: "banner-area" }, banner, assist.indicator),
        h("div", { class: "board-col" }, boardBox, controlsBox, command.element, extrasBox),
        h("aside", { class: "side-col" }, pauseBox, overBox, assist.panel, roomBox, movesBox, chat.element, tools, legalBox),
      ),
      announcer.element,
    ]),
  );

  // A click anywhere on the page while the pacer is behind shows the present at once. On the
  // board or its move buttons the click only does that (what was clicked is a past position, so
  // it plays nothing); anywhere else (Resign, a switch, the chat) the click does what it says
  // first, and the present is drawn after its own handlers ran, never under the click.
  root.addEventListener(
    "click",
    (event) => {
      if (!pacer.active) return;
      if (boardBox.contains(event.target) || controlsBox.contains(event.target)) {
        event.preventDefault();
        event.stopPropagation();
        pacer.skip();
        return;
      }
      setTimeout(() => pacer.skip(), 0);
    },
    { capture: true },
  );

  const alert = new TurnAlert({ sound: preference("sound", false) });
  const sounds = new Sounds({ on: alert.sound }); // one switch for all the page's sounds
  const you = () => (state ? state.you || [] : []);
  // Others' moves at a person's pace: the board is behind the game while the pacer is active.
  const pacer = new Pacer({
    enabled: preference("pacing", true),
    onChange: () => render(),
    paced: (k) => !you().includes(state.movers?.[k]),
    ready: (n) => Boolean(past && past.views[n] && past.items.length >= n),
  });
  let heard = null; // how many actions the sounds have been played for
  let forced = null; // {text, count}: the only move, played for the player at `count` actions
  let forceFrom = 0; // after a takeback, no move is played for the player until one is made
  let forceTimer = null;
  const isLive = () => viewing === null;
  const isPresent = () => isLive() && !pacer.active;
  const canMove = () =>
    Boolean(state) && isPresent() && !state.over && !state.pause && state.to_move !== null && state.to_move !== undefined && you().includes(state.to_move) && !pending;

  /** Send the move whose text is `action` (one of the server's legal items); false when it was not sent. */
  function play(action) {
    if (!state || !canMove()) return false;
    if (!state.legal.some((item) => item.text === action)) {
      notify(`${action} is not a legal move here.`);
      return false;
    }
    if (!live || !live.move(action)) {
      notify("Not connected: the move was not sent. Reconnecting…");
      live?.reconnectNow();
      return false;
    }
    pending = true;
    render();
    return true;
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
    const wasOver = Boolean(state?.over);
    const count = (message.actions || []).length;
    if (state && count < (state.actions || []).length) forceFrom = count + 1; // a takeback
    state = message;
    pending = false;
    received = absentAt = performance.now();
    clocks.set(message.clock);
    follow(message);
    noteForced(message);
    pacer.follow(count);
    if (first) setup().then(render);
    render();
    if (!first && !wasOver && state.over) sounds.play("end");
  }

  /** The move played for the player came back: say so (the line under the banner, a note). */
  function noteForced(message) {
    if (!forced || forced.told) return;
    const count = (message.actions || []).length;
    if (count <= forced.count || message.actions[forced.count] !== forced.text) {
      if (count <= forced.count && message.version > forced.version) forced = null; // not taken
      return;
    }
    forced.told = true;
    const words = wordsOf(message, past, forced.count, moverName);
    notify(`${words}: your only move, played for you.`, "info");
  }

  /** What changed on the board since the last render: sounds, and whose turn it became. */
  function shownChanged(couldMove) {
    const shown = pacer.shown ?? 0;
    if (heard !== null && shown > heard) {
      const k = shown - 1;
      const item = past?.items?.[k] || (k === (state.actions || []).length - 1 ? state.last : null);
      const sound = soundOf(item || { mover: state.movers?.[k] });
      if (sound) sounds.play(sound);
    }
    heard = shown;
    if (!couldMove && canMove()) alert.yourTurn(`Your turn · ${titleOf(state.game)}`);
    if (couldMove !== canMove()) refreshTurns(); // the header's "Your move" count follows
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
    assist.attach(board, { play, canMove, live: isLive }); // the hint drawn, and "Play it"
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

  function renderSeats() {
    const view = shownView() || {};
    const scores = view.scores || state.outcome?.scores || [];
    const score = (value) => scoreText(boardKit, value);
    replace(seatsBox, seatCards({ state, you: you(), bottom: perspective(), scores, connection, label: seatLabel, score }));
  }

  function renderBanner() {
    const { text, kind } = bannerText({ state, you: you(), viewing, total: past?.items.length, pacing: pacer.active, pending });
    const back = kind === "past" ? h("button", { type: "button", class: "primary back-to-live", onClick: () => go(null) }, "Back to live") : null;
    banner.dataset.kind = kind;
    // The line of what just happened is the banner's second row.
    replace(banner, h("strong", {}, text), back, h("span", { class: "summary" }, boardKit?.summary?.(shownView()) || ""), happened);
  }

  /** The line under the banner: the last move that was not yours, in words (lib/happened.js). */
  function renderHappened() {
    if (!isLive()) {
      happened.hidden = true;
      return;
    }
    const shown = shownCount();
    let k = toldIndex(state.movers || [], shown, you());
    const played = Boolean(forced?.told && forced.count === shown - 1);
    if (played) k = shown - 1;
    const words = k >= 0 ? wordsOf(state, past, k, moverName) : "";
    happenedLine(happened, { k, words, forced: played, pacing: pacer.active, onSkip: () => pacer.skip() });
  }

  function renderTools() {
    replace(tools, [
      boardKit?.flippable ? toggle("flip", flipped, "Flip the board", "", () => ((flipped = !flipped), setPreference(`flip_${id}`, flipped), render())) : null,
      toggle("pacing", pacer.enabled, "Moves one by one", "Show the other side's moves one after another, each for a moment (a click or a key skips)", () => {
        pacer.setEnabled(!pacer.enabled);
        setPreference("pacing", pacer.enabled);
        render();
      }),
      toggle("sound", sounds.on, "Sounds", "Sounds for a move, a capture, low time, the end, and your turn while this tab is in the background", () => {
        alert.sound = !alert.sound;
        sounds.set(alert.sound); // a click: the audio may start now
        setPreference("sound", alert.sound);
        renderTools();
      }),
    ]);
  }

  /** The players' chat only where another person holds a seat (not against the computer, nor
   * hot-seat, where nobody would read it); spectators always have theirs. */
  function renderChat() {
    const other = (state.seats || []).some((seat) => seat.kind !== "computer" && !you().includes(seat.index));
    chat.element.hidden = you().length > 0 && !other;
  }

  function renderLegal() {
    legalBox.hidden = Boolean(state.over); // no moves left to list once the game is over
    replace(legalBox, legalList(state, canMove(), play));
  }

  function moverName(mover) {
    if (mover === -1 || mover === undefined) return "";
    return seatName(state.seats?.[mover]?.name || "");
  }

  function renderMoves() {
    const actions = state.actions || [];
    const items = past && past.items.length === actions.length ? past.items : null;
    const current = shownCount(); // follows the board while moves are paced
    // The board module may give a small picture of a move (decoration: the words say it all).
    const icons = (index) => (items?.[index] && boardKit?.moveIcons ? boardKit.moveIcons(items[index]) : null);
    const list = moveList(state, { current, go, icons, who: moverName });
    const back = h("button", { type: "button", "data-step": "back", "aria-label": "Step back", disabled: !past || current <= 0, onClick: () => go(current - 1) }, "◀");
    const forward = h("button", { type: "button", "data-step": "forward", "aria-label": "Step forward", disabled: isLive(), onClick: () => go(current + 1) }, "▶");
    const toLive = h("button", { type: "button", class: "back-to-live", disabled: isLive(), onClick: () => go(null) }, "Back to live");
    replace(movesBox, h("div", { class: "moves-head" }, h("h2", {}, `Moves (${actions.length})`), h("div", { class: "step-bar" }, back, forward, toLive)), list);
    const mark = list.querySelector(".current");
    if (isLive()) list.scrollTop = list.scrollHeight; // the newest move and a round's result
    else if (mark) list.scrollTop = mark.offsetTop - list.clientHeight / 2;
  }

  let shownPause = null; // the version whose pause was last brought into view

  function renderPause() {
    const pause = state.pause;
    if (!pause || !isPresent()) {
      replace(pauseBox);
      return;
    }
    if (shownPause !== state.version) {
      // A new pause: bring the panel into view (on a phone it is under the board).
      shownPause = state.version;
      requestAnimationFrame(() => pauseBox.scrollIntoView({ block: "nearest" }));
    }
    const details = boardKit?.resultDetails?.(state.view, labels()) || h("p", {}, pause.reason);
    const onContinue = () => Boolean(live?.send({ type: "continue", version: state.version }));
    replace(pauseBox, pausePanel({ state, you: you(), details, label: boardKit?.continueLabel || "Continue", onContinue }));
    tick();
  }

  /** What moves with time between messages: the clocks, the pause's and a claim's countdown. */
  function tick() {
    if (!state) return;
    clocks.paint(seatsBox, you(), () => sounds.play("low"));
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
    if (!state.over || pacer.active) {
      replace(overBox);
      return;
    }
    const onRematch = async () => {
      try {
        openCreated(await postJSON(`/api/games/${encodeURIComponent(id)}/rematch`));
        return true;
      } catch (error) {
        notify(error.message);
        return false;
      }
    };
    const details = boardKit?.resultDetails?.(state.view, labels());
    replace(overBox, gameOverPanel({ id, state, you: you(), result: resultText(state.outcome || {}, state.seats, you()), details, onRematch }));
  }

  /** How many actions the board shows: the present, the pacer's step, or a past position. */
  function shownCount() {
    if (!isLive()) return viewing;
    return pacer.active ? pacer.shown : (state.actions || []).length;
  }

  function shownView() {
    return isPresent() ? state.view : past?.views[shownCount()] || state.view;
  }

  let couldMove = null; // whether the player could move at the last render (null: not drawn yet)

  function render() {
    if (!state) return;
    // For tests and debugging: what the page shows, as attributes and on window.gamehall.
    root.dataset.version = state.version;
    root.dataset.position = state.position;
    root.dataset.over = state.over ? "true" : "false";
    root.dataset.pending = pending ? "true" : "false";
    root.dataset.viewing = isLive() ? "live" : String(viewing);
    root.dataset.paused = state.pause ? "true" : "false";
    root.dataset.pacing = pacer.active ? "true" : "false";
    root.dataset.forcing = "false"; // (playForced says when an only move waits to be played)
    root.dataset.shown = String(shownCount());
    window.gamehall = { state, live, history: past, sounds: sounds.played };
    if (connection === "live") badge.textContent = state.over ? "Finished" : "● Live";
    renderSeats();
    renderBanner();
    renderHappened();
    invite.render();
    renderLegal();
    command.update({ legal: state.legal || [], canMove: canMove(), seated: you().length > 0, over: state.over });
    announcer.follow(state, { words: (k) => wordsOf(state, past, k, moverName), status: turnStatus(state, you()) });
    renderMoves();
    renderPause();
    renderOver();
    assist.update(state);
    renderRoom();
    renderTools();
    renderChat();
    tick();
    if (board) {
      const count = shownCount();
      const present = isPresent();
      board.update({
        view: shownView(),
        legal: present ? state.legal || [] : [],
        canMove: canMove(),
        last: present ? state.last : count > 0 ? past?.items[count - 1] || null : null,
        key: present ? state.version : `past-${count}`,
        perspective: perspective(),
        seatLabels: labels(),
        over: present && state.over,
        history: past ? past.items.slice(0, present ? undefined : count) : [],
      });
    }
    if (couldMove !== null) shownChanged(couldMove);
    else heard = pacer.shown;
    couldMove = canMove();
    playForced();
  }

  /** A seat of this browser with one legal move: play it for the player (the terminal app does). */
  function playForced() {
    const count = (state.actions || []).length;
    const move = count >= forceFrom && (!forced || forced.count !== count) ? forcedMove(state, canMove()) : null;
    if (!move) return;
    // The move before it stays on the board for a step too, so both are seen.
    const wait = pacer.enabled ? pacer.lastStep + STEP_MS - performance.now() : 0;
    clearTimeout(forceTimer);
    if (wait > 0) {
      root.dataset.forcing = "true"; // the only move is about to be played for the player
      forceTimer = setTimeout(render, wait);
      return;
    }
    forced = { text: move, count, version: state.version, told: false };
    if (!play(move)) forced = null; // not sent: played for the player once the socket is back
  }

  const onKey = (event) => {
    if (event.target.closest?.("input, textarea, select")) return;
    if (pacer.active && !event.repeat && !["Shift", "Control", "Alt", "Meta", "Tab"].includes(event.key)) {
      pacer.skip(); // any key shows the present at once
      return;
    }
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
      await invite.ask();
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
          invite.ask();
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
      state ? { version: state.version, ...Object.fromEntries(HISTORY.map((key) => [key, state[key]])) } : {},
    );
  }
  start();

  return () => {
    closed = true;
    assist.close();
    clearInterval(ticker);
    pacer.stop();
    clearTimeout(forceTimer);
    sounds.close();
    alert.stop();
    delete window.gamehall;
    document.removeEventListener("keydown", onKey);
    live?.close();
  };
}
