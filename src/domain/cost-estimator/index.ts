export * from './constants';
export { Catalog, InvalidCatalogError, parseCatalogQuery, type CatalogEntry, type CatalogFilter } from './catalog';
export { estimateCost, estimateRequestSchema, type Estimate, type EstimateItem, type EstimateRequest, type ExactEstimateItem } from './estimate';
