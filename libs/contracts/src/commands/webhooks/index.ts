export * from './webhook-fields';
export * from './create-webhook';
export * from './put-webhook';
export * from './find-webhooks';
export * from './webhook-health';
