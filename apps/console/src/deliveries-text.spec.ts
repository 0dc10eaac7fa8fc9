import { maskedQuery, prettyBody, shortTime, shownHeader, trendName } from './deliveries-text';

describe('deliveries text', () => {
  it('names a trend by its totals, retried only when there were some', () => {
    expect(trendName({ delivered: 120, retried: 0, failed: 3 })).toBe('Deliveries in the last 24 hours: 120 delivered, 3 failed');
    expect(trendName({ delivered: 5, retried: 2, failed: 0 })).toBe('Deliveries in the last 24 hours: 5 delivered, 2 retried, 0 failed');
  });

  it('names a time of today by the hour, another day with its date', () => {
    const now = new Date(2026, 10, 29, 15, 0);
    expect(shortTime(new Date(2026, 10, 29, 10, 0), now)).toMatch(/^10:00( AM)?$/);
    const yesterday = shortTime(new Date(2026, 10, 28, 10, 0), now);
    expect(yesterday).toMatch(/28/);
    expect(yesterday).toMatch(/10:00/);
  });

  it('masks every query value of a URL, keeping the names', () => {
    expect(maskedQuery('https://h.example/hook?key=secret&signed_request=eyJ.a.b&flag')).toBe('https://h.example/hook?key=***&signed_request=***&flag');
    expect(maskedQuery('https://h.example/hook?key=***')).toBe('https://h.example/hook?key=***');
    expect(maskedQuery('https://h.example/hook')).toBe('https://h.example/hook');
  });

  it('cuts a signature or credential header short, unless the API already did', () => {
    expect(shownHeader('webhook-signature', 'v1,abcdefghijklmnopqrstuvwxyz')).toBe('v1,abcdefghi…');
    expect(shownHeader('Authorization', 'JWT eyJhbGciOiJIUzI1NiJ9.payload.sig')).toBe('JWT eyJhbGci…');
    expect(shownHeader('webhook-signature', 'v1,abcdefgh…')).toBe('v1,abcdefgh…');
    expect(shownHeader('Content-Type', 'application/json; charset=utf-8')).toBe('application/json; charset=utf-8');
  });

  it('indents a JSON body and leaves anything else as it is', () => {
    expect(prettyBody('{"event":"room_message","item":{"n":1}}')).toBe('{\n  "event": "room_message",\n  "item": {\n    "n": 1\n  }\n}');
    expect(prettyBody('payload=not json')).toBe('payload=not json');
    expect(prettyBody('{"text":"one"}\n{"text":"two"}')).toBe('{\n  "text": "one"\n}\n\n{\n  "text": "two"\n}');
    expect(prettyBody('{"text":"one"}\nnot json')).toBe('{"text":"one"}\nnot json');
  });
});
