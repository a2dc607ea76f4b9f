import { kafkaClusterId } from '../../../src/infra/embedded-brokers';

describe('kafkaClusterId (the embedded Kafka broker format tool reads an id starting with "-" as an option)', () => {
  it('draws again when the 16 bytes encode to an id starting with "-"', () => {
    const dashFirst = Buffer.alloc(16, 0xf8); // 111110 → "-" in URL-safe base64
    const draws = [dashFirst, Buffer.alloc(16, 0x01)];
    const id = kafkaClusterId(() => draws.shift()!);
    expect(Buffer.from(dashFirst).toString('base64url')[0]).toBe('-');
    expect(id).toBe(Buffer.alloc(16, 0x01).toString('base64url'));
    expect(draws).toHaveLength(0);
  });

  it('is 22 URL-safe base64 characters, as Kafka prints its own', () => {
    expect(kafkaClusterId()).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});
