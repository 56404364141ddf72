// The guided flows' steps, on createQuickPick/createInputBox. Every input shown is announced on
// `onDidShowQuickInput` so the integration suite can answer it through the real workbench
// (set the value, then run the workbench's own accept command), exactly as a user's keys would.
// Flows of several steps run through `MultiStep` (the pattern of VS Code's quick-input sample): each step
// is a small function that asks one question, keeps the answer, and returns the next step; the Back
// button (or the workbench's "quickInputBack") goes to the previous step, which shows its last answer.
import * as vscode from 'vscode';

const shown = new vscode.EventEmitter<vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox>();
export const onDidShowQuickInput = shown.event;

interface StepOptions {
  title: string;
  step?: number;
  totalSteps?: number;
  placeholder?: string;
}

interface PickOptions<T> extends StepOptions {
  active?: T;
  selected?: readonly T[];
  /** With canSelectMany: Enter with nothing ticked takes the highlighted item (type to filter, Enter). */
  atLeastOne?: boolean;
}

interface InputOptions extends StepOptions {
  prompt?: string;
  value?: string;
  password?: boolean;
  /**
   * A message when the text is not acceptable (Enter does nothing then); a warning when it is acceptable but
   * probably not what was meant (shown as a warning; Enter goes on once it has been shown, so an Enter
   * before it appeared shows it first); undefined when it is fine.
   */
  validate?: (text: string) => string | InputWarning | undefined;
}

/** A validation result that does not block Enter. */
export interface InputWarning {
  warning: string;
}

/** The answer of a step that has a Back button, when Back was pressed. */
const BACK = Symbol('back');
type Answer<T> = T | typeof BACK | undefined;

export async function pickOne<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: StepOptions & { active?: T },
): Promise<T | undefined> {
  const picked = await pick(items, { ...options, many: false, back: false });
  return picked === BACK ? undefined : picked?.[0];
}

/**
 * Several items. With `atLeastOne`, Enter with nothing ticked takes the highlighted item (type to filter,
 * Enter), as a single pick would; without it, nothing ticked means none.
 */
export async function pickMany<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: StepOptions & { selected?: readonly T[]; atLeastOne?: boolean },
): Promise<T[] | undefined> {
  const picked = await pick(items, { ...options, many: true, back: false });
  return picked === BACK ? undefined : picked;
}

export async function inputText(options: InputOptions): Promise<string | undefined> {
  const text = await input({ ...options, back: false });
  return text === BACK ? undefined : text;
}

/** A yes/no step as a quick pick (keeps every question of a flow in the same drivable widget). */
export async function confirm(title: string, yes: string, no = 'Cancel', detail?: string): Promise<boolean> {
  const items: vscode.QuickPickItem[] = [{ label: yes, detail }, { label: no }];
  const choice = await pickOne(items, { title });
  return choice === items[0];
}

/** One step of a MultiStep flow: asks, keeps its answer, returns the next step (undefined: the flow is done). */
export type Step = (flow: MultiStep) => Promise<Step | undefined>;

const CANCEL = Symbol('cancel');

export class MultiStep {
  private depth = 0;

  private constructor(
    private readonly title: string,
    private readonly totalSteps: number,
  ) {}

  /** Runs the steps from `start`; true when the last step was answered, false when the user cancelled. */
  static async run(title: string, totalSteps: number, start: Step): Promise<boolean> {
    const flow = new MultiStep(title, totalSteps);
    const history: Step[] = [];
    let step: Step | undefined = start;
    while (step) {
      history.push(step);
      flow.depth = history.length;
      try {
        step = await step(flow);
      } catch (e) {
        if (e === CANCEL) return false;
        if (e !== BACK) throw e;
        history.pop(); // this step
        step = history.pop(); // the one before, asked again
      }
    }
    return true;
  }

  async pickOne<T extends vscode.QuickPickItem>(items: readonly T[], options: { placeholder: string; active?: T }) {
    return (await this.answer(pick(items, { ...this.stepOptions(), ...options, many: false })))[0];
  }

  async pickMany<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: { placeholder: string; selected?: readonly T[]; atLeastOne?: boolean },
  ): Promise<T[]> {
    return this.answer(pick(items, { ...this.stepOptions(), ...options, many: true }));
  }

  async input(options: Omit<InputOptions, keyof StepOptions> & { placeholder?: string }): Promise<string> {
    return this.answer(input({ ...this.stepOptions(), ...options }));
  }

  private stepOptions() {
    return {
      title: this.title,
      step: this.depth,
      totalSteps: Math.max(this.depth, this.totalSteps),
      back: this.depth > 1,
    };
  }

  private async answer<T>(shown: Promise<Answer<T>>): Promise<T> {
    const a = await shown;
    if (a === BACK) throw BACK;
    if (a === undefined) throw CANCEL;
    return a;
  }
}

function setUp(q: vscode.QuickInput & { buttons: readonly vscode.QuickInputButton[] }, o: StepOptions, back: boolean) {
  q.title = o.title;
  q.step = o.step;
  q.totalSteps = o.totalSteps;
  q.ignoreFocusOut = true;
  q.buttons = back ? [vscode.QuickInputButtons.Back] : [];
}

function pick<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: PickOptions<T> & { many: boolean; back: boolean },
): Promise<Answer<T[]>> {
  const qp = vscode.window.createQuickPick<T>();
  setUp(qp, options, options.back);
  qp.placeholder = options.placeholder;
  qp.canSelectMany = options.many;
  qp.matchOnDescription = true;
  qp.items = items;
  if (options.active) qp.activeItems = [options.active];
  if (options.selected) qp.selectedItems = options.selected;
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: Answer<T[]>) => {
      done = true;
      resolve(a);
      qp.hide();
    };
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    qp.onDidAccept(() => {
      let chosen = options.many ? [...qp.selectedItems] : [...qp.activeItems].slice(0, 1);
      if (options.many && options.atLeastOne && chosen.length === 0) chosen = [...qp.activeItems].slice(0, 1);
      if ((!options.many || options.atLeastOne) && chosen.length === 0) return;
      finish(chosen);
    });
    qp.onDidHide(() => {
      if (!done) resolve(undefined);
      qp.dispose();
    });
    qp.show();
    shown.fire(qp as unknown as vscode.QuickPick<vscode.QuickPickItem>);
  });
}

function input(options: InputOptions & { back: boolean }): Promise<Answer<string>> {
  const box = vscode.window.createInputBox();
  setUp(box, options, options.back);
  box.placeholder = options.placeholder;
  box.prompt = options.prompt;
  box.value = options.value ?? '';
  box.password = options.password ?? false;
  const check = (text: string) => options.validate?.(text);
  const message = (r: string | InputWarning | undefined): string | vscode.InputBoxValidationMessage | undefined =>
    typeof r === 'object' ? { message: r.warning, severity: vscode.InputBoxValidationSeverity.Warning } : r;
  // The text whose warning is on screen: Enter goes on past a warning once it has been seen.
  let warned: string | undefined;
  const show = (text: string) => {
    const r = check(text);
    box.validationMessage = message(r);
    warned = typeof r === 'object' ? text : undefined;
    return r;
  };
  if (box.value) show(box.value);
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: Answer<string>) => {
      done = true;
      resolve(a);
      box.hide();
    };
    box.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    box.onDidChangeValue((text) => {
      show(text);
    });
    box.onDidAccept(() => {
      const text = box.value;
      const seen = warned === text;
      // A problem blocks; a warning not seen yet is shown first, and the next Enter goes on.
      const r = show(text);
      if (r === undefined || (typeof r === 'object' && seen)) finish(text);
    });
    box.onDidHide(() => {
      if (!done) resolve(undefined);
      box.dispose();
    });
    box.show();
    shown.fire(box);
  });
}
