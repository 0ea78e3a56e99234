// The progress bar of a refresh: rate and ETA on stderr, drawn only when stderr is
// a terminal (a log file or a CI console gets the summary alone).

export interface Progress {
  /** Identities refreshed so far. */
  done: number;
  /** Identities to refresh (this shard). */
  total: number;
  elapsedMs: number;
}

/** A progress line's figures; `etaSeconds` null shows "ETA --" (not known yet). */
export interface ProgressView extends Progress {
  etaSeconds?: number | null;
}

/** No ETA before this much time since the first batch… */
export const ETA_MIN_MS = 1000;
/** …and this share of the work: earlier rates are mostly warm-up (threads loading, JIT). */
export const ETA_MIN_RATIO = 0.03;
/** Weight of the latest rate in the smoothed rate. */
const SMOOTHING = 0.2;

/**
 * The ETA from a smoothed rate: measured from the first batch (the pre-pass before it is not
 * refresh work), shown only once ETA_MIN_MS and ETA_MIN_RATIO have passed, then an exponential
 * moving average of the rates between redraws, so that one slow batch does not make it jump.
 */
export class EtaEstimator {
  private first: Progress | null = null;
  private last: Progress | null = null;
  private rate = 0;

  /** Seconds left, or null while the rate means nothing yet. */
  update(p: Progress): number | null {
    if (p.done >= p.total) return 0;
    if (this.first === null) {
      this.first = this.last = p;
      return null;
    }
    const since = p.elapsedMs - this.first.elapsedMs;
    if (since < ETA_MIN_MS || p.done / p.total < ETA_MIN_RATIO || p.done <= this.first.done) return null;
    if (this.rate === 0) this.rate = ((p.done - this.first.done) * 1000) / since;
    else if (p.elapsedMs > this.last!.elapsedMs) {
      const latest = ((p.done - this.last!.done) * 1000) / (p.elapsedMs - this.last!.elapsedMs);
      this.rate = SMOOTHING * latest + (1 - SMOOTHING) * this.rate;
    }
    this.last = p;
    return this.rate > 0 ? (p.total - p.done) / this.rate : null;
  }
}

export interface ProgressBar {
  update(progress: Progress): void;
  /** Erase the bar. */
  finish(): void;
}

/** A bar redrawn at most every `intervalMs`; `write` receives raw terminal text. */
export function createProgressBar(write: (text: string) => void, columns = 80, intervalMs = 100): ProgressBar {
  let last = -Infinity;
  let drawn = false;
  const eta = new EtaEstimator();
  return {
    update({ done, total, elapsedMs }) {
      if (elapsedMs - last < intervalMs && done < total) return;
      last = elapsedMs;
      const etaSeconds = eta.update({ done, total, elapsedMs });
      write('\r' + renderProgress({ done, total, elapsedMs, etaSeconds }, columns) + '\x1b[K');
      drawn = true;
    },
    finish() {
      if (drawn) write('\r\x1b[K');
      drawn = false;
    },
  };
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * One line: `[#####.....]  50% 5,000/10,000 12,345/s ETA 3s`, fitted to `columns`. The ETA is
 * `etaSeconds` when given (null: "--"), else the remaining work at the average rate.
 */
export function renderProgress({ done, total, elapsedMs, etaSeconds }: ProgressView, columns = 80): string {
  const ratio = total === 0 ? 1 : Math.min(1, done / total);
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const eta = etaSeconds === null ? Infinity : etaSeconds !== undefined ? etaSeconds : rate > 0 ? (total - done) / rate : Infinity;
  const text = ` ${String(Math.floor(ratio * 100)).padStart(3)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${Math.round(rate).toLocaleString('en-US')}/s ETA ${duration(eta)}`;
  const width = Math.max(10, Math.min(40, columns - text.length - 3));
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]${text}`;
}
