// The "Measurements" output channel: one line per request (method, path, status, duration, retries).
// Entries come from the core client's logger, which never carries the key; every line is still passed
// through the redactor of all known keys, so a key echoed into a path or message cannot reach the channel.
import * as vscode from 'vscode';
import { redact } from '../../core/api/error-reply';
import type { RequestLogEntry } from '../../core/client/client.node';

export class RequestLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();

  constructor(name = 'Measurements') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Keys to scrub from every line (added when a key is read from SecretStorage). */
  addSecret(secret: string | undefined): void {
    if (secret) this.secrets.add(secret);
  }

  request(connectionName: string, e: RequestLogEntry): void {
    const status = e.status === undefined ? (e.error ?? 'no response') : String(e.status);
    const error = e.error && e.status !== undefined ? ` ${e.error}` : '';
    this.write(
      'info',
      `${connectionName}: ${e.method} ${e.path} ${status}${error} ${Math.round(e.durationMs)} ms, ${e.retries} retr${e.retries === 1 ? 'y' : 'ies'}`,
    );
  }

  info(message: string): void {
    this.write('info', message);
  }

  error(message: string): void {
    this.write('error', message);
  }

  private write(level: 'info' | 'error', message: string): void {
    let text = message;
    for (const s of this.secrets) text = redact(text, s);
    this.channel[level](text);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
