import type { ErrorDefinition } from './types.js';

// Identity refresh: refresh() of the library and the refresh command. Prefixes REFRESH_ and
// RULES_MODULE_ (the rules module a refresh loads). The CLI reports REFRESH_OPTION_INVALID as a
// usage error (exit 2).
export const refreshErrors = {
  REFRESH_OPTION_INVALID: { status: 400, description: 'An option of refresh() is unknown or invalid (workers, batch size, shard, profile, clock).' },
  RULES_MODULE_INVALID: { status: 400, description: 'A rules module (--rules) does not exist, cannot be loaded, or does not export an object of rule functions by name.' },
  REFRESH_INTERRUPTED: { status: 503, description: 'Ctrl-C (SIGINT) stopped a batch being evaluated on the calling thread with rules from a rules module (a rule that never returns cannot hold the run); the signal is handed on to the process, and the batch is dropped.' },
  REFRESH_WORKER_FAILED: { status: 500, description: 'A refresh worker thread failed: it died (its heap limit reached, an uncaught error, an exit) or threw; the message names the batch. No thread is started again in that process.' },
} as const satisfies Record<string, ErrorDefinition>;
