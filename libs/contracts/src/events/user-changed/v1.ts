import { UserObject } from '../../models';
import { defineEvent } from '../envelope';

/** A user was created, updated, deleted or undeleted. */
export interface UserChangedV1Payload { user: UserObject }
export const UserCreatedV1 = defineEvent<UserChangedV1Payload>('user.created', 1);
export const UserUpdatedV1 = defineEvent<UserChangedV1Payload>('user.updated', 1);
export const UserDeletedV1 = defineEvent<UserChangedV1Payload>('user.deleted', 1);
export const UserUndeletedV1 = defineEvent<UserChangedV1Payload>('user.undeleted', 1);
