// Shared helpers of the in-host suites.
import * as vscode from 'vscode';
import type { MeasurementsApi } from '../../src/extension/extension';

export const EXTENSION_ID = 'measnb.measurements-notebooks';

export function extension(): vscode.Extension<MeasurementsApi> {
  const ext = vscode.extensions.getExtension<MeasurementsApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  return ext;
}

export async function api(): Promise<MeasurementsApi> {
  return extension().activate();
}

/**
 * Polls `probe` until it returns a value that is not undefined/false (bounded by `tries`). `what` may be
 * a function: it is called on giving up, so the error can say what the state was then.
 */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string | (() => string),
  tries = 300,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${typeof what === 'function' ? what() : what}`);
}
