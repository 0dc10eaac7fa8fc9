import 'reflect-metadata';
import { exitOnStartupFailure } from '@app/common';
import { startGateway } from './bootstrap';
import { loadGatewayConfig } from './config';

startGateway(loadGatewayConfig()).catch((err) => exitOnStartupFailure('gateway', err));
