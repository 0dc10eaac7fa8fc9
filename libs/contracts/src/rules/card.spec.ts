import { Card, cardSchema } from './card';

const minimal = { style: 'link', id: 'c-1', title: 'Build 42' };

const issueOf = (value: unknown) => {
  const result = cardSchema.safeParse(value);
  return result.success ? null : { path: result.error.issues[0].path.join('.'), message: result.error.issues[0].message };
};

describe('cardSchema', () => {
  it('accepts a minimal card and a full one', () => {
    expect(cardSchema.parse(minimal)).toEqual(minimal);
    const full = {
      style: 'application',
      format: 'medium',
      id: 'db1dd1d4-5a8a-4b6a-b0b1-9c0b0a0b0c0d',
      title: 'Build 42 passed',
      url: 'https://ci.example.com/builds/42',
      description: { value: '<b>All</b> green', format: 'html' },
      thumbnail: { url: 'https://ci.example.com/t.png', 'url@2x': 'https://ci.example.com/t@2x.png', width: 64, height: 0 },
      activity: { html: '<b>Ada</b> pushed', icon: { url: 'https://ci.example.com/a.png', 'url@2x': 'https://ci.example.com/a2.png' } },
      icon: { url: 'https://ci.example.com/i.png' },
      attributes: [
        { label: 'State', value: { label: 'passed', style: 'lozenge-success', url: 'http://ci.example.com/s' } },
        { value: { label: 'no label', icon: { url: 'https://ci.example.com/x.png' } } },
      ],
    };
    const parsed: Card = cardSchema.parse(full);
    expect(parsed).toEqual(full);
  });

  it('strips unknown keys at every level instead of refusing them', () => {
    const parsed = cardSchema.parse({
      ...minimal, future: 1, activity: { html: 'x', extra: true }, attributes: [{ value: { label: 'a', colour: 'red' }, more: 2 }],
    });
    expect(parsed).toEqual({ ...minimal, activity: { html: 'x' }, attributes: [{ value: { label: 'a' } }] });
  });

  it('normalizes a URL icon to {url} and url2x to url@2x', () => {
    const parsed = cardSchema.parse({
      ...minimal,
      icon: 'https://e.example/i.png',
      activity: { html: 'x', icon: 'https://e.example/a.png' },
      attributes: [{ value: { label: 'a', icon: 'https://e.example/v.png' } }],
      thumbnail: { url: 'https://e.example/t.png', url2x: 'https://e.example/t2.png' },
    });
    expect(parsed.icon).toEqual({ url: 'https://e.example/i.png' });
    expect(parsed.activity?.icon).toEqual({ url: 'https://e.example/a.png' });
    expect(parsed.attributes?.[0].value.icon).toEqual({ url: 'https://e.example/v.png' });
    expect(parsed.thumbnail).toEqual({ url: 'https://e.example/t.png', 'url@2x': 'https://e.example/t2.png' });
    expect(cardSchema.parse({ ...minimal, thumbnail: { url: 'https://e/t', 'url@2x': 'https://e/a', url2x: 'https://e/b' } }).thumbnail)
      .toEqual({ url: 'https://e/t', 'url@2x': 'https://e/a' });
    expect(cardSchema.parse({ ...minimal, thumbnail: { url: 'https://e/t' } }).thumbnail).toEqual({ url: 'https://e/t' });
  });

  it('accepts a description as text or as {value, format}', () => {
    expect(cardSchema.parse({ ...minimal, description: 'plain' }).description).toBe('plain');
    expect(issueOf({ ...minimal, description: 'd'.repeat(1001) })).toEqual({ path: 'description', message: 'must be at most 1,000 characters (got 1,001)' });
    expect(issueOf({ ...minimal, description: { value: 'x', format: 'markdown' } }))
      .toEqual({ path: 'description.format', message: 'must be one of html, text (got "markdown")' });
    expect(issueOf({ ...minimal, description: { value: '', format: 'text' } })).toEqual({ path: 'description.value', message: 'must not be empty' });
    expect(issueOf({ ...minimal, description: { format: 'text' } })).toEqual({ path: 'description.value', message: 'is required' });
    expect(issueOf({ ...minimal, description: 5 })).toEqual({ path: 'description', message: 'must be text or an object {value, format}' });
  });

  it('words each wrong value with its rule and names the field', () => {
    expect(issueOf({ ...minimal, style: 'poster' }))
      .toEqual({ path: 'style', message: 'must be one of file, image, application, link, media (got "poster")' });
    expect(issueOf({ ...minimal, format: 'large' })).toEqual({ path: 'format', message: 'must be one of compact, medium (got "large")' });
    expect(issueOf({ id: 'x', title: 't' })).toEqual({ path: 'style', message: 'is required' });
    expect(issueOf({ ...minimal, id: '' })).toEqual({ path: 'id', message: 'must not be empty' });
    expect(issueOf({ ...minimal, id: 'i'.repeat(37) })).toEqual({ path: 'id', message: 'must be at most 36 characters (got 37)' });
    expect(issueOf({ ...minimal, title: 't'.repeat(501) })).toEqual({ path: 'title', message: 'must be at most 500 characters (got 501)' });
    expect(issueOf({ ...minimal, title: 7 })).toEqual({ path: 'title', message: 'must be text' });
    expect(issueOf({ ...minimal, url: 'ftp://files.example/x' })).toEqual({ path: 'url', message: 'must be an http(s) URL' });
    expect(issueOf({ ...minimal, url: 'https://e.example/' + 'a'.repeat(2000) })).toEqual({ path: 'url', message: expect.stringMatching(/at most 2,000/) });
    expect(issueOf({ ...minimal, thumbnail: { url: 'javascript:alert(1)' } })).toEqual({ path: 'thumbnail.url', message: 'must be an http(s) URL' });
    expect(issueOf({ ...minimal, thumbnail: {} })).toEqual({ path: 'thumbnail.url', message: 'is required' });
    expect(issueOf({ ...minimal, thumbnail: { url: 'https://e/t', url2x: 'nope' } })).toEqual({ path: 'thumbnail.url2x', message: 'must be an http(s) URL' });
    expect(issueOf({ ...minimal, thumbnail: { url: 'https://e/t', width: -1 } })).toEqual({ path: 'thumbnail.width', message: 'must be a non-negative integer' });
    expect(issueOf({ ...minimal, thumbnail: { url: 'https://e/t', height: 1.5 } })).toEqual({ path: 'thumbnail.height', message: 'must be a non-negative integer' });
    expect(issueOf({ ...minimal, thumbnail: 'https://e/t' })).toEqual({ path: 'thumbnail', message: 'must be an object' });
    expect(issueOf({ ...minimal, activity: {} })).toEqual({ path: 'activity.html', message: 'is required' });
    expect(issueOf({ ...minimal, activity: { html: 'x', icon: { url: 'nope' } } })).toEqual({ path: 'activity.icon.url', message: 'must be an http(s) URL' });
    expect(issueOf({ ...minimal, icon: 'not a url' })).toEqual({ path: 'icon', message: 'must be an http(s) URL' });
    expect(issueOf({ ...minimal, icon: 3 })).toEqual({ path: 'icon', message: 'must be an http(s) URL or an object {url, url@2x}' });
    expect(issueOf('card')).toEqual({ path: '', message: 'must be an object' });
    expect(issueOf({ ...minimal, title: 'a\u0000b' })).toEqual({ path: 'title', message: 'must not contain NUL characters' });
  });

  it('checks attributes: at most 10, each with a value label, a known style and a short label', () => {
    const attr = { value: { label: 'v' } };
    expect(cardSchema.safeParse({ ...minimal, attributes: Array(10).fill(attr) }).success).toBe(true);
    expect(issueOf({ ...minimal, attributes: Array(11).fill(attr) })).toEqual({ path: 'attributes', message: 'must have at most 10 items' });
    expect(issueOf({ ...minimal, attributes: attr })).toEqual({ path: 'attributes', message: 'must be a list' });
    expect(issueOf({ ...minimal, attributes: [attr, { label: 'x' }] })).toEqual({ path: 'attributes.1.value', message: 'is required' });
    expect(issueOf({ ...minimal, attributes: [{ value: { label: '' } }] })).toEqual({ path: 'attributes.0.value.label', message: 'must not be empty' });
    expect(issueOf({ ...minimal, attributes: [{ label: 'l'.repeat(51), value: { label: 'v' } }] }))
      .toEqual({ path: 'attributes.0.label', message: 'must be at most 50 characters (got 51)' });
    expect(issueOf({ ...minimal, attributes: [{ value: { label: 'v', style: 'lozenge-blue' } }] })).toEqual({
      path: 'attributes.0.value.style',
      message: 'must be one of lozenge-success, lozenge-error, lozenge-current, lozenge-complete, lozenge-moved, lozenge (got "lozenge-blue")',
    });
    expect(issueOf({ ...minimal, attributes: [{ value: { label: 'v', url: 'www.example.com' } }] }))
      .toEqual({ path: 'attributes.0.value.url', message: 'must be an http(s) URL' });
  });

  it('requires url on a file card and thumbnail on an image card, naming the style', () => {
    expect(issueOf({ ...minimal, style: 'file' })).toEqual({ path: 'url', message: 'is required when style is file' });
    expect(cardSchema.safeParse({ ...minimal, style: 'file', url: 'https://e.example/f.pdf' }).success).toBe(true);
    expect(issueOf({ ...minimal, style: 'image' })).toEqual({ path: 'thumbnail', message: 'is required when style is image' });
    expect(cardSchema.safeParse({ ...minimal, style: 'image', thumbnail: { url: 'https://e.example/t.png' } }).success).toBe(true);
    expect(cardSchema.safeParse({ ...minimal, style: 'application' }).success).toBe(true);
  });
});
