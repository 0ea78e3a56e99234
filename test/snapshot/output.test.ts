// What a failed snapshot leaves: its partial copy (hidden, beside --out) is announced in the
// error with how to resume it or discard it; an error with nothing to resume is left as it was.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codedError } from '../../src/errors/index.js';
import { announcePartialCopy, partialCopy } from '../../src/snapshot/index.js';

const root = mkdtempSync(join(tmpdir(), 'idt-snapshot-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('announcePartialCopy', () => {
  it('says where the copy so far is kept and how to resume or discard it', () => {
    const out = join(root, 'snap');
    const work = join(root, '.snap.snapshot-partial');
    mkdirSync(work);
    writeFileSync(join(work, 'checkpoint.json'), '{}');
    expect(partialCopy(out)).toBe(work);
    const error = announcePartialCopy(codedError('TENANT_HTTP', 'GET /v3/search answered 500'), out);
    expect(error.code).toBe('TENANT_HTTP');
    expect(error.message).toBe(`GET /v3/search answered 500; the copy so far is kept in ${work}: the same command resumes it, --restart (resume: false) discards it`);
  });

  it('leaves the error as it was when no checkpoint is there', () => {
    const out = join(root, 'other');
    expect(partialCopy(out)).toBeNull();
    expect(announcePartialCopy(codedError('TENANT_AUTH', 'credentials refused'), out).message).toBe('credentials refused');
  });
});
