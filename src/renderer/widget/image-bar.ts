// "Save image…" above a view (one control for every view that draws an image, views/view.ts `image`): PNG
// (rasterised here from the view's SVG at 2×), SVG, or Copy image (PNG to the clipboard; where the webview
// refuses it, the PNG is offered to save instead, and the status says so).
import type { ImageFormat } from '../../core/notebook/renderer-protocol';
import { button, h } from '../dom/h';
import { copyPng, svgToPng } from '../dom/image';
import type { Panel, ViewImage } from '../views/view';

export interface ImageActions {
  /** Sends an image's bytes to the host to save; undefined without messaging. */
  save?: (format: ImageFormat, bytes: Uint8Array, name: string) => Promise<string>;
  status: (text: string) => void;
}

export class ImageBar {
  readonly element: HTMLElement;
  private readonly menu: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private panel?: Panel;

  constructor(private readonly actions: ImageActions) {
    this.toggle = button('Save image…', 'Save this view as PNG or SVG, or copy it as an image', () =>
      this.open(this.menu.hidden),
    );
    this.toggle.classList.add('mt-image-menu');
    this.toggle.setAttribute('aria-expanded', 'false');
    const item = (text: string, title: string, cls: string, run: (image: ViewImage) => Promise<string>) => {
      const b = button(text, title, () => void this.run(run));
      b.classList.add(cls);
      b.disabled = cls !== 'mt-image-copy' && !actions.save;
      return b;
    };
    this.menu = h('span', { className: 'mt-image-actions', attrs: { role: 'group', hidden: '' } }, [
      item('PNG', 'Save the view as a PNG image (2× pixels)', 'mt-image-png', (i) => this.savePng(i)),
      item('SVG', 'Save the view as an SVG drawing', 'mt-image-svg', (i) => this.saveSvg(i)),
      item('Copy image', 'Copy the view to the clipboard as a PNG image', 'mt-image-copy', (i) => this.copy(i)),
    ]);
    this.element = h('div', { className: 'mt-image-bar', attrs: { hidden: '' } }, [this.toggle, this.menu]);
  }

  /** The panel shown: the control is there when it draws an image. */
  setPanel(panel: Panel | undefined): void {
    this.panel = panel;
    this.element.hidden = !panel?.image;
    this.open(false);
  }

  private open(open: boolean): void {
    this.menu.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
  }

  private async run(action: (image: ViewImage) => Promise<string>): Promise<void> {
    this.open(false);
    try {
      const image = this.panel?.image?.();
      this.actions.status(image ? await action(image) : 'Nothing is drawn to save as an image');
    } catch (err) {
      this.actions.status(`The image could not be made: ${(err as Error).message}`);
    }
  }

  private async savePng(image: ViewImage): Promise<string> {
    return this.send('png', await svgToPng(image.svg), image.name);
  }

  private saveSvg(image: ViewImage): Promise<string> {
    return this.send('svg', new TextEncoder().encode(image.svg), image.name);
  }

  private send(format: ImageFormat, bytes: Uint8Array, name: string): Promise<string> {
    if (!this.actions.save) return Promise.resolve('Saving needs the extension host (not available here)');
    return this.actions.save(format, bytes, name);
  }

  private async copy(image: ViewImage): Promise<string> {
    const png = await svgToPng(image.svg);
    try {
      await copyPng(png);
      return 'Copied the image';
    } catch (err) {
      const why = `The clipboard refused the image here (${(err as Error).message})`;
      if (!this.actions.save) return `${why}.`;
      this.actions.status(`${why}: save it as PNG instead.`);
      return `${why}. ${await this.send('png', png, image.name)}`;
    }
  }
}
