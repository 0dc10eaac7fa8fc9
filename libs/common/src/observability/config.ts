import { z } from 'zod';
import { env } from '../config/env-types';
import { tracingShape } from '../tracing/tracing';

/**
 * Where a service serves /metrics and /health/*: a port of its own, apart from any public
 * one. Bound to 127.0.0.1 unless METRICS_HOST says otherwise (not the gateway's HOST, which
 * is public by design): metrics name routes, queues and backlogs nobody outside should read,
 * so exposing them is a decision (docker-compose.yml makes it on its private network).
 */
export const observabilityShape = (defaultPort: number) => ({
  /** 0: any free port (logged: "metrics listening"). */
  METRICS_PORT: env.port(defaultPort),
  METRICS_HOST: z.string().default('127.0.0.1').refine((v) => /^[A-Za-z0-9.:_-]{1,253}$/.test(v), 'must be a host name or an IP address'),
  ...tracingShape,
});

/** Defaults that let `npm start` run the three services on one machine. */
export const METRICS_PORTS = { gateway: 9464, rooms: 9465, 'webhook-dispatcher': 9466 } as const;
