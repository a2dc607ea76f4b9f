export * from './constants';
export { Catalog, InvalidCatalogError, parseCatalogQuery, type CatalogEntry, type CatalogFilter } from './catalog';
export { estimateCost, estimateRequestSchema, type BreakdownLine, type Estimate, type EstimateItem, type EstimateRequest } from './estimate';
export { formulaKindOf, PRICE_UNITS, PER_MILLION_THINGS, type FormulaKind } from './price-units';
