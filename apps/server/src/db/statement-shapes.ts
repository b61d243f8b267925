/**
 * Batched statements (an `in (…)` list, a multi-row insert) have as many shapes as there are batch
 * sizes, and SQLite keeps a bounded cache of prepared statements by SQL text (db/database.ts): a
 * stream of batches of every size would push the everyday statements out of it. These helpers keep
 * the shapes to powers of two, so a batch statement has at most a dozen texts.
 */

/** The smallest power of two at or above n (1 for n ≤ 1). */
function nextPowerOfTwo(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

/**
 * The values for an `in (…)` list, without repeats, padded to a power of two by repeating the
 * first (a repeated value changes nothing in an `in` list). Empty stays empty: do not query.
 */
export function inList<T>(values: Iterable<T>): T[] {
  const unique = [...new Set(values)];
  if (unique.length === 0) return unique;
  const padded = unique.slice();
  while (padded.length < nextPowerOfTwo(unique.length)) padded.push(unique[0]!);
  return padded;
}

/** Cuts rows into chunks whose sizes are powers of two, none above `max` (itself a power of two). */
export function powerOfTwoChunks<T>(rows: readonly T[], max = 256): T[][] {
  const chunks: T[][] = [];
  let start = 0;
  while (start < rows.length) {
    let size = max;
    while (size > rows.length - start) size /= 2;
    chunks.push(rows.slice(start, start + size));
    start += size;
  }
  return chunks;
}
