/**
 * CPU time of processes as the kernel counts it (`/proc/<pid>/stat`, Linux), for the benchmarks: on a shared machine a
 * run's req/s moves with the neighbours' load, the CPU each request costs much less.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of `/proc/<pid>/stat` the benchmarks use; times in clock ticks. */
export interface ProcStat {
  pid: number;
  /** The executable's name (field 2), which may itself hold spaces and parentheses. */
  comm: string;
  ppid: number;
  utime: number;
  stime: number;
  /** What children this process has waited for spent (their utime and stime), once they are reaped. */
  cutime: number;
  cstime: number;
}

/** USER_HZ, the unit of the times in `/proc/<pid>/stat`: 100 on every Linux this runs on. */
export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * One `/proc/<pid>/stat` line. The name is the text between the first `(` and the last `)`: a process may name
 * itself `a) b`, so the fields are counted after the last `)`.
 */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  // After "pid (comm) ": index 0 is field 3 (state) of proc(5); ppid is field 4, utime/stime 14/15, cutime/cstime 16/17.
  const rest = line
    .slice(close + 2)
    .trim()
    .split(' ');
  const field = (number: number) => {
    const value = Number(rest[number - 3]);
    if (!Number.isInteger(value)) throw new Error(`/proc/<pid>/stat field ${number} is not a number: ${rest[number - 3]}`);
    return value;
  };
  return {
    pid: Number(line.slice(0, open).trim()),
    comm: line.slice(open + 1, close),
    ppid: field(4),
    utime: field(14),
    stime: field(15),
    cutime: field(16),
    cstime: field(17),
  };
}

/** The process's stat, or undefined once it is gone (or on a system without /proc). */
export function readProcStat(pid: number | string): ProcStat | undefined {
  let line: string;
  try {
    line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseProcStat(line);
}

export function ticksToMs(ticks: number): number {
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** CPU time (user + system) a process has used so far, in milliseconds. */
export function processCpuMs(pid: number | undefined): number | undefined {
  const stat = pid === undefined ? undefined : readProcStat(pid);
  return stat && ticksToMs(stat.utime + stat.stime);
}

/** A live process's parent. */
export function parentPid(pid: number): number | undefined {
  return readProcStat(pid)?.ppid;
}

/**
 * CPU time of a process and its children (PostgreSQL's postmaster and its backends), in milliseconds: the live
 * children's time plus what the exited ones left in the parent's cutime/cstime. A child reaped while its siblings
 * are read would be counted in neither (a backend closed by an idle pool holds seconds of CPU): the reading is
 * taken again until the parent's cutime/cstime did not move during it.
 */
export function processTreeCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const own = (stat: ProcStat) => stat.utime + stat.stime + stat.cutime + stat.cstime;
  const reaped = (stat: ProcStat) => stat.cutime + stat.cstime;
  for (let attempt = 1; ; attempt++) {
    const parent = readProcStat(pid);
    if (!parent) return undefined;
    let ticks = own(parent);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const child = readProcStat(entry);
      if (child?.ppid === pid) ticks += own(child);
    }
    const after = readProcStat(pid);
    if (!after) return undefined;
    if (reaped(after) === reaped(parent) || attempt === 5) return ticksToMs(ticks);
  }
}
