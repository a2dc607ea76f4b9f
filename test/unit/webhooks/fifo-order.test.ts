import {
  FIFO_RECHECK_MAX_MS,
  FIFO_VOID_AFTER_MS,
  fifoRecheckMs,
  isPassedOver,
  isTurnOf,
  orderingOf,
  queueLength,
  type QueuePlace,
} from '../../../src/domain/webhooks/fifo-order';

const takenAt = new Date('2026-11-25T12:00:00Z');
const place = (n: number): QueuePlace => ({ n, eventId: 1000 + n, takenAt });
const after = (ms: number) => new Date(takenAt.getTime() + ms);

describe('FIFO ordering of an endpoint', () => {
  it('is unordered unless the endpoint says fifo', () => {
    expect(orderingOf({})).toBe('unordered');
    expect(orderingOf({ ordering: 'unordered' })).toBe('unordered');
    expect(orderingOf({ ordering: 'fifo' })).toBe('fifo');
  });

  it('gives the turn to a delivery once the head has reached its place', () => {
    expect(isTurnOf(3, 4)).toBe(true);
    expect(isTurnOf(3, 3)).toBe(true);
    expect(isTurnOf(3, 2)).toBe(false);
  });

  it('passes over a place whose first round has ended, or that a later round has replaced', () => {
    expect(isPassedOver(place(1), { record: { round: 1, ended: true } }, takenAt)).toBe(true);
    expect(isPassedOver(place(1), { record: { round: 2, ended: false } }, takenAt)).toBe(true);
    expect(isPassedOver(place(1), { record: { round: 1, ended: false } }, after(10 * FIFO_VOID_AFTER_MS))).toBe(false);
  });

  it('passes over a place whose event was never stored, once its ingest cannot still be storing it', () => {
    expect(isPassedOver(place(1), { record: null, eventStored: false }, after(FIFO_VOID_AFTER_MS - 1))).toBe(false);
    expect(isPassedOver(place(1), { record: null, eventStored: false }, after(FIFO_VOID_AFTER_MS))).toBe(true);
  });

  it('holds a place whose event is stored and whose delivery has recorded nothing yet, however old (it waits its turn)', () => {
    expect(isPassedOver(place(1), { record: null, eventStored: true }, after(100 * FIFO_VOID_AFTER_MS))).toBe(false);
  });

  it('counts the queue from the head to the newest place, the head included', () => {
    expect(queueLength(41, 40)).toBe(0);
    expect(queueLength(38, 40)).toBe(3);
    expect(queueLength(40, 40)).toBe(1);
  });

  it('looks again at a queue it was not woken for after a wait that doubles from a minute up to its most', () => {
    expect([0, 1, 2, 3].map(fifoRecheckMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(fifoRecheckMs(4)).toBe(FIFO_RECHECK_MAX_MS);
    expect(fifoRecheckMs(1_000)).toBe(FIFO_RECHECK_MAX_MS);
  });
});
