import { z } from 'zod';
import { ApiError } from '../../shared/api-error';
import { queryFlag, queryInt, ZodBodyPipe, ZodQueryPipe } from './validation';

const failure = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('did not throw');
};

describe('ZodBodyPipe', () => {
  const pipe = new ZodBodyPipe(z.object({ name: z.string(), card: z.object({ url: z.string().url('must be an http(s) URL') }).optional() }));

  it('drops unknown fields', () => {
    expect(pipe.transform({ name: 'a', token: 'x' })).toEqual({ name: 'a' });
  });

  it.each([
    [{}, 'name: is required'],
    [{ name: 3 }, 'name: must be text (got number)'],
    [{ name: 'a', card: { url: 'nope' } }, 'card.url: must be an http(s) URL'],
  ])('answers 400 naming the field for %j', (body, message) => {
    const err = failure(() => pipe.transform(body));
    expect(err.status).toBe(400);
    expect(err.message).toBe(message);
  });

  it.each([[undefined], [null], [[1]], ['text'], [5]])('refuses a body that is not an object (%j)', (body) => {
    expect(failure(() => pipe.transform(body)).message).toBe('The request body must be a JSON object.');
  });
});

describe('ZodQueryPipe', () => {
  const pipe = new ZodQueryPipe(z.object({ 'max-results': queryInt(100, 0, 1000), 'include-private': queryFlag(true) }));

  it('reads defaults, numbers and flags', () => {
    expect(pipe.transform({})).toEqual({ 'max-results': 100, 'include-private': true });
    expect(pipe.transform({ 'max-results': '5', 'include-private': 'FALSE' })).toEqual({ 'max-results': 5, 'include-private': false });
  });

  it('names the parameter and the rule', () => {
    expect(failure(() => pipe.transform({ 'max-results': '1001' })).message).toBe('max-results: must be a whole number from 0 to 1000 (got "1001")');
    expect(failure(() => pipe.transform({ 'include-private': 'maybe' })).message).toBe('include-private: must be true or false (got "maybe")');
    expect(failure(() => pipe.transform({ 'max-results': ['1', '2'] })).message).toBe('max-results: must be given once');
  });
});
