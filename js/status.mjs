// What each status means, in one sentence, and the CLI's exit code for it. Shared by
// the CLI and the page (www/), so both say the same.

/** One sentence per status, for people. */
export const STATUS_MEANING = {
  reviewed_candidate: "Every citation holds and every claim was reviewed as supported; still a candidate, not a proof.",
  needs_review: "Every citation holds, but some claims still wait for a reviewer.",
  partial: "Every citation holds, but the report has gaps, or a claim is insufficient, contradicted or disputed.",
  invalid: "Some citation does not hold: a changed or removed source, a wrong digest, or a quote not at its range.",
};

/** The CLI's exit code for a status. */
export const STATUS_EXIT = { reviewed_candidate: 0, needs_review: 1, partial: 1, invalid: 2 };

/** The CLI's exit code for input it could not check (unreadable, not a bundle). */
export const UNUSABLE_EXIT = 3;
