// The puzzles page (/puzzles/{game}): a position with one best move, found by clicking the
// board (the game's own board module, offered the puzzle's legal moves); the server checks the
// answer, then the solution line can be stepped through on the board, and the next puzzle
// follows. The server remembers each player's first answer to each puzzle.
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
    thinking.element,
    h("div", { class: "game-grid" }, h("div", { class: "board-col" }, boardBox), h("aside", { class: "side-col" }, verdictBox)),
  );
  document.title = `Puzzles · ${titleOf(game)} · gamehall`;
  let closed = false;
  let board = null;
  let puzzle = null;
  let answered = null;
  let seats = [];

  function showCounts(data) {
    counts.textContent = `${data.total} puzzle${data.total === 1 ? "" : "s"} · solved ${data.solved} · failed ${data.failed}`;
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
    replace(verdictBox);
    replace(boardBox, h("section", { class: "panel puzzle-none" }, h("h2", {}, "No puzzle to show"), h("p", {}, inlineCode(how))));
  }

  async function show(next) {
    puzzle = next;
    answered = null;
    const kitBoard = await boardModule(game);
    if (closed) return;
    seats = (await meta()).games.find((g) => g.name === game)?.seats.map(seatName) || [];
    board = new kitBoard.Board({ onMove: answer });
    replace(boardBox, board.element, board.controls || null, board.extras || null);
    root.dataset.puzzle = puzzle.id;
    delete root.dataset.result;
    const who = seatName(puzzle.to_move_name);
    replace(
      prompt,
      h("strong", {}, `${who} to move: find the best move.`),
      h("span", { class: "muted" }, " One move is best; every other is clearly worse."),
      puzzle.attempted !== null && puzzle.attempted !== undefined ? h("span", { class: "muted" }, ` (tried before: ${puzzle.attempted ? "solved" : "failed"})`) : null,
    );
    replace(verdictBox, h("section", { class: "panel" }, h("h2", {}, "Your answer"), h("p", { class: "muted" }, "Play it on the board, as in a game."), skipButton()));
    draw(puzzle.view, null, true);
  }

  function draw(view, last, canMove, key = puzzle.id) {
    board.update({ view, legal: canMove ? puzzle.legal : [], canMove, last, key, perspective: puzzle.to_move, seatLabels: seats });
  }

  function skipButton() {
    const next = h("button", { type: "button", class: "next-puzzle" }, answered ? "Next puzzle" : "Skip");
    next.addEventListener("click", () => load(`/api/puzzles/${encodeURIComponent(game)}${answered ? "" : skipPath()}`));
    if (answered) next.classList.add("primary");
    return next;
  }

  function skipPath() {
    // The next untried puzzle after this one (a skipped puzzle stays untried).
    return puzzle ? `?after=${encodeURIComponent(puzzle.id)}` : "";
  }

  async function answer(move) {
    if (!puzzle || answered) return;
    thinking.start("Checking…");
    try {
      const verdict = await postJSON(`/api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(puzzle.id)}/answer`, { move });
      if (closed) return;
      answered = verdict;
      showCounts(verdict);
      root.dataset.result = verdict.correct ? "correct" : "wrong";
      solution(verdict);
    } catch (error) {
      notify(error.message);
    } finally {
      thinking.stop();
    }
  }

  function solution(verdict) {
    const items = verdict.line;
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
            h("span", { class: "mover" }, item.mover >= 0 ? seats[item.mover] || "" : "chance"),
            h("code", {}, item.text),
          ),
        ),
      );
    });
    const back = h("button", { type: "button", "data-step": "back", onClick: () => go(step - 1) }, "◀ Back");
    const forward = h("button", { type: "button", "data-step": "forward", onClick: () => go(step + 1) }, "Forward ▶");
    function go(k) {
      step = Math.max(0, Math.min(items.length - 1, k));
      draw(verdict.views[step], items[step], false, `${puzzle.id}-${step}`);
      for (const item of list.children) item.classList.toggle("current", Number(item.dataset.step) === step);
      back.disabled = step <= 0;
      forward.disabled = step >= items.length - 1;
    }
    replace(
      prompt,
      verdict.correct
        ? h("strong", { class: "puzzle-right" }, "Right! ", h("code", {}, verdict.answer), " is the best move.")
        : h("strong", { class: "puzzle-wrong" }, "Not this one: ", h("code", {}, verdict.move), " is worse. The best move is ", h("code", {}, verdict.answer), "."),
    );
    replace(
      verdictBox,
      h(
        "section",
        { class: `panel puzzle-solution ${verdict.correct ? "right" : "wrong"}` },
        h("h2", {}, "The solution"),
        h(
          "p",
          {},
          `With `,
          h("code", {}, verdict.answer),
          ` ${seatName(puzzle.to_move_name)} is worth ${verdict.value} under perfect play; every other move gives up at least ${verdict.margin}.`,
        ),
        verdict.counted ? null : h("p", { class: "muted small" }, "You had answered this puzzle before: the first answer is the one that counts."),
        list,
        h("div", { class: "buttons" }, back, forward, skipButton()),
      ),
    );
    go(0);
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
