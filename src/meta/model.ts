/** Models of /health and /v1. */
import { t } from "elysia";

const closed = { additionalProperties: false } as const;

export const HealthResponse = t.Object(
  {
    status: t.Literal("healthy"),
    service: t.String({ examples: ["loam"] }),
    version: t.String({ examples: ["0.5.0"] }),
  },
  { ...closed, title: "HealthResponse" },
);

export const ApiMetadata = t.Object(
  {
    name: t.String(),
    version: t.String(),
    project_status: t.Literal("experimental"),
    documentation_url: t.String(),
    openapi_url: t.String(),
    supported_providers: t.Array(t.String()),
    warning: t.String(),
  },
  { ...closed, title: "ApiMetadata" },
);

