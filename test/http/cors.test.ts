/** CORS preflight for browser apps and generated clients that send Content-Type or Authorization on a GET. */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";

const { loam } = useLoam();

describe("CORS preflight", () => {
  test("allows Content-Type and Authorization request headers on GET and HEAD", async () => {
    for (const method of ["GET", "HEAD"]) {
      const response = await loam.get("/v1/pedons/02N0245", {
        method: "OPTIONS",
        headers: { Origin: "https://app.example.org", "Access-Control-Request-Method": method, "Access-Control-Request-Headers": "authorization, content-type" },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const allowed = response.headers.get("access-control-allow-headers")!.toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "if-none-match", "x-request-id", "accept"]));
    }
  });

  test("the GET that follows such a preflight is answered, headers ignored", async () => {
    const response = await loam.get("/v1/pedons/02N0245", {
      headers: { Origin: "https://app.example.org", Authorization: "Bearer not-needed", "Content-Type": "application/json" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect((await response.json()).layers.length).toBe(8);
  });

  test("a preflight for a write method is still refused", async () => {
    const response = await loam.get("/v1/pedons/02N0245", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example.org", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
    });
    expect(response.status).toBe(405);
  });
});
