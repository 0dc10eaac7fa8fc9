import { V1Error } from './errors';
import { V1Params } from './params';

function error400(fn: () => unknown): V1Error {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(V1Error);
    expect((err as V1Error).status).toBe(400);
    return err as V1Error;
  }
  throw new Error('expected a 400 V1Error');
}

describe('V1Params', () => {
  it('reads parameters from the query string', () => {
    const p = new V1Params({ room_id: '12', from: 'Bot' }, undefined);
    expect(p.required('room_id')).toBe('12');
    expect(p.optional('from')).toBe('Bot');
    expect(p.optional('color')).toBeUndefined();
  });

  it('reads parameters from the form body', () => {
    const p = new V1Params({}, { message: 'hello' });
    expect(p.required('message')).toBe('hello');
  });

  it('merges query and body, the body winning on conflicts', () => {
    const p = new V1Params({ auth_token: 'q', room_id: 'from-query', format: 'xml' }, { room_id: 'from-body', message: 'm' });
    expect(p.required('auth_token')).toBe('q');
    expect(p.required('room_id')).toBe('from-body');
    expect(p.required('message')).toBe('m');
    expect(p.optional('format')).toBe('xml');
  });

  it('treats an empty value as absent', () => {
    const p = new V1Params({ color: '' }, { notify: '' });
    expect(p.optional('color')).toBeUndefined();
    expect(p.optional('notify')).toBeUndefined();
  });

  it('answers 400 naming a required parameter that is absent or empty', () => {
    expect(error400(() => new V1Params({}, undefined).required('room_id')).message).toBe('room_id: is required');
    expect(error400(() => new V1Params({ message: '' }, undefined).required('message')).message).toBe('message: is required');
  });

  it('accepts a parameter repeated with the same value', () => {
    const p = new V1Params({ room_id: ['5', '5'] }, undefined);
    expect(p.required('room_id')).toBe('5');
  });

  it('answers 400 for a parameter repeated with differing values', () => {
    const err = error400(() => new V1Params({ room_id: ['5', '6'] }, undefined));
    expect(err.message).toContain('room_id');
    expect(error400(() => new V1Params({}, { color: ['red', 'green'] })).message).toContain('color');
  });

  it('answers 400 for nested values', () => {
    expect(error400(() => new V1Params({}, { room_id: { a: '1' } })).message).toContain('room_id');
  });

  it('turns numbers and booleans of JSON bodies into strings', () => {
    const p = new V1Params({}, { room_id: 7, notify: true });
    expect(p.required('room_id')).toBe('7');
    expect(p.optional('notify')).toBe('true');
  });

  it('treats a JSON null as absent', () => {
    const p = new V1Params({ color: 'red' }, { color: null, topic: null });
    expect(p.optional('topic')).toBeUndefined();
    expect(p.optional('color')).toBe('red');
  });
});
