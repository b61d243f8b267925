/** What an access code may look like here (the server also checks each keypad's own rule). */
export const ACCESS_CODE_PATTERN = /^\d{4,12}$/;

function randomDigits(length: number): string {
  let code = '';
  const bytes = new Uint8Array(length * 2);
  while (code.length < length) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      // 250 is the largest multiple of 10 below 256: keeps every digit equally likely.
      if (byte < 250 && code.length < length) code += String(byte % 10);
    }
  }
  return code;
}

/** Codes anyone would try first: one digit repeated, or a run up or down (123456, 987654). */
export function isGuessable(code: string): boolean {
  if (/^(\d)\1*$/.test(code)) return true;
  const steps = new Set([...code].slice(1).map((digit, i) => (Number(digit) - Number(code[i]) + 10) % 10));
  return steps.size === 1 && (steps.has(1) || steps.has(9));
}

/** A random code of `length` digits (6 by default) that is not an obvious guess. */
export function generateAccessCode(length = 6): string {
  let code = randomDigits(length);
  while (isGuessable(code)) code = randomDigits(length);
  return code;
}
