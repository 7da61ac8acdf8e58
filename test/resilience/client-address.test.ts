/**
 * Finding 9 of the hardening pass: with TRUST_PROXY=1 the rate-limit key was the forwarded string as
 * written, so `::ffff:203.0.113.9`, `203.000.113.009` and every address of one IPv6 /64 got a fresh
 * budget. Keys are now canonical addresses (client-address.ts).
 */
import { describe, expect, test } from "bun:test";
import { clientKey } from "../../src/http/client-address";
import { startLoam } from "../support/server";

describe("clientKey", () => {
  test("written forms of one IPv4 address share a key", () => {
    for (const form of ["203.0.113.9", "203.000.113.009", "::ffff:203.0.113.9", "::FFFF:203.0.113.9", "0:0:0:0:0:ffff:cb00:7109", "::ffff:cb00:7109", " 203.0.113.9 ", "203.0.113.9:51234", "[::ffff:203.0.113.9]:443"]) {
      expect(clientKey(form)).toBe("203.0.113.9");
    }
  });

  test("a dotted quad in canonical form is its own key, every part from 0 to 255", () => {
    for (const address of ["0.0.0.0", "9.9.9.9", "10.0.0.1", "99.100.199.200", "249.250.255.255"]) expect(clientKey(address)).toBe(address);
    expect(clientKey("010.0.0.1")).toBe("10.0.0.1");
    expect(clientKey("10.0.0.00")).toBe("10.0.0.0");
    for (const junk of ["256.0.0.1", "10.0.0.260", "10.0.0.1.", ".10.0.0.1"]) expect(clientKey(junk)).toBeNull();
  });

  test("IPv6 addresses are keyed by their /64", () => {
    const key = "2001:db8:1:2::/64";
    for (const form of ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0DB8:0001:0002:0:0:0:9", "[2001:db8:1:2::5]:8080", "2001:db8:1:2::7%eth0", "2001:db8:1:2:0:0:1.2.3.4"]) {
      expect(clientKey(form)).toBe(key);
    }
    expect(clientKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
  });

  test("anything that is not an address is null", () => {
    for (const junk of ["", "unknown", "203.0.113", "203.0.113.256", "203.0.113.9.1", "0x7f.0.0.1", "1.2.3.-4", "2001:db8::1::2", "2001:db8:1:2:3:4:5:6:7", "gggg::1", "1.2.3.4::", "::1.2.3.4:5", "[::1", "a".repeat(200), "203.0.113.9, 10.0.0.1"]) {
      expect(clientKey(junk)).toBeNull();
    }
  });
});

describe("TRUST_PROXY=1 budgets over HTTP", () => {
  const minute = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;
  const statusFor = async (loam: Awaited<ReturnType<typeof startLoam>>, forwarded: string) =>
    (await loam.get("/health", { headers: { "X-Forwarded-For": forwarded } })).status;

  test("one IPv4 client in several spellings shares one budget", async () => {
    const loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "3", TRUST_PROXY: "1" }, now: () => minute });
    const statuses = [];
    for (const form of ["203.0.113.9", "::ffff:203.0.113.9", "203.000.113.009", "203.0.113.9:4444"]) statuses.push(await statusFor(loam, form));
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another client is not affected.
    expect(await statusFor(loam, "203.0.113.10")).toBe(200);
    await loam.stop();
  });

  test("addresses of one IPv6 /64 share one budget; the next /64 has its own", async () => {
    const loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "3", TRUST_PROXY: "1" }, now: () => minute });
    const statuses = [];
    for (const address of ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6::abcd:1", "2001:db8:5:6:ffff:ffff:ffff:ffff"]) statuses.push(await statusFor(loam, address));
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await statusFor(loam, "2001:db8:5:7::1")).toBe(200);
    await loam.stop();
  });

  test("a forwarded value that is not an address counts against the socket address", async () => {
    const loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "3", TRUST_PROXY: "1" }, now: () => minute });
    const statuses = [];
    for (const junk of ["not-an-ip", "203.0.113.999", "x1", "x2"]) statuses.push(await statusFor(loam, junk));
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The socket address (loopback) spent that budget, spelled as the socket reports it.
    expect((await loam.get("/health")).status).toBe(429);
    const line = loam.accessLog.at(-1)!;
    expect(line.client).toBe("127.0.0.1");
    await loam.stop();
  });
});
