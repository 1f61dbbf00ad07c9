// The lobby (/lobby): quick pairing, open seeks to accept with one click, a form to make one,
// the live games to watch; all kept up to date over the lobby WebSocket (lib/hall.js).

import { api, postJSON } from "../lib/api.js";
import { capitalize, h, replace } from "../dom.js";
import { LobbySocket, accountPanel, me, onMe, playerLink } from "../lib/hall.js";
import { Clocks, clockText as timeText } from "../lib/room.js";
import { controlText as clockText, ratingBadge } from "../lib/rating.js";
import { challengesSection } from "../lib/challenges.js";

function sideText(ctx, seek) {
  if (seek.side === "random") return "random side";
  const seats = ctx.GAMES[seek.game]?.seats || [];
  const name = seats[seek.side];
  return `plays ${typeof name === "string" ? capitalize(name) : `seat ${seek.side}`}`;
}

export function lobbyPage(ctx) {
  const status = h("span", { class: "lobby-status", "data-status": "connecting" }, "connecting…");
  const quick = h("div", { class: "quick-body" }, ctx.loading());
  const seeks = h("div", { class: "seeks-body" }, ctx.loading());
  const games = h("div", { class: "live-body" }, ctx.loading());
  const account = accountPanel(ctx);
  const challenges = challengesSection(ctx);
  const games_ = Object.values(ctx.GAMES);
  let signedIn = null;
  let quickRated = false;
  let last = null;

  // --- making a seek ---
  const gameSelect = h("select", { name: "game", id: "seek-game" }, games_.map((g) => h("option", { value: g.name }, g.title)));
  const clockSelect = h(
    "select",
    { name: "clock", id: "seek-clock" },
    ["3+2", "5+3", "10+5", "15+10", "30+20", "d1", "d3", ""].map((c) => h("option", { value: c, selected: c === "10+5" }, clockText(c))),
  );
  const sideSelect = h("select", { name: "side", id: "seek-side" });
  const ratedBox = h("input", { type: "checkbox", name: "rated", id: "seek-rated" });
  const ratedNote = h("small", { class: "muted" }, "");
  const makeButton = h("button", { type: "submit", class: "primary" }, "Create seek");
  const syncSides = () => {
    const seats = ctx.GAMES[gameSelect.value]?.seats || [];
    replace(
      sideSelect,
      h("option", { value: "random" }, "Random"),
      seats.map((name, index) => h("option", { value: index }, typeof name === "string" ? name : `seat ${index}`)),
    );
  };
  gameSelect.addEventListener("change", syncSides);
  syncSides();
  const seekForm = h(
    "form",
    { class: "seek-form" },
    h("div", { class: "field" }, h("label", { for: "seek-game" }, "Game"), gameSelect),
    h("div", { class: "field" }, h("label", { for: "seek-clock" }, "Time"), clockSelect),
    h("div", { class: "field" }, h("label", { for: "seek-side" }, "Side"), sideSelect),
    h("div", { class: "field check" }, h("label", { for: "seek-rated" }, ratedBox, " Rated"), ratedNote),
    makeButton,
  );
  seekForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const side = sideSelect.value === "random" ? "random" : Number(sideSelect.value);
    makeButton.disabled = true;
    try {
      await postJSON("/api/seeks", { game: gameSelect.value, clock: clockSelect.value || null, rated: ratedBox.checked, side });
    } catch (error) {
      ctx.notify(error.message);
    } finally {
      makeButton.disabled = false;
    }
  });

  let socket = null;
  const handlers = {
    onLobby(message) {
      last = message;
      render();
    },
    onChallenges: challenges.update,
    onPaired(message) {
      ctx.notify("Opponent found: the game begins.", "info");
      ctx.navigate(message.url);
    },
    onError(message) {
      ctx.notify(message.message || message.code);
    },
    onStatus(value) {
      status.dataset.status = value;
      status.textContent = { live: "live", connecting: "connecting…", reconnecting: "reconnecting…" }[value] || value;
    },
  };
  let closed = false;
  // The socket knows the browser by its cookies: open it once GET /api/me has set them.
  me()
    .catch(() => null)
    .then(() => {
      if (!closed) socket = new LobbySocket(handlers);
    });
  const send = (message) => socket?.send(message);
  const unsubscribe = onMe((who) => {
    if (signedIn !== null && signedIn !== who.account) socket?.reconnect(); // the lobby knows you anew
    signedIn = who.account;
    if (!signedIn) quickRated = false;
    ratedBox.disabled = !signedIn;
    if (!signedIn) ratedBox.checked = false;
    replace(ratedNote, signedIn ? "" : h("a", { href: "/signin?next=%2Flobby" }, "sign in to play rated"));
    if (last) render();
  });

  function render() {
    renderQuick();
    renderSeeks();
    renderGames();
  }

  function renderQuick() {
    const waiting = last.waiting;
    if (waiting) quickRated = waiting.rated;
    const rated = h("input", { type: "checkbox", id: "quick-rated", checked: quickRated && signedIn, disabled: !signedIn });
    rated.addEventListener("change", () => {
      quickRated = rated.checked;
      renderQuick();
    });
    const pools = new Map(last.pools.map((p) => [`${p.game}|${p.clock}|${p.rated}`, p.waiting]));
    const rows = games_.map((game) =>
      h(
        "div",
        { class: "quick-game", "data-game": game.name },
        h("h3", {}, game.title),
        h(
          "div",
          { class: "quick-buttons" },
          last.controls.map((clock) => {
            const here = waiting && waiting.game === game.name && waiting.clock === clock;
            const count = pools.get(`${game.name}|${clock}|${rated.checked}`) || 0;
            const button = h(
              "button",
              { type: "button", class: `quick${here ? " waiting" : ""}`, "data-clock": clock, "aria-pressed": here ? "true" : "false" },
              h("strong", {}, clock),
              h("small", {}, here ? "waiting…" : count ? `${count} waiting` : "\u00a0"),
            );
            button.addEventListener("click", () => {
              if (here) send({ type: "unpair" });
              else send({ type: "pair", game: game.name, clock, rated: rated.checked });
            });
            return button;
          }),
        ),
      ),
    );
    replace(
      quick,
      h("label", { class: "check", for: "quick-rated" }, rated, " Rated"),
      signedIn ? "" : h("small", { class: "muted" }, " (", h("a", { href: "/signin?next=%2Flobby" }, "sign in"), " to play rated)"),
      rows,
      waiting
        ? h(
            "p",
            { class: "waiting-note" },
            `Looking for an opponent: ${ctx.titleOf(waiting.game)}, ${clockText(waiting.clock)}, ${waiting.rated ? "rated" : "casual"}. `,
            h("button", { type: "button", class: "ghost", onClick: () => send({ type: "unpair" }) }, "Stop"),
          )
        : null,
    );
  }

  function renderSeeks() {
    if (!last.seeks.length) {
      replace(seeks, h("p", { class: "muted" }, "No open seeks. Make one below, or use quick pairing."));
      return;
    }
    replace(
      seeks,
      h(
        "ul",
        { class: "seek-list" },
        last.seeks.map((seek) => {
          const action = seek.mine
            ? h("button", { type: "button", class: "ghost", "data-action": "cancel" }, "Cancel")
            : seek.same_person // a rated game needs two people: no Accept that can only be refused
              ? h("span", { class: "muted same-person", title: "A rated game needs two people: you cannot play your own bot rated" }, seek.bot ? "Your bot" : "Your own")
              : seek.rated && !signedIn // a rated game needs an account: the way to one instead
              ? h("a", { class: "button", href: "/signin?next=%2Flobby", "data-action": "sign-in" }, "Sign in to play")
              : h("button", { type: "button", class: "primary", "data-action": "accept" }, "Accept");
          if (action.tagName === "BUTTON") action.addEventListener("click", async () => {
            action.disabled = true;
            try {
              if (seek.mine) await api("DELETE", `/api/seeks/${encodeURIComponent(seek.id)}`);
              else {
                const created = await postJSON(`/api/seeks/${encodeURIComponent(seek.id)}/accept`);
                ctx.navigate(`/game/${encodeURIComponent(created.id)}`);
              }
            } catch (error) {
              ctx.notify(error.message);
              action.disabled = false;
            }
          });
          return h(
            "li",
            { class: `seek${seek.mine ? " mine" : ""}`, "data-seek": seek.id },
            h(
              "span",
              { class: "seek-who" },
              playerLink(seek.name, { bot: seek.bot }),
              seek.rating !== null ? [" ", ratingBadge(seek)] : null,
            ),
            h("span", { class: "seek-what" }, `${ctx.titleOf(seek.game)} · ${clockText(seek.clock)} · ${seek.rated ? "rated" : "casual"} · ${sideText(ctx, seek)}`),
            action,
          );
        }),
      ),
    );
  }

  function renderGames() {
    if (!last.games.length) {
      replace(games, h("p", { class: "muted" }, "Nobody is playing right now."));
      return;
    }
    replace(
      games,
      h(
        "ul",
        { class: "live-list" },
        last.games.map((game) =>
          h(
            "li",
            { class: "live-game", "data-id": game.id },
            h("a", { href: `/game/${encodeURIComponent(game.id)}`, class: "watch" }, ctx.titleOf(game.game)),
            livePlayers(game),
            h("span", { class: "live-clock muted" }, `${clockText(game.clock)}${game.rated ? " · rated" : ""} · ${game.version} move${game.version === 1 ? "" : "s"}`),
          ),
        ),
      ),
    );
  }

  // Each player's name with their clock; the running one counts down on its own between lobby
  // messages. It counts from the server's time of the message (``sent``), not from when the
  // message came: ``lateBy`` is how much longer this message took than the quickest one so far
  // (arrival minus ``sent``, less the least of those: network time and the two machines'
  // clock difference cancel), so a message held up on its way, or read late by a background
  // tab, does not show a clock that much too high.
  let quickest = Infinity;
  function lateBy(sent) {
    const took = Date.now() - sent;
    quickest = Math.min(quickest, took);
    return Math.min(took - quickest, 60_000);
  }
  let times = [];
  function livePlayers(game) {
    const info = game.clocks;
    const clocks = new Clocks();
    if (info) {
      clocks.set(info);
      clocks.at -= lateBy(info.sent);
    }
    const spans = [];
    const element = h(
      "span",
      { class: "live-players" },
      game.players.map((name, seat) => {
        const span = info && info.remaining[seat] !== null ? h("span", { class: "live-time", "data-seat": seat }) : null;
        if (span) spans[seat] = span;
        const rating = game.ratings?.[seat];
        return [seat ? h("span", { class: "muted" }, " vs ") : "", h("span", { class: "live-seat" }, playerLink(name, { bot: game.bots?.[seat] }), rating ? [" ", ratingBadge(rating)] : null, span ? " " : "", span)];
      }),
    );
    if (info) {
      times.push({ clocks, spans, element });
      showTimes();
    }
    return element;
  }
  function showTimes() {
    times = times.filter((entry) => entry.element.isConnected || !entry.shown);
    for (const entry of times) {
      entry.shown = true;
      entry.spans.forEach((span, seat) => {
        if (!span) return;
        const left = entry.clocks.remaining(seat);
        span.textContent = left === null || left === undefined ? "–" : timeText(left);
        span.classList.toggle("running", entry.clocks.info.running === seat);
        span.classList.toggle("low", left !== null && left < 20_000);
      });
    }
  }
  const ticker = setInterval(showTimes, 500);

  ctx.page(
    "lobby",
    h("div", { class: "lobby-head" }, h("h1", {}, "Lobby"), status),
    h(
      "div",
      { class: "lobby-grid" },
      h(
        "div",
        { class: "lobby-main" },
        challenges.element,
        h("section", { class: "panel quick-pairing" }, h("h2", {}, "Quick pairing"), quick),
        h("section", { class: "panel open-seeks" }, h("h2", {}, "Open seeks"), seeks),
        h("section", { class: "panel make-seek" }, h("h2", {}, "Make a seek"), seekForm),
      ),
      h(
        "aside",
        { class: "lobby-side" },
        account.element,
        h("section", { class: "panel live-games" }, h("h2", {}, "Playing now"), games),
        h("p", {}, h("a", { href: `/leaderboard/${games_[0]?.name || ""}` }, "Leaderboards")),
      ),
    ),
  );
  document.title = "Lobby · gamehall";
  me().catch((error) => ctx.notify(error.message));
  return () => {
    closed = true;
    clearInterval(ticker);
    socket?.close();
    unsubscribe();
    account.close();
  };
}
