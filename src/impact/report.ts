// The impact report in the four forms its readers want: `text` for a terminal, `markdown` for a
// pull request comment or $GITHUB_STEP_SUMMARY (a table, examples folded in <details>), `json`
// for programs (the ImpactReport object itself), and `github` workflow commands that annotate
// each changed transform file with the attributes it changes.

import { formatTrace } from '../engine/explain-text.js';
import type { AttributeReason } from './plan.js';
import type { AttributeImpact, DifferenceKind, Example, ImpactReport, Outcome } from './types.js';

export type ImpactFormat = 'text' | 'markdown' | 'json' | 'github';

const number = (n: number) => n.toLocaleString('en-US');

const KIND_LABEL: Record<DifferenceKind, string> = {
  changed: 'value changed',
  becameNull: 'became null',
  stoppedBeingNull: 'stopped being null',
  newError: 'new error',
  errorFixed: 'error fixed',
  errorChanged: 'other error',
};

function outcome(o: Outcome | null): string {
  if (o === null) return '(no attribute)';
  if ('error' in o) return `${o.error.code} ${o.error.message}`;
  return o.value === null ? 'null' : JSON.stringify(o.value);
}

function reason(r: AttributeReason): string {
  switch (r.kind) {
    case 'mapping-added':
      return 'mapping added';
    case 'mapping-removed':
      return 'mapping removed';
    case 'mapping-changed':
      return 'mapping changed';
    case 'transform':
      return `${r.change} transform "${r.name}"`;
    case 'dynamic-reference':
      return 'a reference whose name is computed';
  }
}

function examplesOf(a: AttributeImpact): [DifferenceKind, Example[]][] {
  return (Object.entries(a.examples) as [DifferenceKind, Example[]][]).filter(([, list]) => list.length > 0);
}

const differs = (a: AttributeImpact) => a.changed + a.newErrors + a.errorsFixed + a.errorsChanged > 0;

function text(report: ImpactReport): string {
  const lines: string[] = [`Impact of ${report.head} over ${report.base} on ${report.tenant}`];
  if (report.transforms.length === 0) lines.push('Transforms: no change');
  else for (const c of report.transforms) lines.push(`  ${c.kind} ${JSON.stringify(c.name)}${c.previousName !== undefined ? ` (was ${JSON.stringify(c.previousName)})` : ''}  ${c.file}`);
  if (report.profiles.length === 0) lines.push('No attribute of any identity profile reaches a change: nothing to evaluate.');
  for (const p of report.profiles) {
    lines.push('', `Profile ${JSON.stringify(p.profile)}${p.file ? ` (${p.file})` : ''}`);
    for (const a of p.attributes) {
      const issued = a.dependsOnIssuedValues ? ' [depends on issued values]' : '';
      lines.push(
        `  ${a.attribute}${issued}: ${number(a.changed)} of ${number(a.identities)} identities change` +
          ` (${number(a.becameNull)} become null, ${number(a.stoppedBeingNull)} stop being null),` +
          ` ${number(a.newErrors)} new errors, ${number(a.errorsFixed)} errors fixed` +
          (a.errorsChanged > 0 ? `, ${number(a.errorsChanged)} other errors` : '') +
          `  — ${a.reasons.map(reason).join('; ')}`,
      );
      for (const [kind, list] of examplesOf(a)) {
        for (const e of list) {
          lines.push(`      ${KIND_LABEL[kind]}: ${e.identityId}: ${outcome(e.before)} → ${outcome(e.after)}`);
          for (const side of ['before', 'after'] as const) {
            const trace = e.explained?.[side];
            if (trace) lines.push(`        ${side}:`, formatTrace(trace, 5).trimEnd());
          }
        }
      }
    }
  }
  const t = report.totals;
  lines.push('', `${number(t.attributes)} attributes evaluated for ${number(t.identities)} identities: ${number(t.changed)} values change, ${number(t.newErrors)} new errors, ${number(t.errorsFixed)} errors fixed (${(report.elapsedMs / 1000).toFixed(1)} s)`);
  return lines.join('\n') + '\n';
}

/** A table cell: pipes and newlines would break the row. */
function cell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Text inside HTML: < and & would open tags or entities. */
function escape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function code(value: string): string {
  return `<code>${escape(value)}</code>`;
}

function markdown(report: ImpactReport): string {
  const out: string[] = ['## Impact of this change', ''];
  if (report.transforms.length > 0) {
    out.push('| Transform | Change | File |', '| --- | --- | --- |');
    for (const c of report.transforms) out.push(`| ${cell(c.name)}${c.previousName !== undefined ? ` (was ${cell(c.previousName)})` : ''} | ${c.kind} | ${cell(c.file)} |`);
    out.push('');
  }
  if (report.profiles.length === 0) out.push('No identity attribute reaches a change: nothing to evaluate.', '');
  for (const p of report.profiles) {
    out.push(`### Profile ${cell(p.profile)}`, '');
    out.push('| Attribute | Identities | Changed | Became null | Stopped being null | New errors | Errors fixed | Why |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const a of p.attributes) {
      const name = a.dependsOnIssuedValues ? `${cell(a.attribute)} (depends on issued values)` : cell(a.attribute);
      out.push(`| ${name} | ${number(a.identities)} | ${number(a.changed)} | ${number(a.becameNull)} | ${number(a.stoppedBeingNull)} | ${number(a.newErrors)} | ${number(a.errorsFixed)} | ${cell(a.reasons.map(reason).join('; '))} |`);
    }
    out.push('');
    for (const a of p.attributes) {
      const examples = examplesOf(a);
      if (examples.length === 0) continue;
      out.push(`<details><summary>Examples for ${code(a.attribute)}</summary>`, '', '<table><tr><th>Identity</th><th>Kind</th><th>Before</th><th>After</th></tr>');
      for (const [kind, list] of examples) {
        for (const e of list) {
          const explained = (side: 'before' | 'after') => {
            const trace = e.explained?.[side];
            return trace ? `<details><summary>why</summary><pre>${escape(formatTrace(trace))}</pre></details>` : '';
          };
          out.push(`<tr><td>${code(e.identityId)}</td><td>${KIND_LABEL[kind]}</td><td>${code(outcome(e.before))}${explained('before')}</td><td>${code(outcome(e.after))}${explained('after')}</td></tr>`);
        }
      }
      out.push('</table>', '', '</details>', '');
    }
  }
  const t = report.totals;
  out.push(`${number(t.attributes)} attributes evaluated for ${number(t.identities)} identities: **${number(t.changed)}** values change, **${number(t.newErrors)}** new errors, ${number(t.errorsFixed)} errors fixed.`);
  return out.join('\n') + '\n';
}

/** A workflow command's property value: %, CR, LF, ':' and ',' are escaped as the runner expects. */
function property(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function data(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function github(report: ImpactReport): string {
  const lines: string[] = [];
  const identities = (a: AttributeImpact) => number(a.identities);
  for (const c of report.transforms) {
    if (c.file.includes(':') && !c.file.startsWith('/')) continue; // a file of the base revision: nothing to annotate in the pull request
    const reached = report.profiles.flatMap((p) => p.attributes.filter((a) => a.reasons.some((r) => r.kind === 'transform' && (r.name === c.name || r.name === c.previousName))));
    const changing = reached.filter(differs);
    const errors = reached.reduce((n, a) => n + a.newErrors, 0);
    const what = changing.length === 0 ? `changes no identity attribute value (${reached.length} attributes evaluated)` : changing.map((a) => `changes \`${a.attribute}\` for ${number(a.changed)} of ${identities(a)} identities`).join('; ');
    const level = errors > 0 ? 'warning' : 'notice';
    lines.push(`::${level} file=${property(c.file)},title=${property(`impact of ${c.kind} transform ${c.name}`)}::${data(what + (errors > 0 ? `; ${number(errors)} new errors` : ''))}`);
  }
  for (const p of report.profiles) {
    if (!p.file) continue;
    const mapped = p.attributes.filter((a) => a.reasons.some((r) => r.kind.startsWith('mapping-')));
    for (const a of mapped) {
      const level = a.newErrors > 0 ? 'warning' : 'notice';
      lines.push(`::${level} file=${property(p.file)},title=${property(`impact on ${a.attribute}`)}::${data(`changes \`${a.attribute}\` for ${number(a.changed)} of ${identities(a)} identities, ${number(a.newErrors)} new errors`)}`);
    }
  }
  return lines.join('\n') + (lines.length > 0 ? '\n' : '') + text(report);
}

export function formatImpact(report: ImpactReport, format: ImpactFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(report, null, 2) + '\n';
    case 'markdown':
      return markdown(report);
    case 'github':
      return github(report);
    case 'text':
      return text(report);
  }
}
