// The parameters of the client's requests, checked before the language service reads them: a
// request without the document or position the protocol says it carries is answered with the
// protocol's InvalidParams and LSP_REQUEST_INVALID (in the error's data), rather than a
// TypeError's message as an InternalError.
// https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#textDocumentPositionParams

import { ErrorCodes, ResponseError, type Position } from 'vscode-languageserver/node';
import { codedError } from '../errors/index.js';
import { isPosition } from './documents.js';

function invalid(method: string, what: string): never {
  const error = codedError('LSP_REQUEST_INVALID', `${method}: ${what}`);
  throw new ResponseError(ErrorCodes.InvalidParams, `${error.code}: ${error.message}`, { code: error.code });
}

const record = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/** The params of a request on a document ({ textDocument: { uri } }): its URI. */
export function documentOf(method: string, params: unknown): string {
  const uri = record(record(params)?.textDocument)?.uri;
  if (typeof uri !== 'string') invalid(method, 'the params carry no textDocument.uri (a string)');
  return uri;
}

/** The params of a request at a position of a document: its URI and the position (line and character, integers from 0). */
export function positionOf(method: string, params: unknown): { uri: string; position: Position } {
  const uri = documentOf(method, params);
  const position = record(params)!.position;
  if (!isPosition(position)) invalid(method, 'the params carry no position of a line and a character (integers from 0)');
  return { uri, position };
}

/** A member of the params that must be of a JSON type (rename's newName, references' context). */
export function memberOf<T>(method: string, params: unknown, name: string, type: 'string' | 'object'): T {
  const value = record(params)?.[name];
  if (type === 'object' ? record(value) === undefined : typeof value !== type) invalid(method, `the params' ${name} is not ${type === 'object' ? 'an object' : 'a string'}`);
  return value as T;
}
