// Errors in a tenant record that the pre-pass let through (it finds element boundaries without
// parsing): located in identities.json or accounts.json as `file:line:column`, read again from
// the files only once something is wrong.

import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { TransformsError } from '../../errors/index.js';
import { codedError, isTransformsError } from '../../errors/index.js';
import { messagePointer } from '../../json/depth.js';
import { fileError, firstSyntaxError, invalidJsonInFile } from '../../json/positions.js';
import type { TenantRecord } from './record-reader.js';

function isTooDeep(cause: unknown): cause is TransformsError {
  return isTransformsError(cause) && cause.code === 'JSON_TOO_DEEP';
}

function who(record: TenantRecord): string {
  return `identity ${record.ordinal} (${record.identityId})`;
}

/** identities.json's record of an identity is not valid JSON, nests too deeply (cause JSON_TOO_DEEP), or is not an object. */
export function identityRecordError(fixtures: string, record: TenantRecord, cause?: unknown): TransformsError {
  if (isTooDeep(cause)) return deepRecordError(fixtures, record, cause, false);
  const file = join(fixtures, 'identities.json');
  const path = `/${record.ordinal}`;
  if (record.offset === undefined) {
    return codedError('CLI_FIXTURES', `${file}: the record of ${who(record)} is ${cause ? 'not valid JSON' : 'not a JSON object'}`, { cause, path, details: { file } });
  }
  if (cause) return invalidJsonInFile(file, record.offset, Buffer.byteLength(record.identity, 'utf8'), `the record of ${who(record)}`, { cause, path });
  return fileError(file, record.offset, `the record of ${who(record)} must be a JSON object`, { path });
}

/**
 * identities.json's record of an identity (or of its manager) nests deeper than the JSON depth
 * limit (`tooDeep`, JSON_TOO_DEEP, chained): located at the record, as a broken record is, its
 * pointer cut in the middle as every JSON_TOO_DEEP message's is (the error's path holds it whole).
 */
function deepRecordError(fixtures: string, record: TenantRecord, tooDeep: TransformsError, manager: boolean): TransformsError {
  const file = join(fixtures, 'identities.json');
  const what = `the record of ${manager ? 'the manager of ' : ''}${who(record)} nests deeper than ${String(tooDeep.details?.limit)} levels at ${messagePointer(tooDeep.path ?? '')}`;
  const path = `/${record.ordinal}`;
  if (manager || record.offset === undefined) return codedError('CLI_FIXTURES', `${file}: ${what}`, { cause: tooDeep, path, details: { file } });
  return fileError(file, record.offset, what, { cause: tooDeep, path: `${path}${tooDeep.path ?? ''}` });
}

/** The manager's record (found through managerId) is not valid JSON, nests too deeply, or is not an object. */
export function managerRecordError(fixtures: string, record: TenantRecord, cause?: unknown): TransformsError {
  if (isTooDeep(cause)) return deepRecordError(fixtures, record, cause, true);
  const file = join(fixtures, 'identities.json');
  return codedError('CLI_FIXTURES', `${file}: the record of the manager of ${who(record)} is ${cause ? 'not valid JSON' : 'not a JSON object'}`, {
    cause,
    path: `/${record.ordinal}`,
    details: { file },
  });
}

function readBytes(file: string, offset: number, length: number): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(length);
    const n = readSync(fd, buf, 0, length, offset);
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * One of an identity's accounts is not valid JSON (cause given) or not an object: each byte
 * range of its accounts is parsed again to find which, and where.
 */
export function accountsRecordError(fixtures: string, record: TenantRecord, cause?: unknown): TransformsError {
  const file = join(fixtures, 'accounts.json');
  const path = `/${record.ordinal}`;
  const { plan, rangesAt } = record;
  if (plan !== undefined && rangesAt !== undefined) {
    const ranges = plan[rangesAt - 1]!;
    for (let r = 0; r < ranges; r++) {
      const offset = plan[rangesAt + 2 * r]!;
      const length = plan[rangesAt + 2 * r + 1]!;
      let text: string;
      try {
        text = readBytes(file, offset, length);
      } catch {
        break;
      }
      // A range is one account or a run of them (with the separator before it): parse it as an array.
      const wrapped = `[${text.replace(/^[\s,]*/, (lead) => ' '.repeat(lead.length))}]`;
      let value: unknown;
      try {
        value = JSON.parse(wrapped);
      } catch (error) {
        const found = firstSyntaxError(wrapped);
        const at = found ? Math.max(0, Math.min(text.length, found.offset - 1)) : 0;
        const byte = offset + Buffer.byteLength(text.slice(0, at), 'utf8');
        return fileError(file, byte, `an account of ${who(record)} is not valid JSON: ${found?.message ?? 'invalid JSON'}`, { cause: error, path });
      }
      if (!cause && (value as unknown[]).some((a) => a === null || typeof a !== 'object' || Array.isArray(a))) {
        return fileError(file, offset + (text.length - text.trimStart().replace(/^,\s*/, '').length), `an account of ${who(record)} must be a JSON object`, { path });
      }
    }
  }
  return codedError('CLI_FIXTURES', `${file}: an account of ${who(record)} is ${cause ? 'not valid JSON' : 'not a JSON object'}`, { cause, path, details: { file } });
}
