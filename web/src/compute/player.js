// Drives training epoch by epoch from a timer, so the charts animate: play, pause, single step.

const EPOCH_INTERVAL_MS = 250;

class Player {
  // step() runs one epoch and returns false to stop (null: the last epoch is still under way, so this
  // tick is skipped and not counted); onChange(isPlaying) reports state changes.
  constructor({ step, onChange }) {
    this.step = step;
    this.onChange = onChange;
    this.timer = null;
    this.remaining = 0;
  }

  get isPlaying() { return this.timer !== null; }

  play(epochs) {
    this.pause();
    this.remaining = epochs;
    this.timer = setInterval(() => this.tick(), EPOCH_INTERVAL_MS);
    this.onChange(true);
    this.tick();
  }

  tick() {
    if (this.remaining <= 0) {
      this.pause();
      return;
    }
    const stepped = this.step();
    if (stepped === null) return;
    if (!stepped) {
      this.pause();
      return;
    }
    this.remaining -= 1;
    if (this.remaining <= 0) this.pause();
  }

  pause() {
    if (this.timer === null) return;
    clearInterval(this.timer);
    this.timer = null;
    this.onChange(false);
  }
}

export { Player };
