// The game page's sounds: a move, a capture, low time and the end, made with WebAudio (short
// tones, no sound files). Off unless the player switches them on (one toggle, remembered by the
// page); where there is no audio (no AudioContext, a browser that refuses it) nothing plays and
// nothing fails. Browsers only allow sound after the player has clicked on the page: switching
// the sounds on is such a click.

/** The tones of each sound: [frequency in Hz, start in s, length in s, volume]. */
const TONES = {
  move: [[520, 0, 0.09, 0.18]],
  capture: [
    [420, 0, 0.08, 0.22],
    [300, 0.07, 0.14, 0.22],
  ],
  low: [
    [880, 0, 0.07, 0.12],
    [880, 0.16, 0.07, 0.12],
  ],
  end: [
    [523, 0, 0.18, 0.16],
    [659, 0.14, 0.18, 0.16],
    [784, 0.28, 0.35, 0.16],
  ],
  turn: [[660, 0, 0.35, 0.2]],
};

export class Sounds {
  constructor({ on = false } = {}) {
    this.on = on;
    this.context = null;
    this.played = []; // the names played, for tests and debugging (window.gamehall.sounds)
  }

  set(on) {
    this.on = on;
    if (on) this.play("move", 0.3); // a click is a user gesture: the audio may start now
  }

  /** Play one of the sounds (move, capture, low, end, turn) if the sounds are on. */
  play(name, volume = 1) {
    if (!this.on || !TONES[name]) return;
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      this.context = this.context || new Context();
      const ctx = this.context;
      if (ctx.state === "suspended") ctx.resume?.().catch?.(() => {});
      for (const [frequency, start, length, gainValue] of TONES[name]) {
        const tone = ctx.createOscillator();
        const gain = ctx.createGain();
        const at = ctx.currentTime + start;
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, ctx.currentTime);
        gain.gain.setValueAtTime(gainValue * volume, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + length);
        tone.connect(gain).connect(ctx.destination);
        tone.start(at);
        tone.stop(at + length + 0.02);
      }
    } catch {
      // No audio here: the page says everything in words anyway.
    }
  }

  close() {
    try {
      this.context?.close?.();
    } catch {}
    this.context = null;
  }
}

/** The sound an action makes, from its parts (the game's plugin names a capture "capture"). */
export function soundOf(item) {
  if (!item || item.mover === -1) return null;
  return item.kind === "capture" ? "capture" : "move";
}
