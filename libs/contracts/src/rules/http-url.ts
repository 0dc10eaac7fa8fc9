/**
 * Why a value is not an absolute http(s) URL without credentials, or null: the common rule of
 * the URLs the service calls (an add-on's descriptor, a webhook). Each caller adds its own
 * length rule.
 */
export function absoluteHttpUrlProblem(v: string): string | null {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return `must be an http(s) URL (got "${v.slice(0, 100)}")`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http(s) URL (got "${v.slice(0, 100)}")`;
  if (url.username || url.password) return 'must not carry a user name or password';
  return null;
}
