/** The two kinds of render job (lower case on input, upper case in stored job records). */
export const JOB_TYPES = ["image", "video"] as const;
export type JobType = (typeof JOB_TYPES)[number];
