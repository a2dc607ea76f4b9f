import { MAX_KEPT_RESPONSE_BYTES, utf8Prefix } from '../../../activities/http-sender';

describe("an attempt's response body, kept cut at 4 KiB (CONTRACT §4)", () => {
  it('keeps a short body whole', () => {
    expect(utf8Prefix(Buffer.from('{"ok":true}'), MAX_KEPT_RESPONSE_BYTES)).toBe('{"ok":true}');
  });

  it('cuts a long body at 4 KiB', () => {
    expect(utf8Prefix(Buffer.from('a'.repeat(10_000)), MAX_KEPT_RESPONSE_BYTES)).toBe('a'.repeat(4096));
  });

  it('cuts before a character the limit falls inside, not into a replacement character', () => {
    const kept = utf8Prefix(Buffer.from(`a${'é'.repeat(3000)}`), MAX_KEPT_RESPONSE_BYTES);
    expect(kept).toBe(`a${'é'.repeat(2047)}`);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_KEPT_RESPONSE_BYTES);
  });

  it('keeps a four-byte character that ends exactly at the limit', () => {
    expect(utf8Prefix(Buffer.from(`${'a'.repeat(4092)}😀x`), MAX_KEPT_RESPONSE_BYTES)).toBe(`${'a'.repeat(4092)}😀`);
  });
});
