import { Dicer } from '@fastify/busboy';
import { firstProblem, maxLengthProblem, storableTextProblem } from '@app/contracts';

/** A share-file body the API refuses; `message` reads `<field>: <problem>`. */
export class ShareFileError extends Error {
  constructor(readonly status: 400 | 413 | 415, readonly field: string, readonly problem: string) {
    super(`${field}: ${problem}`);
    this.name = 'ShareFileError';
  }
}

export interface ShareFileLimits {
  maxFileBytes: number;
}

export interface ParsedShare {
  file: { name: string; data: Buffer; contentType: string };
  message?: string;
}

export const MESSAGE_MAX_CHARS = 1000;
export const FILE_NAME_MAX_CHARS = 255;
export const DEFAULT_FILE_NAME = 'upload';
/** The metadata part only carries `{"message": ...}`; anything this big is not that. */
const METADATA_MAX_BYTES = 64 * 1024;
const MEDIA_TYPES = ['multipart/related', 'multipart/form-data'];

/**
 * The `POST /v2/room/{id}/share/file` body: `multipart/related` (HipChat's clients, parts with
 * `Content-Disposition: attachment; name=...`) or `multipart/form-data` (browsers, curl -F).
 * Parts: `file` (required, the bytes), and `metadata` (JSON `{"message": ...}`) or `message`
 * (JSON when its part is JSON, else the message text). Other parts are ignored.
 *
 * Async because the part splitter is a stream; the body is already in memory (the route's
 * bodyLimit bounds it), so this only bounds what is kept per part.
 */
export async function parseShareFileBody(
  contentType: string | undefined,
  body: Buffer,
  limits: ShareFileLimits,
): Promise<ParsedShare> {
  const { value: mediaType, params } = parseHeaderValue(contentType ?? '');
  if (!MEDIA_TYPES.includes(mediaType)) {
    throw new ShareFileError(415, 'Content-Type', `must be multipart/related or multipart/form-data (got ${JSON.stringify(mediaType || 'none')})`);
  }
  const boundary = params.get('boundary');
  if (!boundary) throw new ShareFileError(400, 'Content-Type', `${mediaType} needs a boundary parameter`);
  // RFC 2046: 1 to 70 characters, none of them line breaks.
  if (boundary.length > 70 || /[\r\n]/.test(boundary)) throw new ShareFileError(400, 'Content-Type', 'the boundary parameter is invalid');

  const parts = await splitParts(body, boundary, limits.maxFileBytes);

  const files = parts.filter((p) => p.name === 'file');
  if (files.length === 0) throw new ShareFileError(400, 'file', 'is required');
  if (files.length > 1) throw new ShareFileError(400, 'file', 'only one file can be shared per request');
  const metas = parts.filter((p) => p.name !== 'file');
  if (metas.length > 1) throw new ShareFileError(400, 'message', 'is given more than once (send one "metadata" or "message" part)');

  const filePart = files[0];
  return {
    file: {
      name: fileNameOf(filePart),
      data: filePart.data,
      contentType: mediaTypeOf(filePart.contentType) ?? 'application/octet-stream',
    },
    ...(metas.length ? messageOf(metas[0]) : {}),
  };
}

interface RawPart {
  name: 'file' | 'metadata' | 'message';
  /** Content-Disposition parameters (`filename`, `filename*` ...). */
  disposition: Map<string, string>;
  contentType: string | undefined;
  data: Buffer;
}

/** Splits the body with Dicer (busboy's part splitter), keeping only the parts we use, each within its limit. */
function splitParts(body: Buffer, boundary: string, maxFileBytes: number): Promise<RawPart[]> {
  return new Promise((resolve, reject) => {
    const parts: RawPart[] = [];
    let failure: ShareFileError | undefined;
    const fail = (err: ShareFileError) => {
      failure ??= err;
    };
    const malformed = (err: Error) => fail(new ShareFileError(400, 'body', `is not a valid multipart body (${err.message})`));

    // maxHeaderSize is honoured by Dicer's header parser but missing from its typings.
    const dicer = new Dicer({ boundary, maxHeaderPairs: 100, maxHeaderSize: 16 * 1024 } as ConstructorParameters<typeof Dicer>[0]);
    dicer.on('part', (part) => {
      part.on('error', malformed);
      part.on('header', (header) => {
        const headers = header as Record<string, string[] | undefined>;
        const disposition = parseHeaderValue(headerText(headers['content-disposition']?.[0] ?? ''));
        const name = disposition.params.get('name');
        if (failure || (name !== 'file' && name !== 'metadata' && name !== 'message')) {
          part.resume();
          return;
        }
        const contentType = headers['content-type']?.[0];
        const encoding = (headers['content-transfer-encoding']?.[0] ?? 'binary').trim().toLowerCase();
        const field = name === 'file' ? 'file' : 'message';
        if (!['7bit', '8bit', 'binary', 'base64'].includes(encoding)) {
          fail(new ShareFileError(415, field, `Content-Transfer-Encoding ${JSON.stringify(encoding)} is not supported`));
        }
        const max = name === 'file' ? maxFileBytes : METADATA_MAX_BYTES;
        // base64 needs 4 bytes per 3, plus line breaks; the decoded size is checked exactly below.
        const rawMax = encoding === 'base64' ? Math.ceil(max / 3) * 4 * 1.1 + 1024 : max;
        const tooLarge = () =>
          name === 'file'
            ? new ShareFileError(413, 'file', `is larger than the ${formatBytes(maxFileBytes)} limit`)
            : new ShareFileError(413, 'message', `the ${name} part is larger than ${formatBytes(METADATA_MAX_BYTES)}`);
        let chunks: Buffer[] = [];
        let size = 0;
        part.on('data', (chunk: Buffer) => {
          if (failure) return;
          size += chunk.length;
          if (size > rawMax) {
            fail(tooLarge());
            chunks = [];
            return;
          }
          chunks.push(chunk);
        });
        part.on('end', () => {
          if (failure) return;
          let data = Buffer.concat(chunks);
          if (encoding === 'base64') data = Buffer.from(data.toString('latin1'), 'base64');
          if (data.length > max) return fail(tooLarge());
          parts.push({ name, disposition: disposition.params, contentType, data });
        });
      });
    });
    dicer.on('error', malformed);
    // Dicer emits 'finish' after its 'error' too, and only once every part has ended.
    dicer.on('finish', () => (failure ? reject(failure) : resolve(parts)));
    dicer.end(body);
  });
}

function messageOf(part: RawPart): { message?: string } {
  const { value: type, params } = parseHeaderValue(part.contentType ?? '');
  const text = decodeText(part.data, params.get('charset'));
  if (text === null) throw new ShareFileError(415, part.name, `charset ${JSON.stringify(params.get('charset'))} is not supported`);
  // "metadata" is JSON by definition; "message" is JSON only when its part says so.
  const isJson = part.name === 'metadata' || type === 'application/json' || type.endsWith('+json');
  let message: unknown = text;
  if (isJson) {
    let metadata: unknown;
    try {
      metadata = JSON.parse(text);
    } catch (err) {
      // Named after the part the client wrote: the metadata part is not the message.
      throw new ShareFileError(400, part.name, `the ${part.name} part is not valid JSON (${(err as Error).message})`);
    }
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      throw new ShareFileError(400, part.name, `the ${part.name} part must be a JSON object like {"message": "..."}`);
    }
    message = (metadata as Record<string, unknown>).message;
  }
  if (message === undefined || message === null || message === '') return {};
  if (typeof message !== 'string') throw new ShareFileError(400, 'message', 'must be a string');
  const problem = firstProblem(storableTextProblem(message), maxLengthProblem(message, MESSAGE_MAX_CHARS));
  if (problem) throw new ShareFileError(400, 'message', problem);
  return { message };
}

/** RFC 6266: `filename*` wins over `filename`; path and control characters dropped; never empty. */
function fileNameOf(part: RawPart): string {
  const raw = decodeExtValue(part.disposition.get('filename*')) ?? part.disposition.get('filename') ?? '';
  // Either separator: Windows clients (and old IE) send `C:\dir\name.ext`.
  const base = raw.split(/[/\\]/).pop() ?? '';
  // Control and bidi-override characters: the latter can disguise an extension ("gpj.exe").
  // eslint-disable-next-line no-control-regex
  let name = base.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (name === '.' || name === '..') name = '';
  const chars = [...name];
  if (chars.length > FILE_NAME_MAX_CHARS) {
    // Keep a short extension when cutting.
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 ? [...name.slice(dot)] : [];
    const keep = ext.length <= 16 ? ext : [];
    name = chars.slice(0, FILE_NAME_MAX_CHARS - keep.length).join('') + keep.join('');
  }
  return name || DEFAULT_FILE_NAME;
}

/** `charset'language'percent-encoded` (RFC 5987/8187), or undefined when absent or unreadable. */
function decodeExtValue(value: string | undefined): string | undefined {
  const match = value?.match(/^([^']*)'[^']*'(.*)$/);
  if (!match) return undefined;
  const bytes: number[] = [];
  const encoded = match[2];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '%' && /^[0-9a-fA-F]{2}$/.test(encoded.slice(i + 1, i + 3))) {
      bytes.push(parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(encoded.charCodeAt(i) & 0xff);
    }
  }
  return decodeText(Buffer.from(bytes), match[1] || 'utf-8') ?? undefined;
}

/** The bare media type of a part, lower case, or undefined when it is not `type/subtype`. */
function mediaTypeOf(contentType: string | undefined): string | undefined {
  const { value } = parseHeaderValue(contentType ?? '');
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(value) ? value : undefined;
}

/** Dicer hands header values over as latin1; clients send UTF-8 (browsers do for file names). */
function headerText(value: string): string {
  return decodeText(Buffer.from(value, 'latin1'), 'utf-8', true) ?? value;
}

/** Decodes in `charset` (UTF-8 by default); null for an unknown charset or, when `strict`, invalid bytes. */
function decodeText(data: Buffer, charset = 'utf-8', strict = false): string | null {
  try {
    return new TextDecoder(charset, { fatal: strict }).decode(data);
  } catch {
    return null;
  }
}

/**
 * `value; key=token; key="quoted"` (Content-Type, Content-Disposition): the value lower case,
 * parameter names lower case, first occurrence wins. In quoted strings a backslash escapes
 * only `"` and `\`, so Windows paths sent unescaped survive.
 */
export function parseHeaderValue(header: string): { value: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  const semi = header.indexOf(';');
  const value = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
  let i = semi === -1 ? header.length : semi + 1;
  while (i < header.length) {
    const eq = header.indexOf('=', i);
    const nextSemi = header.indexOf(';', i);
    if (eq === -1 || (nextSemi !== -1 && nextSemi < eq)) {
      // A parameter without a value: skip it.
      i = nextSemi === -1 ? header.length : nextSemi + 1;
      continue;
    }
    const key = header.slice(i, eq).trim().toLowerCase();
    let j = eq + 1;
    while (header[j] === ' ' || header[j] === '\t') j++;
    let val = '';
    if (header[j] === '"') {
      for (j++; j < header.length && header[j] !== '"'; j++) {
        if (header[j] === '\\' && (header[j + 1] === '"' || header[j + 1] === '\\')) j++;
        val += header[j];
      }
      const end = header.indexOf(';', j);
      i = end === -1 ? header.length : end + 1;
    } else {
      const end = header.indexOf(';', j);
      val = header.slice(j, end === -1 ? header.length : end).trim();
      i = end === -1 ? header.length : end + 1;
    }
    if (key && !params.has(key)) params.set(key, val);
  }
  return { value, params };
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
