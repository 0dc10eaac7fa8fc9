/**
 * Whether the log still holds every event after `after`: the oldest kept is at most
 * `after + 1`, or nothing came after it (`after` at or past the room's last sequence; past
 * it is the caller's to judge: the log may not have caught up with the live feed yet).
 * The log is pruned oldest first and written without gaps, so that is all it takes.
 */
export function isCovered(after: number, lastSeq: number, oldestKept: number | null): boolean {
  if (after >= lastSeq) return true;
  return oldestKept !== null && oldestKept <= after + 1;
}
