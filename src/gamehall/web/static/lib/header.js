// The header's badges: a count beside a link (challenges waiting for you, ...). A minimal
// version: the header's own module replaces it, with this export.

import { h } from "../dom.js";

/** Show (count > 0) or hide the header badge `key`: a link to `href` reading `label` with the
 * count. */
export function headerBadge(key, { count, href, label }) {
  const nav = document.querySelector(".site-head nav");
  if (!nav) return;
  let link = nav.querySelector(`a.nav-badge[data-badge="${key}"]`);
  if (!link) {
    link = h("a", { class: "nav-badge", "data-badge": key, href }, h("span", { class: "badge-label" }, label), h("span", { class: "badge-count" }));
    nav.prepend(link);
  }
  link.href = href;
  link.hidden = !count;
  link.querySelector(".badge-count").textContent = String(count || 0);
  link.setAttribute("aria-label", `${label}: ${count || 0} waiting`);
}
