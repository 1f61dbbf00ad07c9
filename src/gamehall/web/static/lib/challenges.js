// Challenges (POST/GET /api/challenges): the form on a player's profile that challenges them,
// the lobby's list of your challenges (incoming: Accept, Decline; outgoing: Cancel), and the
// header's count of challenges waiting for you. Live over the lobby socket (lib/hall.js:
// `challenges` and `paired` messages); elsewhere the header's count is asked for now and then.

import { getJSON, postJSON } from "./api.js";
import { capitalize, h, replace } from "../dom.js";
import { headerBadge } from "./header.js";
import { LobbySocket, botTag, me, playerLink } from "./hall.js";
import { offered, optionField, readOptions } from "./options.js";
import { controlText as clockText } from "./rating.js";

const BADGE_EVERY_MS = 30_000;

// The time controls a challenge offers (as the lobby's seek form).
const CLOCKS = ["3+2", "5+3", "10+5", "15+10", "30+20", "d1", "d3", ""];

function seatLabel(ctx, game, side) {
  const name = (ctx.GAMES[game]?.seats || [])[side];
  return typeof name === "string" ? capitalize(name) : `seat ${side}`;
}

/** A challenge in words: "<Game> · 5+3 · rated · Ada plays <side>". */
export function challengeText(ctx, c) {
  const side = c.side === "random" ? "sides drawn at random" : `${c.challenger} plays ${seatLabel(ctx, c.game, c.side)}`;
  const defaults = new Map((ctx.GAMES[c.game]?.options || []).map((o) => [o.name, o.default]));
  const changed = Object.entries(c.options || {}).filter(([name, value]) => defaults.has(name) && defaults.get(name) !== value);
  const variants = changed.length ? ` · ${changed.map(([name, value]) => `${name.replaceAll("_", " ")} ${value}`).join(", ")}` : "";
  return `${ctx.titleOf(c.game)} · ${clockText(c.clock)} · ${c.rated ? "rated" : "casual"} · ${side}${variants}`;
}

function minutes(seconds) {
  if (seconds >= 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.max(1, Math.round(seconds / 60))} min`;
}

/** Show the number of challenges waiting for you in the header. */
export function showBadge(count) {
  headerBadge("challenges", { count, href: "/lobby#challenges", label: "Challenges" });
}

/** Keep the header's count up to date on every page: asked for now, then every 30 s while the
 * page is visible (the lobby tells it live). */
export function watchChallengeBadge() {
  const look = () => {
    if (document.visibilityState === "hidden") return;
    getJSON("/api/challenges")
      .then((list) => showBadge(list.incoming.length))
      .catch(() => {});
  };
  me().then(look, () => {});
  setInterval(look, BADGE_EVERY_MS);
  document.addEventListener("visibilitychange", look);
}

/** The lobby's Challenges section: `element`, and `update(message)` with each `challenges`
 * message. */
export function challengesSection(ctx) {
  const body = h("div", { class: "challenges-body" }, h("p", { class: "muted" }, "No challenges."));
  const element = h(
    "section",
    { class: "panel challenges", id: "challenges" },
    h("h2", {}, "Challenges"),
    body,
    h(
      "p",
      { class: "first-move-note" },
      "In an online game each side has 30 seconds for its first move (a day by correspondence or with no clock); a side that does not move in time aborts the game, with no result and no rating change.",
    ),
  );
  const act = async (button, path, after) => {
    button.disabled = true;
    try {
      const answer = await postJSON(path);
      after?.(answer);
    } catch (error) {
      ctx.notify(error.message);
      button.disabled = false;
    }
  };
  const row = (c, incoming) => {
    const path = `/api/challenges/${encodeURIComponent(c.id)}`;
    const buttons = incoming
      ? [
          h("button", { type: "button", class: "primary", "data-action": "accept" }, "Accept"),
          h("button", { type: "button", class: "ghost", "data-action": "decline" }, "Decline"),
        ]
      : [h("button", { type: "button", class: "ghost", "data-action": "cancel" }, "Cancel")];
    buttons.forEach((button) => {
      const what = button.dataset.action;
      button.addEventListener("click", () =>
        act(button, `${path}/${what}`, what === "accept" ? (game) => ctx.navigate(`/game/${encodeURIComponent(game.id)}`) : null),
      );
    });
    return h(
      "li",
      { class: `challenge ${incoming ? "incoming" : "outgoing"}`, "data-challenge": c.id },
      h("span", { class: "challenge-who" }, incoming ? [playerLink(c.challenger), " challenges you"] : ["You challenge ", playerLink(c.challenged)]),
      h("span", { class: "challenge-what" }, challengeText(ctx, c), h("small", { class: "muted" }, ` · lapses in ${minutes(c.expires_in)}`)),
      h("span", { class: "challenge-actions" }, buttons),
    );
  };
  function update(message) {
    if (message.note) ctx.notify(capitalize(message.note) + ".", "info");
    showBadge(message.incoming.length);
    element.dataset.count = String(message.incoming.length);
    if (!message.incoming.length && !message.outgoing.length) {
      replace(body, h("p", { class: "muted" }, "No challenges. Challenge a player from their profile."));
      return;
    }
    replace(
      body,
      message.incoming.length ? h("ul", { class: "challenge-list", "aria-label": "Challenges to you" }, message.incoming.map((c) => row(c, true))) : null,
      message.outgoing.length ? h("ul", { class: "challenge-list", "aria-label": "Your challenges" }, message.outgoing.map((c) => row(c, false))) : null,
    );
  }
  return { element, update };
}

/** The profile's "Challenge NAME" panel (nothing on your own profile); returns its element and
 * a cleanup. Once sent, it waits for the answer over the lobby socket: accepted, both are taken
 * to the game; declined, it says so. */
export function challengePanel(ctx, profile) {
  const panel = h("section", { class: "panel challenge-panel", hidden: true });
  let socket = null;
  let sent = null;
  const games = Object.values(ctx.GAMES).filter((g) => (g.seats || []).length === 2);
  const id = (suffix) => `challenge-${suffix}`;
  const gameSelect = h("select", { id: id("game"), name: "game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const clockSelect = h(
    "select",
    { id: id("clock"), name: "clock" },
    CLOCKS.map((c) => h("option", { value: c, selected: c === "10+5" }, clockText(c))),
  );
  const sideSelect = h("select", { id: id("side"), name: "side" });
  const ratedBox = h("input", { type: "checkbox", id: id("rated"), name: "rated" });
  const ratedNote = h("small", { class: "muted rated-note" }, "");
  const variants = h("div", { class: "challenge-variants" });
  const send = h("button", { type: "submit", class: "primary" }, `Challenge ${profile.name}`);
  const status = h("div", { class: "challenge-status", role: "status" });
  const sync = () => {
    const game = ctx.GAMES[gameSelect.value];
    replace(
      sideSelect,
      h("option", { value: "random" }, "Random"),
      (game?.seats || []).map((name, index) => h("option", { value: index }, typeof name === "string" ? capitalize(name) : `seat ${index}`)),
    );
    const fields = game ? offered(game).map((option) => optionField(option, id)) : [];
    replace(variants, fields.length ? h("details", { class: "variants" }, h("summary", {}, "Variants"), fields) : null);
  };
  gameSelect.addEventListener("change", sync);
  sync();
  const form = h(
    "form",
    { class: "challenge-form seek-form" },
    h("div", { class: "field" }, h("label", { for: id("game") }, "Game"), gameSelect),
    h("div", { class: "field" }, h("label", { for: id("clock") }, "Time"), clockSelect),
    h("div", { class: "field" }, h("label", { for: id("side") }, "Your side"), sideSelect),
    h("div", { class: "field check" }, h("label", { for: id("rated") }, ratedBox, " Rated"), ratedNote),
    variants,
    send,
  );
  const showSent = () => {
    if (!sent) {
      replace(status);
      form.hidden = false;
      return;
    }
    form.hidden = true;
    const cancel = h("button", { type: "button", class: "ghost", "data-action": "cancel" }, "Cancel");
    cancel.addEventListener("click", async () => {
      cancel.disabled = true;
      try {
        await postJSON(`/api/challenges/${encodeURIComponent(sent.id)}/cancel`);
      } catch (error) {
        ctx.notify(error.message);
      }
      sent = null;
      showSent();
    });
    replace(
      status,
      h("p", { class: "challenge-sent" }, h("strong", {}, `Challenge sent to ${profile.name}`), `: ${challengeText(ctx, sent)}. Waiting for an answer…`),
      h("p", {}, cancel, " ", h("a", { href: "/lobby#challenges" }, "Your challenges in the lobby")),
    );
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const game = ctx.GAMES[gameSelect.value];
    const side = sideSelect.value === "random" ? "random" : Number(sideSelect.value);
    send.disabled = true;
    try {
      sent = await postJSON("/api/challenges", {
        name: profile.name,
        game: gameSelect.value,
        options: game ? readOptions(form, game) : {},
        clock: clockSelect.value || null,
        rated: ratedBox.checked,
        side,
      });
      showSent();
    } catch (error) {
      ctx.notify(error.message);
    } finally {
      send.disabled = false;
    }
  });
  me()
    .then((who) => {
      if (who.name === profile.name) return; // not yourself
      ratedBox.disabled = !(who.account && profile.account);
      ratedNote.textContent = !who.account ? "sign in to play rated" : profile.account ? "" : `${profile.name} plays as a guest: casual only`;
      replace(panel, h("h2", {}, `Challenge ${profile.name}`), form, status);
      panel.hidden = false;
      // Hear the answer live: the game to go to, or a decline.
      socket = new LobbySocket({
        onPaired: (message) => {
          ctx.notify(`${profile.name} accepted: the game begins.`, "info");
          ctx.navigate(message.url);
        },
        onChallenges: (message) => {
          showBadge(message.incoming.length);
          const open = message.outgoing.find((c) => c.challenged === profile.name);
          if (message.note && sent && !open) ctx.notify(capitalize(message.note) + ".", "info");
          sent = open || null;
          showSent();
        },
      });
    })
    .catch(() => {});
  return { element: panel, close: () => socket?.close() };
}

/** The home page's view of the hall: games being played now (to watch) and open seeks (to
 * accept, or to open the lobby), a few of each (GET /api/hall/now), refreshed every 10 s. */
export function hallNowSection(ctx) {
  const games = h("div", { class: "now-games" }, ctx.loading());
  const seeks = h("div", { class: "now-seeks" }, ctx.loading());
  const element = h(
    "section",
    { class: "panel hall-now" },
    h("div", { class: "hall-now-col" }, h("h2", {}, "Playing now"), games),
    h("div", { class: "hall-now-col" }, h("h2", {}, "Open seeks"), seeks),
  );
  const accept = async (button, seek) => {
    button.disabled = true;
    try {
      const created = await postJSON(`/api/seeks/${encodeURIComponent(seek.id)}/accept`);
      ctx.navigate(`/game/${encodeURIComponent(created.id)}`);
    } catch (error) {
      ctx.notify(error.message);
      button.disabled = false;
    }
  };
  const look = () =>
    getJSON("/api/hall/now")
      .then((now) => {
        replace(
          games,
          now.games.length
            ? h(
                "ul",
                { class: "now-list" },
                now.games.map((g) =>
                  h(
                    "li",
                    { class: "now-game", "data-id": g.id },
                    h("a", { href: `/game/${encodeURIComponent(g.id)}`, class: "watch" }, `Watch ${ctx.titleOf(g.game)}`),
                    h("span", {}, g.players.map((name, seat) => [seat ? " vs " : "", name ? (g.bots?.[seat] ? [botTag(), " ", name] : name) : "—"])),
                    h("small", { class: "muted" }, `${clockText(g.clock)}${g.rated ? " · rated" : ""} · ${g.version} move${g.version === 1 ? "" : "s"}`),
                  ),
                ),
              )
            : h("p", { class: "muted" }, "Nobody is playing online right now."),
        );
        replace(
          seeks,
          now.seeks.length
            ? h(
                "ul",
                { class: "now-list" },
                now.seeks.map((seek) => {
                  const button = seek.mine
                    ? h("a", { href: "/lobby", class: "button ghost" }, "Yours: in the lobby")
                    : seek.same_person // rated against one's own bot: never
                      ? h("span", { class: "muted same-person", title: "A rated game needs two people: you cannot play your own bot rated" }, seek.bot ? "Your bot" : "Your own")
                      : h("button", { type: "button", class: "primary", "data-action": "accept" }, "Accept");
                  if (button.tagName === "BUTTON") button.addEventListener("click", () => accept(button, seek));
                  return h(
                    "li",
                    { class: "now-seek", "data-seek": seek.id },
                    h("span", {}, playerLink(seek.name, { bot: seek.bot }), seek.rating !== null ? h("span", { class: "rating" }, ` ${seek.rating}`) : null),
                    h("small", { class: "muted" }, `${ctx.titleOf(seek.game)} · ${clockText(seek.clock)} · ${seek.rated ? "rated" : "casual"}`),
                    button,
                  );
                }),
              )
            : h("p", { class: "muted" }, "No open seeks."),
          h("p", { class: "now-more" }, h("a", { href: "/lobby" }, "Go to the lobby"), ": quick pairing, seeks, challenges."),
        );
      })
      .catch(() => {});
  look();
  const timer = setInterval(() => {
    if (document.visibilityState !== "hidden") look();
  }, 10_000);
  return { element, close: () => clearInterval(timer) };
}
