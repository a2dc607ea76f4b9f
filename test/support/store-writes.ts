import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, Document, MongoClient } from 'mongodb';

const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify']);

/** A write command a client sent; `reply` or `failure` once the store has answered it. */
export interface StoreWrite {
  command: string;
  collection: string;
  reply?: Document;
  /** A command refused as a whole. */
  failure?: Error;
}

/**
 * Records into `writes`, in the order sent, every write command `client` sends (its command monitoring must be on, as the
 * test platform's is), filling in each one's answer as it comes.
 */
export function recordStoreWrites(client: MongoClient, writes: StoreWrite[] = []): StoreWrite[] {
  const inFlight = new Map<number, StoreWrite>();
  client.on('commandStarted', (e: CommandStartedEvent) => {
    if (!WRITE_COMMANDS.has(e.commandName)) return;
    const write: StoreWrite = { command: e.commandName, collection: String((e.command as Document)[e.commandName]) };
    writes.push(write);
    inFlight.set(e.requestId, write);
  });
  const answered = (requestId: number, answer: Pick<StoreWrite, 'reply' | 'failure'>) => {
    const write = inFlight.get(requestId);
    inFlight.delete(requestId);
    if (write) Object.assign(write, answer);
  };
  client.on('commandSucceeded', (e: CommandSucceededEvent) => answered(e.requestId, { reply: e.reply as Document }));
  client.on('commandFailed', (e: CommandFailedEvent) => answered(e.requestId, { failure: e.failure }));
  return writes;
}

/** Whether the store answered that the write inserted, changed, upserted or deleted a document. */
export function changedSomething({ command, reply }: StoreWrite): boolean {
  if (!reply) return false;
  if (command === 'update') return reply.nModified > 0 || (reply.upserted?.length ?? 0) > 0;
  if (command === 'findAndModify') return (reply.lastErrorObject?.n ?? 0) > 0;
  return reply.n > 0;
}

/** Whether the store refused the write in part or whole: a lost claim (a duplicate key) or any other error. */
export function wasRefused({ reply, failure }: StoreWrite): boolean {
  return failure !== undefined || (reply?.writeErrors?.length ?? 0) > 0;
}

export const described = ({ command, collection }: StoreWrite) => `${command} ${collection}`;
