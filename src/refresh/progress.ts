// The progress bar of a refresh (issue 6): rate and ETA on stderr, drawn only when stderr is
// a terminal (a log file or a CI console gets the summary alone).

export interface Progress {
  /** Identities refreshed so far. */
  done: number;
  /** Identities to refresh (this shard). */
  total: number;
  elapsedMs: number;
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
  return {
    update({ done, total, elapsedMs }) {
      if (elapsedMs - last < intervalMs && done < total) return;
      last = elapsedMs;
      write('\r' + renderProgress({ done, total, elapsedMs }, columns) + '\x1b[K');
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

/** One line: `[#####.....]  50% 5,000/10,000 12,345/s ETA 3s`, fitted to `columns`. */
export function renderProgress({ done, total, elapsedMs }: Progress, columns = 80): string {
  const ratio = total === 0 ? 1 : Math.min(1, done / total);
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const eta = rate > 0 ? (total - done) / rate : Infinity;
  const text = ` ${String(Math.floor(ratio * 100)).padStart(3)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${Math.round(rate).toLocaleString('en-US')}/s ETA ${duration(eta)}`;
  const width = Math.max(10, Math.min(40, columns - text.length - 3));
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]${text}`;
}
