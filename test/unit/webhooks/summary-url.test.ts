import { summaryUrl } from '../../../src/temporal/delivery-scheduler';

describe('the destination shown in the Temporal UI summary', () => {
  it('drops the query string, which may carry tokens', () => {
    expect(summaryUrl('https://hooks.example.com/in?token=s3cr3t&x=1')).toBe('https://hooks.example.com/in?…');
  });

  it('keeps a plain URL as it is', () => {
    expect(summaryUrl('https://hooks.example.com/in')).toBe('https://hooks.example.com/in');
  });

  it('cuts a long URL to 120 characters', () => {
    const shown = summaryUrl(`https://hooks.example.com/${'a'.repeat(2000)}`);
    expect(shown).toHaveLength(120);
    expect(shown.endsWith('…')).toBe(true);
  });

  it('never shows credentials a URL might carry', () => {
    expect(summaryUrl('https://user:pass@hooks.example.com/in')).toBe('https://hooks.example.com/in');
  });
});
