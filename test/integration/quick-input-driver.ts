// Answers the extension's quick picks and input boxes through the real workbench: the value or the
// items are set on the live widget, then the workbench's own accept command runs (what Enter does).
import * as vscode from 'vscode';
import type { MeasurementsApi } from '../../src/extension/extension';

type Input = vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox;

const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
const tick = () => new Promise((r) => setTimeout(r, 50));

export class QuickInputDriver implements vscode.Disposable {
  private readonly queue: Input[] = [];
  private wake?: () => void;
  private readonly sub: vscode.Disposable;

  constructor(api: MeasurementsApi) {
    this.sub = api.onDidShowQuickInput((q) => {
      this.queue.push(q);
      this.wake?.();
    });
  }

  async next(timeoutMs = 20_000): Promise<Input> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0) {
      if (Date.now() > deadline) throw new Error('the extension showed no quick input');
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 200);
      });
    }
    return this.queue.shift()!;
  }

  /** Types into the next input box and presses Enter. Returns the box (its validationMessage, title…). */
  async type(text: string): Promise<vscode.InputBox> {
    const box = (await this.next()) as vscode.InputBox;
    if (!('password' in box))
      throw new Error(`expected an input box, got a quick pick titled ${(box as vscode.QuickInput).title}`);
    box.value = text;
    await tick();
    await accept();
    return box;
  }

  /** Picks the item whose label contains `label` in the next quick pick and presses Enter. */
  async pick(label: string | string[]): Promise<vscode.QuickPick<vscode.QuickPickItem>> {
    const qp = (await this.next()) as vscode.QuickPick<vscode.QuickPickItem>;
    if (!('items' in qp))
      throw new Error(`expected a quick pick, got an input box titled ${(qp as vscode.QuickInput).title}`);
    const labels = Array.isArray(label) ? label : [label];
    const items = labels.map((l) => {
      const item = qp.items.find((i) => i.label.includes(l));
      if (!item)
        throw new Error(`no item "${l}" in quick pick "${qp.title}": ${qp.items.map((i) => i.label).join(' | ')}`);
      return item;
    });
    if (qp.canSelectMany) qp.selectedItems = items;
    else qp.activeItems = items.slice(0, 1);
    await tick();
    await accept();
    return qp;
  }

  dispose(): void {
    this.sub.dispose();
  }
}
