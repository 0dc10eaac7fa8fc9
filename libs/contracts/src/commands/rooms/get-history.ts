import { z } from 'zod';
import { HistoryMessageView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { roomRefSchema } from '../refs';

export const GetHistoryV1 = defineCommand<{ messages: HistoryMessageView[] }>('rooms.get-history.v1', z.object({
  room: roomRefSchema,
  /** `recent` or a calendar date YYYY-MM-DD in `timezone`. */
  date: field.historyDate,
  timezone: field.timezone,
}));
