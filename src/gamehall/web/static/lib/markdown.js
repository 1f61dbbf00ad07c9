// A small markdown subset for the rules pages: headings, paragraphs, lists (nested by indent),
// fenced code, inline code, bold, italics and links. Text is escaped, never parsed as HTML.

import { h } from "../dom.js";

/** Inline markup inside one block of text: `code`, **bold**, *italic*, [text](url). */
export function inline(text) {
  const out = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)\*(?!\w)|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    if (match[1] !== undefined) out.push(h("code", {}, match[1]));
    else if (match[2] !== undefined) out.push(h("strong", {}, ...inline(match[2])));
    else if (match[3] !== undefined) out.push(h("em", {}, ...inline(match[3])));
    else {
      const safe = /^(https?:|\/|#)/.test(match[5]) ? match[5] : "#";
      out.push(h("a", { href: safe }, ...inline(match[4])));
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

/** Render markdown text to a DocumentFragment. */
export function renderMarkdown(source) {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const root = document.createDocumentFragment();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const fence = line.match(/^\s*(```|~~~)\s*(\S*)/);
    if (fence) {
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i += 1; // the closing fence
      root.append(h("pre", {}, h("code", fence[2] ? { class: `language-${fence[2]}` } : {}, body.join("\n"))));
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*?)\s*#*$/);
    if (heading) {
      root.append(h(`h${Math.min(6, heading[1].length + 1)}`, {}, ...inline(heading[2])));
      i += 1;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      root.append(h("hr"));
      i += 1;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const [list, next] = parseList(lines, i);
      root.append(list);
      i = next;
      continue;
    }
    if (line.startsWith(">")) {
      const body = [];
      while (i < lines.length && lines[i].startsWith(">")) body.push(lines[i++].replace(/^>\s?/, ""));
      root.append(h("blockquote", {}, renderMarkdown(body.join("\n"))));
      continue;
    }
    const paragraph = [];
    while (
      i < lines.length &&
      lines[i].trim() &&
      !LIST_ITEM.test(lines[i]) &&
      !/^(#{1,6})\s/.test(lines[i]) &&
      !/^\s*(```|~~~)/.test(lines[i])
    ) {
      paragraph.push(lines[i++].trim());
    }
    root.append(h("p", {}, ...inline(paragraph.join(" "))));
  }
  return root;
}

/** A list starting at lines[start]; items continue on more-indented lines; deeper items nest. */
function parseList(lines, start) {
  const first = lines[start].match(LIST_ITEM);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list = h(ordered ? "ol" : "ul");
  let i = start;
  while (i < lines.length) {
    const match = lines[i].match(LIST_ITEM);
    if (!match || match[1].length !== indent) break;
    const text = [match[3]];
    const item = h("li");
    i += 1;
    const nested = [];
    while (i < lines.length && lines[i].trim()) {
      const sub = lines[i].match(LIST_ITEM);
      if (sub && sub[1].length > indent) {
        const [inner, next] = parseList(lines, i);
        nested.push(inner);
        i = next;
        continue;
      }
      if (sub || /^\S/.test(lines[i])) break;
      text.push(lines[i].trim());
      i += 1;
    }
    item.append(...inline(text.join(" ")), ...nested);
    list.append(item);
    // A blank line between items of the same list keeps the list going.
    if (i < lines.length && !lines[i].trim()) {
      let j = i;
      while (j < lines.length && !lines[j].trim()) j += 1;
      const again = j < lines.length && lines[j].match(LIST_ITEM);
      if (again && again[1].length === indent) i = j;
    }
  }
  return [list, i];
}
