/**
 * The specification's tables ("Resources and their fields", "Events and item content"),
 * as data: each field, its type and whether it is required. `specProblems` compares a value
 * with a table field by field, and refuses fields the table does not have, so a test that
 * passes shows the payload is what the specification describes, no more, no less.
 */
type Kind = 'integer' | 'string' | 'boolean' | 'url' | 'iso-date' | 'object' | 'array';
type FieldType = Kind | Table | { oneOf: Array<FieldType | null> } | { arrayOf: FieldType };

export interface Field { type: FieldType; required: boolean }
export interface Table { name: string; fields: Record<string, Field> }

const req = (type: FieldType): Field => ({ type, required: true });
const opt = (type: FieldType): Field => ({ type, required: false });

export const ROOM: Table = {
  name: 'Room',
  fields: {
    id: req('integer'),
    is_archived: req('boolean'),
    links: req({ name: 'Room links', fields: { members: opt('url'), participants: req('url'), self: req('url'), webhooks: req('url') } }),
    name: req('string'),
    privacy: req('string'),
    version: req('string'),
  },
};

export const USER: Table = {
  name: 'User',
  fields: {
    id: req('integer'),
    links: req({ name: 'User links', fields: { self: req('url') } }),
    mention_name: req('string'),
    name: req('string'),
    version: req('string'),
  },
};

export const OAUTH_CLIENT: Table = {
  name: 'OAuth client',
  fields: {
    allowed_scopes: opt({ arrayOf: 'string' }),
    id: req('string'),
    links: req({ name: 'OAuth client links', fields: { self: req('url') } }),
    name: opt('string'),
    room: req({ oneOf: [ROOM, null] }),
  },
};

export const FILE: Table = {
  name: 'File',
  fields: { name: req('string'), size: req('integer'), thumb_url: opt('url'), url: req('url') },
};

export const LINK: Table = {
  name: 'Link',
  fields: {
    type: req('string'), url: req('url'), image: opt('object'), link: opt('object'), social_status: opt('object'), social_user: opt('object'), video: opt('object'),
  },
};

export const MESSAGE: Table = {
  name: 'Message',
  fields: {
    date: req('iso-date'),
    file: opt(FILE),
    from: req({ oneOf: [USER, 'string', null] }),
    id: req('string'),
    mentions: opt({ arrayOf: USER }),
    message: req('string'),
    message_links: opt({ arrayOf: LINK }),
    type: req('string'),
  },
};

export const NOTIFICATION: Table = {
  name: 'Notification message',
  fields: {
    color: opt('string'),
    date: req('iso-date'),
    from: req({ oneOf: ['string', null] }),
    id: req('string'),
    mentions: req({ arrayOf: USER }),
    message: req('string'),
    message_format: req('string'),
    type: req('string'),
  },
};

const SENDER: FieldType = { oneOf: [USER, OAUTH_CLIENT, 'string'] };

/** `item` of each of the ten events. */
export const EVENT_ITEMS: Record<string, Table> = {
  room_archived: { name: 'room_archived item', fields: { room: req(ROOM), sender: req(SENDER) } },
  room_created: { name: 'room_created item', fields: { room: req(ROOM), sender: req(SENDER) } },
  room_deleted: { name: 'room_deleted item', fields: { room: req(ROOM), sender: req(SENDER) } },
  room_unarchived: { name: 'room_unarchived item', fields: { room: req(ROOM), sender: req(SENDER) } },
  room_topic_change: { name: 'room_topic_change item', fields: { room: req(ROOM), sender: req(SENDER), topic: req('string') } },
  room_enter: { name: 'room_enter item', fields: { room: req(ROOM), sender: req(USER) } },
  room_exit: { name: 'room_exit item', fields: { room: req(ROOM), sender: req(USER) } },
  room_file_upload: { name: 'room_file_upload item', fields: { file: req(FILE), room: req(ROOM), sender: req(USER) } },
  room_message: { name: 'room_message item', fields: { message: req(MESSAGE), room: req(ROOM) } },
  room_notification: { name: 'room_notification item', fields: { message: req(NOTIFICATION), room: req(ROOM) } },
};


const isTable = (t: FieldType): t is Table => typeof t === 'object' && 'fields' in t;

function kindProblem(kind: Kind, v: unknown): string | null {
  switch (kind) {
    case 'integer': return Number.isInteger(v) ? null : `must be an integer (got ${JSON.stringify(v)})`;
    case 'string': return typeof v === 'string' ? null : `must be a string (got ${JSON.stringify(v)})`;
    case 'boolean': return typeof v === 'boolean' ? null : `must be a boolean (got ${JSON.stringify(v)})`;
    case 'url': return typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v) ? null : `must be an http(s) URL (got ${JSON.stringify(v)})`;
    case 'iso-date': return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(v) ? null : `must be an ISO-8601 date-time (got ${JSON.stringify(v)})`;
    case 'object': return typeof v === 'object' && v !== null && !Array.isArray(v) ? null : 'must be an object';
    case 'array': return Array.isArray(v) ? null : 'must be an array';
  }
}

function typeProblems(type: FieldType | null, v: unknown, path: string): string[] {
  if (type === null) return v === null ? [] : [`${path}: must be null`];
  if (typeof type === 'string') {
    const p = kindProblem(type, v);
    return p ? [`${path}: ${p}`] : [];
  }
  if (isTable(type)) return specProblems(type, v, path);
  if ('arrayOf' in type) {
    if (!Array.isArray(v)) return [`${path}: must be an array`];
    return v.flatMap((item, i) => typeProblems(type.arrayOf, item, `${path}[${i}]`));
  }
  const alternatives = type.oneOf.map((t) => typeProblems(t, v, path));
  return alternatives.some((a) => a.length === 0) ? [] : [`${path}: matches none of its types (${alternatives.map((a) => a[0]).join(' | ')})`];
}

/** Every difference between `value` and the table: missing required fields, wrong types, fields the table lacks. */
export function specProblems(table: Table, value: unknown, path = table.name): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: must be an object`];
  const v = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [name, field] of Object.entries(table.fields)) {
    if (!(name in v) || v[name] === undefined) {
      if (field.required) problems.push(`${path}.${name}: is required`);
      continue;
    }
    problems.push(...typeProblems(field.type, v[name], `${path}.${name}`));
  }
  for (const name of Object.keys(v)) if (!(name in table.fields)) problems.push(`${path}.${name}: is not in the specification's table`);
  return problems;
}
