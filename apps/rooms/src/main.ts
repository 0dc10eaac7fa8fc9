import 'reflect-metadata';
import { exitOnStartupFailure, logUnhandledRejections } from '@app/common';
import { startRoomsService } from './bootstrap';
import { loadRoomsConfig } from './config';

logUnhandledRejections('rooms');

startRoomsService(loadRoomsConfig()).catch((err) => exitOnStartupFailure('rooms', err));
