// verify's preview (https://developer.sailpoint.com/docs/api/v3/show-identity-preview): the
// platform computes the profile's attributes afresh for n identities and those values, not the
// stored ones, are compared with ours. Against a stub tenant whose preview answers planted
// values, the report is made of them; against `serve` alone (our engine on both sides) the
// plumbing holds: every previewed value agrees, the stale identity included. A refused or
// malformed preview is coded and recorded, the rest of the report kept.

import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantedDifference } from '../../src/testing/generator/index.js';
import { PREVIEWABLE_TYPES } from '../../src/verify/preview.js';
import { verify, type VerifyOptions, type VerifyReport } from '../../src/verify/index.js';
import { ADMIN_PAT, resourceServer, type ResourceServer } from '../api/resources-server.js';
import { runCli } from '../cli/run.js';
import { EXTRA, VERIFIED_AT, writePlantedTenant } from './planted-tenant.js';
import { previewStub, type PreviewStub, type StubOptions } from './preview-stub.js';

const tmp = mkdtempSync(join(tmpdir(), 'idt-verify-preview-'));
const dir = join(tmp, 'tenant');
let planted: PlantedDifference[];
let server: ResourceServer;
let serveUrl: string;
let profileMappings: { identityAttributeName: string; transformDefinition: { type: string } }[];
let stored: Map<string, Record<string, unknown>>;

beforeAll(async () => {
  planted = await writePlantedTenant(dir, 120, 'preview');
  profileMappings = (JSON.parse(readFileSync(join(dir, 'identity-profiles', 'default.json'), 'utf8')) as { identityAttributeConfig: { attributeTransforms: typeof profileMappings } }).identityAttributeConfig.attributeTransforms;
  stored = new Map((JSON.parse(readFileSync(join(dir, 'identities.json'), 'utf8')) as { id: string; attributes: Record<string, unknown> }[]).map((i) => [i.id, i.attributes]));
  server = await resourceServer({ fixtures: dir });
  serveUrl = await server.listen();
}, 300_000);
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const previewable = (attribute: string) => PREVIEWABLE_TYPES.has(profileMappings.find((m) => m.identityAttributeName === attribute)!.transformDefinition.type);
const tenantOf = (baseUrl: string): VerifyOptions['tenant'] => ({ baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret });

async function withStub<T>(options: StubOptions, run: (stub: PreviewStub) => Promise<T>): Promise<T> {
  const stub = await previewStub(serveUrl, options);
  try {
    return await run(stub);
  } finally {
    await stub.close();
  }
}

async function reportOf(options: VerifyOptions): Promise<VerifyReport> {
  const job = verify(options);
  for await (const line of job) void line;
  return job.report();
}

const PLANTED_VALUE = 'Planted by the preview';

describe('verify --preview against a tenant whose preview answers planted values', () => {
  it('asks for the groups\' examples, then the stale identity, then a sample, with the profile\'s previewable mappings as stored', async () => {
    await withStub({}, async (stub) => {
      const report = await reportOf({ tenant: tenantOf(stub.baseUrl), now: VERIFIED_AT, preview: 12 });
      const groups = report.attributes.flatMap((a) => a.groups);
      const firsts = [...new Set(groups.map((g) => g.examples[0]!.identityId))];
      const stale = planted.find((p) => p.kind === 'stale')!;
      const asked = stub.previews.map((p) => p.identityId);
      expect(asked).toHaveLength(12);
      // The previews are asked at once (the client's concurrency): their order is the network's.
      const chosen = [...firsts, stale.identityId];
      // The sample: the next identities in the tenant's id order (all have stored attributes of this profile).
      const sample = [...stored.keys()].sort().filter((id) => !chosen.includes(id)).slice(0, 12 - chosen.length);
      expect([...asked].sort()).toEqual([...chosen, ...sample].sort());
      const sent = profileMappings.filter((m) => PREVIEWABLE_TYPES.has(m.transformDefinition.type));
      for (const p of stub.previews) expect(p.identityAttributeConfig.attributeTransforms).toEqual(sent);
      expect(report.preview!.notPreviewed).toEqual(profileMappings.filter((m) => !PREVIEWABLE_TYPES.has(m.transformDefinition.type)).map((m) => m.identityAttributeName));
      // Nothing is written: every other request reads (search is a POST that reads).
      expect(stub.passed.every((r) => r.startsWith('GET ') || r.startsWith('POST /v3/search') || r.startsWith('POST /oauth/token'))).toBe(true);
    });
  }, 120_000);

  it('compares the platform\'s fresh values with ours: planted values differ, a planted difference stands, the stale identity agrees', async () => {
    const differ = planted.filter((p) => p.kind === 'differ' && previewable(p.attribute));
    expect(differ.length).toBeGreaterThan(0);
    const plantedIds = new Set(planted.map((p) => p.identityId));
    const plant: StubOptions['plant'] = (identityId, attributes) => {
      for (const a of attributes) {
        // The platform computes the stored value: the difference is ours.
        const d = differ.find((p) => p.identityId === identityId && p.attribute === a.name);
        if (d) a.value = d.platform;
        // A sampled identity: the platform computes something neither side had.
        if (!plantedIds.has(identityId) && a.name === 'department') a.value = PLANTED_VALUE;
      }
    };
    await withStub({ plant }, async (stub) => {
      const report = await reportOf({ tenant: tenantOf(stub.baseUrl), now: VERIFIED_AT, preview: 12 });
      const preview = report.preview!;
      expect(preview).toMatchObject({ asked: 12, identities: 12 });
      expect(preview.error).toBeUndefined();
      const sampled = stub.previews.map((p) => p.identityId).filter((id) => !plantedIds.has(id));
      const differing = preview.lines.filter((l) => l.kind === 'differ');
      const previewedDiffer = differ.filter((p) => stub.previews.some((q) => q.identityId === p.identityId));
      expect(previewedDiffer.length).toBeGreaterThan(0);
      expect(sampled.length).toBeGreaterThan(0);
      expect(differing.sort((a, b) => a.identityId.localeCompare(b.identityId) || a.attribute.localeCompare(b.attribute))).toEqual(
        [
          ...previewedDiffer.map((p) => ({ identityId: p.identityId, identityName: p.identityName, attribute: p.attribute, platform: p.platform, stored: p.platform, ours: p.ours, kind: 'differ' })),
          ...sampled.map((id) => ({ identityId: id, identityName: expect.any(String), attribute: 'department', platform: PLANTED_VALUE, stored: stored.get(id)!.department, ours: stored.get(id)!.department, kind: 'differ' })),
        ].sort((a, b) => a.identityId.localeCompare(b.identityId) || a.attribute.localeCompare(b.attribute)),
      );
      expect(preview.totals.differ).toBe(differing.length);
      // The stale identity: stored differs from ours, the fresh value does not.
      const stale = planted.find((p) => p.kind === 'stale')!;
      expect(preview.lines.some((l) => l.identityId === stale.identityId && l.kind === 'differ')).toBe(false);
      // Each group whose first example was previewed says so.
      for (const p of previewedDiffer) {
        const group = report.attributes.find((a) => a.attribute === p.attribute)!.groups.find((g) => g.examples[0]!.identityId === p.identityId);
        if (group !== undefined) expect(group.previewed).toEqual({ identityId: p.identityId, platform: p.platform, ours: p.ours });
      }
      // The clock's and the random attribute stay not comparable; their lines carry the reason.
      expect(preview.lines.filter((l) => l.attribute === EXTRA.random).every((l) => l.kind === 'random')).toBe(true);
      expect(preview.lines.filter((l) => l.attribute === EXTRA.time).every((l) => l.kind === 'time')).toBe(true);
    });
  }, 120_000);

  it('prints the preview as NDJSON lines and in the text report, and never the token', async () => {
    await withStub({ plant: (_id, attributes) => void (attributes.find((a) => a.name === 'department')!.value = PLANTED_VALUE) }, async (stub) => {
      process.env.IDT_CLIENT_ID = ADMIN_PAT.id;
      process.env.IDT_CLIENT_SECRET = ADMIN_PAT.secret;
      try {
        const ndjson = await runCli('verify', '--tenant', stub.baseUrl, '--now', VERIFIED_AT, '--preview', '3', '--format', 'ndjson', '--attributes', 'department');
        expect(ndjson.code).toBe(0);
        const lines = ndjson.out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.source === 'preview');
        expect(lines).toHaveLength(3);
        expect(lines.every((l) => l.platform === PLANTED_VALUE && l.attribute === 'department' && l.kind === 'differ')).toBe(true);
        const text = await runCli('verify', '--tenant', stub.baseUrl, '--now', VERIFIED_AT, '--preview', '3');
        expect(text.out).toContain('preview: the platform computed 3 of 3 identities afresh;');
        expect(stub.tokens.size).toBeGreaterThan(0);
        for (const token of stub.tokens) for (const output of [ndjson, text]) expect(output.out + output.err).not.toContain(token);
      } finally {
        delete process.env.IDT_CLIENT_ID;
        delete process.env.IDT_CLIENT_SECRET;
      }
    });
  }, 120_000);
});

describe('verify --preview when the tenant will not preview', () => {
  it('VERIFY_PREVIEW_REFUSED for a 4xx, with the platform\'s text; the report keeps the comparison of stored values', async () => {
    const body = { detailCode: '400.1 Bad Request Content', trackingId: 't1', messages: [{ locale: 'en-US', localeOrigin: 'DEFAULT', text: 'Transform type firstValid is not allowed' }] };
    await withStub({ answer: { status: 400, body } }, async (stub) => {
      const report = await reportOf({ tenant: tenantOf(stub.baseUrl), now: VERIFIED_AT, preview: 2 });
      expect(report.preview).toMatchObject({ identities: 0, lines: [], error: { code: 'VERIFY_PREVIEW_REFUSED' } });
      expect(report.preview!.error!.message).toContain('Transform type firstValid is not allowed');
      expect(report.totals.differ).toBe(planted.filter((p) => p.kind === 'differ').length);
      process.env.IDT_CLIENT_ID = ADMIN_PAT.id;
      process.env.IDT_CLIENT_SECRET = ADMIN_PAT.secret;
      try {
        const cli = await runCli('verify', '--tenant', stub.baseUrl, '--now', VERIFIED_AT, '--preview', '1', '--format', 'json');
        expect(cli.code).toBe(2);
        expect((JSON.parse(cli.out) as VerifyReport).preview!.error!.code).toBe('VERIFY_PREVIEW_REFUSED');
        expect(cli.err).toMatch(/^VERIFY_PREVIEW_REFUSED /m);
      } finally {
        delete process.env.IDT_CLIENT_ID;
        delete process.env.IDT_CLIENT_SECRET;
      }
    });
  }, 120_000);

  it('VERIFY_PREVIEW_RESPONSE for an answer that is not an IdentityPreviewResponse', async () => {
    await withStub({ answer: { status: 200, body: { identity: { id: 'x' } } } }, async (stub) => {
      const report = await reportOf({ tenant: tenantOf(stub.baseUrl), now: VERIFIED_AT, preview: 1 });
      expect(report.preview).toMatchObject({ identities: 0, error: { code: 'VERIFY_PREVIEW_RESPONSE' } });
    });
  }, 120_000);
});

describe('verify --preview against serve (our engine on both sides: the plumbing)', () => {
  it('agrees on every comparable value it previews, the planted and stale identities included', async () => {
    const report = await reportOf({ tenant: tenantOf(serveUrl), now: VERIFIED_AT, preview: 10 });
    expect(report.preview).toMatchObject({ asked: 10, identities: 10, totals: { differ: 0 } });
    expect(report.preview!.totals.agree).toBeGreaterThan(0);
    for (const group of report.attributes.flatMap((a) => a.groups)) {
      if (group.previewed) expect(group.previewed.platform).toBe(group.previewed.ours);
    }
  }, 120_000);
});
