// The move list of the game page: every action told in words (the server's, from the game's
// plugin), with its notation as a small label, grouped by the chapters the server names (a round,
// a turn) and keeping each round's result as a line ("Round 1: Dark +2, match 2–0"). Nothing here
// knows a game: the headings, words and results all come in the state message
// (docs/web-protocol.md: `words`, `chapters`, `ends`, parallel to `actions`).

import { h } from "../dom.js";

/**
 * The list as an element.
 * history: { actions, movers, words, chapters, ends } (the state message's lists).
 * options: current (the step shown: the position after that many actions), go(step),
 * icons(index) (an optional picture of the action, from the board module), who(mover) (the
 * seat's person, for a tooltip).
 */
export function moveList(history, { current, go, icons = () => null, who = () => "" }) {
  const actions = history.actions || [];
  const movers = history.movers || [];
  const words = history.words || [];
  const chapters = history.chapters || [];
  const ends = history.ends || [];
  const groups = [];
  let group = null;
  actions.forEach((action, index) => {
    const heading = chapters[index] || "";
    if (!group || group.heading !== heading) {
      group = { heading, items: [] };
      groups.push(group);
    }
    group.items.push(entry(index));
    if (ends[index]) {
      groups.push({ end: ends[index] });
      group = null; // a round's result closes its group, even if the next heading repeats
    }
  });

  function entry(index) {
    const action = actions[index];
    const chance = movers[index] === -1;
    const told = words[index] || action;
    const person = chance ? "" : who(movers[index]);
    const classes = [chance ? "chance" : "move"];
    if (index === actions.length - 1) classes.push("last");
    if (index + 1 === current) classes.push("current");
    return h(
      "li",
      { class: classes.join(" "), value: index + 1, "data-step": index + 1 },
      h(
        "button",
        {
          type: "button",
          class: "step-link",
          title: `Show the position after move ${index + 1}${person ? ` (${person})` : ""}`,
          onClick: () => go(index + 1),
        },
        h("span", { class: "num" }, `${index + 1}.`),
        icons(index),
        h("span", { class: "words" }, told),
        told !== action ? h("code", { class: "notation", title: action }, action) : null,
      ),
    );
  }

  return h(
    "div",
    { class: "move-list" },
    groups.map((item) =>
      item.end !== undefined
        ? h("p", { class: "chapter-end" }, item.end)
        : h(
            "section",
            { class: "move-chapter" },
            item.heading ? h("h3", { class: "chapter-head" }, item.heading) : null,
            h("ol", { class: "chapter-moves" }, item.items),
          ),
    ),
  );
}
