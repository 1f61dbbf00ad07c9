// A game's options as form fields, from the option descriptions of /api/meta alone: the home
// page's new-game form and a challenge (lib/challenges.js) offer them the same way.

import { h } from "../dom.js";

// Option forms come from the option descriptions of /api/meta alone, by kind: bool a checkbox,
// int a number within its bounds, str a text field, choice a menu of its choices, data a text
// area; path options name files on the server and are never offered on the web.
const OFFERED_KINDS = new Set(["bool", "int", "str", "choice", "data"]);

export function offered(game) {
  return (game.options || []).filter((option) => OFFERED_KINDS.has(option.kind));
}

export function optionField(option, id) {
  const kind = option.kind;
  const name = `opt-${option.name}`;
  const label = option.name.replaceAll("_", " ");
  const common = { name, id: id(name) };
  let input;
  if (kind === "choice") {
    input = h(
      "select",
      common,
      (option.choices || []).map((choice) => h("option", { value: choice, selected: choice === option.default }, choice)),
    );
  } else if (kind === "bool") {
    input = h("input", { ...common, type: "checkbox", checked: Boolean(option.default) });
  } else if (kind === "int") {
    input = h("input", {
      ...common,
      type: "number",
      value: option.default,
      min: option.minimum ?? null,
      max: option.maximum ?? null,
      step: 1,
      inputmode: "numeric",
    });
  } else if (kind === "data") {
    input = h("textarea", { ...common, rows: 3, maxlength: option.max_length ?? null, spellcheck: false }, option.default ?? "");
  } else {
    input = h("input", { ...common, type: "text", value: option.default ?? "", maxlength: option.max_length ?? null });
  }
  return h(
    "div",
    { class: `field option option-${kind}` },
    h("label", { for: id(name) }, label),
    input,
    option.help ? h("small", { class: "help" }, option.help) : null,
  );
}

/** The options that differ from their defaults, typed as their kinds say. */
export function readOptions(form, game) {
  const options = {};
  for (const option of offered(game)) {
    const input = form.elements[`opt-${option.name}`];
    if (!input) continue;
    let value;
    if (option.kind === "bool") value = input.checked;
    else if (option.kind === "int") {
      if (input.value === "") continue;
      value = Number(input.value);
    } else value = input.value;
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}
