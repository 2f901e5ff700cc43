// Processor time of Chromium's worker threads, from /proc (Linux only; null elsewhere): what a
// plan costs the page's worker, which other load on the machine does not stretch as it stretches
// wall time. workerProcessorMs() takes a snapshot; workerProcessorMs(snapshot) answers the
// largest increase of one worker thread since then, in milliseconds.
import { readdirSync, readFileSync } from 'node:fs';

function snapshot() {
  const threads = new Map();
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!command.includes('chromium') || !command.includes('--type=renderer')) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        if (!readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').startsWith('DedicatedWorker')) continue;
        // schedstat's first field: nanoseconds on a processor.
        threads.set(`${pid}/${tid}`, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
      }
    } catch {
      // a process or thread that ended meanwhile
    }
  }
  return threads;
}

export function workerProcessorMs(since) {
  const now = snapshot();
  if (since === undefined) return now;
  if (!since || !now) return null;
  let most = 0;
  for (const [thread, ns] of now) most = Math.max(most, (ns - (since.get(thread) ?? 0)) / 1e6);
  return most;
}
