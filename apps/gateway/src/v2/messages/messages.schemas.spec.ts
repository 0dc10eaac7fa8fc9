import { notificationBodySchema } from '@app/contracts';
import { ApiError } from '../../shared/api-error';
import { ZodBodyPipe, ZodQueryPipe } from '../http/validation';
import { historyBounds, historyQuery, messageBody } from './messages.schemas';

const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as ApiError).message;
  }
  throw new Error('did not throw');
};

describe('notificationBodySchema (read by the v2 pipe)', () => {
  const pipe = new ZodBodyPipe(notificationBodySchema);
  const card = { style: 'image', id: 'c1', title: 'Shot', thumbnail: { url: 'https://e.example/t.png' } };

  it('reads a minimal body, treats "" and null as absent and ignores unknown fields', () => {
    expect(pipe.transform({ message: 'hi', color: '', from: null, token: 'x' })).toEqual({ message: 'hi' });
  });

  it('reads flags as JSON or form values', () => {
    expect(pipe.transform({ message: 'hi', notify: 'true' }).notify).toBe(true);
    expect(pipe.transform({ message: 'hi', notify: '0' }).notify).toBe(false);
    expect(pipe.transform({ message: 'hi', notify: true }).notify).toBe(true);
  });

  it('normalizes card variants clients send', () => {
    const body = pipe.transform({
      message: 'hi',
      card: { ...card, thumbnail: { url: 'https://e.example/t.png', url2x: 'https://e.example/t2.png' }, attributes: [{ value: { label: 'a', icon: 'https://e.example/i.png' } }] },
    });
    expect(body.card?.thumbnail).toEqual({ url: 'https://e.example/t.png', 'url@2x': 'https://e.example/t2.png' });
    expect(body.card?.attributes?.[0].value.icon).toEqual({ url: 'https://e.example/i.png' });
  });

  it.each([
    [{}, /^message: is required/],
    [{ message: '' }, /^message: must not be empty/],
    [{ message: 'x'.repeat(10_001) }, /^message: must be at most 10,000 characters/],
    [{ message: 'm', color: 'blue' }, /^color: must be one of yellow, green, red, purple, gray, random/],
    [{ message: 'm', message_format: 'md' }, /^message_format: /],
    [{ message: 'm', notify: 'maybe' }, /^notify: /],
    [{ message: 'm', from: 'f'.repeat(65) }, /^from: must be at most 64 characters/],
    [{ message: 'm', card: { ...card, thumbnail: { url: 'ftp://x' } } }, /^card\.thumbnail\.url: must be an http\(s\) URL/],
    [{ message: 'm', card: { style: 'image', id: 'c1', title: 't' } }, /^card\.thumbnail: is required when style is image/],
    [{ message: 'm', card: 'nope' }, /^card: must be an object/],
  ])('answers 400 naming the field for %j', (body, message) => {
    expect(failure(() => pipe.transform(body))).toMatch(message);
  });
});

describe('messageBody', () => {
  it('needs a message of 1 to 10,000 characters', () => {
    const pipe = new ZodBodyPipe(messageBody);
    expect(pipe.transform({ message: 'hello', extra: 1 })).toEqual({ message: 'hello' });
    expect(failure(() => pipe.transform({ message: '' }))).toBe('message: must not be empty');
    expect(failure(() => pipe.transform({ message: 5 }))).toMatch(/^message: must be text/);
  });
});

describe('historyBounds', () => {
  const query = (q: Record<string, string>) => new ZodQueryPipe(historyQuery).transform(q);

  it('defaults to recent, UTC, reversed pages of 100', () => {
    const q = query({});
    expect(q).toMatchObject({ timezone: 'UTC', reverse: true, 'start-index': 0, 'max-results': 100 });
    expect(historyBounds(q)).toEqual({ recentOnly: true });
  });

  it('reads date and end-date in the timezone', () => {
    expect(historyBounds(query({ date: '2024-03-01', 'end-date': '2024-02-29T12:00:00', timezone: 'Europe/Paris' }))).toEqual({
      // Half-open: before the end of 1 March in Paris, since 12:00 Paris time on 29 February.
      recentOnly: false, before: '2024-03-01T23:00:00.000Z', since: '2024-02-29T11:00:00.000Z',
    });
  });

  it('drops an edge past the years 0001 to 9999 (it bounds nothing) rather than send one the rooms service refuses', () => {
    expect(historyBounds(query({ date: '9999-12-31' }))).toEqual({ recentOnly: false });
    expect(historyBounds(query({ date: '9999-12-31', 'end-date': '9999-12-31' }))).toEqual({ recentOnly: false, since: '9999-12-31T00:00:00.000Z' });
    expect(historyBounds(query({ date: '2024-03-01', 'end-date': '0000-06-01' }))).toEqual({ recentOnly: false, before: '2024-03-02T00:00:00.000Z' });
  });

  it('names the parameter that is no date', () => {
    expect(historyBounds(query({ date: 'yesterday' }))).toMatchObject({ param: 'date' });
    expect(historyBounds(query({ 'end-date': 'soon' }))).toMatchObject({ param: 'end-date' });
    expect(failure(() => query({ timezone: 'Mars/Base' }))).toMatch(/^timezone: must be an IANA time zone/);
  });
});
