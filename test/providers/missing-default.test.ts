/**
 * A deployment may serve a list without a role's provider (createApp({ providers })). A request that
 * names no provider then answers 409 provider_not_operational naming the provider the full list would
 * answer from, the same on every route of a role (docs/architecture.md#providers): not a 404, and not
 * the role's name in place of a provider id.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { ProviderRole } from "../../src/providers/provider";
import { useLoam } from "../support/server";

const MISSING: ProviderRole[] = ["site_series", "point_values", "sample_sites", "series"];
const { loam, contract } = useLoam({ providers: DEFAULT_PROVIDERS.filter((p) => !MISSING.includes(p.role)) });

/** The provider the full list answers the role from: its first of the role. */
const defaultOf = (role: ProviderRole): string => DEFAULT_PROVIDERS.find((p) => p.role === role)!.id;

describe("a role with no registered provider", () => {
  const cases: [string, ProviderRole][] = [
    ["/v1/stations?bbox=-94,41,-93,42", "site_series"],
    ["/v1/stations/2031:IA:SCAN", "site_series"],
    ["/v1/soil/modeled?latitude=18.65&longitude=-71.6", "point_values"],
    ["/v1/geochem/sites?near=42.0864,-93.7571", "sample_sites"],
    ["/v1/series/Clarion", "series"],
  ];
  for (const [path, role] of cases) {
    test(`${path.split("?")[0]} answers 409 provider_not_operational naming ${defaultOf(role)}`, async () => {
      const { status, body } = await loam.json(path);
      expect(status).toBe(409);
      contract.assert("ErrorResponse", body);
      expect(body.error).toMatchObject({ code: "provider_not_operational", provider: defaultOf(role) });
      expect(body.error.message).toStartWith(`Provider '${defaultOf(role)}' `);
    });
  }
});
