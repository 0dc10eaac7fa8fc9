import 'reflect-metadata';
import { exitOnStartupFailure } from '@app/common';
import { startDispatcher } from './bootstrap';
import { loadDispatcherConfig } from './config';

startDispatcher(loadDispatcherConfig()).catch((err) => exitOnStartupFailure('webhook-dispatcher', err));
