import { DomainError, ValidationError } from '../domain/errors';
import { checkDestination, destinationLabel, usesCredentials, type Credentials, type Destination } from '../domain/webhooks/destination';
import { type LookupAllFunction, resolveAndCheck } from '../domain/webhooks/destination-resolver';
import type { SecretBox } from '../domain/webhooks/secret-box';
import type { EndpointDoc, StoredDestination } from '../persistence/endpoints';

/** A broker destination as a request sends it: credentials in clear, which only this module and the attempt's send ever see. */
export type DestinationInput = Destination & { credentials?: Partial<Record<string, string>> };

export interface DestinationDeps {
  secretBox: SecretBox;
  allowPrivateNetworks: boolean;
  dnsLookup: LookupAllFunction;
}

/**
 * The destination to store: its rules checked (422), every host's addresses checked as a url's are (a name that does not
 * resolve yet is accepted, every attempt checks again), credentials sealed. `kept`: the endpoint's current one, whose
 * credentials a PATCH of the same type without `credentials` keeps while the destination uses credentials.
 */
export async function storedDestination(input: DestinationInput, kept: StoredDestination | undefined, deps: DestinationDeps): Promise<{ destination: StoredDestination; label: string }> {
  const { credentials: given, ...destination } = input;
  // Kept for a destination that still authenticates; Kafka switched to no SASL drops them (there is nothing to send them with).
  const keep = given === undefined && kept?.type === input.type && usesCredentials(destination as Destination);
  const credentials = Object.fromEntries(Object.entries(given ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const fields = keep ? kept.credential_fields : Object.keys(credentials).sort();
  const verdict = checkDestination(destination as Destination, fields, { allowPrivate: deps.allowPrivateNetworks });
  if (!verdict.ok) throw refusal(verdict.code, verdict.message, `destination.${verdict.path}`);
  for (const host of verdict.hosts) {
    const resolved = await resolveAndCheck(host, { allowPrivate: deps.allowPrivateNetworks, lookup: deps.dnsLookup });
    if (!resolved.ok && resolved.code !== 'dns_lookup_failed') throw new DomainError(resolved.code, resolved.message);
  }
  const sealed = keep ? kept.credentials_sealed : fields.length > 0 ? deps.secretBox.seal(JSON.stringify(credentials)) : null;
  const stored = { ...(destination as Destination), credentials_sealed: sealed, credential_fields: fields } as StoredDestination;
  return { destination: stored, label: destinationLabel(destination as Destination) };
}

function refusal(code: 'invalid_destination' | 'destination_not_allowed', message: string, path: string): DomainError {
  return code === 'invalid_destination' ? new ValidationError(message, [{ path, message }], code) : new DomainError(code, message);
}

/** What a response shows of a destination: type and config, and which credential fields are set, never their values. */
export function destinationView(doc: Pick<EndpointDoc, 'destination'>) {
  const d = doc.destination;
  return d ? { type: d.type, config: d.config as unknown as Record<string, unknown>, credentials_set: [...d.credential_fields] } : null;
}
