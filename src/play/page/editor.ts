// The editor: CodeMirror 6 with the JSON language, its completion and hover answered by the
// language service through the API, and the service's findings set as its diagnostics (the
// page asks for them with the value, once per pause in typing).

import { autocompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { json } from '@codemirror/lang-json';
import { setDiagnostics, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { EditorView, hoverTooltip } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import type { Diagnostic } from '../../language/types.js';
import type { PlayApi } from './api.js';

export interface EditorHooks {
  api: PlayApi;
  /** The example file the text was opened from, if any. */
  file: () => string | undefined;
  /** Called on every change of the text or the caret. */
  changed: (textChanged: boolean) => void;
}

export function createEditor(parent: HTMLElement, text: string, hooks: EditorHooks): EditorView {
  const complete = async (context: CompletionContext): Promise<CompletionResult | null> => {
    const document = context.state.doc.toString();
    const { items } = await hooks.api.complete({ document, offset: context.pos, ...(hooks.file() ? { file: hooks.file()! } : {}) }).catch(() => ({ items: [] }));
    if (items.length === 0) return null;
    const from = Math.min(...items.map((i) => i.replace.offset));
    const options: Completion[] = items.map((item) => ({
      label: item.label,
      type: item.kind === 'operation' ? 'type' : item.kind === 'value' ? 'constant' : 'property',
      ...(item.detail !== undefined ? { detail: item.detail } : {}),
      ...(item.documentation !== undefined ? { info: item.documentation } : {}),
      apply: (view: EditorView) => view.dispatch({ changes: { from: item.replace.offset, to: item.replace.offset + item.replace.length, insert: item.insertText }, selection: { anchor: item.replace.offset + item.insertText.length } }),
    }));
    return { from, options, filter: false };
  };
  const hover = hoverTooltip(async (view, pos) => {
    const { hover: found } = await hooks.api.hover({ document: view.state.doc.toString(), offset: pos, ...(hooks.file() ? { file: hooks.file()! } : {}) }).catch(() => ({ hover: null }));
    if (!found) return null;
    return {
      pos: found.span.offset,
      end: found.span.offset + found.span.length,
      create: () => {
        const dom = document.createElement('div');
        dom.className = 'hover json';
        dom.textContent = found.contents;
        return { dom };
      },
    };
  });
  return new EditorView({
    doc: text,
    parent,
    extensions: [
      EditorView.cspNonce.of(document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? ''),
      basicSetup,
      json(),
      EditorView.lineWrapping,
      autocompletion({ override: [complete] }),
      hover,
      EditorView.contentAttributes.of({ 'aria-label': 'Transform JSON', 'aria-describedby': 'editor-help' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged || update.selectionSet) hooks.changed(update.docChanged);
      }),
    ],
  });
}

/** The findings of the service as the editor's diagnostics: each underlined, its code first. */
export function showDiagnostics(view: EditorView, found: readonly (Pick<Diagnostic, 'offset' | 'length' | 'severity' | 'code' | 'message'>)[]): void {
  const size = view.state.doc.length;
  const diagnostics: CmDiagnostic[] = found.map((d) => {
    const from = Math.min(d.offset, size);
    return { from, to: Math.min(size, from + Math.max(d.length, 1)), severity: d.severity, source: d.code, message: `${d.code} ${d.message}`, markClass: `code-${d.code}` };
  });
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

/** Select a span of the text and bring it into view. */
export function selectSpan(view: EditorView, offset: number, length: number): void {
  const size = view.state.doc.length;
  view.dispatch({ selection: { anchor: Math.min(offset, size), head: Math.min(offset + length, size) }, scrollIntoView: true });
}
