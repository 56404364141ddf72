// extensionTestsPath of the activation benchmark, run inside the real extension host: activates the
// project's extension and then the baseline (an empty extension), and prints how long each took.
// ext.activate() covers what VS Code counts as activation: loading the bundle and running activate().
const vscode = require('vscode');

async function timeActivation(id) {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`extension ${id} is not loaded`);
  if (ext.isActive) throw new Error(`extension ${id} was already active`);
  const t0 = performance.now();
  const api = await ext.activate();
  return { wallMs: performance.now() - t0, activateMs: api?.activationMs };
}

exports.run = async () => {
  // Ours first: any cost of the host's first activation is charged to the project, not the baseline.
  const project = await timeActivation('measnb.measurements-notebooks');
  const empty = await timeActivation('measnb-bench.bench-empty');
  console.log(
    `@@bench_activation ${JSON.stringify({ baselineMs: empty.wallMs, wallMs: project.wallMs, activateMs: project.activateMs })}`,
  );
};
