import { useEffect, useState } from 'preact/hooks';
import { allItems } from '../api';
import type { Emoticons } from '../messages';

let catalogue: Promise<Emoticons> | null = null;

/**
 * The emoticon catalogue (GET /v2/emoticon), read once per page load and shared by every chat.
 * The images are served by this gateway: shown by their path, so the console's same-origin
 * rule holds whatever public address the catalogue's URLs name. Without it (a failure), the
 * shortcuts stay text.
 */
function load(): Promise<Emoticons> {
  catalogue ??= allItems<{ shortcut: string; url: string }>('/v2/emoticon?max-results=1000', 5000).then(
    (items) => new Map(items.flatMap((e) => {
      try {
        const path = new URL(e.url, location.href).pathname;
        return path.startsWith('/emoticons/') ? [[e.shortcut.toLowerCase(), path] as [string, string]] : [];
      } catch {
        return [];
      }
    })),
    () => {
      catalogue = null;
      return new Map();
    },
  );
  return catalogue;
}

export function useEmoticons(): Emoticons {
  const [emoticons, setEmoticons] = useState<Emoticons>(new Map());
  useEffect(() => {
    let live = true;
    void load().then((e) => live && setEmoticons(e));
    return () => {
      live = false;
    };
  }, []);
  return emoticons;
}
