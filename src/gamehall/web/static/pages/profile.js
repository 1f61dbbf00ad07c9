// A player's profile (/player/NAME): each game's rating with its history as a small SVG plot
// and the results by seat, then recent games linking to their replay (and review). And the
// leaderboard of a game (/leaderboard/GAME).

import { getJSON } from "../lib/api.js";
import { ago, append, capitalize, h, replace, s } from "../dom.js";
import { botTag, me, playerLink } from "../lib/hall.js";
import { PROVISIONAL_NOTE, ratingText } from "../lib/rating.js";
import { challengePanel } from "../lib/challenges.js";

const PLOT = { width: 320, height: 120, pad: 34 };

/** The rating history as a line with its ±deviation band; y from the points' own range. */
export function ratingPlot(history) {
  const { width, height, pad } = PLOT;
  const svg = s("svg", { class: "rating-plot", viewBox: `0 0 ${width} ${height}`, role: "img" });
  if (!history.length) return svg;
  const points = [{ rating: 1500, deviation: 350 }, ...history];
  const lows = points.map((p) => p.rating - Math.min(p.deviation, 200));
  const highs = points.map((p) => p.rating + Math.min(p.deviation, 200));
  let low = Math.min(...lows);
  let high = Math.max(...highs);
  if (high - low < 50) [low, high] = [low - 25, high + 25];
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, points.length - 1);
  const y = (value) => height - pad / 2 - ((value - low) * (height - pad)) / (high - low);
  const band = [
    ...points.map((p, i) => `${x(i)},${y(p.rating + Math.min(p.deviation, 200))}`),
    ...points.map((p, i) => `${x(i)},${y(p.rating - Math.min(p.deviation, 200))}`).reverse(),
  ].join(" ");
  const line = points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ");
  const last = points[points.length - 1];
  append(svg, [
    s("title", {}, `Rating after each rated game: ${history.map((p) => p.rating).join(", ")}`),
    s("polygon", { points: band, class: "plot-band" }),
    s("line", { x1: pad, x2: width - pad, y1: y(1500), y2: y(1500), class: "plot-base" }),
    s("polyline", { points: line, class: "plot-line" }),
    points.map((p, i) => s("circle", { cx: x(i), cy: y(p.rating), r: 3, class: i ? "plot-point" : "plot-start" })),
    s("text", { x: 2, y: y(1500) + 4, class: "plot-label" }, "1500"),
    s("text", { x: width - 2, y: y(last.rating) - 6, class: "plot-label end" }, String(last.rating)),
  ]);
  return svg;
}

function ratingCard(ctx, rating) {
  const shown = ratingText(rating);
  return h(
    "section",
    { class: "panel rating-card", "data-game": rating.game },
    h(
      "header",
      {},
      h("h2", {}, ctx.titleOf(rating.game)),
      h("span", { class: "rating-value", "data-rating": rating.rating, title: rating.provisional ? PROVISIONAL_NOTE : "rating" }, shown),
      h("span", { class: "muted" }, ` ±${rating.deviation} · ${rating.games} rated game${rating.games === 1 ? "" : "s"}`),
    ),
    ratingPlot(rating.history),
    h(
      "table",
      { class: "seat-scores" },
      h("thead", {}, h("tr", {}, h("th", {}, "As"), h("th", {}, "Won"), h("th", {}, "Drawn"), h("th", {}, "Lost"))),
      h(
        "tbody",
        {},
        rating.seats.map((seat) =>
          h("tr", { "data-seat": seat.seat }, h("td", {}, capitalize(seat.name)), h("td", {}, seat.wins), h("td", {}, seat.draws), h("td", {}, seat.losses)),
        ),
      ),
    ),
    h("p", {}, h("a", { href: `/leaderboard/${encodeURIComponent(rating.game)}` }, "Leaderboard")),
  );
}

function resultFor(game, name) {
  if (game.status !== "finished" || !game.result) return "ongoing";
  const mine = game.seats.filter((seat) => seat.player === name).map((seat) => seat.seat);
  const winner = game.result.winner;
  if (winner === null || winner === undefined) return "drawn";
  if (mine.length === 1) return mine[0] === winner ? "won" : "lost";
  return `${capitalize(game.result.winner_name || "")} won`;
}

function gameRow(ctx, game, name) {
  const result = resultFor(game, name);
  return h(
    "li",
    { class: `profile-game result-${result.split(" ")[0]}`, "data-id": game.id },
    h("span", { class: "pg-game" }, h("strong", {}, ctx.titleOf(game.game)), game.rated ? " · rated" : " · casual", game.clock ? ` · ${game.clock}` : ""),
    h(
      "span",
      { class: "pg-players" },
      game.seats.map((seat, index) => [index ? " vs " : "", seat.player && !seat.player.startsWith("computer") ? playerLink(seat.player, { bot: seat.bot }) : seat.player || "—", h("small", { class: "muted" }, ` (${capitalize(seat.name)})`)]),
    ),
    h("span", { class: "pg-result" }, result),
    h(
      "span",
      { class: "pg-links" },
      h("a", { href: game.replay }, "Replay"),
      game.review && game.status === "finished" && game.result?.result !== "*" ? h("a", { href: game.review, class: "review-link" }, "Review") : null,
      game.status === "ongoing" ? h("a", { href: `/game/${encodeURIComponent(game.id)}` }, "Open") : null,
    ),
    h("span", { class: "pg-when muted" }, ago(game.updated)),
  );
}

/** On your own page as a guest: the way to an account (kept when you sign up). */
function guestNote(profile) {
  if (profile.account) return null;
  const note = h("p", { class: "panel guest-note", hidden: true });
  const next = encodeURIComponent(location.pathname);
  me().then((who) => {
    if (who.account || who.name !== profile.name) return;
    replace(note, "You play as a guest. ", h("a", { href: `/signup?next=${next}` }, "Sign up"), " to keep your name and games on any device and to play rated games, or ", h("a", { href: `/signin?next=${next}` }, "sign in"), ".");
    note.hidden = false;
  }, () => {});
  return note;
}

export function profilePage(ctx, name) {
  const body = h("div", { class: "profile-body" }, ctx.loading());
  ctx.page("profile", body);
  document.title = `${name} · gamehall`;
  let challenge = null;
  let gone = false;
  getJSON(`/api/players/${encodeURIComponent(name)}`)
    .then((profile) => {
      if (gone) return;
      challenge = profile.bot ? null : challengePanel(ctx, profile); // a bot answers no challenge
      replace(
        body,
        h(
          "div",
          { class: "profile-head" },
          h("h1", {}, profile.bot ? [botTag(), " "] : null, profile.name),
          h("span", { class: "muted" }, profile.bot ? "bot account" : profile.account ? "account" : "guest", ` · since ${new Date(profile.created).toLocaleDateString()}`),
        ),
        guestNote(profile),
        challenge
          ? challenge.element
          : h("p", { class: "panel muted bot-note" }, `${profile.name} is a bot: a program plays it. It takes the open seeks in the lobby that suit it, and answers no challenges.`),
        profile.ratings.length
          ? h("div", { class: "rating-cards" }, profile.ratings.map((rating) => ratingCard(ctx, rating)))
          : h("p", { class: "panel muted" }, "No rated games yet."),
        h(
          "section",
          { class: "panel" },
          h("h2", {}, "Recent games"),
          profile.games.length ? h("ul", { class: "profile-games" }, profile.games.map((game) => gameRow(ctx, game, profile.name))) : h("p", { class: "muted" }, "None yet."),
        ),
      );
    })
    .catch((error) => replace(body, ctx.failure(error)));
  return () => {
    gone = true;
    challenge?.close();
  };
}

export function leaderboardPage(ctx, game) {
  const body = h("div", { class: "leaderboard-body" }, ctx.loading());
  const tabs = h(
    "nav",
    { class: "tabs" },
    Object.values(ctx.GAMES).map((g) => h("a", { href: `/leaderboard/${g.name}`, class: g.name === game ? "current" : "" }, g.title)),
  );
  ctx.page("leaderboard", h("h1", {}, `Leaderboard: ${ctx.titleOf(game)}`), tabs, body);
  document.title = `Leaderboard · ${ctx.titleOf(game)} · gamehall`;
  getJSON(`/api/leaderboard/${encodeURIComponent(game)}`)
    .then((board) => {
      const note = h("p", { class: "muted" }, `Players with at least ${board.min_games} rated game${board.min_games === 1 ? "" : "s"} against ${board.min_opponents} different opponent${board.min_opponents === 1 ? "" : "s"} or more, and a deviation of at most ${board.max_deviation}.`, board.players.some((row) => row.provisional) ? ` ${PROVISIONAL_NOTE}.` : "", board.players.some((row) => row.bot) ? " BOT: a bot account, played by a program; bots are rated with everyone and listed with them." : "");
      if (!board.players.length) {
        replace(body, h("section", { class: "panel" }, note, h("p", {}, "Nobody yet.")));
        return;
      }
      replace(
        body,
        h(
          "section",
          { class: "panel" },
          note,
          h(
            "table",
            { class: "leaderboard" },
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", { class: "num" }, "Rating"), h("th", { class: "num" }, "±"), h("th", { class: "num" }, "Games"))),
            h(
              "tbody",
              {},
              board.players.map((row) =>
                h("tr", { "data-name": row.name }, h("td", {}, row.rank), h("td", {}, playerLink(row.name, { bot: row.bot })), h("td", { class: "num" }, ratingText(row)), h("td", { class: "num muted" }, row.deviation), h("td", { class: "num" }, row.games)),
              ),
            ),
          ),
        ),
      );
    })
    .catch((error) => replace(body, ctx.failure(error)));
  return null;
}
