import { z } from 'zod';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

export const SetTopicV1 = defineCommand<Record<string, never>>('rooms.set-topic.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  topic: field.topic,
  /** v1's `from` (default `API`); v2 has none: the actor's user, else its label, is the sender. */
  from: field.topicFrom.optional(),
}));
