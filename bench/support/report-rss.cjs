// Preloaded into a benchmarked node process (node --require ...): prints its peak RSS on exit,
// so the runner can read the subject's memory without sampling from outside.
// The peak is VmHWM of /proc/self/status, this process image's own high-water mark. Not
// getrusage's maxRSS: Linux carries the maximum of the image before exec into it, so a child forked
// from a 275 MB bench runner reports at least 275 MB whatever it used itself.
const fs = require('node:fs');

function peakRssKb() {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // no /proc (not Linux): getrusage's figure
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  process.stderr.write(`\n@@maxrss_kb=${peakRssKb()}\n`);
});
