/** An unsigned JWT-shaped token with the given `exp` (seconds); the client only reads `exp`. */
export function fakeJwt(exp: number, sub = 'user-1'): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub, exp })}.signature`;
}

/** A token valid for another hour. */
export const validToken = (sub?: string) => fakeJwt(Math.floor(Date.now() / 1000) + 3600, sub);

/** A token that expired a minute ago. */
export const expiredToken = () => fakeJwt(Math.floor(Date.now() / 1000) - 60);
