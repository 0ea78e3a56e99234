import type { ErrorDefinition } from './types.js';

// Copying a tenant into a fixture directory (snapshotTenant(), `identity-transforms snapshot`).
// Prefix SNAPSHOT_. The CLI reports SNAPSHOT_OPTIONS as a usage error (exit 2).
export const snapshotErrors = {
  SNAPSHOT_OPTIONS: { status: 400, description: 'An option of snapshotTenant() is unknown or invalid (output directory, --only parts, rate, page sizes, a --pseudonymize without a key).' },
  SNAPSHOT_KEY: { status: 400, description: 'The pseudonymization key file cannot be read or holds fewer than 16 bytes.' },
  SNAPSHOT_OUT: { status: 400, description: 'The output directory cannot be used: it exists and is not a snapshot (no .snapshot.json), it is a file, or it cannot be written or replaced. details.file names it.' },
  SNAPSHOT_PREVIOUS: { status: 400, description: 'The --since directory is not a complete snapshot, was taken of another tenant or with other parts, profile or pseudonymization key, or one of its files is malformed (details.file, details.line).' },
  SNAPSHOT_PROFILE: { status: 404, description: 'The --profile names no identity profile of the tenant (the available names are in the message).' },
  SNAPSHOT_WRITE: { status: 500, description: 'A file of the snapshot cannot be written (disk full, permissions). The previous snapshot is left in place.' },
  SNAPSHOT_ABORTED: { status: 499, description: 'The snapshot was interrupted (an abort signal, Ctrl-C). The partial copy and its checkpoint are kept beside the output; the same command resumes it.' },
} as const satisfies Record<string, ErrorDefinition>;
