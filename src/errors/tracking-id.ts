// The id a failure is answered and logged under: 32 hexadecimal characters, the form of the
// platform's trackingId in its error bodies (https://developer.sailpoint.com/docs/api/v3/).
// Used by both servers, `serve` and `play`, so that a user finds one form in either log.

import { randomUUID } from 'node:crypto';

export function newTrackingId(): string {
  return randomUUID().replaceAll('-', '');
}
