import type { EndpointDoc } from '../../src/persistence/endpoints';

/** An enabled endpoint `ep_1` of `acct_1` as stored, for activity tests with fake stores. */
export function endpointDoc(secretSealed: string, extra: Partial<EndpointDoc> = {}): EndpointDoc {
  return {
    _id: 'ep_1',
    account_id: 'acct_1',
    url: 'https://hooks.example.com/in',
    events: ['*'],
    description: '',
    secret_sealed: secretSealed,
    disabled: false,
    disabled_reason: null,
    created_at: new Date(0),
    updated_at: new Date(0),
    ...extra,
  };
}
