// Preloaded into a benchmarked node process (node --require ...): prints its peak RSS on exit,
// so the runner can read the subject's memory without sampling from outside.
process.on('exit', () => {
  const kb = process.resourceUsage().maxRSS;
  process.stderr.write(`\n@@maxrss_kb=${kb}\n`);
});
