import sharp from 'sharp';
import { makeThumbnail, sniffImageType } from './thumbnail';

const red = { r: 255, g: 0, b: 0, alpha: 1 };
const image = (width: number, height: number, alpha = 1) =>
  sharp({ create: { width, height, channels: 4, background: { ...red, alpha } } });

describe('sniffImageType', () => {
  it('recognises png, jpeg, gif and webp by their bytes', async () => {
    expect(sniffImageType(await image(4, 4).png().toBuffer())).toBe('image/png');
    expect(sniffImageType(await image(4, 4).jpeg().toBuffer())).toBe('image/jpeg');
    expect(sniffImageType(await image(4, 4).gif().toBuffer())).toBe('image/gif');
    expect(sniffImageType(await image(4, 4).webp().toBuffer())).toBe('image/webp');
  });

  it('answers null for other bytes, short input and look-alikes', async () => {
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
    expect(sniffImageType(Buffer.from('GIF8'))).toBeNull();
    expect(sniffImageType(Buffer.from('%PDF-1.7\n'))).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(sniffImageType(await image(4, 4).tiff().toBuffer())).toBeNull();
  });
});

describe('makeThumbnail', () => {
  it('fits a wide png into 200x200, keeping the aspect ratio', async () => {
    const thumb = await makeThumbnail(await image(800, 400).png().toBuffer(), 'image/png');
    expect(thumb).toMatchObject({ contentType: 'image/png', width: 200, height: 100 });
    const meta = await sharp(thumb!.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 200, 100]);
  });

  it('fits a tall jpeg and answers jpeg', async () => {
    const thumb = await makeThumbnail(await image(300, 900).jpeg().toBuffer(), 'image/jpeg');
    expect(thumb).toMatchObject({ contentType: 'image/jpeg', width: 67, height: 200 });
    expect(sniffImageType(thumb!.data)).toBe('image/jpeg');
  });

  it('never enlarges a small image', async () => {
    const thumb = await makeThumbnail(await image(50, 50).png().toBuffer(), 'image/png');
    expect(thumb).toMatchObject({ width: 50, height: 50 });
  });

  it('keeps transparency as png and sends opaque webp as jpeg', async () => {
    expect(await makeThumbnail(await image(400, 400, 0.5).webp().toBuffer(), 'image/webp')).toMatchObject({
      contentType: 'image/png',
      width: 200,
      height: 200,
    });
    const opaque = await sharp({ create: { width: 400, height: 400, channels: 3, background: red } }).webp().toBuffer();
    expect(await makeThumbnail(opaque, 'image/webp')).toMatchObject({ contentType: 'image/jpeg', width: 200 });
    expect(await makeThumbnail(await image(400, 200).gif().toBuffer(), 'image/gif')).toMatchObject({
      contentType: 'image/png',
      width: 200,
      height: 100,
    });
  });

  it('sniffs instead of trusting the declared type', async () => {
    // An image sent as octet-stream still gets its preview.
    expect(await makeThumbnail(await image(400, 400).png().toBuffer(), 'application/octet-stream')).toMatchObject({ width: 200 });
    // Text claiming to be an image does not reach the decoder.
    expect(await makeThumbnail(Buffer.from('not an image at all'), 'image/png')).toBeNull();
  });

  it('answers null, without throwing, for garbage and truncated images', async () => {
    expect(await makeThumbnail(Buffer.from('hello world'), 'text/plain')).toBeNull();
    expect(await makeThumbnail(Buffer.alloc(0), 'image/png')).toBeNull();
    const png = await image(800, 400).png().toBuffer();
    // Right magic bytes, broken body.
    expect(await makeThumbnail(Buffer.concat([png.subarray(0, 8), Buffer.alloc(200, 7)]), 'image/png')).toBeNull();
    expect(await makeThumbnail(png.subarray(0, Math.floor(png.length / 2)), 'image/png')).toBeNull();
    const jpeg = await sharp({ create: { width: 600, height: 600, channels: 3, background: red, noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
      .jpeg()
      .toBuffer();
    expect(await makeThumbnail(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg')).toBeNull();
  });

  it('refuses formats sharp reads but we do not thumbnail (svg, tiff)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400"/></svg>');
    expect(await makeThumbnail(svg, 'image/svg+xml')).toBeNull();
    expect(await makeThumbnail(await image(400, 400).tiff().toBuffer(), 'image/tiff')).toBeNull();
  });

  it('refuses a decompression bomb from its header, before decoding', async () => {
    // 10000x5000 = 50 megapixels of one colour: a small file claiming a huge image.
    const bomb = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: red } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    expect(await makeThumbnail(bomb, 'image/png')).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    // Just under the limit is still thumbnailed.
    const big = await sharp({ create: { width: 8_000, height: 5_000, channels: 3, background: red } }).png({ compressionLevel: 9 }).toBuffer();
    expect(await makeThumbnail(big, 'image/png')).toMatchObject({ width: 200, height: 125 });
  });
});
