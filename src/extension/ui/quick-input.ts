// The guided flows' steps, on createQuickPick/createInputBox. Every input shown is announced on
// `onDidShowQuickInput` so the integration suite can answer it through the real workbench
// (set the value, then run the workbench's own accept command), exactly as a user's keys would.
import * as vscode from 'vscode';

const shown = new vscode.EventEmitter<vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox>();
export const onDidShowQuickInput = shown.event;

export interface StepOptions {
  title: string;
  step?: number;
  totalSteps?: number;
  placeholder?: string;
}

export async function pickOne<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: StepOptions & { active?: T },
): Promise<T | undefined> {
  const picked = await pick(items, { ...options, many: false });
  return picked?.[0];
}

/**
 * Several items. With `atLeastOne`, Enter with nothing ticked takes the highlighted item (type to filter,
 * Enter), as a single pick would; without it, nothing ticked means none.
 */
export async function pickMany<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: StepOptions & { selected?: readonly T[]; atLeastOne?: boolean },
): Promise<T[] | undefined> {
  return pick(items, { ...options, many: true });
}

function pick<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: StepOptions & { many: boolean; active?: T; selected?: readonly T[]; atLeastOne?: boolean },
): Promise<T[] | undefined> {
  const qp = vscode.window.createQuickPick<T>();
  qp.title = options.title;
  qp.step = options.step;
  qp.totalSteps = options.totalSteps;
  qp.placeholder = options.placeholder;
  qp.canSelectMany = options.many;
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = true;
  qp.items = items;
  if (options.active) qp.activeItems = [options.active];
  if (options.selected) qp.selectedItems = options.selected;
  return new Promise((resolve) => {
    let done = false;
    qp.onDidAccept(() => {
      let chosen = options.many ? [...qp.selectedItems] : [...qp.activeItems].slice(0, 1);
      if (options.many && options.atLeastOne && chosen.length === 0) chosen = [...qp.activeItems].slice(0, 1);
      if ((!options.many || options.atLeastOne) && chosen.length === 0) return;
      done = true;
      resolve(chosen);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) resolve(undefined);
      qp.dispose();
    });
    qp.show();
    shown.fire(qp as unknown as vscode.QuickPick<vscode.QuickPickItem>);
  });
}

export async function inputText(
  options: StepOptions & {
    prompt?: string;
    value?: string;
    password?: boolean;
    /** A message when the text is not acceptable; undefined when it is. */
    validate?: (text: string) => string | undefined;
  },
): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.step = options.step;
  box.totalSteps = options.totalSteps;
  box.placeholder = options.placeholder;
  box.prompt = options.prompt;
  box.value = options.value ?? '';
  box.password = options.password ?? false;
  box.ignoreFocusOut = true;
  const check = (text: string) => options.validate?.(text);
  return new Promise((resolve) => {
    let done = false;
    box.onDidChangeValue((text) => {
      box.validationMessage = check(text);
    });
    box.onDidAccept(() => {
      const problem = check(box.value);
      if (problem) {
        box.validationMessage = problem;
        return;
      }
      done = true;
      resolve(box.value);
      box.hide();
    });
    box.onDidHide(() => {
      if (!done) resolve(undefined);
      box.dispose();
    });
    box.show();
    shown.fire(box);
  });
}

/** A yes/no step as a quick pick (keeps every question of a flow in the same drivable widget). */
export async function confirm(title: string, yes: string, no = 'Cancel', detail?: string): Promise<boolean> {
  const items: vscode.QuickPickItem[] = [{ label: yes, detail }, { label: no }];
  const choice = await pickOne(items, { title });
  return choice === items[0];
}
