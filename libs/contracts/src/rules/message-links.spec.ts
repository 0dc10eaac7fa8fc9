import { extractMessageLink } from './message-links';

describe('extractMessageLink', () => {
  it('takes only the last http(s) URL of the text', () => {
    expect(extractMessageLink('see https://a.example/one and http://b.example/two')).toEqual({ type: 'link', url: 'http://b.example/two' });
    expect(extractMessageLink('no link here, nor ftp://files.example/x')).toBeNull();
    expect(extractMessageLink('')).toBeNull();
  });

  it('drops trailing punctuation that ends the sentence', () => {
    expect(extractMessageLink('Look: https://example.com/page.')?.url).toBe('https://example.com/page');
    expect(extractMessageLink('really https://example.com/?q=1!?')?.url).toBe('https://example.com/?q=1');
    expect(extractMessageLink('(see https://example.com/a),')?.url).toBe('https://example.com/a');
    expect(extractMessageLink('"https://example.com/quoted"')?.url).toBe('https://example.com/quoted');
    expect(extractMessageLink('<https://example.com/angle>')?.url).toBe('https://example.com/angle');
  });

  it('keeps balanced parentheses that belong to the URL', () => {
    expect(extractMessageLink('read https://en.wikipedia.org/wiki/Mercury_(planet).')?.url)
      .toBe('https://en.wikipedia.org/wiki/Mercury_(planet)');
    expect(extractMessageLink('(about https://en.wikipedia.org/wiki/Mercury_(planet))')?.url)
      .toBe('https://en.wikipedia.org/wiki/Mercury_(planet)');
  });

  it('skips a last candidate that is no URL once trimmed', () => {
    expect(extractMessageLink('https://example.com/ok then http://.')?.url).toBe('https://example.com/ok');
  });

  it('calls image paths images, ignoring case, query and fragment', () => {
    for (const url of [
      'https://example.com/a.png', 'https://example.com/a.JPG', 'https://example.com/a.jpeg?size=large',
      'https://example.com/a.gif#top', 'https://example.com/a.webp', 'https://example.com/a.svg', 'https://example.com/a.bmp',
    ]) {
      expect(extractMessageLink(`pic ${url}`)).toEqual({ type: 'image', url });
    }
    expect(extractMessageLink('https://example.com/a.png.html')?.type).toBe('link');
    expect(extractMessageLink('https://example.com/page?file=a.png')?.type).toBe('link');
  });

  it('calls known video hosts and video files videos', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://youtube.com/watch?v=x', 'https://youtu.be/dQw4w9WgXcQ',
      'https://vimeo.com/76979871', 'https://example.com/clip.MP4', 'https://example.com/clip.webm?t=3', 'https://example.com/clip.mov',
    ]) {
      expect(extractMessageLink(url)).toEqual({ type: 'video', url });
    }
    for (const url of ['https://www.youtube.com/channel/abc', 'https://vimeo.com/about', 'https://notyoutube.com/watch?v=x', 'https://youtu.be/']) {
      expect(extractMessageLink(url)).toEqual({ type: 'link', url });
    }
  });
});
