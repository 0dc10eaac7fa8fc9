/** Limits of the specification, shared by every service that checks them. */
export const LIMITS = {
  messageMaxLength: 10_000,
  /** `from` must be fewer than this many characters. */
  fromMaxExclusive: 15,
  topicMaxLength: 250,
  roomNameMaxLength: 50,
  userNameMaxLength: 50,
  mentionNameMaxLength: 50,
  titleMaxLength: 50,
  emailMaxLength: 254,
  passwordMinLength: 8,
  passwordMaxLength: 128,
  historyRecentCount: 75,
  tokenLabelMaxLength: 100,
} as const;
