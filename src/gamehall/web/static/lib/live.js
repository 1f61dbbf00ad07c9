// The live connection to one game over WebSocket /ws/games/{id} (docs/web-protocol.md).
//
// The client keeps the last version it has seen and the action history up to it. It says
// `hello` with that version on every (re)connect. Each state carries the actions after the
// first `since` the client has (a delta; a takeback may make `since` less than it has): the
// client keeps that many of its actions, appends the new ones and hands on the whole
// state; a delta that does not follow what it has, or an error `stale_version`, makes it send
// `resync` (which answers with every action). The socket carries no secret: the server knows
// the seats this browser holds from its identity cookie.
// A dropped connection reconnects by itself with exponential backoff (0.5 s doubling to 15 s).

const PING_EVERY_MS = 20000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 15000;

export class LiveGame {
  /**
   * handlers: onState(message), onPresence(message), onChat(message), onError(message),
   * onStatus(status, detail)
   * status is "connecting" | "live" | "reconnecting" | "closed".
   */
  constructor(id, handlers, { version = -1, actions = [], movers = [], words = [] } = {}) {
    this.id = id;
    this.handlers = handlers;
    this.version = version;
    this.actions = version >= 0 ? [...actions] : [];
    this.movers = version >= 0 ? [...movers] : [];
    this.words = version >= 0 ? [...words] : []; // each action told in words (parallel)
    this.socket = null;
    this.closed = false;
    this.attempt = 0;
    this.awaitingResync = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.id)}`;
  }

  status(status, detail = "") {
    this.handlers.onStatus?.(status, detail);
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.status(this.attempt ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (error) {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.awaitingResync = false;
      this.send({ type: "hello", version: this.version });
      this.status("live");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      clearInterval(this.pingTimer);
      this.socket = null;
      if (!this.closed) this.scheduleReconnect();
    });
    socket.addEventListener("error", () => {
      // A "close" event always follows; reconnecting happens there.
    });
  }

  scheduleReconnect() {
    if (this.closed) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempt);
    const jittered = Math.round(delay * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.status("reconnecting", `retrying in ${Math.ceil(jittered / 1000)} s`);
    this.retryTimer = setTimeout(() => this.connect(), jittered);
  }

  /** Try again at once (the browser came back online, or the user asked). */
  reconnectNow() {
    if (this.closed || this.socket) return;
    this.attempt = Math.max(this.attempt, 1);
    this.connect();
  }

  receive(message) {
    switch (message.type) {
      case "state": {
        const since = message.since || 0;
        if (since > this.actions.length) {
          // A delta that does not follow the history we have: ask for all of it. (A delta may
          // keep fewer actions than we have: a takeback undid the others.)
          if (!this.awaitingResync) this.resync();
          return;
        }
        if (message.version < this.version && !this.awaitingResync) return; // an old message
        this.awaitingResync = false;
        this.actions = this.actions.slice(0, since).concat(message.actions);
        this.movers = this.movers.slice(0, since).concat(message.movers);
        this.words = this.words.slice(0, since).concat(message.words || message.actions.map(() => ""));
        this.version = message.version;
        const whole = { actions: [...this.actions], movers: [...this.movers], words: [...this.words] };
        this.handlers.onState?.({ ...message, since: 0, ...whole });
        break;
      }
      case "presence":
        this.handlers.onPresence?.(message);
        break;
      case "chat":
        this.handlers.onChat?.(message);
        break;
      case "error":
        if (message.code === "stale_version") this.resync();
        // An error without a version: the game cannot be opened (no such game, other rules):
        // the server closes the socket, and reconnecting would not help.
        if (message.version === null) this.close();
        this.handlers.onError?.(message);
        break;
      default:
        break; // pong and anything newer
    }
  }

  resync() {
    this.awaitingResync = true;
    this.send({ type: "resync" });
  }

  /** Send a move for the seat this browser holds; returns false when not connected. */
  move(action) {
    return this.send({ type: "move", version: this.version, action });
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener("online", this.onOnline);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
    this.status("closed");
  }
}
