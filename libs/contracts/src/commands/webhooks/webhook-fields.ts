import { z } from 'zod';
import { WEBHOOK_EVENT_NAMES } from '../../models/webhook-event-names';
import { WEBHOOK_AUTHENTICATIONS, WEBHOOK_DELIVERY_MODES } from '../../models/webhook-registration';
import { absoluteHttpUrlProblem } from '../../rules/http-url';
import { charLength, controlProblem, firstProblem, maxLengthProblem, oneOf, text } from '../../rules/text';
import { webhookPatternProblem } from '../../rules/webhook-pattern';

/** The rules of a webhook's fields, written once (the v2 edge and the rooms service both parse with them). */
export const webhookField = {
  /** http(s), as registered (its query string kept: add-on frameworks put their own token there). */
  url: text((v) => absoluteHttpUrlProblem(v) ?? maxLengthProblem(v, 2000)),
  event: oneOf(WEBHOOK_EVENT_NAMES as unknown as [string, ...string[]]),
  pattern: text((v) => webhookPatternProblem(v)),
  name: text((v) => firstProblem(maxLengthProblem(v, 100), controlProblem(v))),
  authentication: oneOf(WEBHOOK_AUTHENTICATIONS as unknown as ['jwt', 'none']),
  delivery: oneOf(WEBHOOK_DELIVERY_MODES as unknown as ['concurrent', 'ordered']),
  key: text((v) => firstProblem(
    charLength(v) < 1 || charLength(v) > 40 ? `must be 1 to 40 characters (got ${charLength(v)})` : null,
    controlProblem(v),
  )),
};

/** The webhook a request describes (pattern only for room_message: checked by the rooms service with the event). */
export const webhookSpecSchema = z.object({
  url: webhookField.url,
  event: webhookField.event,
  pattern: webhookField.pattern.optional(),
  name: webhookField.name.optional(),
  authentication: webhookField.authentication.optional(),
  delivery: webhookField.delivery.optional(),
});
export type WebhookSpec = z.output<typeof webhookSpecSchema>;
