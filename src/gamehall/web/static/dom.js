// Small DOM helpers: build HTML and SVG elements from plain data, no framework.
//
// This is the helper API a game's board module may import, by its absolute URL (the URL stays):
//
//   import { h, s, replace } from "/static/dom.js";
//
// It is the only module under /static/ that a game may import. Everything else (app.js, lib/,
// pages/, css/) is the hall's own and internal: it moves and changes without notice. A board is
// one module and one stylesheet (only board.js and board.css are served): what else it needs it
// writes in that module (docs/adding-a-game.md, "The browser board").
//
//   h(tag, attrs = {}, ...children) -> HTMLElement
//       A new HTML element. `attrs` is a plain object: a key "on<Event>" with a function adds
//       that event's listener (onClick -> "click"); "dataset" is an object copied into
//       element.dataset; "text" sets textContent (never parsed as markup); any other key is an
//       attribute, its value as a string, `true` as an empty attribute; null, undefined and
//       false leave it out. `children` are nodes, strings, numbers or (nested) arrays of them;
//       null, undefined and false are skipped; strings become text nodes, never markup.
//   s(tag, attrs = {}, ...children) -> SVGElement
//       The same for an SVG element (in the SVG namespace): s("circle", {cx: 5, cy: 5, r: 4}).
//   append(element, children) -> element
//       Appends `children` (one array, as h() takes them) to `element`; returns `element`.
//   replace(element, ...children) -> element
//       Removes every child of `element`, then appends `children`; returns `element`.
//   ago(iso) -> string
//       An ISO timestamp as people read it: "just now", "3 min ago", "2 h ago", else the date;
//       text that is no time comes back as given.
//   capitalize(text) -> string
//       `text` with its first letter upper case ("" for an empty or missing text).

const SVG_NS = "http://www.w3.org/2000/svg";

function build(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(element.dataset, value);
    } else if (key === "text") {
      element.textContent = value;
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Append children: nodes, strings, numbers, arrays of them; null/false are skipped. */
export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element: h("button", {class: "x", onClick: f}, "text"). */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace all children of an element. */
export function replace(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/** A relative time like "3 min ago" for an ISO timestamp. */
export function ago(iso) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso || "";
  const seconds = Math.max(0, (Date.now() - then) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(then).toLocaleDateString();
}

export function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}
