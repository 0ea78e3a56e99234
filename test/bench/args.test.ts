// The bench scripts' options (bench/args.ts): each kind read from the command line as the scripts
// declare it, the defaults when absent, and a wrong value or an unknown option refused by name.

import { describe, expect, it } from 'vitest';
import { count, counts, flag, parseBenchArgs, text, workerModes, workers } from '../../bench/args.js';

const spec = { identities: count(100_000), runs: count(3), sizes: counts([200, 20_000]), workers: workers('auto'), modes: workerModes([0, 'auto']), before: text('HEAD^'), tarball: text(), write: flag(true), million: flag() };

describe('the bench scripts\' options', () => {
  it('are their defaults when absent', () => {
    expect(parseBenchArgs(spec, [])).toEqual({ identities: 100_000, runs: 3, sizes: [200, 20_000], workers: 'auto', modes: [0, 'auto'], before: 'HEAD^', tarball: undefined, write: true, million: false });
  });

  it('read each kind from the command line; --no-<flag> turns off a flag that is on by default', () => {
    const args = ['--identities', '2000', '--runs=1', '--sizes', '1,2,3', '--workers', '2', '--modes', 'auto,1', '--before', 'abc', '--tarball', 'x.tgz', '--no-write', '--million'];
    expect(parseBenchArgs(spec, args)).toEqual({ identities: 2000, runs: 1, sizes: [1, 2, 3], workers: 2, modes: ['auto', 1], before: 'abc', tarball: 'x.tgz', write: false, million: true });
  });

  it.each([
    [['--runs', '0'], '--runs must be an integer of at least 1, not "0"'],
    [['--identities', '1e5'], '--identities must be an integer of at least 1, not "1e5"'],
    [['--sizes', '200,,5'], '--sizes must be comma-separated integers of at least 1, not ""'],
    [['--workers', 'many'], '--workers must be \'auto\' or a number of threads, not "many"'],
    [['--modes', '0,-1'], '--modes must be \'auto\' or a number of threads, not "-1"'],
    [['--runz', '3'], "Unknown option '--runz'"],
    [['extra'], "Unexpected argument 'extra'"],
  ])('refuse %j', (args, message) => {
    expect(() => parseBenchArgs(spec, args)).toThrow(message);
  });

  it('take a lower bound of a count', () => {
    expect(() => parseBenchArgs({ identities: count(20_000, 256) }, ['--identities', '100'])).toThrow('--identities must be an integer of at least 256, not "100"');
  });
});
