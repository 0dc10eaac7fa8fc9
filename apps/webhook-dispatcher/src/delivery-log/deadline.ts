import type { CommandMeta } from '@app/common';
import { commandFailure } from '@app/contracts';

/** A change that arrives after its caller stopped waiting is not made (the caller said it may not have been). */
export function refuseIfLate(meta: CommandMeta, now = Date.now()): void {
  if (meta.deadline > 0 && now > meta.deadline) throw commandFailure('unavailable', 'deadline_passed');
}
