import { type Catalog, type EstimateItem, estimateCost } from '../../../src/domain/cost-estimator';
import { loadCatalogFile } from '../../../src/infra/load-catalog-file';

/** A fixed clock so generatedAt is predictable. */
export const FIXED_NOW = new Date('2026-11-22T10:11:12.345Z');
export const fixedClock = (): Date => FIXED_NOW;

let shipped: Promise<Catalog> | undefined;
/** The shipped data/catalog.json, loaded once per test file. */
export function shippedCatalog(): Promise<Catalog> {
  shipped ??= loadCatalogFile();
  return shipped;
}

/** Estimates against the shipped catalog with the fixed clock. */
export async function estimate(...items: EstimateItem[]) {
  return estimateCost(await shippedCatalog(), items, fixedClock);
}

/** Runs fn and returns what it threw (fails the test when it does not throw). */
export async function thrownBy(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error to be thrown');
}
