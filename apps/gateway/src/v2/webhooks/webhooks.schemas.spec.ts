import { createWebhookBody, specOf, webhookBody } from './webhooks.schemas';

const problemOf = (schema: typeof webhookBody | typeof createWebhookBody, body: unknown) => {
  const r = schema.safeParse(body);
  return r.success ? null : `${r.error.issues[0].path.join('.')}: ${r.error.issues[0].message}`;
};

describe('v2 webhook request bodies', () => {
  it('keeps the url as given, query string included, and drops unknown fields', () => {
    const b = createWebhookBody.parse({ url: 'https://a.example/h?x=1&y=%20', event: 'room_message', token: 't', key: 'k' });
    expect(b).toEqual({ url: 'https://a.example/h?x=1&y=%20', event: 'room_message', key: 'k' });
    expect(specOf(b)).toEqual({ url: 'https://a.example/h?x=1&y=%20', event: 'room_message' });
  });

  it('takes null optional fields as absent, and an empty pattern as none', () => {
    expect(webhookBody.parse({ url: 'https://a.example/', event: 'room_message', pattern: '', name: null, authentication: null }))
      .toEqual({ url: 'https://a.example/', event: 'room_message' });
  });

  it('names the field a rule refuses', () => {
    expect(problemOf(webhookBody, { url: 'ftp://a.example/', event: 'room_message' })).toMatch(/^url: must be an http\(s\) URL/);
    expect(problemOf(webhookBody, { url: 'https://a.example/', event: 'nope' })).toMatch(/^event: must be one of/);
    expect(problemOf(webhookBody, { url: 'https://a.example/', event: 'room_message', pattern: '(a)\\1' })).toMatch(/^pattern: must be a regular expression the safe \(RE2\)/);
    expect(problemOf(webhookBody, { url: 'https://a.example/', event: 'room_message', authentication: 'basic' })).toMatch(/^authentication: must be one of jwt, none/);
    expect(problemOf(createWebhookBody, { url: 'https://a.example/', event: 'room_message', key: 'k'.repeat(41) })).toMatch(/^key: must be 1 to 40 characters/);
  });
});
