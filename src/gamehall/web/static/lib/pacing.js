// What just happened, at a person's pace: the moves that others made (the computer, the
// opponent, chance) are shown one after another, each position at least STEP_MS on the board,
// so a person sees the Ifrit keep, discard and place rather than three changes at once.
//
// The pacer only counts: `shown` is how many of the game's actions the board shows as the
// present; `target` how many the server has played. Moves of this browser's own seats are
// shown at once (never delayed); a click or a key (skip) shows the present at once; pacing off
// (a preference of this browser) shows every state as it comes. Nothing here delays what the
// player sends: while the pacer is behind, the page offers no moves (the board is not the
// present), and the player's legal moves appear with the present.

export const STEP_MS = 700;
/** How long a step may wait for the positions of the game's history before it is given up. */
const WAIT_MS = 3000;

export class Pacer {
  /**
   * onChange(): the shown position changed (render). paced(k): whether action k (0-based) is
   * told at a person's pace (not this browser's own). ready(n): whether the position after n
   * actions can be drawn (the history has it). enabled: pacing on.
   */
  constructor({ onChange, paced, ready, enabled = true }) {
    this.onChange = onChange;
    this.paced = paced;
    this.ready = ready;
    this.enabled = enabled;
    this.shown = null; // null until the first state: the present is shown as it is
    this.target = 0;
    this.timer = null;
    this.lastStep = -Infinity; // when the last paced action was put on the board
    this.waiting = 0; // since when a step waits for the history
  }

  /** Whether the board is behind the game (a paced move is still to be shown). */
  get active() {
    return this.shown !== null && this.shown < this.target;
  }

  /** The game has `count` actions now (a new state). */
  follow(count) {
    this.target = count;
    if (this.shown === null || count < this.shown || !this.enabled) {
      this.show(count); // the first state, a takeback, or pacing off
      return;
    }
    if (!this.timer) this.next(false); // the caller draws the page
  }

  /** Show the present at once (a click, a key, pacing turned off). */
  skip() {
    if (!this.active) return;
    this.show(this.target);
    this.onChange();
  }

  setEnabled(on) {
    this.enabled = on;
    if (!on) this.skip();
  }

  show(count) {
    clearTimeout(this.timer);
    this.timer = null;
    this.shown = count;
    this.waiting = 0;
  }

  next(tell = true) {
    this.timer = null;
    let changed = false;
    // Own moves (and anything not told) go on the board at once.
    while (this.shown < this.target && !this.paced(this.shown)) {
      this.shown += 1;
      changed = true;
    }
    if (this.shown < this.target) {
      const now = performance.now();
      const left = this.lastStep + STEP_MS - now;
      const ready = this.ready(this.shown + 1);
      if (!ready && !this.waiting) this.waiting = now;
      if (left > 0 || (!ready && now - this.waiting < WAIT_MS)) {
        this.timer = setTimeout(() => this.next(), ready ? left : Math.max(left, 60));
      } else {
        this.shown += 1;
        this.waiting = 0;
        this.lastStep = now;
        changed = true;
        if (this.shown < this.target) this.timer = setTimeout(() => this.next(), STEP_MS);
      }
    }
    if (changed && tell) this.onChange();
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}
