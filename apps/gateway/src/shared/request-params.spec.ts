import { ParamProblem, RequestParams } from './request-params';

function problem(fn: () => unknown): ParamProblem {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ParamProblem);
    return err as ParamProblem;
  }
  throw new Error('expected a ParamProblem');
}

const decode = (query: unknown, body?: unknown) => RequestParams.decode(query, body);

describe('RequestParams', () => {
  it('reads parameters from the query string', () => {
    const p = decode({ room_id: '12', from: 'Bot' });
    expect(p.required('room_id')).toBe('12');
    expect(p.optional('from')).toBe('Bot');
    expect(p.optional('color')).toBeUndefined();
  });

  it('reads parameters from the body', () => {
    expect(decode({}, { message: 'hello' }).required('message')).toBe('hello');
  });

  it('merges query and body, the body winning on conflicts', () => {
    const p = decode({ auth_token: 'q', room_id: 'from-query', format: 'xml' }, { room_id: 'from-body', message: 'm' });
    expect(p.required('auth_token')).toBe('q');
    expect(p.required('room_id')).toBe('from-body');
    expect(p.required('message')).toBe('m');
    expect(p.optional('format')).toBe('xml');
  });

  it('treats an empty value as absent', () => {
    const p = decode({ color: '' }, { notify: '' });
    expect(p.optional('color')).toBeUndefined();
    expect(p.optional('notify')).toBeUndefined();
  });

  it('names a required parameter that is absent or empty', () => {
    expect(problem(() => decode({}).required('room_id'))).toMatchObject({ param: 'room_id', problem: 'is required' });
    expect(problem(() => decode({ message: '' }).required('message')).message).toBe('message: is required');
  });

  it('accepts a parameter repeated with the same value', () => {
    expect(decode({ room_id: ['5', '5'] }).required('room_id')).toBe('5');
  });

  it('refuses a parameter repeated with differing values, naming it', () => {
    expect(problem(() => decode({ room_id: ['5', '6'] }))).toMatchObject({ param: 'room_id', problem: 'must be given once' });
    expect(problem(() => decode({}, { color: ['red', 'green'] })).param).toBe('color');
  });

  it('turns numbers and booleans of JSON bodies into text', () => {
    const p = decode({}, { room_id: 7, notify: true });
    expect(p.required('room_id')).toBe('7');
    expect(p.optional('notify')).toBe('true');
  });

  it('treats a JSON null as absent', () => {
    const p = decode({ color: 'red' }, { color: null, topic: null });
    expect(p.optional('topic')).toBeUndefined();
    expect(p.optional('color')).toBe('red');
  });

  describe('JSON values that are not one value', () => {
    it('refuses objects, naming the parameter, without ever calling their toString', () => {
      const hostile = { toString: () => { throw new Error('called'); } };
      expect(problem(() => decode({}, { room_id: { a: '1' } }))).toMatchObject({ param: 'room_id', problem: 'must be a single value' });
      expect(problem(() => decode({}, { auth_token: [{ toString: 1 }] })).message).toBe('auth_token: must be a single value');
      expect(problem(() => decode({}, { auth_token: [hostile] })).param).toBe('auth_token');
      expect(problem(() => decode({}, { auth_token: hostile })).param).toBe('auth_token');
    });

    it('refuses nested arrays, however deep, without recursing', () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 20_000; i++) deep = [deep];
      expect(problem(() => decode({}, { auth_token: deep })).message).toBe('auth_token: must be a single value');
      expect(problem(() => decode({}, JSON.parse(`{"message":${'['.repeat(20_000)}${']'.repeat(20_000)}}`))).param).toBe('message');
    });

    it('ignores a body that is not an object (a JSON array) instead of reading its items as parameters', () => {
      let deep: unknown = [];
      for (let i = 0; i < 20_000; i++) deep = [deep];
      expect(decode({ auth_token: 't' }, deep).required('auth_token')).toBe('t');
      expect(decode({}, ['a', 'b']).optional('0')).toBeUndefined();
    });

    it('accepts an array of one value, and of nulls as absent', () => {
      expect(decode({}, { room_id: ['5'] }).required('room_id')).toBe('5');
      expect(decode({}, { room_id: [null] }).optional('room_id')).toBeUndefined();
      expect(decode({}, { room_id: [] }).optional('room_id')).toBeUndefined();
    });
  });

  describe('text PostgreSQL, JSON and XML cannot carry', () => {
    it('refuses NUL in any value, naming the parameter, even one no method reads', () => {
      expect(problem(() => decode({ message: 'a\u0000b' }))).toMatchObject({ param: 'message', problem: 'must not contain NUL characters' });
      expect(problem(() => decode({}, { email: 'a\u0000@b.co' })).param).toBe('email');
      expect(problem(() => decode({ whatever: '\u0000' })).param).toBe('whatever');
    });

    it('refuses unpaired surrogates, high or low, and accepts pairs', () => {
      expect(problem(() => decode({}, { topic: '\ud800' }))).toMatchObject({ param: 'topic', problem: expect.stringContaining('surrogate') });
      expect(problem(() => decode({}, { topic: 'a\udc00b' })).param).toBe('topic');
      expect(problem(() => decode({}, { message: ['\ud83d'] })).param).toBe('message');
      expect(decode({}, { message: '😀 \ud83d\ude00' }).required('message')).toBe('😀 😀');
    });

    it('checks a query value even when the body overrides it', () => {
      expect(problem(() => decode({ topic: 'a\u0000' }, { topic: 'fine' })).param).toBe('topic');
    });

    it('refuses such characters in a parameter name, showing the name escaped', () => {
      const err = problem(() => decode({}, { 'a\u0000b': 'x' }));
      expect(err.param).toBe('a\\u0000b');
      expect(err.problem).toBe('the parameter name must not contain NUL characters');
      expect(problem(() => decode({}, { '\ud800': 'x' })).param).toBe('\\ud800');
    });

    it('cuts a very long parameter name in its message', () => {
      expect(problem(() => decode({}, { ['n'.repeat(5000)]: {} })).param).toHaveLength(103);
    });
  });
});
