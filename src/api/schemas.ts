// Shared JSON Schemas of the API (the platform error body as this server sends
// it, and small building blocks), used by route schemas and the OpenAPI document.

import { ERROR_CATALOGUE } from '../errors/index.js';

export const errorMessageSchema = {
  type: 'object',
  properties: {
    locale: { type: 'string' },
    localeOrigin: { type: 'string', enum: ['DEFAULT', 'REQUEST'] },
    text: { type: 'string' },
  },
} as const;

export const errorBodySchema = {
  type: 'object',
  required: ['detailCode', 'trackingId', 'messages', 'causes', 'code'],
  properties: {
    detailCode: { type: 'string', description: "The platform's detail code: the status and its name (400.1 Bad Request Content, 404 Not found, …)." },
    trackingId: { type: 'string' },
    messages: { type: 'array', items: errorMessageSchema },
    causes: { type: 'array', items: errorMessageSchema },
    error: { type: 'string', description: 'RFC 6749 error code (token and authorize endpoints only).' },
    error_description: { type: 'string' },
    code: {
      type: 'string',
      enum: Object.keys(ERROR_CATALOGUE),
      description: 'Not in the platform body: the error code of this server (docs/errors.md), stable across releases, so that a client need not match message text.',
    },
  },
} as const;

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1 } },
} as const;

export const dateTime = { type: 'string', format: 'date-time' } as const;
