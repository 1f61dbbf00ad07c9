// The home page: each game presented for someone who has never played it (a sentence or two, a
// picture of a real position drawn by the game's own board, how long a game takes, a way to learn
// it), a form to start one, and the games this browser plays.

import { getJSON, meta, postJSON } from "../lib/api.js";
import { ago, h, replace } from "../dom.js";
import { boardModule, failure, loading, modeName, navigate, notify, page, resultText, seatName, titleOf } from "../lib/shared.js";
import { levelLabel, levelNote } from "../lib/levels.js";
import { offered, optionField, readOptions } from "../lib/options.js";
import { hallNowSection } from "../lib/challenges.js";

export function homePage() {
  const cards = h("div", { class: "new-games" }, loading());
  const mine = h("div", { class: "my-games" }, loading());
  const now = hallNowSection({ loading, navigate, notify, titleOf });
  page(
    "home",
    h(
      "section",
      { class: "hero" },
      h("h1", {}, "Tabletop games to play in your browser"),
      h("p", {}, "Against the computer, with a friend on this screen, or online with a link. New to a game? Start with its How to play page."),
    ),
    now.element,
    cards,
    h("section", { class: "panel" }, h("h2", {}, "Your games"), mine),
  );
  document.title = "gamehall";
  meta()
    .then((info) => replace(cards, info.games.map((game) => gameCard(game, info.levels || []))))
    .catch((error) => replace(cards, failure(error)));
  getJSON("/api/games")
    .then((data) => replace(mine, gameLists(data.games || [])))
    .catch((error) => replace(mine, failure(error)));
  return now.close;
}

/** One game for a newcomer: what it is, what it looks like, how long it takes, how to learn it. */
function gameCard(game, levels) {
  const picture = h("div", { class: "game-picture", "aria-hidden": "true" });
  if (game.sample) {
    boardModule(game.name).then((kit) => {
      const board = new kit.Board({ mode: "diagram" });
      board.update({
        view: game.sample.view,
        legal: [],
        canMove: false,
        last: game.sample.last,
        key: "sample",
        perspective: 0,
        seatLabels: (game.seats || []).map(seatName),
      });
      replace(picture, board.element);
    });
  }
  const learn = [
    game.how_to_play ? h("a", { href: `/howto/${game.name}`, class: "button howto-link" }, "How to play") : null,
    game.rules ? h("a", { href: `/rules/${game.name}`, class: "rules-link" }, "Complete rules") : null,
  ];
  return h(
    "article",
    { class: "panel game-card", "data-game": game.name },
    h(
      "div",
      { class: "game-intro" },
      picture,
      h(
        "div",
        { class: "game-about" },
        h("h2", {}, game.title || game.name),
        h("p", { class: "game-summary" }, game.summary || ""),
        game.duration ? h("p", { class: "game-duration" }, h("strong", {}, "How long: "), game.duration) : null,
        h("p", { class: "learn" }, learn),
      ),
    ),
    newGameForm(game, levels),
  );
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
  const note = levelNote(game);
  const levelSelect = h(
    "select",
    { name: "level", id: id("level"), "aria-describedby": note.element.id },
    levels.map((level) => h("option", { value: level, selected: level === "easy" }, levelLabel(game, level))),
  );
  levelSelect.addEventListener("change", () => note.show(levelSelect.value));
  note.show(levelSelect.value);
  const clockSelect = h(
    "select",
    { name: "clock", id: id("clock") },
    CLOCKS.map(([value, label]) => h("option", { value }, label)),
  );
  const clockRow = h("div", { class: "field clock-field" }, h("label", { for: id("clock") }, "Time"), clockSelect);
  const seatRow = h("div", { class: "field seat-field" }, h("label", { for: id("seat") }, "Play as"), seatSelect);
  const levelRow = h("div", { class: "field level-field" }, h("label", { for: id("level") }, "Computer level"), levelSelect, note.element);
  const optionRows = offered(game).map((option) => optionField(option, id));
  const submit = h("button", { type: "submit", class: "primary" }, "Start game");
  const form = h(
    "form",
    { class: "new-game", "data-game": game.name },
    h("h3", {}, "Start a game"),
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
    h("div", { class: "fields" }, seatRow, levelRow, clockRow),
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
    if (clockSelect.value) body.clock = clockSelect.value;
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

// Time controls offered: Fischer M+S (M minutes each, S seconds added per move) or dN (N days
// per move); the server takes any within its bounds.
const CLOCKS = [
  ["", "No clock"],
  ["1+0", "1 min"],
  ["3+2", "3 min + 2 s"],
  ["5+3", "5 min + 3 s"],
  ["10+5", "10 min + 5 s"],
  ["15+10", "15 min + 10 s"],
  ["d1", "1 day a move"],
  ["d3", "3 days a move"],
];

export function openCreated(created) {
  navigate(`/game/${encodeURIComponent(created.id)}`);
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
      const who = seat.kind === "computer" ? `computer${seat.level ? `, ${seat.level}` : ""}` : seat.player || "human";
      return `${seatName(seat.name)} (${who})`;
    })
    .join(" vs ");
  const status =
    game.status === "finished" ? resultText(game.result, game.seats, game.you || []) || "finished" : `${game.version} move${game.version === 1 ? "" : "s"} so far`;
  return h(
    "li",
    { class: `game-item status-${game.status}`, "data-id": game.id },
    h("a", { href: `/game/${encodeURIComponent(game.id)}`, class: "game-link" }, h("strong", {}, titleOf(game.game)), ` · ${modeName(game.mode)}${game.clock ? ` · ${game.clock}` : ""}`),
    h("span", { class: "game-seats" }, seats),
    h("span", { class: "game-status" }, status),
    h("span", { class: "game-time muted" }, ago(game.updated || game.created)),
    h(
      "span",
      { class: "replay-link" },
      h("a", { href: `/replay/${encodeURIComponent(game.id)}` }, "Replay"),
      // A finished game with a result has moves to judge (an aborted one may have none).
      game.status === "finished" && game.result?.result !== "*" ? [" · ", h("a", { href: `/review/${encodeURIComponent(game.id)}`, class: "review-link" }, "Review")] : null,
    ),
  );
}

