export * from './constants';
export { Catalog, InvalidCatalogError, type CatalogEntry, type CatalogFilter } from './catalog';
export { parseCatalogQuery } from './catalog-query';
export { estimateRequestSchema, type EstimateItem, type EstimateRequest } from './estimate-request';
export { estimateCost, type BreakdownLine, type Estimate } from './estimate';
export { formulaKindOf, PRICE_UNITS, PER_MILLION_THINGS, type FormulaKind } from './price-units';
