// Written once in libs/common: the webhook dispatcher serves commands too.
export { CommandPipe } from '@app/common';
