import { parseHeaderValue, parseShareFileBody, ShareFileError } from './multipart';

const BOUNDARY = 'boundary123456';
const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x0d, 0x0a, 0x2d, 0x2d, 0xff]);
const limits = { maxFileBytes: 1024 };

interface Part {
  headers: string[];
  body: Buffer | string;
}

/** A multipart body as it goes over the wire: CRLF line ends, headers in UTF-8 (as browsers send them). */
function multipart(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${part.headers.map((h) => `${h}\r\n`).join('')}\r\n`, 'utf8'));
    chunks.push(Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** What HipChat's clients send. */
const relatedMetadata = (json: string): Part => ({
  headers: ['Content-Type: application/json; charset=UTF-8', 'Content-Disposition: attachment; name="metadata"'],
  body: json,
});
const relatedFile = (filename = 'x.png', body: Buffer | string = PNG_BYTES): Part => ({
  headers: ['Content-Type: image/png', `Content-Disposition: attachment; name="file"; filename="${filename}"`],
  body,
});
const RELATED = `multipart/related; boundary=${BOUNDARY}`;
const FORM = `multipart/form-data; boundary=${BOUNDARY}`;

async function shareError(promise: Promise<unknown>): Promise<ShareFileError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a ShareFileError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ShareFileError);
  return err as ShareFileError;
}

describe('parseShareFileBody: multipart/related (HipChat clients)', () => {
  it('reads the file and the JSON metadata message', async () => {
    const body = multipart([relatedMetadata('{"message": "Check out this cool file"}'), relatedFile('Screen Shot.png')]);
    expect(await parseShareFileBody(RELATED, body, limits)).toEqual({
      file: { name: 'Screen Shot.png', data: PNG_BYTES, contentType: 'image/png' },
      message: 'Check out this cool file',
    });
  });

  it('reads a file without any message', async () => {
    const parsed = await parseShareFileBody(RELATED, multipart([relatedFile()]), limits);
    expect(parsed).toEqual({ file: { name: 'x.png', data: PNG_BYTES, contentType: 'image/png' } });
    expect('message' in parsed).toBe(false);
  });

  it('accepts the parts in either order, a quoted boundary and the type/start parameters', async () => {
    const body = multipart([relatedFile(), relatedMetadata('{"message":"héllo ✓"}')]);
    const parsed = await parseShareFileBody(`Multipart/Related; type="application/json"; boundary="${BOUNDARY}"; start="<meta>"`, body, limits);
    expect(parsed.message).toBe('héllo ✓');
    expect(parsed.file.data).toEqual(PNG_BYTES);
  });

  it('treats metadata without a message, or an empty one, as no message', async () => {
    expect(await parseShareFileBody(RELATED, multipart([relatedMetadata('{}'), relatedFile()]), limits)).not.toHaveProperty('message');
    expect(await parseShareFileBody(RELATED, multipart([relatedMetadata('{"message":""}'), relatedFile()]), limits)).not.toHaveProperty('message');
  });

  it('takes a JSON part named "message"', async () => {
    const part = { ...relatedMetadata('{"message":"from message"}'), headers: ['Content-Type: application/json', 'Content-Disposition: attachment; name="message"'] };
    expect((await parseShareFileBody(RELATED, multipart([part, relatedFile()]), limits)).message).toBe('from message');
  });

  it('refuses metadata that is not valid JSON, naming metadata', async () => {
    const err = await shareError(parseShareFileBody(RELATED, multipart([relatedMetadata('{"message": oops'), relatedFile()]), limits));
    expect(err).toMatchObject({ status: 400, field: 'metadata' });
    expect(err.message).toMatch(/^metadata: the metadata part is not valid JSON/);
  });

  it.each([
    ['an array', '["hi"]', 'metadata', /^metadata: the metadata part must be a JSON object/],
    ['a number message', '{"message": 5}', 'message', /must be a string/],
    ['a NUL', '{"message": "a\\u0000b"}', 'message', /NUL/],
  ])('refuses metadata with %s (naming the metadata when it is not an object, else the message in it)', async (_label, json, field, pattern) => {
    const err = await shareError(parseShareFileBody(RELATED, multipart([relatedMetadata(json), relatedFile()]), limits));
    expect(err).toMatchObject({ status: 400, field });
    expect(err.message).toMatch(pattern);
  });

  it('refuses a message longer than 1000 characters, counting characters not UTF-16 units', async () => {
    const ok = '😀'.repeat(1000);
    expect((await parseShareFileBody(RELATED, multipart([relatedMetadata(JSON.stringify({ message: ok })), relatedFile()]), limits)).message).toBe(ok);
    const err = await shareError(
      parseShareFileBody(RELATED, multipart([relatedMetadata(JSON.stringify({ message: 'x'.repeat(1001) })), relatedFile()]), limits),
    );
    expect(err).toMatchObject({ status: 400, field: 'message' });
    expect(err.message).toBe('message: must be at most 1,000 characters (got 1,001)');
  });

  it('refuses a file larger than the limit with 413, naming the limit', async () => {
    const err = await shareError(parseShareFileBody(RELATED, multipart([relatedFile('big.bin', Buffer.alloc(1025))]), limits));
    expect(err).toMatchObject({ status: 413, field: 'file', message: 'file: is larger than the 1 KiB limit' });
    // Exactly at the limit is fine.
    expect((await parseShareFileBody(RELATED, multipart([relatedFile('ok.bin', Buffer.alloc(1024))]), limits)).file.data).toHaveLength(1024);
    const mib = await shareError(parseShareFileBody(RELATED, multipart([relatedFile('big.bin', Buffer.alloc(1025))]), { maxFileBytes: 1000 }));
    expect(mib.message).toBe('file: is larger than the 1000 bytes limit');
  });

  it('refuses a body without a file part', async () => {
    const err = await shareError(parseShareFileBody(RELATED, multipart([relatedMetadata('{"message":"hi"}')]), limits));
    expect(err).toMatchObject({ status: 400, field: 'file', message: 'file: is required' });
  });

  it('refuses two files, and two message parts', async () => {
    expect(await shareError(parseShareFileBody(RELATED, multipart([relatedFile(), relatedFile()]), limits))).toMatchObject({ status: 400, field: 'file' });
    const twice = multipart([relatedMetadata('{}'), { headers: ['Content-Disposition: attachment; name="message"'], body: 'hi' }, relatedFile()]);
    expect(await shareError(parseShareFileBody(RELATED, twice, limits))).toMatchObject({ status: 400, field: 'message' });
  });

  it('ignores parts it does not know, and parts without a disposition', async () => {
    const body = multipart([{ headers: ['Content-Disposition: attachment; name="other"'], body: 'zzz' }, { headers: ['Content-ID: <x>'], body: 'yyy' }, relatedFile()]);
    expect((await parseShareFileBody(RELATED, body, limits)).file.name).toBe('x.png');
  });

  it('decodes a base64 file part', async () => {
    const part = { headers: [...relatedFile().headers, 'Content-Transfer-Encoding: base64'], body: PNG_BYTES.toString('base64') };
    expect((await parseShareFileBody(RELATED, multipart([part]), limits)).file.data).toEqual(PNG_BYTES);
    const big = { headers: part.headers, body: Buffer.alloc(1025).toString('base64') };
    expect(await shareError(parseShareFileBody(RELATED, multipart([big]), limits))).toMatchObject({ status: 413, field: 'file' });
  });
});

describe('parseShareFileBody: multipart/form-data (browsers, curl -F)', () => {
  const formFile = (filename: string, extra: string[] = ['Content-Type: image/png']): Part => ({
    headers: [`Content-Disposition: form-data; name="file"; filename="${filename}"`, ...extra],
    body: PNG_BYTES,
  });

  it('reads the file and a plain-text message field', async () => {
    const body = multipart([{ headers: ['Content-Disposition: form-data; name="message"'], body: 'hi there {not json}' }, formFile('a.png')]);
    expect(await parseShareFileBody(FORM, body, limits)).toEqual({
      file: { name: 'a.png', data: PNG_BYTES, contentType: 'image/png' },
      message: 'hi there {not json}',
    });
  });

  it('reads a metadata field holding JSON (curl -F metadata=...)', async () => {
    const body = multipart([{ headers: ['Content-Disposition: form-data; name="metadata"'], body: '{"message":"json"}' }, formFile('a.png')]);
    expect((await parseShareFileBody(FORM, body, limits)).message).toBe('json');
  });

  it('reads a file without a message, defaulting its content type', async () => {
    expect(await parseShareFileBody(FORM, multipart([formFile('data.bin', [])]), limits)).toEqual({
      file: { name: 'data.bin', data: PNG_BYTES, contentType: 'application/octet-stream' },
    });
  });

  it('refuses oversize files, a missing file and bad metadata JSON', async () => {
    const big = { ...formFile('a.png'), body: Buffer.alloc(2048) };
    expect(await shareError(parseShareFileBody(FORM, multipart([big]), limits))).toMatchObject({ status: 413, field: 'file' });
    const noFile = multipart([{ headers: ['Content-Disposition: form-data; name="message"'], body: 'hi' }]);
    expect(await shareError(parseShareFileBody(FORM, noFile, limits))).toMatchObject({ status: 400, field: 'file', message: 'file: is required' });
    const badJson = multipart([{ headers: ['Content-Disposition: form-data; name="metadata"'], body: 'hi' }, formFile('a.png')]);
    expect(await shareError(parseShareFileBody(FORM, badJson, limits))).toMatchObject({ status: 400, field: 'metadata' });
  });

  it('decodes a UTF-8 file name sent raw, as browsers do', async () => {
    const part: Part = { headers: ['Content-Disposition: form-data; name="file"; filename="naïve 文件.png"'], body: 'x' };
    expect((await parseShareFileBody(FORM, multipart([part]), limits)).file.name).toBe('naïve 文件.png');
  });
});

describe('parseShareFileBody: file names', () => {
  const nameOf = async (disposition: string) =>
    (await parseShareFileBody(RELATED, multipart([{ headers: [`Content-Disposition: ${disposition}`], body: 'x' }]), limits)).file.name;

  it.each([
    ['attachment; name="file"; filename="../../etc/passwd"', 'passwd'],
    ['attachment; name="file"; filename="C:\\Users\\me\\Desktop\\shot.png"', 'shot.png'],
    ['attachment; name="file"; filename="/tmp/a b.txt"', 'a b.txt'],
    ['attachment; name="file"; filename="a\\"quoted\\".txt"', 'a"quoted".txt'],
    ['attachment; name="file"; filename=plain.txt', 'plain.txt'],
    ["attachment; name=\"file\"; filename*=UTF-8''na%C3%AFve%20%E2%9C%93.txt", 'naïve ✓.txt'],
    ["attachment; name=\"file\"; filename=\"fallback.txt\"; filename*=utf-8''pr%C3%A9f%C3%A9r%C3%A9.txt", 'préféré.txt'],
    ["attachment; name=\"file\"; filename*=iso-8859-1'en'%A3rates.txt", '£rates.txt'],
    ["attachment; name=\"file\"; filename*=UTF-8''..%2F..%2Fsecret", 'secret'],
    ['attachment; name="file"; filename="evil\u0007\u001b[31m.txt"', 'evil[31m.txt'],
    ['attachment; name="file"; filename="photo\u202Egnp.exe"', 'photognp.exe'],
    ['attachment; name="file"; filename=".."', 'upload'],
    ['attachment; name="file"; filename="dir/"', 'upload'],
    ['attachment; name="file"; filename=""', 'upload'],
    ['attachment; name="file"', 'upload'],
  ])('%s -> %j', async (disposition, expected) => {
    expect(await nameOf(disposition)).toBe(expected);
  });

  it('cuts names to 255 characters, keeping the extension', async () => {
    const name = await nameOf(`attachment; name="file"; filename="${'é'.repeat(300)}.png"`);
    expect([...name]).toHaveLength(255);
    expect(name.endsWith('é.png')).toBe(true);
  });
});

describe('parseShareFileBody: the request itself', () => {
  const body = multipart([relatedFile()]);

  it.each([['application/json'], ['text/plain; boundary=x'], [''], ['multipart/mixed; boundary=x']])('refuses Content-Type %j with 415', async (type) => {
    const err = await shareError(parseShareFileBody(type, body, limits));
    expect(err).toMatchObject({ status: 415, field: 'Content-Type' });
    expect(err.message).toMatch(/must be multipart\/related or multipart\/form-data/);
  });

  it('refuses a missing Content-Type with 415', async () => {
    expect(await shareError(parseShareFileBody(undefined, body, limits))).toMatchObject({ status: 415 });
  });

  it.each([['multipart/related'], ['multipart/form-data; charset=utf-8'], ['multipart/related; boundary=""'], [`multipart/related; boundary=${'b'.repeat(71)}`]])(
    'refuses %j without a usable boundary',
    async (type) => {
      const err = await shareError(parseShareFileBody(type, body, limits));
      expect(err).toMatchObject({ status: 400, field: 'Content-Type' });
      expect(err.message).toMatch(/boundary/);
    },
  );

  it.each([
    ['a body with another boundary', multipart([relatedFile()], 'other')],
    ['a truncated body', body.subarray(0, body.length - 30)],
    ['an empty body', Buffer.alloc(0)],
  ])('refuses %s', async (_label, bad) => {
    const err = await shareError(parseShareFileBody(RELATED, bad, limits));
    expect(err.status).toBe(400);
    expect(['body', 'file']).toContain(err.field);
  });

  it('settles (never hangs) on arbitrary slices of a valid body', async () => {
    const full = multipart([relatedMetadata('{"message":"hi"}'), relatedFile()]);
    for (let end = 0; end <= full.length; end += 7) {
      await parseShareFileBody(RELATED, full.subarray(0, end), limits).catch((e: unknown) => {
        expect(e).toBeInstanceOf(ShareFileError);
      });
    }
  });
});

describe('parseHeaderValue', () => {
  it('reads the value and parameters, quoted or not', () => {
    const { value, params } = parseHeaderValue('Attachment; NAME="file"; filename="a;b=c.txt"; size=12; flag');
    expect(value).toBe('attachment');
    expect(Object.fromEntries(params)).toEqual({ name: 'file', filename: 'a;b=c.txt', size: '12' });
  });
});
