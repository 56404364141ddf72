// The notebook settings (package.json contributes.configuration, section "measurements.notebook").
import * as vscode from 'vscode';
import { DEFAULT_OUTPUT_LIMIT_BYTES } from '../../core/notebook';

/** Outputs over this size are saved into the .measnb as a summary that says where the full result is. */
export function savedOutputLimitBytes(): number {
  const kb = vscode.workspace.getConfiguration('measurements.notebook').get<number>('savedOutputLimitKB');
  return typeof kb === 'number' && kb >= 0 ? Math.round(kb * 1024) : DEFAULT_OUTPUT_LIMIT_BYTES;
}

/** Results with more rows than this get no text/csv fallback item (the table item always holds every row). */
export function csvFallbackMaxRows(): number {
  const n = vscode.workspace.getConfiguration('measurements.notebook').get<number>('csvFallbackMaxRows');
  return typeof n === 'number' && n >= 0 ? n : 20_000;
}

/** The most disk the full results of over-limit outputs may take; the oldest files go first. */
export function resultStorageLimitBytes(): number {
  const mb = vscode.workspace.getConfiguration('measurements.notebook').get<number>('resultStorageLimitMB');
  return typeof mb === 'number' && mb >= 0 ? Math.round(mb * 1024 * 1024) : 1024 * 1024 * 1024;
}

/**
 * Outputs whose table is bigger than this (wire format) hold only their first rows; the renderer asks for
 * the rest through renderer messaging (progressive outputs). 0 turns it off (every row in the item).
 */
export function outputHeadBytes(): number {
  const mb = vscode.workspace.getConfiguration('measurements.notebook').get<number>('outputHeadMB');
  if (typeof mb === 'number' && mb === 0) return Number.POSITIVE_INFINITY;
  return typeof mb === 'number' && mb > 0 ? Math.round(mb * 1024 * 1024) : 1024 * 1024;
}
