import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, userRefSchema } from '../refs';

/** A one-to-one message as the rooms service answers it; `from` is always a user. */
export interface PrivateMessageView {
  id: string;
  date: string;
  from: { id: number; name: string; mentionName: string; version: string };
  message: string;
  messageFormat: 'html' | 'text';
}

/** The newest messages between the acting user and another user, oldest first. */
export const GetPrivateHistoryV1 = defineCommand<{ messages: PrivateMessageView[] }>('users.get-private-history.v1', z.object({
  actor: actorSchema,
  user: userRefSchema,
  limit: z.number().int().min(0).max(1000),
}), { query: true });
