/** Numbers in UI text, built from the constant the text states (one rule, one place: decision 0020). No imports. */

/** '1 hour', '15 minutes', '1,000 rows'. */
export const countOf = (count: number, unit: string) =>
  `${count.toLocaleString("en-US")} ${unit}${count === 1 ? "" : "s"}`;

/** 10485760 → '10 MB'. */
export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toLocaleString("en-US")} MB`;
