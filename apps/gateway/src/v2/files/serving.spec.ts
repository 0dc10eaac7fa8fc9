import sharp from 'sharp';
import { parseHeaderValue } from './multipart';
import { cacheControlFor, contentDisposition, servingHeaders, storedContentType } from './serving';

describe('servingHeaders', () => {
  it('serves a real image inline, with nosniff and a sandboxing policy', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f00' } }).png().toBuffer();
    expect(servingHeaders('shot.png', 'image/png', png)).toEqual({
      'Content-Type': 'image/png',
      'Content-Disposition': `inline; filename="shot.png"; filename*=UTF-8''shot.png`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': expect.stringContaining('sandbox'),
    });
  });

  it.each([
    ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['text/html', '<script>alert(1)</script>'],
    ['image/png', '<html><script>alert(1)</script></html>'],
    ['application/pdf', '%PDF-1.7'],
  ])('makes %s an attachment', (type, body) => {
    const headers = servingHeaders('x.bin', type, Buffer.from(body));
    expect(headers['Content-Disposition']).toBe(`attachment; filename="x.bin"; filename*=UTF-8''x.bin`);
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
  });
});

describe('contentDisposition', () => {
  /** What a browser reads back: the filename* parameter, decoded. */
  const extName = (header: string) => {
    const ext = parseHeaderValue(header).params.get('filename*') ?? '';
    expect(ext.startsWith("UTF-8''")).toBe(true);
    return decodeURIComponent(ext.slice("UTF-8''".length));
  };

  it('gives an ASCII name as is, in both parameters', () => {
    expect(contentDisposition('attachment', 'Notes Q3.txt')).toBe(`attachment; filename="Notes Q3.txt"; filename*=UTF-8''Notes%20Q3.txt`);
  });

  it.each([
    ['résumé✓.txt', 'resume_.txt', 'r%C3%A9sum%C3%A9%E2%9C%93.txt'],
    ['Отчёт 2024.pdf', '_____ 2024.pdf', '%D0%9E%D1%82%D1%87%D1%91%D1%82%202024.pdf'],
    ['会议记录.docx', '____.docx', '%E4%BC%9A%E8%AE%AE%E8%AE%B0%E5%BD%95.docx'],
    ['🎉 party.png', '_ party.png', '%F0%9F%8E%89%20party.png'],
  ])('sends %j with the ASCII stand-in %j and its UTF-8 bytes in filename*', (name, fallback, encoded) => {
    const header = contentDisposition('inline', name);
    expect(header).toBe(`inline; filename="${fallback}"; filename*=UTF-8''${encoded}`);
    expect(extName(header)).toBe(name);
  });

  it.each([
    ['a"quoted".txt', 'a_quoted_.txt'],
    ['back\\slash.txt', 'back_slash.txt'],
    ['semi;colon.txt', 'semi_colon.txt'],
    ['x.txt"; filename="evil.exe', 'x.txt__ filename=_evil.exe'],
    ['line\r\nSet-Cookie: a=b.txt', 'line__Set-Cookie_ a=b.txt'],
    ['nul\u0000tab\t.txt', 'nul_tab_.txt'],
    ['dir/sub/../name.txt', 'dir_sub_.._name.txt'],
    ['100%25.txt', '100_25.txt'],
  ])('keeps %j from breaking out of the header: filename="%s"', (name, fallback) => {
    const header = contentDisposition('attachment', name);
    // One line of visible ASCII, exactly two parameters, and the name read back whole.
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(Object.fromEntries(parseHeaderValue(header).params)).toEqual({ filename: fallback, 'filename*': expect.any(String) });
    expect(header.startsWith(`attachment; filename="${fallback}"; `)).toBe(true);
    expect(extName(header)).toBe(name);
  });

  it("percent-encodes all but RFC 8187 attr-char, ' ( ) * included", () => {
    expect(contentDisposition('attachment', "it's (a) *draft*, v1=[2].txt")).toBe(
      `attachment; filename="it's (a) _draft_, v1=[2].txt"; filename*=UTF-8''it%27s%20%28a%29%20%2Adraft%2A%2C%20v1%3D%5B2%5D.txt`,
    );
  });

  it('never sends an empty ASCII name, nor a broken UTF-8 sequence', () => {
    expect(contentDisposition('attachment', '\u0301')).toBe(`attachment; filename="file"; filename*=UTF-8''%CC%81`);
    // A lone surrogate has no UTF-8 form: it goes out as U+FFFD.
    expect(contentDisposition('attachment', 'a\uD800.txt')).toBe(`attachment; filename="a_.txt"; filename*=UTF-8''a%EF%BF%BD.txt`);
  });
});

describe('storedContentType', () => {
  it('trusts the bytes of known images over the claim, and the claim otherwise', async () => {
    const gif = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f00' } }).gif().toBuffer();
    expect(storedContentType('application/octet-stream', gif)).toBe('image/gif');
    expect(storedContentType('text/html', gif)).toBe('image/gif');
    expect(storedContentType('image/svg+xml', Buffer.from('<svg/>'))).toBe('image/svg+xml');
    expect(storedContentType(`x/${'y'.repeat(300)}`, Buffer.from('z'))).toBe('application/octet-stream');
  });
});

describe('cacheControlFor', () => {
  it('lets shared caches keep a public room\'s file a few minutes, never immutable', () => {
    expect(cacheControlFor({ privacy: 'public' })).toBe('public, max-age=300');
  });

  it('keeps a private room\'s file to the browser: checked at every use with credentials, never past a signed link\'s expiry', () => {
    expect(cacheControlFor({ privacy: 'private' })).toBe('private, no-cache');
    expect(cacheControlFor({ privacy: 'private', expiresIn: 90.5 })).toBe('private, max-age=90');
    expect(cacheControlFor({ privacy: 'private', expiresIn: 7 * 86400 })).toBe('private, max-age=3600');
  });
});
