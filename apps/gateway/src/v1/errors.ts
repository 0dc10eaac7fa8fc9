/** Status texts the v1 error body carries as `type`. */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An error answered with the v1 error body `{error: {code, type, message}}`. */
export class V1Error extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
    this.name = 'V1Error';
  }

  get type(): string {
    return STATUS_TEXT[this.status] ?? 'Error';
  }

  body(): { error: { code: number; type: string; message: string } } {
    return { error: { code: this.status, type: this.type, message: this.message } };
  }
}

export const badRequest = (message: string) => new V1Error(400, message);
