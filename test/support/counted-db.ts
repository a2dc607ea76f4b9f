import { randomBytes } from 'node:crypto';
import { CommandStartedEvent, Db, MongoClient } from 'mongodb';

export interface StoreCommand {
  name: string;
  collection: string;
}

/**
 * A fresh database on the test store (like test-db.ts) whose client records every command it
 * sends: what a store-budget assertion counts.
 */
export async function openCountedDb(label: string): Promise<{ db: Db; commands: StoreCommand[]; close: () => Promise<void> }> {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error('MONGODB_URI is not set: integration tests need the global setup (npm test)');
  const client = new MongoClient(uri, { monitorCommands: true, retryWrites: false });
  await client.connect();
  const db = client.db(`test_${label.replace(/[^a-z0-9]/gi, '_')}_${randomBytes(4).toString('hex')}`);
  const commands: StoreCommand[] = [];
  client.on('commandStarted', (e: CommandStartedEvent) => {
    commands.push({ name: e.commandName, collection: String((e.command as Record<string, unknown>)[e.commandName]) });
  });
  return {
    db,
    commands,
    close: async () => {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}

/** Runs `action` and returns the commands it sent (and what it returned). */
export async function counting<T>(commands: StoreCommand[], action: () => Promise<T>): Promise<{ result: T; sent: StoreCommand[] }> {
  const from = commands.length;
  const result = await action();
  return { result, sent: commands.slice(from) };
}

export const named = (sent: StoreCommand[], name: string, collection?: string) =>
  sent.filter((c) => c.name === name && (collection === undefined || c.collection === collection)).length;
