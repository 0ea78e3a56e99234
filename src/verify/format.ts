// The verify report in the forms its readers want (docs/verify.md "Formats"): `text` for a
// terminal, `markdown` for an issue or a pull request (a table, examples and traces folded in
// <details>), `json` (the VerifyReport object itself); `ndjson` is the lines, one JSON object
// each (verifyLineJson), written as they are found.

import { formatTrace } from '../engine/explain-text.js';
import { terminalLines } from '../errors/terminal.js';
import { markdownCode, markdownFence, markdownText } from '../errors/markdown.js';
import type { VerifyLine } from '../refresh/stored-comparison.js';
import type { PreviewLine, PreviewReport } from './preview.js';
import type { AttributeReport, ExplainedGroup, VerifyReport } from './report.js';

export type VerifyFormat = 'text' | 'markdown' | 'json' | 'ndjson';

const number = (n: number) => n.toLocaleString('en-US');
const show = (v: string | null | undefined) => (v === null || v === undefined ? 'null' : JSON.stringify(v));

/** One line of `--format ndjson`: identityId, identityName, attribute, platform, ours, kind (and error, when ours failed). */
export function verifyLineJson(line: VerifyLine): string {
  return JSON.stringify({ identityId: line.identityId, identityName: line.identityName, attribute: line.attribute, platform: line.platform, ours: line.ours, kind: line.kind, ...(line.error !== undefined ? { error: line.error } : {}) });
}

/** One line of `--format ndjson` for a previewed value: as verifyLineJson's, with `source: "preview"` and the `stored` value. */
export function previewLineJson(line: PreviewLine): string {
  return JSON.stringify({ source: 'preview', identityId: line.identityId, identityName: line.identityName, attribute: line.attribute, platform: line.platform, stored: line.stored, ours: line.ours, kind: line.kind, ...(line.error !== undefined ? { error: line.error } : {}), ...(line.platformError !== undefined ? { platformError: line.platformError } : {}) });
}

/** What the preview says of a group: the difference stands, or the stored value was old. */
function previewedText(g: ExplainedGroup): string | null {
  const p = g.previewed;
  if (p === undefined) return null;
  const verdict = p.platform === p.ours ? 'ours agrees: the stored value was old' : 'the difference stands';
  return `the platform's preview now computes ${show(p.platform)} for ${p.identityId}, ours ${show(p.ours)}: ${verdict}`;
}

function previewLines(p: PreviewReport): string[] {
  const t = p.totals;
  const out = [`preview: the platform computed ${number(p.identities)} of ${number(p.asked)} identities afresh; ${number(t.compared)} values compared, ${number(t.agree)} agree, ${number(t.differ)} differ; ${number(t.notComparable)} not comparable`];
  if (p.notPreviewed.length > 0) out.push(`  not previewed (the preview takes accountAttribute, reference and rule mappings only): ${p.notPreviewed.join(', ')}`);
  if (p.error) out.push(`  stopped: ${p.error.code} ${p.error.message}`);
  for (const l of p.lines) out.push(`  ${l.identityName} (${l.identityId}) ${l.attribute} [${l.kind}]: platform now ${show(l.platform)}, stored ${show(l.stored)}, ours ${show(l.ours)}${l.platformError ? ` [platform: ${l.platformError}]` : ''}${l.error ? ` [${l.error}]` : ''}`);
  return out;
}

function kinds(a: AttributeReport): string {
  const parts = Object.entries(a.byKind)
    .filter(([kind, n]) => kind !== 'differ' && n !== undefined && n > 0)
    .map(([kind, n]) => `${kind} ${number(n!)}`);
  return parts.length === 0 ? '' : parts.join(', ');
}

function groupTitle(g: ExplainedGroup): string {
  return g.by === 'pair' ? `${number(g.count)} × platform ${show(g.platform)}, ours ${show(g.ours)} (${g.signature})` : `${number(g.count)} × ${g.signature}`;
}

function headline(r: VerifyReport): string[] {
  const t = r.totals;
  const i = r.identities;
  const share = t.compared === 0 ? '' : ` (${((100 * t.agree) / t.compared).toFixed(2)}% agree)`;
  const out = [
    `verify ${r.profile} over ${r.tenant}${r.now !== null ? ` at ${r.now}` : ''}${r.complete ? '' : ' (stopped early)'}`,
    `  identities: ${number(i.evaluated)} evaluated, ${number(i.compared)} compared, ${number(i.missing)} with nothing stored, ${number(i.stale)} stale, ${number(i.otherProfile)} of another profile`,
    `  attribute values: ${number(t.compared)} compared, ${number(t.agree)} agree, ${number(t.differ)} differ${share}; ${number(t.notComparable)} not comparable`,
  ];
  const codes = Object.entries(r.errorsByCode).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (codes.length > 0) out.push(`  our evaluation errors: ${codes.map(([c, n]) => `${c} ${number(n)}`).join(', ')}`);
  return out;
}

function text(r: VerifyReport): string {
  const out = headline(r);
  for (const a of r.attributes) {
    const nc = kinds(a);
    out.push('', `${a.attribute}${a.reason ? ` [not comparable: ${a.reason}]` : ''}: ${number(a.agree)} agree, ${number(a.differ)} differ${nc ? `; not comparable: ${nc}` : ''}`);
    for (const g of a.groups) {
      out.push(`  ${groupTitle(g)}`);
      for (const e of g.examples) out.push(`    ${e.identityName} (${e.identityId}): platform ${show(e.platform)}, ours ${show(e.ours)}${e.error ? ` [${e.error}]` : ''}`);
      const previewed = previewedText(g);
      if (previewed) out.push(`    ${previewed}`);
      if (g.explained) out.push(`    how ours was computed for ${g.explained.identityId}:`, ...formatTrace(g.explained.trace, 3).trimEnd().split('\n'));
    }
  }
  if (r.preview) out.push('', ...previewLines(r.preview));
  return terminalLines(out);
}

/** A value as the report shows it (JSON, or null), as inline code. */
const code = (v: string | null | undefined) => markdownCode(show(v));

function markdown(r: VerifyReport): string {
  const [title, ...rest] = headline(r);
  const out = [`### ${markdownText(title!)}`, '', ...rest.map((l) => `- ${markdownText(l.trim())}`), '', '| Attribute | Agree | Differ | Not comparable |', '| --- | ---: | ---: | --- |'];
  for (const a of r.attributes) out.push(`| ${markdownCode(a.attribute)}${a.reason ? ` (${a.reason})` : ''} | ${number(a.agree)} | ${number(a.differ)} | ${markdownText(kinds(a)) || '0'} |`);
  for (const a of r.attributes) {
    if (a.groups.length === 0) continue;
    out.push('', `#### ${markdownCode(a.attribute)}`, '');
    for (const g of a.groups) {
      out.push(`<details><summary>${markdownText(groupTitle(g))}</summary>`, '', '| Identity | Platform | Ours |', '| --- | --- | --- |');
      for (const e of g.examples) out.push(`| ${markdownText(e.identityName)} (${markdownCode(e.identityId)}) | ${code(e.platform)} | ${code(e.ours)}${e.error ? ` ${markdownText(e.error)}` : ''} |`);
      const previewed = previewedText(g);
      if (previewed) out.push('', markdownText(previewed) + '.');
      if (g.explained) out.push('', `How ours was computed for ${markdownCode(g.explained.identityId)}:`, '', ...markdownFence(formatTrace(g.explained.trace).trimEnd()));
      out.push('', '</details>');
    }
  }
  if (r.preview) {
    const [head, ...rest] = previewLines(r.preview);
    out.push('', '#### Preview', '', markdownText(head!), '');
    if (rest.length > 0) out.push(...markdownFence(rest.map((l) => l.trim()).join('\n')));
  }
  return out.join('\n') + '\n';
}

export function formatVerify(report: VerifyReport, format: Exclude<VerifyFormat, 'ndjson'>): string {
  switch (format) {
    case 'json':
      return JSON.stringify(report, null, 2) + '\n';
    case 'markdown':
      return markdown(report);
    case 'text':
      return text(report);
  }
}
