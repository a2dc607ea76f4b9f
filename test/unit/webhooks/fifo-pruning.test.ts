import { MIN_EVENT_RETENTION_DAYS } from '../../../src/config/config';
import { FIFO_UNPRUNABLE_MS, isAboveEveryFloor, nextDeletion, raisedFloor } from '../../../src/domain/webhooks/fifo-pruning';

describe('pruning a FIFO queue', () => {
  it('raises the floor to the places asked for, never past the places left', () => {
    expect(raisedFloor(0, 500, 300, 64)).toBe(300);
    expect(raisedFloor(0, 200, 300, 64)).toBe(200);
  });

  it('leaves the floor as it is when it would rise by less than the least advance', () => {
    expect(raisedFloor(100, 163, 1000, 64)).toBeNull();
    expect(raisedFloor(100, 164, 1000, 64)).toBe(164);
  });

  it('never lowers the floor, whatever the least advance', () => {
    expect(raisedFloor(100, 100, 1000, 1)).toBeNull();
    expect(raisedFloor(100, 50, 1000, 0)).toBeNull();
    expect(raisedFloor(100, 1000, 80, 1)).toBeNull();
  });

  it('deletes from the first place not yet deleted up to the floor, a batch at a time', () => {
    expect(nextDeletion(0, 100, 256)).toEqual({ from: 1, through: 100 });
    expect(nextDeletion(0, 600, 256)).toEqual({ from: 1, through: 256 });
    expect(nextDeletion(512, 600, 256)).toEqual({ from: 513, through: 600 });
  });

  it('has nothing to delete once everything up to the floor is', () => {
    expect(nextDeletion(600, 600, 256)).toBeNull();
    expect(nextDeletion(700, 600, 256)).toBeNull();
  });

  it('holds a place taken less than a day ago above every floor, and no older one', () => {
    const at = new Date('2026-11-26T12:00:00Z');
    expect(isAboveEveryFloor(new Date(at.getTime() - FIFO_UNPRUNABLE_MS + 1), at)).toBe(true);
    expect(isAboveEveryFloor(new Date(at.getTime() - FIFO_UNPRUNABLE_MS), at)).toBe(false);
    expect(isAboveEveryFloor(new Date(Number.NaN), at)).toBe(false);
  });

  it('counts a place as above every floor only for far less than the shortest retention', () => {
    expect(FIFO_UNPRUNABLE_MS * 4).toBeLessThanOrEqual(MIN_EVENT_RETENTION_DAYS * 86_400_000);
  });
});
