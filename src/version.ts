/** One version everywhere (docs/decisions.md#version): /health, /v1, api_version and the OpenAPI info.version. */
export const SERVICE_NAME = "loam";
export const VERSION = "0.6.0";
