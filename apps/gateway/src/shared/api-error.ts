/** Status texts the error body carries as `type` (v1 and v2 share the body). */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An error answered with the HipChat error body `{error: {code, type, message}}`. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
  }

  get type(): string {
    return STATUS_TEXT[this.status] ?? 'Error';
  }

  body(): { error: { code: number; type: string; message: string } } {
    return { error: { code: this.status, type: this.type, message: this.message } };
  }
}
