import { ServiceError } from '@temporalio/client';
import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { isStoreUnreachable } from '../../../src/persistence/mongo';
import { isTemporalUnreachable } from '../../../src/temporal/client';

/** gRPC's error as the Temporal client and the native bridge throw it: a code and details. */
const grpcError = (code: number) => Object.assign(new Error(`${code} ...`), { code, details: 'connection refused', metadata: {} });

describe('a dependency that did not answer', () => {
  it('Temporal: gRPC UNAVAILABLE, bare or wrapped in the client ServiceError', () => {
    expect(isTemporalUnreachable(grpcError(14))).toBe(true);
    expect(isTemporalUnreachable(new ServiceError('Failed to start Workflow', { cause: grpcError(14) }))).toBe(true);
  });

  it('Temporal: any other gRPC status, or no gRPC error at all, is not', () => {
    expect(isTemporalUnreachable(grpcError(5))).toBe(false); // NOT_FOUND
    expect(isTemporalUnreachable(new ServiceError('x', { cause: grpcError(3) }))).toBe(false);
    expect(isTemporalUnreachable(new Error('boom'))).toBe(false);
    expect(isTemporalUnreachable(undefined)).toBe(false);
  });

  it('the store: a network error, no server to select, or a socket it closed', () => {
    expect(isStoreUnreachable(new MongoNetworkError('connection closed'))).toBe(true);
    expect(isStoreUnreachable(new MongoServerSelectionError('no server', { type: 'Unknown', servers: new Map() } as never))).toBe(true);
    expect(isStoreUnreachable(Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' }))).toBe(true);
  });

  it('the store: an answer it gave (a duplicate key) is not', () => {
    expect(isStoreUnreachable(new MongoServerError({ code: 11000, errmsg: 'E11000' }))).toBe(false);
    expect(isStoreUnreachable(new Error('boom'))).toBe(false);
  });
});
