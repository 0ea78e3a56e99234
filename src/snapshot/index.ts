// Tenant snapshots: a platform tenant copied into the fixture format (docs/snapshot.md).

export { snapshotTenant } from './snapshot.js';
export type { SnapshotOptions, SnapshotProgress, SnapshotSummary } from './snapshot.js';
export { SNAPSHOT_PARTS, announcePartialCopy, partialCopy, type SnapshotPart, type Manifest as SnapshotManifest } from './output.js';
export { createPseudonymizer, ATTRIBUTE_KINDS, MIN_KEY_BYTES, type Pseudonymizer } from './pseudonymize.js';
export { fileNames as snapshotFileNames } from './layout.js';
