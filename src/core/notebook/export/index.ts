// Exports a notebook with its saved results to HTML, Markdown or .ipynb (one small writer per
// format); used by `measnb export` and the extension's Export Notebook command.
import type { Notebook } from '../model';
import { notebookToHtml } from './html';
import { notebookToIpynb } from './ipynb';
import { notebookToMarkdown } from './markdown';
import type { ExportFormat, ExportOptions } from './types';

export { EXPORT_FORMATS, type ExportFormat, type ExportOptions } from './types';

export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { html: '.html', md: '.md', ipynb: '.ipynb' };

export function exportNotebook(nb: Notebook, format: ExportFormat, options: ExportOptions = {}): string {
  switch (format) {
    case 'html':
      return notebookToHtml(nb, options);
    case 'md':
      return notebookToMarkdown(nb, options);
    case 'ipynb':
      return notebookToIpynb(nb, options);
  }
}
