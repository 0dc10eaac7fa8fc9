/**
 * The default (global) emoticon catalogue of the HipChat v2 API. Plain data plus lookup
 * helpers; the HTTP layer lives elsewhere.
 */

export type EmoticonType = 'global' | 'group';
export type EmoticonListType = 'all' | EmoticonType;

export interface Emoticon {
  readonly id: number;
  readonly shortcut: string;
  readonly type: 'global';
  readonly width: number;
  readonly height: number;
  /** Default emoticons have no sound; kept in the type so a detail view can say so. */
  readonly audioPath?: undefined;
}

/** Mirrors HipChat's `max-results` range for GET /v2/emoticon. */
export const EMOTICON_MAX_RESULTS_LIMIT = 1000;
export const EMOTICON_DEFAULT_MAX_RESULTS = 100;

// Order is the id order: append only, never reorder or remove, so ids stay stable.
// Entries are [shortcut, width, height]; most HipChat emoticons were 30x30, a few wider.
const ENTRIES: ReadonlyArray<readonly [string, number, number]> = [
  ['allthethings', 30, 30],
  ['awyeah', 30, 30],
  ['badass', 40, 30],
  ['boom', 30, 30],
  ['cake', 30, 30],
  ['cereal', 30, 30],
  ['challengeaccepted', 30, 30],
  ['coffee', 30, 30],
  ['content', 30, 30],
  ['cool', 30, 30],
  ['derp', 30, 30],
  ['disapproval', 30, 30],
  ['facepalm', 30, 30],
  ['fail', 30, 30],
  ['fonzie', 30, 30],
  ['forreal', 30, 30],
  ['freddie', 30, 30],
  ['gangnamstyle', 40, 30],
  ['goodnews', 30, 30],
  ['haha', 30, 30],
  ['heart', 30, 30],
  ['hipchat', 30, 30],
  ['itsatrap', 30, 30],
  ['lol', 30, 30],
  ['megusta', 30, 30],
  ['notbad', 30, 30],
  ['okay', 30, 30],
  ['omg', 30, 30],
  ['pokerface', 30, 30],
  ['rage', 30, 30],
  ['sadpanda', 30, 30],
  ['shrug', 40, 30],
  ['success', 30, 30],
  ['thumbsup', 30, 30],
  ['thumbsdown', 30, 30],
  ['troll', 30, 30],
  ['trollface', 30, 30],
  ['wat', 30, 30],
  ['yey', 30, 30],
  ['yuno', 30, 30],
  ['zoidberg', 30, 30],
  ['beer', 30, 30],
  ['pizza', 30, 30],
  ['taco', 30, 30],
  ['rocket', 30, 30],
  ['party', 30, 30],
  ['ninja', 30, 30],
  ['ghost', 30, 30],
  ['sun', 30, 30],
  ['rain', 30, 30],
  ['star', 30, 30],
  ['fire', 30, 30],
  ['check', 30, 30],
  ['x', 30, 30],
  ['question', 30, 30],
  ['idea', 30, 30],
  ['mindblown', 30, 30],
  ['tableflip', 40, 30],
  ['wave', 30, 30],
  ['clap', 30, 30],
  ['thinking', 30, 30],
  ['nyan', 40, 30],
  ['doge', 30, 30],
  ['dance', 30, 30],
  ['dealwithit', 30, 30],
  ['foreveralone', 30, 30],
  ['grumpycat', 30, 30],
  ['orly', 30, 30],
  ['philosoraptor', 30, 30],
  ['rockon', 30, 30],
  ['yodawg', 30, 30],
  ['tea', 30, 30],
  ['cookie', 30, 30],
  ['bunny', 30, 30],
  ['pumpkin', 30, 30],
  ['present', 30, 30],
];

export const EMOTICONS: ReadonlyArray<Emoticon> = Object.freeze(
  ENTRIES.map(([shortcut, width, height], i): Emoticon =>
    Object.freeze({ id: i + 1, shortcut, type: 'global' as const, width, height }),
  ),
);

const BY_ID = new Map(EMOTICONS.map((e) => [e.id, e]));
const BY_SHORTCUT = new Map(EMOTICONS.map((e) => [e.shortcut, e]));

/**
 * Looks up by id when the key is all digits, else by shortcut (case-insensitive, with or
 * without the surrounding parentheses users type in chat, e.g. "(allthethings)").
 */
export function findEmoticon(idOrShortcut: string): Emoticon | undefined {
  let key = idOrShortcut.trim();
  if (key.length >= 2 && key.startsWith('(') && key.endsWith(')')) key = key.slice(1, -1).trim();
  if (key === '') return undefined;
  if (/^\d+$/.test(key)) {
    const id = Number(key);
    return Number.isSafeInteger(id) ? BY_ID.get(id) : undefined;
  }
  return BY_SHORTCUT.get(key.toLowerCase());
}

export interface ListEmoticonsOptions {
  type?: EmoticonListType;
  startIndex?: number;
  maxResults?: number;
}

export interface EmoticonPage {
  readonly items: ReadonlyArray<Emoticon>;
  /** Count of all emoticons matching `type`, before paging. */
  readonly total: number;
}

/**
 * One page of the catalogue in id order. Defaults follow HipChat (type 'all', start 0,
 * 100 results). Invalid arguments throw RangeError so callers map them to a 400.
 */
export function listEmoticons(options: ListEmoticonsOptions = {}): EmoticonPage {
  const { type = 'all', startIndex = 0, maxResults = EMOTICON_DEFAULT_MAX_RESULTS } = options;
  if (type !== 'all' && type !== 'global' && type !== 'group') {
    throw new RangeError(`type must be one of all, global, group`);
  }
  if (!Number.isSafeInteger(startIndex) || startIndex < 0) {
    throw new RangeError('startIndex must be a non-negative integer');
  }
  if (!Number.isSafeInteger(maxResults) || maxResults < 0 || maxResults > EMOTICON_MAX_RESULTS_LIMIT) {
    throw new RangeError(`maxResults must be an integer from 0 to ${EMOTICON_MAX_RESULTS_LIMIT}`);
  }
  // The default catalogue holds only global emoticons; group ones would come from storage.
  const matching = type === 'group' ? [] : EMOTICONS;
  return { items: matching.slice(startIndex, startIndex + maxResults), total: matching.length };
}
