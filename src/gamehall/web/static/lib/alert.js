// Telling a player it is their turn while the tab is in the background: the title says so (and
// blinks), and, if the player switched it on, a short sound plays. The switch is remembered by
// the page (a preference); browsers only allow sound after the player has clicked on the page.

const BLINK_MS = 1000;

export class TurnAlert {
  constructor({ sound = false } = {}) {
    this.sound = sound;
    this.audio = null;
    this.blink = null;
    this.saved = null;
    this.onVisible = () => {
      if (!document.hidden) this.clear();
    };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  setSound(on) {
    this.sound = on;
    if (on) this.beep(0.05); // a click is a user gesture: the audio context may start now
  }

  /** It became this player's turn: say so if the page is not being looked at. */
  yourTurn(text) {
    if (!document.hidden) return;
    this.clear();
    this.saved = document.title;
    let on = true;
    document.title = `▶ ${text}`;
    this.blink = setInterval(() => {
      on = !on;
      document.title = on ? `▶ ${text}` : this.saved;
    }, BLINK_MS);
    if (this.sound) this.beep();
  }

  beep(volume = 0.2) {
    try {
      this.audio = this.audio || new AudioContext();
      const ctx = this.audio;
      const tone = ctx.createOscillator();
      const gain = ctx.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(volume, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
      tone.connect(gain).connect(ctx.destination);
      tone.start();
      tone.stop(ctx.currentTime + 0.35);
    } catch {
      // No audio here: the title still says it.
    }
  }

  clear() {
    if (this.blink) clearInterval(this.blink);
    this.blink = null;
    if (this.saved !== null) document.title = this.saved;
    this.saved = null;
  }

  stop() {
    this.clear();
    document.removeEventListener("visibilitychange", this.onVisible);
    this.audio?.close?.();
  }
}
