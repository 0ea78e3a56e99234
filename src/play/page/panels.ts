// What the page draws from the API's answers: the problems list, the explanation tree (each
// node a button that selects its JSON in the editor), the profile's attributes and impact's
// counts. Text goes in through textContent only: nothing a transform holds becomes markup.

import type { LocatedNode } from '../trace-spans.js';
import type { AttributeImpact, ImpactReport } from '../../impact/types.js';
import type { Analysis, ApiError, ProfileAnswer } from './api.js';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) if (value !== undefined) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

export const show = (value: unknown): string => (value === undefined ? 'undefined' : JSON.stringify(value, null, 1)?.replace(/\n\s*/g, ' ') ?? String(value));

/** A coded error as a line: its code, then its message. */
export function errorLine(error: ApiError, extra = ''): HTMLElement {
  return el('span', { class: 'error' }, el('span', { class: 'code' }, error.code), ` ${error.message}${extra}`);
}

export function renderProblems(list: HTMLElement, analysis: Pick<Analysis, 'diagnostics'>, failure?: ApiError): void {
  list.replaceChildren(
    ...analysis.diagnostics.map((d) => el('li', { class: d.severity, 'data-code': d.code }, el('span', { class: 'code' }, d.code), ` ${d.line}:${d.column} ${d.message}`)),
    ...(failure ? [el('li', { class: 'error', 'data-code': failure.code }, errorLine(failure))] : []),
  );
  if (list.childElementCount === 0) list.append(el('li', { class: 'muted' }, 'No problems'));
}

/** The explanation tree; `select` is called with a node's span when its button is pressed. */
export function renderTrace(container: HTMLElement, trace: LocatedNode | undefined, select: (offset: number, length: number) => void): void {
  if (!trace) return void container.replaceChildren(el('p', { class: 'muted' }, 'Pick an identity to see how the value is computed.'));
  const buttons: HTMLButtonElement[] = [];
  const item = (node: LocatedNode): HTMLLIElement => {
    const outcome = node.error ? `${node.error.code} ${node.error.message}` : show(node.value);
    const button = el('button', { type: 'button', class: 'node', 'aria-pressed': 'false', 'data-pointer': node.pointer }, `${node.type}${node.transform ? ` (in ${node.transform})` : ''} → ${outcome}`);
    if (node.span) {
      const { offset, length } = node.span;
      button.addEventListener('click', () => {
        for (const b of buttons) b.setAttribute('aria-pressed', String(b === button));
        select(offset, length);
      });
    } else button.title = 'In another transform';
    buttons.push(button);
    const details: HTMLElement[] = [el('div', { class: 'decisions json' }, `input: ${show(node.input)}`)];
    if (node.decisions) details.push(el('div', { class: 'decisions json' }, Object.entries(node.decisions).map(([k, v]) => `${k}: ${show(v)}`).join('\n')));
    const li = el('li', {}, button, ...details);
    if (node.children.length > 0 || node.omitted) li.append(el('ul', {}, ...node.children.map(item), ...(node.omitted ? [el('li', { class: 'muted' }, `${node.omitted} more nodes not shown`)] : [])));
    return li;
  };
  container.replaceChildren(el('ul', { class: 'tree', 'aria-label': 'Explanation' }, item(trace)));
}

export function renderProfile(container: HTMLElement, answer: ProfileAnswer): void {
  if (answer.profile === null) return void container.replaceChildren(el('p', { class: 'muted' }, 'The fixtures have no identity profile.'));
  const rows = answer.attributes.map((a) => el('tr', {}, el('th', { scope: 'row' }, a.name), el('td', { class: 'json' }, ...(a.error ? [errorLine(a.error)] : [show(a.value)])), el('td', { class: 'json' }, show(a.stored))));
  container.replaceChildren(
    el('table', {}, el('caption', {}, `Profile "${answer.profile}"`), el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Attribute'), el('th', { scope: 'col' }, 'Value'), el('th', { scope: 'col' }, 'Stored'))), el('tbody', {}, ...rows)),
  );
}

/** Impact's counts per attribute, as its report gives them, and its examples per kind of difference. */
export const IMPACT_COLUMNS = ['identities', 'unchanged', 'changed', 'becameNull', 'stoppedBeingNull', 'newErrors', 'errorsFixed', 'errorsChanged'] as const satisfies readonly (keyof AttributeImpact)[];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function renderImpact(container: HTMLElement, report: ImpactReport): void {
  const t = report.totals;
  const parts: HTMLElement[] = [el('p', { id: 'impact-totals' }, `${plural(t.identities, 'identity', 'identities')}, ${plural(t.attributes, 'attribute', 'attributes')} evaluated: ${t.changed} changed, ${plural(t.newErrors, 'new error', 'new errors')}, ${plural(t.errorsFixed, 'error', 'errors')} fixed.`)];
  for (const profile of report.profiles) {
    const rows = profile.attributes.map((a) => el('tr', { 'data-attribute': a.attribute }, el('th', { scope: 'row' }, a.attribute), ...IMPACT_COLUMNS.map((c) => el('td', { 'data-column': c }, String(a[c])))));
    const table = el('table', {}, el('caption', {}, `Profile "${profile.profile}"`), el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Attribute'), ...IMPACT_COLUMNS.map((c) => el('th', { scope: 'col' }, c)))), el('tbody', {}, ...rows));
    // A wide table scrolls within its own region, which the keyboard can reach and scroll.
    parts.push(el('div', { class: 'wide', role: 'region', tabindex: '0', 'aria-label': `Impact on profile ${profile.profile}` }, table));
    for (const a of profile.attributes) {
      for (const [kind, examples] of Object.entries(a.examples)) {
        parts.push(el('details', {}, el('summary', {}, `${a.attribute}: ${kind} (${examples!.length} examples)`), el('ul', {}, ...examples!.map((e) => el('li', { class: 'json' }, `${e.identityName ?? e.identityId}: ${show(e.before)} → ${show(e.after)}`)))));
      }
    }
  }
  if (report.profiles.length === 0) parts.push(el('p', { class: 'muted' }, 'No attribute of any profile reaches the change.'));
  container.replaceChildren(...parts);
}
