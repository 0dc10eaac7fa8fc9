import 'reflect-metadata';
import { exitOnStartupFailure, logUnhandledRejections } from '@app/common';
import { startGateway } from './bootstrap';
import { loadGatewayConfig } from './config';

logUnhandledRejections('gateway');

startGateway(loadGatewayConfig()).catch((err) => exitOnStartupFailure('gateway', err));
