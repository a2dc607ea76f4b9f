/** The six key-scoped products; the three-letter prefix in a key selects one. */
export const PRODUCTS = {
  weh: { name: 'Webhook Reliability', pathSegment: 'webhooks' },
  sec: { name: 'Secrets Leak Detection', pathSegment: 'secrets' },
  pii: { name: 'PII Scrubbing', pathSegment: 'pii' },
  dep: { name: 'Deployment Risk Score', pathSegment: 'deployments' },
  rat: { name: 'Distributed Rate Limiting', pathSegment: 'rate-limits' },
  api: { name: 'API Health Monitor', pathSegment: 'api-health' },
} as const;

export type Product = keyof typeof PRODUCTS;
export const PRODUCT_CODES = Object.keys(PRODUCTS) as Product[];

export function isProduct(value: string): value is Product {
  return Object.prototype.hasOwnProperty.call(PRODUCTS, value);
}

/** The product whose API lives under /api/v1/<segment>/..., if any. */
export function productForPathSegment(segment: string): Product | undefined {
  return PRODUCT_CODES.find((p) => PRODUCTS[p].pathSegment === segment);
}
