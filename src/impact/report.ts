// The impact report in the four forms its readers want: `text` for a terminal, `markdown` for a
// pull request comment or $GITHUB_STEP_SUMMARY (a table, examples folded in <details>), `json`
// for programs (the ImpactReport object itself), and `github` workflow commands that annotate
// each changed transform file with the attributes it changes.

import { formatTrace } from '../engine/explain-text.js';
import { inertWorkflowText, workflowCommand } from '../errors/workflow-commands.js';
import { terminalLines } from '../errors/terminal.js';
import { escapeHtml, markdownCode, markdownText } from '../errors/markdown.js';
import type { AttributeReason } from './plan.js';
import { impactPasses } from './run.js';
import type { AttributeImpact, DifferenceKind, Example, ImpactReport, Outcome } from './types.js';

export type ImpactFormat = 'text' | 'markdown' | 'json' | 'github';

const number = (n: number) => n.toLocaleString('en-US');
/** A count with its noun, singular or plural as the count says: "1 identity", "2 identities". */
const count = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;
/** An example's identity as a person knows it: its name beside its id. */
const who = (e: Example) => (e.identityName !== undefined ? `${e.identityName} (${e.identityId})` : e.identityId);

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

/** The last line: what was evaluated and what changes; `strong` marks the counts a reader must not miss. */
function totals(report: ImpactReport, strong: (count: string) => string): string {
  const t = report.totals;
  return (
    `${count(t.attributes, 'attribute', 'attributes')} evaluated for ${count(t.identities, 'identity', 'identities')}: ` +
    `${strong(number(t.changed))} ${t.changed === 1 ? 'value changes' : 'values change'}, ${strong(number(t.newErrors))} new ${t.newErrors === 1 ? 'error' : 'errors'}, ${count(t.errorsFixed, 'error fixed', 'errors fixed')}`
  );
}

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
        `  ${a.attribute}${issued}: ${number(a.changed)} of ${count(a.identities, 'identity changes', 'identities change')}` +
          ` (${number(a.becameNull)} become${a.becameNull === 1 ? 's' : ''} null, ${number(a.stoppedBeingNull)} stop${a.stoppedBeingNull === 1 ? 's' : ''} being null),` +
          ` ${count(a.newErrors, 'new error', 'new errors')}, ${count(a.errorsFixed, 'error fixed', 'errors fixed')}` +
          (a.errorsChanged > 0 ? `, ${count(a.errorsChanged, 'other error', 'other errors')}` : '') +
          `  — ${a.reasons.map(reason).join('; ')}`,
      );
      for (const [kind, list] of examplesOf(a)) {
        for (const e of list) {
          lines.push(`      ${KIND_LABEL[kind]}: ${who(e)}: ${outcome(e.before)} → ${outcome(e.after)}`);
          for (const side of ['before', 'after'] as const) {
            const trace = e.explained?.[side];
            if (trace) lines.push(`        ${side}:`, ...formatTrace(trace, 5).trimEnd().split('\n'));
          }
        }
      }
    }
  }
  lines.push('', `${totals(report, (n) => n)} (${(report.elapsedMs / 1000).toFixed(1)} s)`);
  return terminalLines(lines);
}

function markdown(report: ImpactReport): string {
  const out: string[] = ['## Impact of this change', ''];
  if (report.transforms.length > 0) {
    out.push('| Transform | Change | File |', '| --- | --- | --- |');
    for (const c of report.transforms) out.push(`| ${markdownText(c.name)}${c.previousName !== undefined ? ` (was ${markdownText(c.previousName)})` : ''} | ${c.kind} | ${markdownText(c.file)} |`);
    out.push('');
  }
  if (report.profiles.length === 0) out.push('No identity attribute reaches a change: nothing to evaluate.', '');
  for (const p of report.profiles) {
    out.push(`### Profile ${markdownText(p.profile)}`, '');
    out.push('| Attribute | Identities | Changed | Became null | Stopped being null | New errors | Errors fixed | Why |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const a of p.attributes) {
      const name = a.dependsOnIssuedValues ? `${markdownText(a.attribute)} (depends on issued values)` : markdownText(a.attribute);
      out.push(`| ${name} | ${number(a.identities)} | ${number(a.changed)} | ${number(a.becameNull)} | ${number(a.stoppedBeingNull)} | ${number(a.newErrors)} | ${number(a.errorsFixed)} | ${markdownText(a.reasons.map(reason).join('; '))} |`);
    }
    out.push('');
    for (const a of p.attributes) {
      const examples = examplesOf(a);
      if (examples.length === 0) continue;
      out.push(`<details><summary>Examples for ${markdownCode(a.attribute)}</summary>`, '', '<table><tr><th>Identity</th><th>Kind</th><th>Before</th><th>After</th></tr>');
      for (const [kind, list] of examples) {
        for (const e of list) {
          const explained = (side: 'before' | 'after') => {
            const trace = e.explained?.[side];
            return trace ? `<details><summary>why</summary><pre>${escapeHtml(formatTrace(trace))}</pre></details>` : '';
          };
          out.push(`<tr><td>${markdownCode(who(e))}</td><td>${KIND_LABEL[kind]}</td><td>${markdownCode(outcome(e.before))}${explained('before')}</td><td>${markdownCode(outcome(e.after))}${explained('after')}</td></tr>`);
        }
      }
      out.push('</table>', '', '</details>', '');
    }
  }
  out.push(`${totals(report, (n) => `**${n}**`)}.`);
  return out.join('\n') + '\n';
}

function github(report: ImpactReport): string {
  const lines: string[] = [];
  const identities = (a: AttributeImpact) => count(a.identities, 'identity', 'identities');
  for (const c of report.transforms) {
    if (c.file.includes(':') && !c.file.startsWith('/')) continue; // a file of the base revision: nothing to annotate in the pull request
    const reached = report.profiles.flatMap((p) => p.attributes.filter((a) => a.reasons.some((r) => r.kind === 'transform' && (r.name === c.name || r.name === c.previousName))));
    const changing = reached.filter(differs);
    const errors = reached.reduce((n, a) => n + a.newErrors, 0);
    const what = changing.length === 0 ? `changes no identity attribute value (${count(reached.length, 'attribute', 'attributes')} evaluated)` : changing.map((a) => `changes \`${a.attribute}\` for ${number(a.changed)} of ${identities(a)}`).join('; ');
    const level = errors > 0 ? 'warning' : 'notice';
    lines.push(workflowCommand(level, { file: c.file, title: `impact of ${c.kind} transform ${c.name}` }, what + (errors > 0 ? `; ${count(errors, 'new error', 'new errors')}` : '')));
  }
  for (const p of report.profiles) {
    if (!p.file) continue;
    const mapped = p.attributes.filter((a) => a.reasons.some((r) => r.kind.startsWith('mapping-')));
    for (const a of mapped) {
      const level = a.newErrors > 0 ? 'warning' : 'notice';
      lines.push(workflowCommand(level, { file: p.file, title: `impact on ${a.attribute}` }, `changes \`${a.attribute}\` for ${number(a.changed)} of ${identities(a)}, ${count(a.newErrors, 'new error', 'new errors')}`));
    }
  }
  // The readable report after the annotations quotes names as they are: inert, a name cannot run a command.
  return lines.join('\n') + (lines.length > 0 ? '\n' : '') + inertWorkflowText(text(report));
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

/**
 * Why a report fails a --fail-on policy, in one line for stderr (the report itself went to
 * stdout): the rule and the counts that broke it, per attribute; undefined when it passes.
 */
export function impactFailure(report: ImpactReport, failOn: 'changes' | 'errors' | 'none'): string | undefined {
  if (impactPasses(report, failOn)) return undefined;
  const attributes = report.profiles.flatMap((p) => p.attributes.map((a) => ({ ...a, label: report.profiles.length > 1 ? `${p.profile}/${a.attribute}` : a.attribute })));
  if (failOn === 'errors') {
    const failing = attributes.filter((a) => a.newErrors > 0);
    const total = failing.reduce((n, a) => n + a.newErrors, 0);
    return `impact: --fail-on errors failed: ${count(total, 'new error', 'new errors')} (${failing.map((a) => `${a.label}: ${number(a.newErrors)}`).join(', ')})`;
  }
  const failing = attributes.filter(differs);
  const changes = failing.reduce((n, a) => n + a.changed + a.newErrors + a.errorsFixed + a.errorsChanged, 0);
  return `impact: --fail-on changes failed: ${count(changes, 'identity attribute computes', 'identity attributes compute')} differently (${failing.map((a) => `${a.label}: ${number(a.changed + a.newErrors + a.errorsFixed + a.errorsChanged)}`).join(', ')})`;
}
