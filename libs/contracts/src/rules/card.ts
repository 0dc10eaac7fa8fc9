import { z } from 'zod';
import { controlProblem, firstProblem, maxLengthProblem, oneOf, text } from './text';

/** The `card` of a v2 room notification, as the HipChat v2 reference describes it. */

export const CARD_STYLES = ['file', 'image', 'application', 'link', 'media'] as const;
export const CARD_FORMATS = ['compact', 'medium'] as const;
export const CARD_ATTRIBUTE_STYLES = [
  'lozenge-success', 'lozenge-error', 'lozenge-current', 'lozenge-complete', 'lozenge-moved', 'lozenge',
] as const;
const URL_MAX_LENGTH = 2000;
const ATTRIBUTES_MAX = 10;

/** Zod's own wording for a missing key is "Required"; ours matches the other rules. */
function required<T extends z.ZodTypeAny>(schema: T) {
  return z.unknown().superRefine((value, ctx) => {
    if (value === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is required', fatal: true });
  }).pipe(schema);
}

const object = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { invalid_type_error: 'must be an object' });

const nonEmpty = (v: string): string | null => (v === '' ? 'must not be empty' : null);

export function httpUrlProblem(value: string): string | null {
  const tooLong = maxLengthProblem(value, URL_MAX_LENGTH);
  if (tooLong) return tooLong;
  if (!/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value)) return 'must be an http(s) URL';
  try {
    new URL(value);
    return null;
  } catch {
    return 'must be an http(s) URL';
  }
}

const httpUrl = text(httpUrlProblem);

/**
 * A field given either as text or as an object. A zod union would word a wrong value as
 * "Invalid input"; choosing by type keeps the rule's own message and path.
 */
function textOrObject<S extends z.ZodTypeAny, O extends z.ZodTypeAny>(
  asText: S, asObject: O, message: string,
): z.ZodType<z.output<S> | z.output<O>, z.ZodTypeDef, unknown> {
  return z.unknown().transform((value, ctx) => {
    const schema = typeof value === 'string' ? asText
      : value !== null && typeof value === 'object' && !Array.isArray(value) ? asObject : null;
    if (!schema) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    }
    const result = schema.safeParse(value);
    if (result.success) return result.data as z.output<S> | z.output<O>;
    for (const issue of result.error.issues) ctx.addIssue({ code: z.ZodIssueCode.custom, path: issue.path, message: issue.message });
    return z.NEVER;
  });
}

const iconObject = object({ url: required(httpUrl), 'url@2x': httpUrl.optional() });
const icon = textOrObject(httpUrl.transform((url) => ({ url })), iconObject, 'must be an http(s) URL or an object {url, url@2x}');

const dimension = z.number({ invalid_type_error: 'must be a non-negative integer' })
  .int('must be a non-negative integer').nonnegative('must be a non-negative integer');

const thumbnail = object({
  url: required(httpUrl),
  'url@2x': httpUrl.optional(),
  url2x: httpUrl.optional(),
  width: dimension.optional(),
  height: dimension.optional(),
}).transform(({ url2x, ...rest }) => {
  // Some clients send `url2x`; the card is stored and served with HipChat's `url@2x`.
  const retina = rest['url@2x'] ?? url2x;
  return retina === undefined ? rest : { ...rest, 'url@2x': retina };
});

const description = textOrObject(
  text((v) => maxLengthProblem(v, 1000)),
  object({
    value: required(text((v) => firstProblem(nonEmpty(v), maxLengthProblem(v, 1000)))),
    format: required(oneOf(['html', 'text'] as const)),
  }),
  'must be text or an object {value, format}',
);

const attribute = object({
  label: text((v) => firstProblem(maxLengthProblem(v, 50), controlProblem(v))).optional(),
  value: required(object({
    label: required(text((v) => firstProblem(nonEmpty(v), maxLengthProblem(v, 1000), controlProblem(v)))),
    url: httpUrl.optional(),
    style: oneOf(CARD_ATTRIBUTE_STYLES).optional(),
    icon: icon.optional(),
  })),
});

/** Unknown keys are stripped, never refused: clients send fields of later HipChat versions. */
export const cardSchema = object({
  style: required(oneOf(CARD_STYLES)),
  format: oneOf(CARD_FORMATS).optional(),
  id: required(text((v) => firstProblem(nonEmpty(v), maxLengthProblem(v, 36), controlProblem(v)))),
  title: required(text((v) => firstProblem(nonEmpty(v), maxLengthProblem(v, 500), controlProblem(v)))),
  url: httpUrl.optional(),
  description: description.optional(),
  thumbnail: thumbnail.optional(),
  activity: object({
    html: required(text((v) => firstProblem(nonEmpty(v), maxLengthProblem(v, 1000)))),
    icon: icon.optional(),
  }).optional(),
  icon: icon.optional(),
  attributes: z.array(attribute, { invalid_type_error: 'must be a list' })
    .max(ATTRIBUTES_MAX, `must have at most ${ATTRIBUTES_MAX} items`).optional(),
}).superRefine((card, ctx) => {
  // Rules of the reference that tie one field to the card's style.
  if (card.style === 'file' && card.url === undefined) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['url'], message: 'is required when style is file' });
  }
  if (card.style === 'image' && card.thumbnail === undefined) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['thumbnail'], message: 'is required when style is image' });
  }
});

export type Card = z.output<typeof cardSchema>;
