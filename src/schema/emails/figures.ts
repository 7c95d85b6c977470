// A shop's email frequency derived from its count of the trailing 90 days (GET /v1/shops/{shopId}/emails/stats,
// the email detail's shop analytics, and the emails list's min/maxAvgEmailsPerWeek).

/** avgEmailsPerWeek: the emails of the trailing 90 days / (90 / 7), two decimals. */
export const avgEmailsPerWeek = (emails: number) => Math.round((emails / (90 / 7)) * 100) / 100;
