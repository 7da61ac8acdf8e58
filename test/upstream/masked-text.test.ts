/**
 * `maskedText` (src/upstream/public-url.ts, docs/decisions.md#url-secrets): upstream text as it may be
 * logged. What an echoing error page can carry, each kind once, and what must survive for the operator.
 */
import { describe, expect, test } from "bun:test";
import { maskedText } from "../../src/upstream/public-url";

describe("maskedText", () => {
  test.each([
    ["a URL's user info and query", "GET https://loam:hunter2@rest.example.org/q?token=abc123&lon=1", "GET https://rest.example.org/q", ["hunter2", "abc123"]],
    ["a secret-named parameter outside a URL", "form: api_key=k3y-99&access_token=t0k&page=2", "form: api_key=[masked]&access_token=[masked]&page=2", ["k3y-99", "t0k"]],
    ["an Authorization header", "Authorization: Basic bG9hbTpodW50ZXIy", "Authorization: Basic [masked]", ["bG9hbTpodW50ZXIy"]],
    ["a bearer token", "sent Bearer eyJhbGciOi.x.y", "sent Bearer [masked]", ["eyJhbGciOi"]],
    ["a cookie line", "Cookie: session=s3cr3t; theme=dark", "Cookie: [masked]", ["s3cr3t"]],
    ["exact coordinates", "point -83.428626, 32.443658 is masked", "point -83.4, 32.4 is masked", ["428626", "443658"]],
  ])("%s", (_, text, expected, gone) => {
    const masked = maskedText(text);
    expect(masked).toBe(expected);
    for (const secret of gone) expect(masked).not.toContain(secret);
  });

  test("what an operator needs stays: the status words, short numbers; the excerpt is bounded and printable", () => {
    expect(maskedText("<h1>HTTP 500 Internal Server Error</h1> after 2.5 s")).toBe("<h1>HTTP 500 Internal Server Error</h1> after 2.5 s");
    const long = maskedText("x".repeat(10_000));
    expect(long.length).toBe(300);
    expect(maskedText("a\u0000b\u001bc")).toBe("a b c");
  });
});
