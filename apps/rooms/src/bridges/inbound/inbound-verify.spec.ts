import { createHmac } from 'node:crypto';
import { inboundVerificationProblem, teamsHmacMatches, tokenMatches } from './inbound-verify';

// Teams' security token is base64: this one decodes to 32 fixed bytes.
const SECRET = Buffer.from('0123456789abcdef0123456789abcdef', 'utf8').toString('base64');
const BODY = Buffer.from('{"type":"message","text":"<at>HipChat</at> hello","from":{"id":"29:1","name":"Grace Hopper"}}', 'utf8');
// Computed here as Teams documents it, independently of the code under test.
const SIGNATURE = createHmac('sha256', Buffer.from(SECRET, 'base64')).update(BODY).digest('base64');

describe('tokenMatches', () => {
  it.each([
    ['the same token', 's3cret-token', true],
    ['another token of the same length', 's3cret-tokex', false],
    ['a prefix', 's3cret', false],
    ['an empty string', '', false],
    ['no token', undefined, false],
    ['a number', 123, false],
  ])('%s: %s', (_case, given, expected) => {
    expect(tokenMatches('s3cret-token', given)).toBe(expected);
  });
});

describe('teamsHmacMatches', () => {
  it.each([
    ['the signature of the body', `HMAC ${SIGNATURE}`, BODY, true],
    ['with extra white space', `  HMAC   ${SIGNATURE} `, BODY, true],
    ['the body changed by one byte', `HMAC ${SIGNATURE}`, Buffer.from(BODY.toString().replace('hello', 'hellO')), false],
    ['another scheme', `Bearer ${SIGNATURE}`, BODY, false],
    ['no header', undefined, BODY, false],
    ['not base64', 'HMAC !!!', BODY, false],
    ['a truncated signature', `HMAC ${SIGNATURE.slice(0, 20)}`, BODY, false],
  ])('%s', (_case, header, body, expected) => {
    expect(teamsHmacMatches(SECRET, body, header)).toBe(expected);
  });

  it('is computed over the bytes, not the parsed JSON (the same JSON spaced otherwise does not match)', () => {
    const respaced = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 1));
    expect(teamsHmacMatches(SECRET, respaced, `HMAC ${SIGNATURE}`)).toBe(false);
  });
});

describe('inboundVerificationProblem', () => {
  const none = { token: null, hmacSecret: null };
  const token = { token: 'tok', hmacSecret: null };
  const hmac = { token: null, hmacSecret: SECRET };
  it.each([
    ['no verification: the key alone', none, {}, undefined, null],
    ['token set, right token', token, { token: 'tok' }, undefined, null],
    ['token set, no token', token, { text: 'hi' }, undefined, /had none/],
    ['token set, empty token', token, { token: '' }, undefined, /had none/],
    ['token set, wrong token', token, { token: 'tik' }, undefined, /not the bridge's inbound token/],
    ['token set, unreadable body', token, null, undefined, /had none/],
    ['hmac set, right signature', hmac, {}, `HMAC ${SIGNATURE}`, null],
    ['hmac set, no header', hmac, {}, undefined, /had none/],
    ['hmac set, wrong signature', hmac, {}, `HMAC ${Buffer.alloc(32).toString('base64')}`, /does not match/],
  ])('%s', (_case, v, fields, header, expected) => {
    const problem = inboundVerificationProblem(v, fields, BODY, header);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it('never words the secret into the problem', () => {
    expect(inboundVerificationProblem({ token: 'tok-SECRET', hmacSecret: null }, { token: 'x' }, BODY, undefined)).not.toContain('SECRET');
  });
});
