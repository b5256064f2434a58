/** What the service asks of a new password (spec: at least 6 characters; common passwords are refused). */
export const PASSWORD_RULES = 'At least 6 characters; common passwords are refused.';
