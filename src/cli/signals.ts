// SIGINT (Ctrl-C) and SIGTERM (a Kubernetes Job or systemd stopping the process) while a command
// runs: the first is recorded for the command to stop at its next safe point and clean up; a
// second one cleans up synchronously and exits at once. Exit codes are 128 + the signal's
// number, as shells report them (130 for SIGINT, 143 for SIGTERM).

import { constants } from 'node:os';

export interface SignalWatch {
  /** The first signal received, or null. */
  readonly received: NodeJS.Signals | null;
  /** Stop listening (Node's default handling comes back). */
  dispose(): void;
}

export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

const WATCHED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** Watch SIGINT and SIGTERM; `onFirst` runs at the first, `cleanUpNow` before a second signal ends the process. */
export function watchSignals(cleanUpNow: () => void, onFirst?: (signal: NodeJS.Signals) => void): SignalWatch {
  let received: NodeJS.Signals | null = null;
  const handler = (signal: NodeJS.Signals) => {
    if (received === null) {
      received = signal;
      onFirst?.(signal);
      return;
    }
    try {
      cleanUpNow();
    } finally {
      process.exit(signalExitCode(received));
    }
  };
  for (const s of WATCHED) process.on(s, handler);
  return {
    get received() {
      return received;
    },
    dispose() {
      for (const s of WATCHED) process.off(s, handler);
    },
  };
}
