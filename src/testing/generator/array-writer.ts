// The one-element-per-line layout of the fixture format's array files (README "Fixture
// format"), written as the generator builds records.

import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Writes a JSON array one element per line, buffering about 1 MiB between writes. The
 * one-element-per-line layout is part of the format: tools may stream the file line by line.
 */
export class JsonArrayWriter {
  private readonly fd: number;
  private buffer: string[] = [];
  private size = 0;
  private count = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
    this.push('[\n');
  }

  write(value: unknown): void {
    this.push(`${this.count === 0 ? '' : ',\n'}${JSON.stringify(value)}`);
    this.count++;
  }

  close(): void {
    this.push(this.count === 0 ? ']\n' : '\n]\n');
    this.flush();
    closeSync(this.fd);
  }

  private push(text: string): void {
    this.buffer.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
    this.size = 0;
  }
}
