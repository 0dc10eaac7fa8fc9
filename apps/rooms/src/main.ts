import 'reflect-metadata';
import { exitOnStartupFailure } from '@app/common';
import { startRoomsService } from './bootstrap';
import { loadRoomsConfig } from './config';

startRoomsService(loadRoomsConfig()).catch((err) => exitOnStartupFailure('rooms', err));
