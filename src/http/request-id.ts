/** A caller's X-Request-Id is echoed when it is a sane token; otherwise Loam makes one. */
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given !== null && SANE.test(given) ? given : crypto.randomUUID();
}
