// The parts of the game page around the board: the clocks, the game's buttons (resign, abort,
// takebacks, claiming the win after the opponent left) and the chat. Nothing here names a game.
// Chat lines are always put in the page as text (textContent), never as markup.

import { capitalize, h, replace } from "../dom.js";
import { ratingChanges } from "./rating.js";
import { seatName } from "./shared.js";

/** A clock's time as people read it: 4:05, 0:09.3 under ten seconds, 2d 3h for days. */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left >= 24 * 3600 * 1000) {
    const days = Math.floor(left / (24 * 3600 * 1000));
    const hours = Math.floor((left % (24 * 3600 * 1000)) / 3600000);
    return `${days}d ${hours}h`;
  }
  if (left >= 3600 * 1000) {
    const hours = Math.floor(left / 3600000);
    const minutes = Math.floor((left % 3600000) / 60000);
    return `${hours}h ${String(minutes).padStart(2, "0")}m`;
  }
  const minutes = Math.floor(left / 60000);
  const seconds = (left % 60000) / 1000;
  if (left < 10000) return `${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
  return `${minutes}:${String(Math.floor(seconds)).padStart(2, "0")}`;
}

/** When a clock counts as low: under 20 s, or under a tenth of a correspondence day. */
export function isLow(ms, control) {
  return control?.startsWith("d") ? ms < 2.4 * 3600 * 1000 : ms < 20000;
}

/**
 * The clocks of a state message, counted down from when it arrived: remaining(seat) gives the
 * time left now (the running seat's decreasing), as the server measured it.
 */
export class Clocks {
  constructor() {
    this.info = null;
    this.at = 0;
  }

  set(info) {
    this.info = info || null;
    this.at = performance.now();
  }

  /** Write each clock's time into its element (.seat-clock[data-clock]) under `box`; onLow()
   * once each time a clock of `mine` passes under the low line while it runs. */
  paint(box, mine, onLow) {
    const info = this.info;
    this.low = this.low || new Set(); // the seats whose low time has been told
    for (const element of box.querySelectorAll(".seat-clock")) {
      const seat = Number(element.dataset.clock);
      const left = this.remaining(seat);
      if (left === null) continue;
      const low = isLow(left, info?.control);
      element.textContent = clockText(left);
      element.classList.toggle("running", info?.running === seat);
      element.classList.toggle("low", low);
      element.classList.toggle("flagged", left <= 0);
      if (!low) this.low.delete(seat);
      else if (info?.running === seat && mine.includes(seat) && !this.low.has(seat)) {
        this.low.add(seat);
        onLow(seat);
      }
    }
  }

  remaining(seat) {
    const info = this.info;
    if (!info) return null;
    const base = info.remaining?.[seat];
    if (base === null || base === undefined) return null;
    if (info.running !== seat) return base;
    return Math.max(0, base - (performance.now() - this.at));
  }
}

/** How long "Really resign?" waits for the second click. */
const RESIGN_ASK_MS = 4000;
/** The page (its `send`) whose resign button asks "Really resign?", and until when. */
let resignAsked = { send: null, until: 0 };

/** The game's buttons: resign (asked twice), abort, takeback offers and answers, a claim. */
export function roomButtons({ state, you, send, names, absentLeft }) {
  if (!state || state.over || !you.length) return [];
  const items = [];
  const offer = state.takeback;
  if (offer && !you.includes(offer.by)) {
    items.push(
      h(
        "div",
        { class: "offer", role: "alert" },
        h("span", {}, `${names[offer.by]} asks to take back their last move.`),
        h("button", { type: "button", class: "primary small", "data-room": "accept", onClick: () => send({ type: "takeback", op: "accept" }) }, "Accept"),
        h("button", { type: "button", class: "small", "data-room": "decline", onClick: () => send({ type: "takeback", op: "decline" }) }, "Decline"),
      ),
    );
  } else if (offer) {
    items.push(h("p", { class: "offer muted" }, "You offered a takeback: waiting for an answer."));
  }
  for (const away of state.absent || []) {
    if (you.includes(away.seat) || away.claim_in_ms === null || away.claim_in_ms === undefined) continue;
    const left = absentLeft(away);
    items.push(
      left > 0
        ? h(
            "p",
            { class: "leaving", "data-claim-seat": away.seat },
            h("span", {}, `${names[away.seat]} left the game. You may claim the win in `, h("span", { class: "claim-countdown" }, clockText(left)), "."),
          )
        : h(
            "div",
            { class: "leaving", "data-claim-seat": away.seat },
            h("span", {}, `${names[away.seat]} left the game.`),
            h("button", { type: "button", class: "primary small", "data-room": "claim", onClick: () => send({ type: "claim" }) }, "Claim the win"),
          ),
    );
  }
  const row = [];
  if (state.abortable) {
    row.push(h("button", { type: "button", class: "small", "data-room": "abort", onClick: () => send({ type: "abort" }) }, "Abort"));
  }
  if (!offer && (state.movers || []).some((mover) => you.includes(mover))) {
    row.push(h("button", { type: "button", class: "small", "data-room": "takeback", onClick: () => send({ type: "takeback", op: "offer" }) }, "Take back"));
  }
  // Asked twice: the question stays for RESIGN_ASK_MS, whatever the page redraws meanwhile.
  const resign = h("button", { type: "button", class: "small danger", "data-room": "resign" }, "Resign");
  const asking = () => resignAsked.send === send && performance.now() < resignAsked.until;
  const ask = () => {
    resign.dataset.confirm = "1";
    resign.textContent = "Really resign?";
    setTimeout(() => {
      if (asking()) return;
      delete resign.dataset.confirm;
      resign.textContent = "Resign";
    }, resignAsked.until - performance.now());
  };
  if (asking()) ask();
  resign.addEventListener("click", () => {
    if (asking()) {
      resignAsked = { send: null, until: 0 };
      send({ type: "resign" });
      return;
    }
    resignAsked = { send, until: performance.now() + RESIGN_ASK_MS };
    ask();
  });
  row.push(resign);
  items.push(h("div", { class: "room-buttons" }, row));
  return items;
}

/** The chat of this reader's room: the lines as text, a box to write in, and a way to hide. */
export class ChatPanel {
  constructor({ onSend, enabled = true, onToggle = () => {} }) {
    this.onSend = onSend;
    this.onToggle = onToggle;
    this.enabled = enabled;
    this.room = null;
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite" });
    this.input = h("input", { type: "text", maxlength: 300, placeholder: "Say something…", "aria-label": "Chat message", autocomplete: "off" });
    const form = h("form", { class: "chat-form" }, this.input, h("button", { type: "submit", class: "small" }, "Send"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (this.onSend(text)) this.input.value = "";
    });
    this.title = h("h2", {}, "Chat");
    this.toggle = h("button", { type: "button", class: "ghost small chat-toggle" });
    this.toggle.addEventListener("click", () => {
      this.enabled = !this.enabled;
      this.onToggle(this.enabled);
      this.render();
    });
    this.body = h("div", { class: "chat-body" }, this.list, form);
    this.element = h("section", { class: "panel chat" }, h("div", { class: "chat-head" }, this.title, this.toggle), this.body);
    this.render();
  }

  /** A chat message from the server: the room's recent lines, or a new one. */
  receive(message, labels) {
    if (message.room !== this.room) {
      this.room = message.room;
      this.list.replaceChildren();
    }
    for (const line of message.lines || []) {
      const who = line.seat === null || line.seat === undefined ? "spectator" : labels[line.seat] || line.name;
      const item = h("li", { "data-number": line.number }, h("strong", {}, `${who}: `));
      item.append(document.createTextNode(line.text)); // text, never markup
      this.list.append(item);
    }
    while (this.list.children.length > 200) this.list.firstElementChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
    this.render();
  }

  render() {
    this.title.textContent = this.room === "spectators" ? "Spectators' chat" : "Chat";
    this.toggle.textContent = this.enabled ? "Turn chat off" : "Turn chat on";
    this.toggle.setAttribute("aria-pressed", this.enabled ? "false" : "true");
    this.body.hidden = !this.enabled;
    this.element.classList.toggle("off", !this.enabled);
  }
}

/** The panel between two rounds: the round's result, "Continue" and whom it waits for. */
export function pausePanel({ state, you, details, label, onContinue }) {
  const pause = state.pause;
  const mine = you.filter((seat) => (pause.waiting || []).includes(seat));
  const button = h("button", { type: "button", class: "primary continue", disabled: !mine.length }, label);
  button.addEventListener("click", () => {
    if (onContinue()) button.disabled = true;
  });
  const waitingFor = (pause.waiting || []).filter((seat) => !you.includes(seat)).map((seat) => capitalize(state.seats?.[seat]?.name || ""));
  return h(
    "section",
    { class: "panel pause-panel", role: "status" },
    details,
    h(
      "div",
      { class: "buttons" },
      you.length ? button : null,
      h("span", { class: "pause-countdown" }),
      !mine.length && waitingFor.length ? h("span", { class: "muted" }, `Waiting for ${waitingFor.join(" and ")}…`) : null,
    ),
  );
}

/** The end of the game: the result, why, the game's details, a rematch, the replay. */
export function gameOverPanel({ id, state, you, result, details, onRematch }) {
  const rematch = h("button", { type: "button", class: "primary rematch" }, state.rematch ? "Go to the rematch" : "Rematch");
  rematch.addEventListener("click", async () => {
    rematch.disabled = true;
    if (!(await onRematch())) rematch.disabled = false;
  });
  const outcome = state.outcome || {};
  return h(
    "section",
    { class: "panel game-over", role: "status" },
    h("h2", {}, "Game over"),
    h("p", { class: "result" }, result),
    state.rematch && you.length ? h("p", { class: "rematch-note" }, "A rematch has been started.") : null,
    outcome.reason ? h("p", { class: "reason" }, outcome.reason) : null,
    ratingChanges(state, (index) => {
      const seat = (state.seats || []).find((s) => s.index === index);
      return seat?.player || seatName(seat?.name || "");
    }),
    details || null,
    h(
      "div",
      { class: "buttons" },
      you.length
        ? rematch
        : state.rematch
          ? h("a", { class: "button", href: `/game/${encodeURIComponent(state.rematch)}` }, "Watch the rematch")
          : null,
      h("a", { class: "button", href: `/replay/${encodeURIComponent(id)}` }, "Replay"),
      h("a", { class: "button", "data-action": "analyse", href: `/analysis/${encodeURIComponent(state.game)}?from=${encodeURIComponent(id)}&step=${(state.actions || []).length}` }, "Analyse"),
      h("a", { class: "button", href: "/" }, "Home"),
    ),
  );
}

/** The legal moves as a list of buttons (the server's texts), usable when the player may move. */
export function legalList(state, usable, play) {
  const legal = state.legal || [];
  return [
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
                item.words || item.text,
                item.words ? h("code", { class: "notation" }, item.text) : null,
              ),
            ),
          ),
        )
      : h("p", { class: "muted" }, state.over ? "The game is over." : "None for now."),
  ];
}

/** A switch of the page (a button that says "…: on" or "…: off"; a flip says its name alone). */
export function toggle(name, on, label, title, onClick) {
  const text = name === "flip" ? label : `${label}: ${on ? "on" : "off"}`;
  return h("button", { type: "button", class: `ghost small ${name}`, "aria-pressed": on ? "true" : "false", title: title || null, onClick }, text);
}
