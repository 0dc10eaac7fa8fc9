/** An HTTP answer as a test reads it: the status, and the body parsed as JSON (its text when it is not JSON, null when empty). */
export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A v2 call with a Bearer token and an optional JSON body, as a client library makes it. */
export async function v2Call(baseUrl: string, token: string, verb: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${baseUrl}/v2${path}`, {
    method: verb,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the text, for the failure message
  }
  return { status: res.status, body: parsed };
}
