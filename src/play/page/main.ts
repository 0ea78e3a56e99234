// The playground page: an adapter over the play process's API, which answers from the language
// service and the engine. The page keeps the editor's text, the example it came from and the
// identity; after each pause in typing (DEBOUNCE_MS) it asks for the findings, the value and its
// explanation in one call, and draws the answer unless a newer one was asked for meanwhile.

import type { EditorView } from '@codemirror/view';
import { CodedFailure, PlayApi, type Analysis } from './api.js';
import { createEditor, selectSpan, showDiagnostics } from './editor.js';
import { el, errorLine, renderImpact, renderProblems, renderProfile, renderTrace, show } from './panels.js';
import { decodeShared, encodeShared } from './share.js';

/** The pause in typing after which the page asks for the value. */
export const DEBOUNCE_MS = 250;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const STARTER = `{
  "name": "Playground",
  "type": "static",
  "attributes": { "value": "Hello" }
}
`;

/** Where the page keeps its token for this tab: sessionStorage outlives a reload, not the tab. */
const TOKEN_KEY = 'identity-transforms.play.token';

/**
 * The API's token. The URL the play command printed carries it in its query; the page keeps it in
 * this tab's sessionStorage and takes it out of the address bar and the tab's history at once
 * (history.replaceState), so that it is neither shown, nor bookmarked, nor found by going back. A
 * reload finds it in sessionStorage; a token in the URL (a new run of the command) replaces it.
 */
function takeToken(): string {
  const url = new URL(location.href);
  const given = url.searchParams.get('token');
  if (given !== null) {
    sessionStorage.setItem(TOKEN_KEY, given);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

async function start(): Promise<void> {
  const api = new PlayApi(takeToken());
  let file: string | undefined;
  let identity: string | undefined;
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let view: EditorView;

  const problems = $('problems');
  const valueOut = $('value');
  const trace = $('trace');
  const tabs = ['explain', 'profile', 'impact'] as const;
  let tab: (typeof tabs)[number] = 'explain';

  const fail = (error: unknown): CodedFailure['error'] => (error instanceof CodedFailure ? error.error : { code: 'PLAY_UNREACHABLE', message: 'the playground did not answer (is the play command still running?)' });

  async function analyze(): Promise<void> {
    const mine = ++generation;
    const document = view.state.doc.toString();
    performance.mark('play:request');
    let analysis: Analysis;
    try {
      analysis = await api.analyze({ document, offset: view.state.selection.main.head, ...(file ? { file } : {}), ...(identity ? { identity } : {}) });
    } catch (error) {
      if (mine !== generation) return;
      const failure = fail(error);
      showDiagnostics(view, [{ offset: 0, length: 1, severity: 'error', code: failure.code, message: failure.message }]);
      renderProblems(problems, { diagnostics: [] }, failure);
      valueOut.replaceChildren(errorLine(failure));
      valueOut.dataset.state = 'failed';
      return;
    }
    if (mine !== generation) return;
    const underlined = [...analysis.diagnostics];
    if (analysis.error?.offset !== undefined && !underlined.some((d) => d.code === analysis.error!.code)) underlined.push({ offset: analysis.error.offset, length: analysis.error.length ?? 1, severity: 'error', code: analysis.error.code, message: analysis.error.message, pointer: analysis.error.path ?? '', line: 0, column: 0 });
    showDiagnostics(view, underlined);
    renderProblems(problems, analysis);
    $('value-identity').textContent = analysis.evaluated?.identity.name ?? '—';
    if (analysis.error) valueOut.replaceChildren(errorLine(analysis.error));
    else if (analysis.evaluated) valueOut.textContent = show(analysis.value);
    else if (analysis.diagnostics.some((d) => d.code === 'VALIDATE_JSON_SYNTAX')) valueOut.textContent = 'not JSON yet: the value comes back once the text parses';
    else valueOut.textContent = identity ? 'no transform in the text' : 'pick an identity';
    valueOut.dataset.state = analysis.error ? 'error' : analysis.evaluated ? 'value' : 'none';
    renderTrace(trace, analysis.trace, (offset, length) => {
      selectSpan(view, offset, length);
      view.focus();
    });
    performance.measure('play:value-rendered', 'play:request');
    if (tab === 'profile') void refreshProfile();
  }

  function schedule(textChanged: boolean): void {
    clearTimeout(timer);
    timer = setTimeout(() => void analyze(), DEBOUNCE_MS);
    if (textChanged) void rememberInFragment();
  }

  async function rememberInFragment(): Promise<void> {
    const fragment = await encodeShared({ document: view.state.doc.toString(), ...(file ? { file } : {}), ...(identity ? { identity } : {}) });
    history.replaceState(null, '', `${location.pathname}${location.search}#${fragment}`);
  }

  async function refreshProfile(): Promise<void> {
    const container = $('profile');
    if (!identity) return void container.replaceChildren(el('p', { class: 'muted' }, 'Pick an identity to see its profile.'));
    try {
      renderProfile(container, await api.profile({ document: view.state.doc.toString(), identity, ...(file ? { file } : {}) }));
    } catch (error) {
      container.replaceChildren(el('p', {}, errorLine(fail(error))));
    }
  }

  function selectTab(next: (typeof tabs)[number], focus = false): void {
    tab = next;
    for (const name of tabs) {
      const button = $(`tab-${name}`);
      button.setAttribute('aria-selected', String(name === next));
      button.tabIndex = name === next ? 0 : -1;
      $(`panel-${name}`).hidden = name !== next;
    }
    if (focus) $(`tab-${next}`).focus();
    if (next === 'profile') void refreshProfile();
  }

  // The tabs, as the ARIA practices' tabs pattern: arrows move between them, Home and End.
  for (const name of tabs) $(`tab-${name}`).addEventListener('click', () => selectTab(name));
  $('tabs').addEventListener('keydown', (event) => {
    const i = tabs.indexOf(tab);
    const to = { ArrowRight: (i + 1) % tabs.length, ArrowLeft: (i + tabs.length - 1) % tabs.length, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    selectTab(tabs[to]!, true);
  });

  // Impact: one run at a time. Running again or Stop aborts the request under way, and the
  // server stops that run's work when its request closes.
  let impactRun: AbortController | undefined;
  const stopButton = $('stop-impact');
  $('run-impact').addEventListener('click', async () => {
    const container = $('impact');
    if (!file) return void container.replaceChildren(el('p', {}, 'Open an example first: impact compares the edited example with its file.'));
    impactRun?.abort();
    const run = new AbortController();
    impactRun = run;
    stopButton.hidden = false;
    container.replaceChildren(el('p', { class: 'muted' }, 'Running…'));
    try {
      renderImpact(container, await api.impact({ document: view.state.doc.toString(), file }, run.signal));
    } catch (error) {
      if (run.signal.aborted) {
        if (impactRun === run) container.replaceChildren(el('p', {}, 'Stopped.'));
      } else container.replaceChildren(el('p', {}, errorLine(fail(error))));
    } finally {
      if (impactRun === run) {
        impactRun = undefined;
        stopButton.hidden = true;
      }
    }
  });
  stopButton.addEventListener('click', () => {
    impactRun?.abort();
    $('run-impact').focus();
  });

  // The identity picker: a search box, and the matching identities as a list box.
  const picker = $<HTMLSelectElement>('identity');
  async function search(query: string): Promise<void> {
    try {
      const found = await api.identities(query);
      picker.replaceChildren(...found.matches.map((i) => el('option', { value: i.id, ...(i.id === identity ? { selected: '' } : {}) }, i.name)));
      $('identity-count').textContent = `${found.total} ${found.total === 1 ? 'identity matches' : 'identities match'}${found.total > found.matches.length ? `; the first ${found.matches.length} are listed` : ''}`;
    } catch (error) {
      $('identity-count').replaceChildren(errorLine(fail(error)));
    }
  }
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  $<HTMLInputElement>('identity-search').addEventListener('input', (event) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => void search((event.target as HTMLInputElement).value), DEBOUNCE_MS);
  });
  picker.addEventListener('change', () => {
    identity = picker.value || undefined;
    schedule(true);
  });

  // The examples: the fixtures' identity profiles and transforms.
  const examples = $<HTMLSelectElement>('example');
  examples.addEventListener('change', async () => {
    if (!examples.value) return;
    try {
      const { text } = await api.example(examples.value);
      file = examples.value;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    } catch (error) {
      renderProblems(problems, { diagnostics: [] }, fail(error));
    }
  });

  $('share').addEventListener('click', async () => {
    const link = `${location.origin}${location.pathname}#${await encodeShared({ document: view.state.doc.toString(), ...(file ? { file } : {}), ...(identity ? { identity } : {}) })}`;
    try {
      await navigator.clipboard.writeText(link);
      $('share-status').textContent = 'Link copied (without the token: append its # part to your playground\'s URL).';
    } catch {
      $('share-status').textContent = link;
    }
  });

  const shared = await decodeShared(location.hash);
  file = shared?.file;
  identity = shared?.identity;
  view = createEditor($('editor'), shared?.document ?? STARTER, { api, file: () => file, changed: schedule });
  try {
    const state = await api.state();
    $('fixtures').textContent = `${state.fixtures}: ${state.identities} identities`;
    const transforms = el('optgroup', { label: 'Transforms' });
    const profiles = el('optgroup', { label: 'Identity profiles' });
    for (const e of state.examples) (e.kind === 'transform' ? transforms : profiles).append(el('option', { value: e.file }, e.name));
    examples.append(profiles, transforms);
    if (file) examples.value = file;
  } catch (error) {
    renderProblems(problems, { diagnostics: [] }, fail(error));
  }
  await search('');
  if (identity === undefined && picker.options.length > 0) {
    picker.selectedIndex = 0;
    identity = picker.value;
  }
  renderTrace(trace, undefined, () => {});
  void analyze();
}

void start();
