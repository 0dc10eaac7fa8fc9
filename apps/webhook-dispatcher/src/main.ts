import 'reflect-metadata';
import { exitOnStartupFailure, logUnhandledRejections } from '@app/common';
import { startDispatcher } from './bootstrap';
import { loadDispatcherConfig } from './config';

logUnhandledRejections('webhook-dispatcher');

startDispatcher(loadDispatcherConfig()).catch((err) => exitOnStartupFailure('webhook-dispatcher', err));
