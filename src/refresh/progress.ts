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

/** The rate is measured over windows at least this long (from the first batch on)… */
export const RATE_WINDOW_MS = 500;
/** …and it is stable once two consecutive windows' rates differ by at most this share of the larger. */
export const STABLE_RATE_SPREAD = 0.2;
/** Weight of the latest rate in the smoothed rate. */
const SMOOTHING = 0.2;

/**
 * The ETA, shown only once the rate is stable (docs/refresh.md states the rule): the rate is
 * measured from the first batch (the pre-pass before it is not refresh work) over windows of
 * RATE_WINDOW_MS, and until two consecutive windows agree within STABLE_RATE_SPREAD the ETA is
 * "--" — early rates are mostly warm-up (threads loading, JIT), and an ETA from them overstates
 * the time left several times over. From then on it follows an exponential moving average of
 * the rates between redraws, so that one slow batch does not make it jump.
 */
export class EtaEstimator {
  private window: Progress | null = null;
  private windowRate: number | null = null;
  private last: Progress | null = null;
  private rate = 0;

  /** Seconds left, or null while the rate is not stable yet. */
  update(p: Progress): number | null {
    if (p.done >= p.total) return 0;
    if (this.window === null) {
      this.window = p;
      return null;
    }
    if (this.rate === 0) {
      const span = p.elapsedMs - this.window.elapsedMs;
      if (span < RATE_WINDOW_MS) return null;
      const rate = ((p.done - this.window.done) * 1000) / span;
      const previous = this.windowRate;
      this.window = p;
      this.windowRate = rate;
      if (previous === null || rate <= 0 || Math.abs(rate - previous) > STABLE_RATE_SPREAD * Math.max(rate, previous)) return null;
      this.rate = rate;
    } else if (p.elapsedMs > this.last!.elapsedMs) {
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
