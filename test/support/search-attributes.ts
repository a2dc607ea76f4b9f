import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { SEARCH_ATTRIBUTE_DEFINITIONS } from '../../src/temporal/search-attributes';

const TYPES: Record<string, temporal.api.enums.v1.IndexedValueType> = {
  Int: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
  Keyword: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
};

/** The time-skipping server starts without our custom search attributes; the dev server gets them at start. */
export async function registerSearchAttributes(env: TestWorkflowEnvironment): Promise<void> {
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(Object.entries(SEARCH_ATTRIBUTE_DEFINITIONS).map(([name, type]) => [name, TYPES[type]])),
  });
}
