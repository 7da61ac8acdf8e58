/** Every named model of the contract: the OpenAPI components (`#/components/schemas/<Name>`). */
import { CacheMetadata, DepthInterval } from "./domain/model";
import { ErrorBody, ErrorResponse } from "./http/error-response";
import { ApiMetadata, HealthResponse, LayerCoverage, LayerEntry, LayersResponse } from "./meta/model";
import { LOCATION_MODELS } from "./location/model";
import { PEDON_MODELS } from "./pedons/model";
import { LAYER_TABLE_MODELS } from "./pedons/layers-model";
import { SERIES_MODELS } from "./series/model";
import { SUMMARY_MODELS } from "./summaries/model";
import { MAP_UNIT_COLLECTION_MODELS } from "./mapunits/model";
import { GEOCHEM_MODELS } from "./geochem/model";
import { POINT_VALUES_MODELS } from "./shapes/point_values/model";
import { SAMPLE_SITE_MODELS } from "./domain/sample-site";
import { OGC_MODELS } from "./collections/model";
import { AREA_MODELS } from "./areas/model";
import { SITE_SERIES_MODELS } from "./shapes/site_series/model";
import { STATION_MODELS } from "./domain/station";
import { EVIDENCE_MODELS } from "./evidence/model";
import { PropertiesResponse, PropertyRecord, PropertyReference, ProviderRecord, ProvidersResponse, Transformation } from "./catalog/model";

export const MODELS = {
  ErrorBody,
  ErrorResponse,
  HealthResponse,
  ApiMetadata,
  LayersResponse,
  LayerEntry,
  LayerCoverage,
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
  ...LAYER_TABLE_MODELS,
  ...SERIES_MODELS,
  ...SUMMARY_MODELS,
  ...MAP_UNIT_COLLECTION_MODELS,
  ...SAMPLE_SITE_MODELS,
  ...GEOCHEM_MODELS,
  ...POINT_VALUES_MODELS,
  ...OGC_MODELS,
  ...AREA_MODELS,
  ...STATION_MODELS,
  ...SITE_SERIES_MODELS,
  ...EVIDENCE_MODELS,
};
