/** GET /v1/providers and GET /v1/properties: the catalog, served from data tables. */
import { Elysia } from "elysia";
import { documentedResponses } from "../http/openapi";
import { PropertiesResponse, ProvidersResponse } from "./model";
import { PROVIDERS } from "./providers";
import { PROPERTIES, VOCABULARY_WARNING } from "./properties";

export const catalog = new Elysia({ name: "loam.catalog" })
  .get(
    "/v1/providers",
    ({ set }) => {
      set.headers["cache-control"] = "public, max-age=3600";
      return { providers: [...PROVIDERS] };
    },
    {
      response: { 200: ProvidersResponse },
      detail: {
        tags: ["meta"],
        summary: "Provider catalog",
        description: "Every source provider, operational or planned, with coverage, access, licence and limitations.",
        responses: documentedResponses({ 200: ["ProvidersResponse", "The provider catalog."] }),
      },
    },
  )
  .get(
    "/v1/properties",
    ({ set }) => {
      set.headers["cache-control"] = "public, max-age=3600";
      return { properties: [...PROPERTIES], warning: VOCABULARY_WARNING };
    },
    {
      response: { 200: PropertiesResponse },
      detail: {
        tags: ["meta"],
        summary: "Soil-property vocabulary",
        description: "Canonical property ids with units, accepted aliases, conversion notes and method-dependency warnings. Aliases are accepted wherever a property id is.",
        responses: documentedResponses({ 200: ["PropertiesResponse", "The vocabulary."] }),
      },
    },
  );
