// A listener that could not bind (serve's three, play's one), as the coded CLI_LISTEN error that
// names the flag to change.

import { TransformsError } from '../errors/index.js';

/** A listen failure as a coded error naming the flag to change. */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number, flag: string): TransformsError {
  const where = port === 0 ? host : `${host}:${port}`;
  const message =
    error.code === 'EADDRINUSE'
      ? `port ${port} on ${host} is already in use (${flag}); stop what listens there, or pick another port (0 picks a free one)`
      : error.code === 'EACCES'
        ? `port ${port} on ${host} needs privileges (${flag}); pick a port above 1023`
        : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN'
          ? `cannot listen on ${host}: not an address of this machine (--host)`
          : `cannot listen on ${where} (${flag}): ${error.message}`;
  return new TransformsError('CLI_LISTEN', message, { cause: error, details: { host, port } });
}
