/**
 * A start-up failure whose message says all an operator needs (what is wrong, where, and the
 * ways out): printed without a stack trace, which would only bury it. Anything else that
 * stops a start is a defect, printed with its stack.
 */
export class ExplainedStartupError extends Error {}
