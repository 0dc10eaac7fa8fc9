export * from './labels';
export * from './metrics';
export * from './readiness';
export * from './observability-server';
export * from './config';
export * from './observability.module';
