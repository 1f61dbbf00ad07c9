// The analysis board (/analysis/{game}): any position of a game, with every legal move and its
// value beside the board (exact where the solver settles it, else a labelled estimate), a line
// to step through and branch (a small move tree, as lichess's analysis board), and "Play on from
// here". The server does all the rules: each position is asked for (POST /api/analysis/{game},
// kept per position on the server), and the board offers the legal items the answer gives.
//
// URLs:  /analysis/{game}                                    the game's start
//        ?position=<position text>[&line=<moves>][&options=<JSON>]   a position and a line from it
//        ?from=<game id>&step=<k>                            a stored game after its first k moves
// The line is the moves' texts, each URL-encoded, joined by commas. As the user explores, the
// address bar keeps the position and the line to the move shown, so the link shares both.
//
// Setting up a position: its text (errors shown beside the field, in the game's words), or the
// game's own editor (a module named by the plugin, GameInfo.editor_module) with this protocol:
//   new Editor()       .element (its DOM), .load(view) (start from a position's view),
//                      .text() (the edited position as the game's position text)
// The server checks the edited text by the game's parser; its refusal is shown beside the editor.
//
// `kit` is what the app lends its pages: page, loading, failure, notify, navigate, boardModule,
// titleOf, seatName.

import { meta, postJSON } from "../lib/api.js";
import { h, replace } from "../dom.js";
import { Thinking } from "../lib/assist.js";
import { GAMES } from "../lib/shared.js";
import { lineTree, nodePath } from "../lib/movetree.js";

const MAX_LINE = 200;

export function analysisPage(game, kit) {
  const { page, loading, failure, notify, navigate, boardModule, titleOf, seatName } = kit;
  const info = GAMES[game];
  const root = h("div", { class: "analysis-page", "data-game": game });
  page("analysis", root);
  if (!info) {
    replace(root, failure({ status: 404, message: `There is no game called ${game} here.` }));
    return () => {};
  }
  const title = titleOf(game);
  document.title = `Analysis board · ${title} · gamehall`;
  const thinking = new Thinking();
  const status = h("p", { class: "analysis-status", role: "status", "aria-live": "polite" });
  const boardBox = h("div", { class: "board-box" }, loading());
  const controlsBox = h("div", { class: "analysis-controls" });
  const movesBox = h("section", { class: "panel analysis-moves", "aria-label": "Moves and their values" });
  const treeBox = h("section", { class: "panel analysis-tree", "aria-label": "The line explored" });
  const setupBox = h("section", { class: "panel analysis-setup", "aria-label": "Set up a position" });
  const playBox = h("section", { class: "panel analysis-play", "aria-label": "Play on from here" });
  replace(
    root,
    h(
      "header",
      { class: "game-head" },
      h("h1", {}, `${title} analysis board`),
      h(
        "nav",
        { class: "game-links" },
        info.how_to_play ? h("a", { href: `/howto/${game}` }, "How to play") : null,
        info.rules ? h("a", { href: `/rules/${game}` }, "Rules") : null,
      ),
    ),
    thinking.element,
    h(
      "div",
      { class: "game-grid analysis-grid" },
      h("div", { class: "banner-area" }, status),
      h("div", { class: "board-col" }, boardBox),
      h("aside", { class: "side-col" }, movesBox, treeBox, setupBox, playBox),
    ),
  );

  let closed = false;
  let board = null;
  let kitBoard = null;
  let options = {};
  let tree = null; // the move tree: nodes {id, position, view, played, parent, children, answer}
  let current = null;
  let perspective = 0;
  let editing = null; // the editor while the board is being edited
  let asked = 0; // the latest request: older answers are dropped
  const seats = info.seats.map(seatName);

  // One request at a time (the server works out one position at a time per player): a request
  // made while another is out waits for it, and is never sent if a newer one came meanwhile
  // (stepping quickly through a line asks only for where it stops).
  let inflight = Promise.resolve();
  async function ask(body) {
    const ticket = ++asked;
    const before = inflight;
    let release;
    inflight = new Promise((resolve) => (release = resolve));
    try {
      await before;
      if (ticket !== asked || closed) return null;
      thinking.start("Working out the moves…");
      const answer = await postJSON(`/api/analysis/${encodeURIComponent(game)}`, { options, ...body });
      return ticket === asked && !closed ? answer : null;
    } finally {
      release();
      if (ticket === asked) thinking.stop();
    }
  }

  /** A new tree from an answer: its start, the line played, the last node shown. */
  function plant(answer) {
    options = answer.options || {};
    tree = lineTree(answer.start, answer.start_view);
    let node = tree.root;
    for (const step of answer.steps) node = tree.add(node, step);
    node.answer = answer;
    const mover = answer.to_move >= 0 ? answer.to_move : firstMover(answer);
    perspective = mover >= 0 ? mover : 0;
    show(node);
  }

  function firstMover(answer) {
    const step = answer.steps.find((s) => s.played.mover >= 0);
    return step ? step.played.mover : -1;
  }

  async function open() {
    const params = new URLSearchParams(location.search);
    kitBoard = await boardModule(game);
    if (closed) return;
    board = new kitBoard.Board({ onMove: play });
    const body = {};
    const from = params.get("from");
    if (from) body.start = { game_id: from, step: Number(params.get("step") || 0) };
    else {
      if (params.get("position")) body.position = params.get("position");
      const line = params.get("line");
      if (line) body.line = line.split(",").filter(Boolean).map(decodeURIComponent);
      try {
        options = params.get("options") ? JSON.parse(params.get("options")) : {};
      } catch {
        options = {};
      }
    }
    try {
      const answer = await ask(body);
      if (answer) plant(answer);
    } catch (error) {
      if (closed) return;
      if (body.start || !body.position) {
        replace(boardBox, failure(error));
        return;
      }
      // A shared position that does not hold: the start, with the reason beside the field.
      notify(error.message);
      options = {};
      const answer = await ask({}).catch(() => null);
      if (answer) plant(answer);
      setupError(error, body.position);
    }
  }

  function show(node) {
    current = node;
    editing = null;
    if (!node.answer) return evaluate(node);
    render();
  }

  async function evaluate(node) {
    current = node;
    render();
    try {
      const answer = await ask({ position: node.position });
      if (!answer) return;
      node.answer = answer;
      if (current === node) render();
    } catch (error) {
      notify(error.message);
    }
  }

  /** Play a move (or a chance outcome) from the node shown: the child if it is there, else a
   * new branch. `draw`: a random outcome of the chance step. */
  async function play(move, draw = false) {
    const node = current;
    if (!node) return;
    const known = move && node.children.find((child) => child.played.text === move);
    if (known) return show(known);
    try {
      const answer = await ask(draw ? { position: node.position, draw: true } : { position: node.position, line: [move] });
      if (!answer || current !== node) return;
      const step = answer.steps[answer.steps.length - 1];
      const same = node.children.find((child) => child.played.text === step.played.text);
      const child = same || tree.add(node, step);
      child.answer = { ...answer, steps: [] };
      show(child);
    } catch (error) {
      notify(error.message);
    }
  }

  // --- drawing -------------------------------------------------------------------------------

  function render() {
    if (!current || closed) return;
    const answer = current.answer;
    root.dataset.position = current.position;
    root.dataset.node = String(current.id);
    root.dataset.ready = answer ? "true" : "false";
    window.gamehall = { analysis: { tree, current } };
    updateAddress();
    if (editing) return;
    const canMove = Boolean(answer) && answer.to_move >= 0 && !answer.over;
    board.update({
      view: current.view,
      legal: canMove ? answer.legal : [],
      canMove,
      last: current.played,
      key: `analysis-${current.id}`,
      perspective,
      seatLabels: seats,
      over: Boolean(answer?.over),
    });
    // the step bar right under the board and its prompt, before the game's extra panels
    replace(boardBox, board.element, board.controls || null, controlsBox, board.extras || null);
    drawStatus(answer);
    drawControls();
    drawMoves(answer);
    drawTree();
    drawSetup();
    drawPlay(answer);
  }

  function drawStatus(answer) {
    if (!answer) {
      replace(status, "Working out the moves…");
      return;
    }
    if (answer.over) replace(status, h("strong", {}, "The game is over: "), answer.result || "no moves are left.");
    else if (answer.to_move < 0) replace(status, h("strong", {}, "Chance is to act: "), "choose what is drawn, or draw at random.");
    else replace(status, h("strong", {}, `${answer.to_move_name} to move.`), answer.headline ? ` ${answer.headline}.` : "");
  }

  function drawControls() {
    const path = nodePath(current);
    const step = (target) => target && show(target);
    const buttons = [
      ["first", "«", "To the start", () => step(tree.root), current === tree.root],
      ["back", "‹", "Back one move", () => step(current.parent), !current.parent],
      ["forward", "›", "Forward one move", () => step(current.children[0]), !current.children.length],
      ["last", "»", "To the end of the line", () => step(tree.end(current)), !current.children.length],
    ].map(([name, icon, label, onClick, disabled]) =>
      h("button", { type: "button", class: "small", "data-step": name, "aria-label": label, title: label, onClick, disabled }, icon),
    );
    const flip = h(
      "button",
      { type: "button", class: "small ghost", "data-action": "flip", onClick: () => ((perspective = 1 - perspective), render()) },
      "Flip board",
    );
    replace(controlsBox, h("div", { class: "step-bar" }, buttons, h("span", { class: "muted small" }, `Move ${path.length - 1}`), flip));
  }

  function drawMoves(answer) {
    if (!answer) {
      replace(movesBox, h("h2", {}, "Moves"), loading("Working out the moves…"));
      return;
    }
    if (answer.over) {
      replace(movesBox, h("h2", {}, "Moves"), h("p", { class: "muted" }, `No moves: ${answer.result || "the game is over"}.`));
      return;
    }
    if (answer.to_move < 0) {
      const random = h("button", { type: "button", class: "primary", "data-action": "random", onClick: () => play(null, true) }, "Draw at random");
      replace(
        movesBox,
        h("h2", {}, "What chance draws"),
        answer.chance
          ? h(
              "ol",
              { class: "analysis-list outcomes" },
              answer.chance.map((outcome) =>
                h(
                  "li",
                  {},
                  h(
                    "button",
                    { type: "button", class: "analysis-move", "data-move": outcome.move, onClick: () => play(outcome.move) },
                    h("span", { class: "value chance" }, outcome.chance),
                    h("span", { class: "words" }, outcome.words),
                    h("code", { class: "label" }, outcome.move),
                  ),
                ),
              ),
            )
          : h("p", { class: "muted" }, "There are too many possible draws to list them."),
        h("div", { class: "buttons" }, random),
      );
      return;
    }
    const who = answer.to_move_name;
    const estimated = answer.moves.some((m) => m.method !== "exact");
    replace(
      movesBox,
      h("h2", {}, `${who}'s moves, best first`),
      h(
        "p",
        { class: "muted small analysis-legend" },
        `Values are for ${who}`,
        answer.unit ? ` (${answer.unit})` : "",
        estimated ? ". Exact values are proven; “estimate” marks a value the solver did not settle in time." : ", all proven exactly.",
      ),
      h(
        "ol",
        { class: "analysis-list" },
        answer.moves.map((move) => {
          const played = current.children.some((child) => child.played.text === move.move);
          return h(
            "li",
            { class: [move.best ? "best" : "", played ? "explored" : ""].join(" ").trim() || null },
            h(
              "button",
              { type: "button", class: "analysis-move", "data-move": move.move, title: move.text, onClick: () => play(move.move) },
              h("span", { class: `value value-${move.method}` }, move.value),
              h(
                "span",
                { class: "words" },
                move.words,
                h("span", { class: "move-value-text" }, move.text),
              ),
              h("code", { class: "label" }, move.move),
              move.method === "exact" ? null : h("span", { class: "estimate-tag" }, { estimate: "estimate", bounds: "proven bounds", unknown: "not evaluated" }[move.method]),
            ),
          );
        }),
      ),
    );
  }

  function drawTree() {
    const path = new Set(nodePath(current));
    function line(node) {
      // the node's main continuation inline, its other children as branches under the move
      const items = [];
      let at = node;
      while (at.children.length) {
        const [main, ...others] = at.children;
        items.push(moveButton(main, path));
        if (others.length) items.push(h("ul", { class: "branches" }, others.map((other) => h("li", {}, h("div", { class: "branch" }, moveButton(other, path), line(other))))));
        at = main;
      }
      return items;
    }
    replace(
      treeBox,
      h("h2", {}, "Line"),
      tree.root.children.length
        ? h("div", { class: "move-tree" }, h("button", { type: "button", class: `tree-move start${current === tree.root ? " current" : ""}`, onClick: () => show(tree.root) }, "Start"), line(tree.root))
        : h("p", { class: "muted small" }, "Play a move on the board or from the list; playing another move from an earlier position starts a branch."),
      h("p", { class: "muted small" }, "Step with « ‹ › » under the board or the arrow keys."),
    );
  }

  function moveButton(node, path) {
    const classes = ["tree-move", node === current ? "current" : "", path.has(node) ? "on-path" : ""].filter(Boolean).join(" ");
    return h(
      "button",
      { type: "button", class: classes, "data-node": node.id, title: node.played.text, onClick: () => show(node) },
      node.played.words || node.played.text,
    );
  }

  // --- setting up a position -----------------------------------------------------------------

  let setupText = null;
  let setupProblem = null;

  function drawSetup() {
    const field = h("textarea", { class: "position-field", rows: 2, spellcheck: "false", "aria-label": "Position text", maxlength: 2000 });
    field.value = setupText ?? current.position;
    const problem = h("p", { class: "setup-error", role: "alert" }, setupProblem || "");
    const use = h("button", { type: "button", "data-action": "use-position" }, "Analyse this position");
    use.addEventListener("click", () => usePosition(field.value.trim(), problem));
    field.addEventListener("input", () => (setupText = field.value));
    const edit = info.editor_module
      ? h("button", { type: "button", "data-action": "edit", onClick: startEditing }, "Edit the board")
      : null;
    const share = h("button", { type: "button", class: "ghost", "data-action": "share", onClick: copyLink }, "Copy link");
    replace(
      setupBox,
      h("h2", {}, "Set up a position"),
      h("label", { class: "muted small" }, "The position as text (paste one, or copy this one):", field),
      problem,
      h("div", { class: "buttons" }, use, edit, share),
    );
  }

  function setupError(error, text) {
    setupText = text;
    setupProblem = error.message;
    render();
  }

  async function usePosition(text, problem, after = null) {
    if (!text) return;
    try {
      const answer = await ask({ position: text });
      if (!answer) return;
      setupText = null;
      setupProblem = null;
      editing = null;
      plant(answer);
      if (after) after();
    } catch (error) {
      problem.textContent = error.message;
      if (!after) setupProblem = error.message;
      setupText = text;
    }
  }

  async function startEditing() {
    let module;
    try {
      module = await import(info.editor_module);
    } catch (error) {
      notify(`The position editor of ${title} could not be loaded (${error.message}).`);
      return;
    }
    if (closed) return;
    const editor = new module.Editor();
    editing = editor;
    editor.load(current.view);
    const problem = h("p", { class: "setup-error", role: "alert" });
    const done = h("button", { type: "button", class: "primary", "data-action": "editor-done" }, "Analyse this position");
    done.addEventListener("click", () => usePosition(editor.text(), problem, () => {}));
    const cancel = h("button", { type: "button", "data-action": "editor-cancel", onClick: () => ((editing = null), render()) }, "Cancel");
    replace(
      boardBox,
      h("div", { class: "panel editor-box" }, h("h2", {}, "Edit the board"), editor.element, problem, h("div", { class: "buttons" }, done, cancel)),
    );
    replace(controlsBox);
  }

  // --- the address, the link, playing on -----------------------------------------------------

  function linkFor(node) {
    const path = nodePath(node).slice(1);
    const params = new URLSearchParams();
    if (path.length <= MAX_LINE) {
      params.set("position", tree.root.position);
      if (path.length) params.set("line", path.map((n) => encodeURIComponent(n.played.text)).join(","));
    } else params.set("position", node.position);
    if (Object.keys(options).length) params.set("options", JSON.stringify(options));
    return `/analysis/${encodeURIComponent(game)}?${params}`;
  }

  function updateAddress() {
    const link = linkFor(current);
    if (location.pathname + location.search !== link) history.replaceState({}, "", link);
  }

  async function copyLink() {
    const url = new URL(linkFor(current), location.origin).href;
    try {
      await navigator.clipboard.writeText(url);
      notify("The link to this position and its line is copied.", "info");
    } catch {
      notify(`The link: ${url}`, "info");
    }
  }

  let levels = [];
  meta()
    .then((data) => {
      levels = data.levels || [];
      if (current?.answer) drawPlay(current.answer);
    })
    .catch(() => {});

  function drawPlay(answer) {
    if (!answer || answer.over) {
      replace(playBox, h("h2", {}, "Play on from here"), h("p", { class: "muted small" }, "The game is over in this position."));
      return;
    }
    const seat = h("select", { "aria-label": "Your side" }, seats.map((name, index) => h("option", { value: index }, name)));
    seat.value = String(Math.max(0, answer.to_move >= 0 ? answer.to_move : perspective));
    const level = h("select", { "aria-label": "Computer level" }, levels.map((name) => h("option", { value: name }, name)));
    if (levels.includes("medium")) level.value = "medium";
    const start = async (mode) => {
      try {
        const body = { game, options, mode, seat: Number(seat.value), position: current.position };
        if (mode === "computer") body.level = level.value;
        const made = await postJSON("/api/games", body);
        navigate(`/game/${encodeURIComponent(made.id)}`);
      } catch (error) {
        notify(error.message);
      }
    };
    replace(
      playBox,
      h("h2", {}, "Play on from here"),
      h("div", { class: "play-on" }, h("label", {}, "You play ", seat), h("label", {}, "Computer ", level)),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", class: "primary", "data-action": "play-computer", onClick: () => start("computer") }, "Play the computer"),
        h("button", { type: "button", "data-action": "play-hotseat", onClick: () => start("hotseat") }, "Hot-seat"),
      ),
    );
  }

  function onKey(event) {
    if (!current || editing || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select")) return;
    const target = {
      ArrowLeft: current.parent,
      ArrowRight: current.children[0],
      Home: tree.root,
      End: tree.end(current),
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    if (target && target !== current) show(target);
  }
  document.addEventListener("keydown", onKey);

  open();
  return () => {
    closed = true;
    thinking.stop();
    document.removeEventListener("keydown", onKey);
  };
}
