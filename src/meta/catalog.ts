/** GET /v1/providers and GET /v1/properties: the catalog, served from the provider registry and the vocabulary. */
import { Elysia } from "elysia";
import { documentedRoute } from "../http/openapi";
import type { Registry } from "../providers/registry";
import { PropertiesResponse, ProvidersResponse } from "../catalog/model";
import { PROPERTIES, VOCABULARY_WARNING } from "../catalog/properties";
import type { CoverageSource } from "../domain/coverage";
import { servedCoverage } from "./layers";

export function catalog(registry: Registry, source: () => CoverageSource) {
  return new Elysia({ name: "loam.catalog" })
    .get(
      "/v1/providers",
      ({ set }) => {
        set.headers["cache-control"] = "public, max-age=3600";
        const now = source();
        return { providers: registry.all.map((p) => ({ ...p.record, coverage: servedCoverage(p, now) })) };
      },
      {
        ...documentedRoute({
          operationId: "listProviders",
          tag: "meta",
          summary: "Provider catalog",
          description: "Every source provider, operational or planned, with coverage, access, licence and limitations.",
          ok: [ProvidersResponse, "The provider catalog."],
          etag: true,
        }),
      },
    )
    .get(
      "/v1/properties",
      ({ set }) => {
        set.headers["cache-control"] = "public, max-age=3600";
        return { properties: [...PROPERTIES], warning: VOCABULARY_WARNING };
      },
      {
        ...documentedRoute({
          operationId: "listProperties",
          tag: "meta",
          summary: "Soil-property vocabulary",
          description:
            "Canonical property ids with units, accepted aliases, conversion notes and method-dependency warnings. Aliases are accepted wherever a property id is.",
          ok: [PropertiesResponse, "The vocabulary."],
          etag: true,
        }),
      },
    );
}
