// gamehall's browser front end: client-side routes over one index.html.
//
//   /                    home: the games for newcomers, start a game, your games   (pages/home.js)
//   /game/{id}           play or watch (live over WebSocket)                        (pages/game.js)
//   /replay/{id}         step through a game                                        (pages/replay.js)
//   /howto/{game}        How to play: a first lesson with diagrams                  (pages/howto.js)
//   /rules/{game}        the complete rules                                         (pages/howto.js)
//   /lobby               seeks, quick pairing, games to watch                       (pages/lobby.js)
//   /player/{name}       a player's ratings and games                               (pages/profile.js)
//   /leaderboard         the first game's leaderboard (the header's link)
//   /leaderboard/{game}                                                             (pages/profile.js)
//   /signin, /signup     sign in, make an account; back to ?next= after             (pages/account.js)
//   /your-move           your games where it is your move (the header's badge)      (pages/turns.js)
//   /review/{id}         a finished game's review: graph, classes, the best moves   (pages/review.js)
//   /puzzles/{game}      positions with one best move, checked by the server        (pages/puzzles.js)
//   /analysis/{game}     any position, every move valued, a line to branch           (pages/analysis.js)
//
// The folders say what they hold. At the root, what is reached by URL from outside: index.html,
// this module (its one script) and dom.js (the helpers a game's board module may import, as
// /static/dom.js). pages/: one module per page, each exporting the function the router calls.
// lib/: what pages are built from (the header, REST calls, the live socket, the hall's identity and
// lobby socket, page frames, the game room's clocks, buttons and chat, the engine's help, the generic
// board, markdown); internal: no game's board module imports them.
// css/: the stylesheets, linked by index.html.

import { analysisPage } from "./pages/analysis.js";
import { gamePage } from "./pages/game.js";
import { askNameOnce } from "./lib/hall.js";
import { buildHeader, updateHeader } from "./lib/header.js";
import { signInPage, signUpPage } from "./pages/account.js";
import { yourMovePage } from "./pages/turns.js";
import { watchChallengeBadge } from "./lib/challenges.js";
import { homePage } from "./pages/home.js";
import { howToPage, rulesPage } from "./pages/howto.js";
import { lobbyPage } from "./pages/lobby.js";
import { leaderboardPage, profilePage } from "./pages/profile.js";
import { puzzlesPage } from "./pages/puzzles.js";
import { replayPage } from "./pages/replay.js";
import { reviewPage } from "./pages/review.js";
import {
  GAMES,
  boardModule,
  failure,
  loading,
  navigate,
  notify,
  page,
  seatName,
  setRouter,
  titleOf,
} from "./lib/shared.js";

const nav = document.querySelector(".site-head nav");
if (nav) buildHeader(nav);
askNameOnce(notify);
watchChallengeBadge();

let cleanup = null;

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href]");
  if (!link || link.target || link.hasAttribute("download") || event.defaultPrevented) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || /^\/(api|static|ws|games)\//.test(url.pathname)) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});
window.addEventListener("popstate", route);
setRouter(route);

function route() {
  if (cleanup) cleanup();
  cleanup = null;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let match;
  document.body.dataset.page = "";
  if (path === "/" || path === "/index.html") cleanup = homePage();
  else if ((match = path.match(/^\/game\/([^/]+)$/))) cleanup = gamePage(decodeURIComponent(match[1]));
  else if ((match = path.match(/^\/replay\/([^/]+)$/))) cleanup = replayPage(decodeURIComponent(match[1]));
  else if ((match = path.match(/^\/howto\/([^/]+)$/))) cleanup = howToPage(decodeURIComponent(match[1]));
  else if ((match = path.match(/^\/rules\/([^/]+)$/))) cleanup = rulesPage(decodeURIComponent(match[1]));
  else if (path === "/lobby") cleanup = lobbyPage(hallContext());
  else if ((match = path.match(/^\/player\/([^/]+)$/))) cleanup = profilePage(hallContext(), decodeURIComponent(match[1]));
  else if (path === "/leaderboard") cleanup = firstLeaderboard();
  else if (path === "/signin") cleanup = signInPage(hallContext());
  else if (path === "/signup") cleanup = signUpPage(hallContext());
  else if (path === "/your-move") cleanup = yourMovePage(hallContext());
  else if ((match = path.match(/^\/leaderboard\/([^/]+)$/))) cleanup = leaderboardPage(hallContext(), decodeURIComponent(match[1]));
  else if ((match = path.match(/^\/review\/([^/]+)$/))) cleanup = reviewPage(decodeURIComponent(match[1]), pageKit());
  else if ((match = path.match(/^\/puzzles\/([^/]+)$/))) cleanup = puzzlesPage(decodeURIComponent(match[1]), pageKit());
  else if ((match = path.match(/^\/analysis\/([^/]+)$/))) cleanup = analysisPage(decodeURIComponent(match[1]), pageKit());
  else page("missing", failure({ status: 404, message: `There is no page at ${location.pathname}.` }));
  updateHeader();
  window.scrollTo(0, 0);
}

/** /leaderboard: the first game's (the page has a tab for each game). */
function firstLeaderboard() {
  const first = Object.keys(GAMES)[0];
  if (first) navigate(`/leaderboard/${encodeURIComponent(first)}`, { replaceState: true });
  else page("missing", failure({ status: 404, message: "There are no games, so no leaderboards." }));
  return null;
}

/** What the review, puzzle and analysis pages (pages/review.js, puzzles.js, analysis.js) take
 * from the app. */
function pageKit() {
  return { page, loading, failure, notify, navigate, boardModule, titleOf, seatName };
}

/** What the hall's pages (pages/lobby.js, pages/profile.js) use of the shared module. */
function hallContext() {
  return { page, failure, loading, notify, navigate, titleOf, GAMES };
}

route();
