// The installed package's `identity-transforms play`, started as a user starts it, and the
// Chromium the playground's browser tests drive (Debian's, through playwright-core; set
// CHROMIUM_PATH for another binary).

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p !== undefined && p !== '' && existsSync(p));
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Start `play --fixtures fixtures [options]` in `cwd` and wait for the URL it prints (with its token). */
export async function startPlay(bin: string, cwd: string, env: NodeJS.ProcessEnv, options: string[] = []): Promise<{ play: ChildProcess; url: string }> {
  const play = spawn(bin, ['play', '--fixtures', 'fixtures', ...options], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    play.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+/.exec(out);
      if (found) resolve(found[0]);
    });
    play.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    play.on('exit', (code) => reject(new Error(`play exited (${code}) before printing its URL:\n${out}`)));
  });
  return { play, url };
}
