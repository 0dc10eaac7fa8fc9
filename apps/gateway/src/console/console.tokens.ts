/** Injection token of the built console's files (ConsoleFiles). */
export const CONSOLE_FILES = Symbol('CONSOLE_FILES');
