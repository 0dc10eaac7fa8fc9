/** Injection tokens of the rooms service. */
export const PRESENTATION = Symbol('PRESENTATION');
