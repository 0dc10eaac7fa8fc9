import sharp from 'sharp';
import { servingHeaders, storedContentType } from './serving';

describe('servingHeaders', () => {
  it('serves a real image inline, with nosniff and a sandboxing policy', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f00' } }).png().toBuffer();
    expect(servingHeaders('ab/abc/shot.png', 'image/png', png)).toEqual({
      'Content-Type': 'image/png',
      'Content-Disposition': 'inline; filename="shot.png"',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': expect.stringContaining('sandbox'),
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
  });

  it.each([
    ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['text/html', '<script>alert(1)</script>'],
    ['image/png', '<html><script>alert(1)</script></html>'],
    ['application/pdf', '%PDF-1.7'],
  ])('makes %s an attachment', (type, body) => {
    const headers = servingHeaders('ab/abc/x.bin', type, Buffer.from(body));
    expect(headers['Content-Disposition']).toBe('attachment; filename="x.bin"');
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
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
