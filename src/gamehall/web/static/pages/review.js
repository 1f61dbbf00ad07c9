// The review page (/review/{id}): a game judged move by move by the exact solver, however it
// ended (by the rules, a resignation, on time, a claim).
//
// While the review is worked out (a background job on the server) a progress bar shows how far
// it is; then: each player by name ("You", the computer and its level, or the player's name)
// summed up (accuracy, mistakes and blunders, the worst moment: click it to see it), the
// evaluation graph over the game (drawn here in SVG: exact values as dots, estimates as hollow
// dots with their 95% band, a dashed rule where each round or turn begins), the moves in words
// (notation as a small label) grouped by round or turn and coloured by class, and for the chosen
// move the position on the game's own board before it, after it and after the best move, a link
// to the analysis board at that position, and buttons to play on from the position before it.
// On a desktop the board sits on the left from the top, the rest beside it.
//
// `kit` is what the app lends its pages: page, loading, failure, notify, navigate, boardModule,
// titleOf, seatName.

import { getJSON, postJSON } from "../lib/api.js";
import { capitalize, h, replace, s } from "../dom.js";

const POLL = 700;
const PLURAL = { best: "best", good: "good", inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };

export function reviewPage(id, kit) {
  const { page, loading, failure, notify, navigate, boardModule, titleOf, seatName } = kit;
  const root = h("div", { class: "review-page", "data-game-id": id });
  const status = h("section", { class: "panel review-status", "aria-live": "polite" }, loading());
  const body = h("div", { class: "review-body" });
  const title = h("h1", {}, "Review");
  const enc = encodeURIComponent(id);
  const links = h(
    "nav",
    { class: "game-links" },
    h("a", { href: `/game/${enc}` }, "The game"),
    h("a", { href: `/replay/${enc}` }, "Replay"),
  );
  page("review", root);
  replace(
    root,
    h(
      "header",
      { class: "game-head" },
      title,
      links,
    ),
    status,
    body,
  );
  let closed = false;
  let timer = null;
  let onKey = null;
  let onResize = null;
  let replay = null;
  let over = true; // whether the game is over
  let gameState = null; // the game as its page sees it: who holds each seat, and which are yours

  async function load() {
    try {
      const answer = await getJSON(`/api/games/${enc}/review`);
      if (closed) return;
      if (answer.status === "none" || !gameState) {
        gameState = await getJSON(`/api/games/${enc}`);
        over = gameState.over;
      }
      if (!replay) {
        replay = await getJSON(`/api/games/${enc}/replay`);
        title.textContent = `Review: ${titleOf(replay.game)}`;
        document.title = `Review · ${titleOf(replay.game)} · gamehall`;
      }
      show(answer);
    } catch (error) {
      if (closed) return;
      status.classList.remove("panel"); // the failure is a panel of its own
      if (error.status === 404) links.hidden = true; // no game, no links to it
      replace(status, failure(error));
    }
  }

  function show(answer) {
    root.dataset.status = answer.status;
    if (answer.status === "queued" || answer.status === "running") {
      const bar = h("progress", { class: "review-progress", max: Math.max(1, answer.total), value: answer.done });
      replace(
        status,
        h("h2", {}, answer.status === "queued" ? "Waiting for its turn…" : "Reviewing the game…"),
        bar,
        h("p", { class: "muted progress-text" }, `${answer.done} of ${answer.total} moves judged (from the last move back to the first)`),
      );
      timer = setTimeout(load, POLL);
      return;
    }
    if (answer.status === "none" && !over) {
      replace(
        status,
        h("h2", {}, "Not finished yet"),
        h("p", {}, "A game is reviewed once it is over."),
        h("p", {}, h("a", { href: `/game/${enc}` }, "Back to the game")),
      );
      return;
    }
    if (answer.status === "none" && !(gameState?.movers || []).some((mover) => mover >= 0)) {
      replace(
        status,
        h("h2", {}, "Nothing to judge"),
        h("p", {}, "No player made a move in this game, so there is nothing to review."),
        h("p", {}, h("a", { href: `/game/${enc}` }, "Back to the game")),
      );
      return;
    }
    if (answer.status === "none" || answer.status === "failed") {
      const button = h("button", { type: "button", class: "primary review-start" }, answer.status === "failed" ? "Try again" : "Review this game");
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          show(await postJSON(`/api/games/${enc}/review`));
        } catch (error) {
          notify(error.message);
          button.disabled = false;
        }
      });
      replace(
        status,
        h("h2", {}, answer.status === "failed" ? "The review failed" : "Not reviewed yet"),
        answer.error ? h("p", { role: "alert" }, answer.error) : h("p", { class: "muted" }, "The exact solver judges every move of a finished game."),
        h("div", { class: "buttons" }, button),
      );
      return;
    }
    status.hidden = true;
    drawReview(answer.review);
  }

  async function drawReview(review) {
    const kitBoard = await boardModule(replay.game);
    if (closed) return;
    const seatNames = (replay.seats || []).map(seatName);
    const players = seatNames.map((name, index) => playerName(gameState, index) || name);
    const moves = review.moves;
    if (!moves.length) {
      // No player moved (a game aborted at once): nothing was judged, and the review says why.
      replace(body, h("section", { class: "panel review-empty" }, h("h2", {}, "Nothing to judge"), h("p", {}, review.unfinished || "No player made a move in this game.")));
      root.dataset.ready = "true";
      return;
    }
    const board = new kitBoard.Board({});
    const detail = h("section", { class: "panel review-detail" });
    const below = h("div", { class: "review-below" });
    const list = h("ol", { class: "review-moves" });
    const graph = h("figure", { class: "panel review-graph" });
    const sections = sectionsOf(kitBoard, replay, moves.map((move) => move.number), gameState);
    let selected = 0;
    let shown = "best";

    let lastSection = null;
    moves.forEach((move, index) => {
      const verdict = move.verdict || "none";
      const section = sections[index];
      if (section && section.label !== lastSection) {
        lastSection = section.label;
        list.append(h("li", { class: "review-section", "data-section": section.label }, section.label));
      }
      list.append(
        h(
          "li",
          { class: `review-item verdict-${verdict}`, "data-index": index, "data-number": move.number },
          h(
            "button",
            { type: "button", class: "review-move", onClick: () => select(index) },
            h("span", { class: "num" }, `${move.number}.`),
            h("span", { class: "words" }, wordsOf(move, replay), notation(wordsOf(move, replay), move.move)),
            h("span", { class: `chip chip-${verdict}` }, move.forced ? "only move" : move.verdict || ""),
            h("span", { class: "cost" }, costText(move.cost)),
          ),
        ),
      );
    });

    function select(index, view) {
      selected = Math.max(0, Math.min(moves.length - 1, index));
      const move = moves[selected];
      shown = view || (move.best_item ? "best" : "played");
      for (const item of list.querySelectorAll(".review-item")) item.classList.toggle("current", Number(item.dataset.index) === selected);
      scrollWithin(list, list.querySelector(".current"));
      for (const mark of graph.querySelectorAll(".graph-pick")) mark.classList.toggle("current", Number(mark.dataset.index) === selected);
      drawDetail(move);
      root.dataset.selected = String(move.number);
    }

    function drawDetail(move) {
      const before = replay.states[move.number - 1];
      const after = replay.states[move.number];
      const played = replay.actions[move.number - 1];
      const views = {
        before: { view: before, last: move.number > 1 ? replay.actions[move.number - 2] : null, caption: "The position before the move", step: move.number - 1 },
        played: { view: after, last: played, caption: "After the move, as played", step: move.number },
        best: move.best_item ? { view: move.best_view, last: move.best_item, caption: "After the best move", step: move.number - 1 } : null,
      };
      const current = views[shown] || views.played;
      board.update({ view: current.view, legal: [], canMove: false, last: current.last, key: `${move.number}-${shown}`, perspective: move.player, seatLabels: seatNames });
      const toggles = ["before", "played", "best"]
        .filter((name) => views[name])
        .map((name) =>
          h(
            "button",
            { type: "button", class: "view-toggle", "data-view": name, "aria-pressed": name === shown ? "true" : "false", onClick: () => select(selected, name) },
            { before: "Before", played: "Played", best: "Best move" }[name],
          ),
        );
      const verdict = move.forced ? "the only move" : move.verdict;
      const who = players[move.player] || seatNames[move.player] || "";
      const section = sections[moves.indexOf(move)];
      replace(
        detail,
        h(
          "h2",
          {},
          `Move ${move.number}`,
          section ? h("span", { class: "muted section-note" }, ` · ${section.label}`) : null,
          verdict ? h("span", { class: `chip chip-${move.verdict || "none"}` }, verdict) : null,
        ),
        h("p", { class: "review-played" }, wordsOf(move, replay), notation(wordsOf(move, replay), move.move)),
        h(
          "p",
          { class: "review-values muted" },
          move.value_words ? `${capitalize(move.value_words)} (${move.exact ? "exact" : "estimated"}: ${move.before} → ${move.after}).` : `Value for ${who} (${seatNames[move.player] || ""}): ${move.before} → ${move.after}${move.exact ? " (exact)." : " (~ estimated)."}`,
        ),
        move.best
          ? h(
              "p",
              { class: "review-best" },
              h("strong", {}, "Best was: "),
              move.best_item?.words || move.best,
              notation(move.best_item?.words || move.best, move.best),
            )
          : null,
      );
      replace(
        below,
        h("div", { class: "view-toggles", role: "group", "aria-label": "Show the position" }, toggles),
        h(
          "p",
          { class: "muted board-caption" },
          current.caption,
          " · ",
          h("a", { class: "analyse-link", href: analysisUrl(replay.game, id, current.step) }, "Analyse"),
        ),
        playFrom(move),
      );
    }

    function playFrom(move) {
      const level = h(
        "select",
        { class: "play-level", "aria-label": "Computer level" },
        ["beginner", "easy", "medium", "hard", "perfect"].map((name) => h("option", { value: name, selected: name === "hard" }, name)),
      );
      const start = async (mode, button) => {
        button.disabled = true;
        const body = { game: replay.game, mode, seat: move.player, start: { game_id: id, step: move.number - 1 } };
        if (mode === "computer") body.level = level.value;
        try {
          const created = await postJSON("/api/games", body);
          navigate(`/game/${encodeURIComponent(created.id)}`);
        } catch (error) {
          notify(error.message);
          button.disabled = false;
        }
      };
      const computer = h("button", { type: "button", class: "play-computer" }, `Play it as ${seatNames[move.player]} against the computer`);
      computer.addEventListener("click", () => start("computer", computer));
      const hotseat = h("button", { type: "button", class: "play-hotseat" }, "Hot-seat from here");
      hotseat.addEventListener("click", () => start("hotseat", hotseat));
      return h(
        "div",
        { class: "play-from" },
        h("p", {}, `Play on from the position before move ${move.number}:`),
        h("div", { class: "buttons" }, computer, level, hotseat),
      );
    }

    const pick = (number) => {
      const index = moves.findIndex((m) => m.number === number);
      if (index >= 0) {
        select(index);
        detail.scrollIntoView({ block: "nearest" });
      }
    };
    replace(
      body,
      h(
        "div",
        { class: "review-layout" },
        h("div", { class: "review-board" }, detail, board.element, board.extras || null, below),
        h("div", { class: "review-summary" }, review.summary.map((player) => summaryCard(player, players, seatNames, pick))),
        graph,
        h(
          "aside",
          { class: "review-side" },
          h("section", { class: "panel moves" }, h("h2", {}, `Moves judged (${moves.length})`), list),
          review.unfinished ? h("p", { class: "review-unfinished" }, review.unfinished) : null,
          h(
            "p",
            { class: "muted small" },
            `Values are from the mover's side, in ${review.unit}; exact where the solver settled the position within ${review.budget.seconds} s, else estimated (~). Accuracy: how much of the best value each move kept, on lichess's curve, averaged over the player's moves (forced ones aside). Keys: ← → step.`,
          ),
          h("p", {}, h("a", { class: "button", href: `/api/games/${enc}/review/record`, download: `${id}-review.txt` }, "Download the annotated record")),
        ),
      ),
    );
    // The graph is drawn at the width it has (its text stays readable on a phone), again on resize.
    const redraw = () => {
      drawGraph(graph, review, seatNames, players, sections, (index) => select(index));
      for (const mark of graph.querySelectorAll(".graph-pick")) mark.classList.toggle("current", Number(mark.dataset.index) === selected);
    };
    redraw();
    let width = graph.clientWidth;
    onResize = () => {
      if (graph.clientWidth !== width) {
        width = graph.clientWidth;
        redraw();
      }
    };
    window.addEventListener("resize", onResize);
    onKey = (event) => {
      if (event.target.closest("input, textarea, select")) return;
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        event.preventDefault();
        select(selected + (event.key === "ArrowLeft" ? -1 : 1));
      }
    };
    document.addEventListener("keydown", onKey);
    const first = moves.findIndex((m) => m.verdict === "blunder" || m.verdict === "mistake");
    select(first >= 0 ? first : 0);
    root.dataset.ready = "true";
  }

  load();
  return () => {
    closed = true;
    clearTimeout(timer);
    if (onKey) document.removeEventListener("keydown", onKey);
    if (onResize) window.removeEventListener("resize", onResize);
  };
}

/** A move's cost for the list: "−1", "−19.2%", "~−4%"; nothing when it cost nothing. */
function costText(cost) {
  // A chance of winning given up reads in percent (the record writes percentage points, "pp").
  const bare = (cost || "").replace(/^~/, "").replace(/ pp$/, "%");
  if (!bare || bare === "?" || Number.parseFloat(bare) === 0) return "";
  return cost.startsWith("~") ? `~−${bare}` : `−${bare}`;
}

/** Who played a seat, for people: "You", the computer and its level, the player's name, or the
 * seat's own name when nobody is known. */
function playerName(state, index) {
  const seat = state?.seats?.[index];
  if (!seat) return "";
  const you = state.you || [];
  if (you.length === 1 && you[0] === index) return "You";
  return computerName(seat) || seat.player || "";
}

/** A computer's seat as people read it, "Computer (level)"; "" for a person's seat. */
export function computerName(seat) {
  return seat.kind === "computer" ? `Computer${seat.level ? ` (${seat.level})` : ""}` : "";
}

/** A judged move in words (the replay's played item carries them), the notation as a fallback. */
function wordsOf(move, replay) {
  return move.words || replay.actions[move.number - 1]?.words || move.move;
}

/** Scroll a list (positioned, with its own scroll bar) so that `item` shows, without moving the
 * page: the board stays where the reader looks. */
export function scrollWithin(list, item) {
  if (!item) return;
  // Scrolling up to an item that begins a round or turn shows that section's heading too.
  const heading = item.previousElementSibling;
  const top = heading && !heading.querySelector("button") ? heading.offsetTop : item.offsetTop;
  const bottom = item.offsetTop + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

/** The notation of a move as a small label after its words (none where the words end with it,
 * as a game that tells nothing more says "Cross: b2"). */
export function notation(words, text) {
  if (!text || (words || "").endsWith(text)) return null;
  return [" ", h("code", { class: "notation" }, text)];
}

/** The analysis board at the position after `step` actions of game `id`. */
function analysisUrl(game, id, step) {
  return `/analysis/${encodeURIComponent(game)}?from=${encodeURIComponent(id)}&step=${step}`;
}

/**
 * The round or turn of each action `numbers` names (counted from 1): the server's chapter headings of the game's actions where it
 * sends them (`chapters`, "Round 2", "Turn 3"), else the game's board module's `sectionOf(view)`
 * (`{word, key, number?}` for a position, null where it says nothing). A new section starts
 * where the heading (the key) changes; it is numbered by the game's own number, else counted.
 */
export function sectionsOf(kitBoard, replay, numbers, state) {
  const chapters = state?.chapters;
  const told = Array.isArray(chapters) && chapters.length === replay.actions.length;
  if (!told && typeof kitBoard.sectionOf !== "function") return numbers.map(() => null);
  let count = 0;
  let key = null;
  return numbers.map((number) => {
    let section;
    if (told) {
      const heading = chapters[number - 1];
      const counted = /(\d+)$/.exec(heading || "");
      section = heading ? { key: heading, label: heading, number: counted ? Number(counted[1]) : undefined } : null;
    } else {
      const found = kitBoard.sectionOf(replay.states[number - 1]);
      section = found ? { key: found.key, word: found.word, number: found.number } : null;
    }
    if (!section) return null;
    if (section.key !== key) {
      key = section.key;
      count += 1;
    }
    const shown = section.number ?? count;
    return { key: section.key, number: shown, label: section.label || `${section.word} ${shown}` };
  });
}

function summaryCard(player, players, seatNames, pick) {
  const seat = seatNames[player.player] || player.name;
  const who = players[player.player] && players[player.player] !== seat ? `${players[player.player]} · ${seat}` : seat;
  const counts = ["mistake", "blunder", "inaccuracy"].map((v) => {
    const n = player.classes[v] || 0;
    return h("span", { class: `chip chip-${n ? v : "none"}`, "data-verdict": v, "data-count": n }, `${n} ${n === 1 ? v : PLURAL[v]}`);
  });
  const worst = player.worst;
  return h(
    "section",
    { class: `panel review-player seat-${player.name.toLowerCase()}`, "data-player": player.player },
    h(
      "h2",
      {},
      who,
      player.accuracy === null || player.accuracy === undefined
        ? null
        : h(
            "span",
            { class: "accuracy", title: "Accuracy: how much of the best value each move kept, on average (as lichess measures it)", "aria-label": player.accuracy_text },
            `${player.accuracy_exact ? "" : "~"}${Math.round(player.accuracy)}%`,
            h("small", {}, "accuracy"),
          ),
    ),
    h("p", { class: "muted small" }, `${player.moves} ${player.moves === 1 ? "move" : "moves"} judged (${player.exact} exact)`),
    h("p", { class: "chips counts" }, counts),
    worst
      ? h(
          "button",
          { type: "button", class: "worst-moment", "data-number": worst.number, title: player.worst_text || "", onClick: () => pick(worst.number) },
          h("strong", {}, `Worst moment, move ${worst.number}: `),
          worst.words,
          h("span", { class: `chip chip-${worst.verdict || "none"}` }, worst.verdict || ""),
          worst.best_words ? h("span", { class: "worst-best" }, h("strong", {}, "Best was: "), worst.best_words) : null,
        )
      : h("p", { class: "muted small" }, player.moves ? "Every move kept the best value." : "No move to judge."),
  );
}

/** The evaluation graph: a point per judged move (the value before it) and one after the last. */
function drawGraph(figure, review, seats, players, sections, onPick) {
  const series = review.series || [];
  if (series.length < 2) {
    replace(figure, h("figcaption", { class: "muted" }, "No graph for this game."));
    return;
  }
  const W = Math.max(280, Math.round(figure.clientWidth - 20)) || 720;
  const H = W < 500 ? 150 : 190;
  const pad = { left: 46, right: 12, top: 12, bottom: 24 };
  const probability = review.kind === "probability";
  let top = 1;
  let bottom = 0;
  if (!probability) {
    const extent = Math.max(1, ...series.flatMap((p) => [p.value, p.low, p.high]).filter((v) => v !== null && Number.isFinite(v)).map(Math.abs));
    top = Math.ceil(extent);
    bottom = -top;
  }
  const middle = probability ? 0.5 : 0;
  const step = (W - pad.left - pad.right) / (series.length - 1);
  const x = (i) => pad.left + i * step;
  const y = (v) => pad.top + ((top - v) / (top - bottom)) * (H - pad.top - pad.bottom);
  const clampY = (v) => y(Math.max(bottom, Math.min(top, v)));
  const label = (v) => (probability ? `${Math.round(v * 100)}%` : v > 0 ? `+${v}` : `${v}`);
  const first = players[0] && players[0] !== seats[0] ? `${players[0]} (${seats[0]})` : seats[0] || review.perspective;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img", "aria-label": `How the game went, from ${first}'s side` });
  svg.append(s("rect", { x: pad.left, y: pad.top, width: W - pad.left - pad.right, height: H - pad.top - pad.bottom, class: "graph-area" }));
  for (const v of [top, middle, bottom]) {
    svg.append(s("line", { x1: pad.left, x2: W - pad.right, y1: y(v), y2: y(v), class: v === middle ? "graph-middle" : "graph-rule" }));
    svg.append(s("text", { x: pad.left - 6, y: y(v) + 4, class: "graph-label", "text-anchor": "end" }, label(v)));
  }
  // Round or turn boundaries: a dashed rule before the first move of each, with its name (its
  // number alone where they stand close).
  const starts = sections.map((section, i) => (section && (i === 0 || sections[i - 1]?.key !== section.key) ? i : -1)).filter((i) => i >= 0);
  const room = starts.length > 1 ? Math.min(...starts.slice(1).map((i, k) => x(i) - x(starts[k]))) : W;
  for (const i of starts) {
    const at = i === 0 ? pad.left : x(i) - step / 2;
    if (i > 0) svg.append(s("line", { x1: at, x2: at, y1: pad.top, y2: H - pad.bottom, class: "graph-section" }));
    const section = sections[i];
    svg.append(s("text", { x: at + 3, y: pad.top + 11, class: "graph-label graph-section-label", "data-section": section.label }, room > 64 ? section.label : String(section.number)));
  }
  // Estimates' bands (and bare bounds), then the line through the known points, then the dots.
  series.forEach((point, i) => {
    if (point.exact || point.low === null || point.high === null) return;
    const hi = clampY(point.high);
    const lo = clampY(point.low);
    const half = Math.max(2, step * 0.35);
    const left = Math.max(pad.left, x(i) - half);
    const right = Math.min(W - pad.right, x(i) + half);
    svg.append(s("rect", { x: left, width: Math.max(2, right - left), y: hi, height: Math.max(1, lo - hi), class: "graph-band" }));
  });
  const known = series.map((p, i) => [i, p]).filter(([, p]) => p.value !== null);
  if (known.length > 1) {
    svg.append(s("polyline", { points: known.map(([i, p]) => `${x(i)},${clampY(p.value)}`).join(" "), class: "graph-line" }));
  }
  const moves = review.moves;
  for (const [i, p] of known) {
    const after = i > 0 ? moves[i - 1]?.verdict : null; // the point after a move shows its class
    svg.append(s("circle", { cx: x(i), cy: clampY(p.value), r: 3.6, class: `graph-point ${p.exact ? "exact" : "estimate"} after-${after || "none"}` }));
  }
  // A column per move to pick it (the move starts at its point).
  moves.forEach((move, i) => {
    const left = Math.max(pad.left, x(i) - step / 2);
    const right = Math.min(W - pad.right, x(i) + step / 2);
    svg.append(
      s(
        "rect",
        { x: left, width: right - left, y: pad.top, height: H - pad.top - pad.bottom, class: "graph-pick", "data-index": i, onClick: () => onPick(i) },
        s("title", {}, `${move.number}. ${move.words || move.move}${move.verdict ? ` (${move.verdict})` : ""}`),
      ),
    );
  });
  svg.append(s("text", { x: pad.left, y: H - 6, class: "graph-label" }, `move ${moves[0].number}`));
  svg.append(s("text", { x: W - pad.right, y: H - 6, class: "graph-label", "text-anchor": "end" }, `move ${moves[moves.length - 1].number}`));
  replace(
    figure,
    svg,
    h(
      "figcaption",
      { class: "muted small" },
      `The value for ${first} before each move (${probability ? "chance of winning" : review.unit}): `,
      h("span", { class: "key key-exact" }), " exact, ",
      h("span", { class: "key key-estimate" }), " estimated with its 95% band. Click the graph to pick a move.",
    ),
  );
}
