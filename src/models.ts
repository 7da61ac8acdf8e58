/** Every named model of the contract: the OpenAPI components (`#/components/schemas/<Name>`). */
import { ApiMetadata, CacheMetadata, DepthInterval, ErrorBody, ErrorResponse, HealthResponse, PropertyReference, Transformation } from "./shared/model";
import { LOCATION_MODELS } from "./location/model";
import { PEDON_MODELS } from "./pedons/model";
import { PropertiesResponse, PropertyRecord, ProviderRecord, ProvidersResponse } from "./catalog/model";

export const MODELS = {
  ErrorBody,
  ErrorResponse,
  HealthResponse,
  ApiMetadata,
  ProviderRecord,
  ProvidersResponse,
  PropertyRecord,
  PropertiesResponse,
  CacheMetadata,
  DepthInterval,
  PropertyReference,
  Transformation,
  ...LOCATION_MODELS,
  ...PEDON_MODELS,
};
