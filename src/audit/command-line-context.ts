import { userInfo } from 'node:os';
import type { AuditContext } from './audit-event.types.js';

/** The prefix of the actor id of a change made with the CLI: `cli:<OS user>`. */
export const COMMAND_LINE_ACTOR_PREFIX = 'cli:';

/**
 * The audit context of a change made with the CLI by an operator on the server: no request, no
 * address, and as actor the operating-system account that ran it (the only identity the command
 * has). The actor keeps the event's two types: a person acting outside the console, told apart by
 * the `cli:` id (see "Changes made with the CLI" in docs/audit-log.md).
 */
export function commandLineContext(osUser: string = osUserName()): AuditContext {
  const user = osUser.trim().slice(0, 90) || 'unknown';
  return {
    actor: { type: 'user', id: `${COMMAND_LINE_ACTOR_PREFIX}${user}`, name: `${user} (command line)` },
    requestId: null,
    address: null,
  };
}

/** The OS user running the process; a container without a passwd entry for its uid falls back to the environment or the uid. */
function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.LOGNAME ?? `uid-${process.getuid?.() ?? 'unknown'}`;
  }
}
