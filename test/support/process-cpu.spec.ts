import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { parseProcStat, processCpuMs, processTreeCpuMs, readProcStat } from './process-cpu.js';

/** Keeps this process on the CPU for `ms` of its own CPU time (not wall time: the machine is shared). */
function burnCpu(ms: number): void {
  const start = process.cpuUsage();
  let sink = 0;
  for (;;) {
    for (let i = 0; i < 100_000; i++) sink += Math.sqrt(i);
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms || sink < 0) return;
  }
}

describe('the /proc/<pid>/stat reading of the benchmarks', () => {
  it('reads the parent and the four times of a stat line, whose process name holds spaces and parentheses', () => {
    // Fields 3 to 17 of proc(5): state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt,
    // then utime 1234, stime 56, cutime 7, cstime 8.
    const line = '4242 (post) gres: x (y)) S 17 4242 4242 0 -1 4194560 900 0 0 0 1234 56 7 8 20 0 1 0 62394 3133440 410\n';
    expect(parseProcStat(line)).toEqual({
      pid: 4242,
      comm: 'post) gres: x (y)',
      ppid: 17,
      utime: 1234,
      stime: 56,
      cutime: 7,
      cstime: 8,
    });
  });

  it('refuses a line that is not a stat line rather than answering a wrong time', () => {
    expect(() => parseProcStat('no parenthesis here')).toThrow(/not a \/proc/);
    expect(() => parseProcStat('1 (x) S 1 2 3')).toThrow(/field 14/);
  });

  it("reads the CPU time this process burns, as node's own account of it does", () => {
    expect(readProcStat(process.pid)?.ppid).toBe(process.ppid);
    const before = processCpuMs(process.pid)!;
    const ownBefore = process.cpuUsage();
    burnCpu(300);
    const own = process.cpuUsage(ownBefore);
    const read = processCpuMs(process.pid)! - before;
    // The kernel counts in ticks of 10 ms; node reads the same counters at a finer grain (and its threads too).
    expect(read).toBeGreaterThanOrEqual(250);
    expect(Math.abs(read - (own.user + own.system) / 1000)).toBeLessThan(60);
  });

  it('counts the CPU time of a child that exited in the tree of its parent', async () => {
    const before = processTreeCpuMs(process.pid)!;
    const ownBefore = processCpuMs(process.pid)!;
    const child = spawn(process.execPath, [
      '-e',
      'const s = process.cpuUsage(); let x = 0; while ((process.cpuUsage(s).user + process.cpuUsage(s).system) < 400_000) x += Math.sqrt(x + 1);',
    ]);
    await once(child, 'exit');
    const childMs = processTreeCpuMs(process.pid)! - before - (processCpuMs(process.pid)! - ownBefore);
    expect(childMs).toBeGreaterThanOrEqual(350);
    expect(readProcStat(child.pid!)).toBeUndefined();
  });
});
