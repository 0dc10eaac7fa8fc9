/**
 * Whether a PUT makes a new inbound URL: `first` when inbound is enabled on a bridge that
 * never had one, `rotated` when asked to replace the one it has (the old URL stops working),
 * else `none` (the URL, shown once when it was made, stays; disabling inbound keeps it for
 * when it is enabled again).
 */
export function inboundKeyPlan(stored: { hasKey: boolean }, enabled: boolean, rotate: boolean): 'none' | 'first' | 'rotated' {
  if (!enabled) return 'none';
  if (!stored.hasKey) return 'first';
  return rotate ? 'rotated' : 'none';
}
