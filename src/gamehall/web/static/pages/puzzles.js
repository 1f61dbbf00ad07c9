// The puzzles page (/puzzles/{game}): a position with one best move, found by clicking the
// board (the game's own board module, offered the puzzle's legal moves). The server checks the
// answer. A wrong one is told by what it costs and how the opponent punishes it (the
// refutation, in words, stepped through on the board), then "Try again": only the first answer
// counts for the record and the puzzle rating, as on lichess. A right one (or the solution, when
// asked for) shows the solution line in words, notation as a small label; then the next puzzle,
// chosen near the player's puzzle rating.
//
// `kit` is what the app lends its pages: page, loading, failure, notify, navigate, boardModule,
// titleOf, seatName.

import { getJSON, meta, postJSON } from "../lib/api.js";
import { h, replace } from "../dom.js";
import { Thinking } from "../lib/assist.js";

export function puzzlesPage(game, kit) {
  const { page, loading, failure, notify, boardModule, titleOf, seatName } = kit;
  const root = h("div", { class: "puzzles-page", "data-game": game });
  const counts = h("p", { class: "puzzle-counts muted", "aria-live": "polite" });
  const prompt = h("div", { class: "puzzle-prompt", role: "status", "aria-live": "polite" });
  const about = h("p", { class: "puzzle-about muted small" });
  const boardBox = h("div", { class: "board-box" }, loading());
  const verdictBox = h("div", { class: "puzzle-verdict" });
  const thinking = new Thinking();
  const heading = h("h1", {}, `${titleOf(game)} puzzles`);
  const links = h("nav", { class: "game-links" }, h("a", { href: `/rules/${encodeURIComponent(game)}` }, "Rules"));
  page("puzzles", root);
  replace(
    root,
    h("header", { class: "game-head" }, heading, links),
    counts,
    prompt,
    about,
    thinking.element,
    h("div", { class: "game-grid" }, h("div", { class: "board-col" }, boardBox), h("aside", { class: "side-col" }, verdictBox)),
  );
  document.title = `Puzzles · ${titleOf(game)} · gamehall`;
  let closed = false;
  let board = null;
  let puzzle = null;
  let finished = false; // solved, or the solution shown: the board takes no more answers
  let seats = [];

  function showCounts(data) {
    const rating = data.rating === undefined ? "" : ` · your puzzle rating ${data.rating}${data.provisional ? "?" : ""}`;
    const change = data.rating_change ? ` (${data.rating_change > 0 ? "+" : "−"}${Math.abs(data.rating_change)})` : "";
    counts.textContent = `${data.total} puzzle${data.total === 1 ? "" : "s"} · solved ${data.solved} · failed ${data.failed}${rating}${change}`;
  }

  async function load(path) {
    thinking.start("Finding a puzzle…");
    try {
      const data = await getJSON(path);
      if (closed) return;
      showCounts(data);
      if (!data.puzzle) {
        none(data.how || "No puzzles.");
        return;
      }
      await show(data.puzzle);
    } catch (error) {
      if (closed) return;
      if (error.status === 404 && !puzzle) {
        // no such game: no title or rules of it
        heading.textContent = "Puzzles";
        links.hidden = true;
        document.title = "Puzzles · gamehall";
      }
      replace(boardBox, failure(error));
    } finally {
      thinking.stop();
    }
  }

  function none(how) {
    root.dataset.puzzle = "";
    replace(prompt);
    replace(about);
    replace(verdictBox);
    replace(boardBox, h("section", { class: "panel puzzle-none" }, h("h2", {}, "No puzzle to show"), h("p", {}, inlineCode(how))));
  }

  async function show(next) {
    puzzle = next;
    finished = false;
    const kitBoard = await boardModule(game);
    if (closed) return;
    seats = (await meta()).games.find((g) => g.name === game)?.seats.map(seatName) || [];
    board = new kitBoard.Board({ onMove: answer });
    replace(boardBox, board.element, board.controls || null, board.extras || null);
    root.dataset.puzzle = puzzle.id;
    delete root.dataset.result;
    delete root.dataset.tries;
    ask();
    describe(puzzle.rating);
    replace(verdictBox, h("section", { class: "panel" }, h("h2", {}, "Your answer"), h("p", { class: "muted" }, "Play it on the board, as in a game."), buttons(revealButton(), skipButton())));
  }

  /** The line under the prompt: the puzzle's rating (as it is now), difficulty and themes. */
  function describe(rating) {
    replace(
      about,
      `Puzzle rating ${rating} (${puzzle.difficulty})`,
      puzzle.themes.length ? ` · ${puzzle.themes.join(", ")}` : "",
      puzzle.attempted !== null && puzzle.attempted !== undefined ? ` · tried before: ${puzzle.attempted ? "solved" : "failed"}` : "",
    );
  }

  /** The prompt and the board of the puzzle's position, ready for an answer. */
  function ask(retry = false) {
    const who = seatName(puzzle.to_move_name);
    replace(
      prompt,
      puzzle.situation ? h("p", { class: "puzzle-situation" }, puzzle.situation) : null,
      h("strong", {}, retry ? `Try again: ${who} to move, find the best move.` : `${who} to move: find the best move.`),
      h("span", { class: "muted" }, " One move is best; every other is clearly worse."),
    );
    draw(puzzle.view, null, true);
  }

  function draw(view, last, canMove, key = puzzle.id) {
    board.update({ view, legal: canMove ? puzzle.legal : [], canMove, last, key, perspective: puzzle.to_move, seatLabels: seats });
  }

  function buttons(...items) {
    return h("div", { class: "buttons" }, ...items);
  }

  function skipButton() {
    const next = h("button", { type: "button", class: "next-puzzle" }, finished ? "Next puzzle" : "Skip");
    next.addEventListener("click", () => load(`/api/puzzles/${encodeURIComponent(game)}${finished ? "" : skipPath()}`));
    if (finished) next.classList.add("primary");
    return next;
  }

  function revealButton() {
    return h("button", { type: "button", class: "show-solution", onClick: showSolution }, "Show the solution");
  }

  function skipPath() {
    // Another untried puzzle (a skipped puzzle stays untried).
    return puzzle ? `?after=${encodeURIComponent(puzzle.id)}` : "";
  }

  async function answer(move) {
    if (!puzzle || finished) return;
    thinking.start("Checking…");
    try {
      const verdict = await postJSON(`/api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(puzzle.id)}/answer`, { move });
      if (closed) return;
      showCounts(verdict);
      root.dataset.tries = String(Number(root.dataset.tries || 0) + 1);
      root.dataset.result = verdict.correct ? "correct" : "wrong";
      describe(verdict.puzzle_rating);
      if (verdict.correct) solution(verdict);
      else refuted(verdict);
    } catch (error) {
      notify(error.message);
    } finally {
      thinking.stop();
    }
  }

  async function showSolution() {
    thinking.start("Finding the solution…");
    try {
      const verdict = await postJSON(`/api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(puzzle.id)}/solution`, {});
      if (closed) return;
      showCounts(verdict);
      root.dataset.result = "shown";
      describe(verdict.puzzle_rating);
      solution(verdict);
    } catch (error) {
      notify(error.message);
    } finally {
      thinking.stop();
    }
  }

  /** A line of moves in words (notation as a small label), stepped through on the board. */
  function stepper(items, views, endsAtDraw, key) {
    let step = 0;
    const list = h("ol", { class: "move-list puzzle-line" });
    items.forEach((item, index) => {
      list.append(
        h(
          "li",
          { "data-step": index },
          h(
            "button",
            { type: "button", class: "step-link", onClick: () => go(index) },
            h("span", { class: "num" }, `${index + 1}.`),
            h("span", { class: "move-words" }, item.words || item.text),
            " ",
            h("code", { class: "notation" }, item.text),
          ),
        ),
      );
    });
    const back = h("button", { type: "button", "data-step": "back", onClick: () => go(step - 1) }, "◀ Back");
    const forward = h("button", { type: "button", "data-step": "forward", onClick: () => go(step + 1) }, "Forward ▶");
    function go(k) {
      step = Math.max(0, Math.min(items.length - 1, k));
      draw(views[step], items[step], false, `${key}-${step}`);
      for (const item of list.children) item.classList.toggle("current", Number(item.dataset.step) === step);
      back.disabled = step <= 0;
      forward.disabled = step >= items.length - 1;
    }
    const draw_ = endsAtDraw ? h("p", { class: "muted small puzzle-draw" }, "Here chance plays next (a draw or a pour): what it brings is nobody's choice, so the line stops.") : null;
    return { list, back, forward, go, draw: draw_ };
  }

  function refuted(verdict) {
    replace(
      prompt,
      h("strong", { class: "puzzle-wrong" }, "Not the best move. "),
      verdict.cost || `${verdict.move_words} is worse.`,
    );
    const line = stepper(verdict.refutation, verdict.refutation_views, verdict.refutation_ends_at_draw, `${puzzle.id}-wrong-${root.dataset.tries}`);
    const again = h("button", { type: "button", class: "try-again primary", onClick: () => ask(true) }, "Try again");
    const reveal = revealButton();
    replace(
      verdictBox,
      h(
        "section",
        { class: "panel puzzle-solution wrong" },
        h("h2", {}, "Why not"),
        verdict.cost ? h("p", { class: "puzzle-cost" }, verdict.cost) : null,
        h("p", {}, verdict.refutation.length ? "How it goes on with best play from both sides:" : ""),
        line.list,
        line.draw,
        h("p", { class: "muted small" }, verdict.counted ? "Your first answer counts, so this puzzle is marked failed; find the best move anyway." : "Only your first answer counted."),
        buttons(line.back, line.forward),
        buttons(again, reveal, skipButton()),
      ),
    );
    if (verdict.refutation.length) line.go(0);
    again.focus();
  }

  function solution(verdict) {
    finished = true;
    const line = stepper(verdict.line, verdict.views, verdict.line_ends_at_draw, puzzle.id);
    const who = seatName(puzzle.to_move_name);
    replace(
      prompt,
      verdict.correct
        ? h("strong", { class: "puzzle-right" }, "Right! ", verdict.answer_words, " is the best move.")
        : h("strong", {}, "The best move: ", verdict.answer_words, "."),
      " ",
      h("code", { class: "notation" }, verdict.answer),
    );
    let record = null;
    if (verdict.correct && !verdict.counted) record = "Solved, but your first answer was wrong or you had tried it before: only the first answer counts.";
    else if (!verdict.correct && !verdict.counted) record = "Only your first answer counted.";
    else if (!verdict.correct) record = "Asked for before an answer: this puzzle is marked failed.";
    replace(
      verdictBox,
      h(
        "section",
        { class: `panel puzzle-solution ${verdict.correct ? "right" : "shown"}` },
        h("h2", {}, "The solution"),
        h("p", {}, `With best play from here, ${verdict.value}; every other move ${who} had gives up at least ${verdict.margin}.`),
        record ? h("p", { class: "muted small" }, record) : null,
        line.list,
        line.draw,
        buttons(line.back, line.forward, skipButton()),
      ),
    );
    line.go(0);
  }

  load(`/api/puzzles/${encodeURIComponent(game)}`);
  return () => {
    closed = true;
    thinking.stop();
  };
}

/** Text with `code` in backticks, as elements. */
function inlineCode(text) {
  return text.split(/(`[^`]+`)/).map((part) => (part.startsWith("`") && part.endsWith("`") ? h("code", {}, part.slice(1, -1)) : part));
}
