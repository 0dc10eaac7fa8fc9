import { z } from 'zod';
import { field } from '../../rules/fields';

/** The fields of a user that a create sets and an update may change. */
export const userFields = {
  email: field.email,
  name: field.displayName,
  mentionName: field.mentionName.optional(),
  title: field.title.optional(),
  isGroupAdmin: field.flag.optional(),
  /** Generated (and answered once) when absent. */
  password: field.password.optional(),
  timezone: field.timezone.optional(),
};

export const userFieldsSchema = z.object(userFields);
