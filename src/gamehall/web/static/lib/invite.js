// The invite link of an online game's free seat, on the game page: the server gives it to the
// browser holding the other seat until someone takes the seat (then null), so it is asked again
// whenever the seats' presence changes. Shown until the friend has played.

import { absolute, getJSON } from "./api.js";
import { h, replace } from "../dom.js";
import { seatName } from "./shared.js";

export class InviteBox {
  /** current(): the page's latest state message and the seats this browser holds. */
  constructor(id, current) {
    this.id = id;
    this.current = current;
    this.url = null;
    this.asked = null;
    this.element = h("div", { class: "invite-box", hidden: true });
  }

  ask() {
    const { state, you } = this.current();
    if (!state || state.mode !== "online" || state.over || !you.length) {
      this.url = null;
      return Promise.resolve();
    }
    const asking = getJSON(`/api/games/${encodeURIComponent(this.id)}/invite`)
      .then((answer) => {
        if (this.asked === asking) this.url = answer.invite ? absolute(answer.invite) : null;
      })
      .catch(() => {});
    this.asked = asking;
    return asking.then(() => this.current().state && this.render());
  }

  render() {
    const { state, you } = this.current();
    const url = this.url;
    const box = this.element;
    const friend = (state.seats || []).find((seat) => seat.kind !== "computer" && !you.includes(seat.index));
    const played = friend && (state.movers || []).includes(friend.index);
    if (!url || !friend || played || state.over || (state.mode && state.mode !== "online")) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const input = h("input", { type: "text", readonly: true, value: url, class: "invite-url", "aria-label": "Invite link" });
    const copy = h("button", { type: "button", class: "primary copy" }, "Copy link");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        input.select();
        document.execCommand?.("copy");
      }
      copy.textContent = "Copied!";
      setTimeout(() => (copy.textContent = "Copy link"), 2000);
    });
    input.addEventListener("focus", () => input.select());
    replace(
      box,
      h("p", {}, `Send this link to your friend; they play ${seatName(friend.name)}. The first to open it takes the seat:`),
      h("div", { class: "invite-row" }, input, copy),
    );
  }
}
