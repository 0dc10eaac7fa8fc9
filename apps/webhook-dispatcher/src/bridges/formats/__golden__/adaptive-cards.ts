import type { PlatformPost } from '../types';
// Microsoft's Adaptive Cards library (the renderer Teams' web client is built on) checks
// every card. Its `lib/` is ESM with extensionless imports that Node cannot resolve; the
// published UMD bundle is the same code and loads in Node without a DOM for parsing.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const AC = require('adaptivecards/dist/adaptivecards.js') as typeof import('adaptivecards');

export type Card = { version: string; body: Array<{ type: string; style?: string; items: Array<Record<string, unknown>> }> };
export const cardOf = (post: PlatformPost): Card => {
  const [attachment] = (post.body as { attachments: Array<{ contentType: string; content: Card }> }).attachments;
  expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
  return attachment.content;
};

/** What the library reports while parsing a card and validating its properties: nothing, for a good card. */
export function cardProblems(card: Card): string[] {
  const parsed = new AC.AdaptiveCard();
  const context = new AC.SerializationContext();
  // Parsing for the card's own version: an element or property newer than it is reported.
  const version = AC.Version.parse(card.version, context);
  if (!version) throw new Error(`card version ${card.version} does not parse`);
  context.targetVersion = version;
  parsed.parse(card, context);
  const problems: string[] = [];
  for (let n = 0; n < context.eventCount; n++) problems.push(context.getEventAt(n).message);
  for (const event of parsed.validateProperties().validationEvents) problems.push(event.message);
  return problems;
}

