import { ApiError } from '../shared/api-error';

export { STATUS_TEXT } from '../shared/api-error';

/** v1 answers errors with the body both APIs share. */
export { ApiError as V1Error };

export const badRequest = (message: string) => new ApiError(400, message);
