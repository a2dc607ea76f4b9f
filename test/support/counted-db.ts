import type { CommandStartedEvent, Db } from 'mongodb';
import { openTestDb } from './test-db';

export interface StoreCommand {
  name: string;
  collection: string;
}

/** A fresh test database (test-db.ts) whose client records every command it sends: what a store-budget assertion counts. */
export async function openCountedDb(label: string): Promise<{ db: Db; commands: StoreCommand[]; close: () => Promise<void> }> {
  const { client, db, close } = await openTestDb(label, { monitorCommands: true });
  const commands: StoreCommand[] = [];
  client.on('commandStarted', (e: CommandStartedEvent) => {
    commands.push({ name: e.commandName, collection: String((e.command as Record<string, unknown>)[e.commandName]) });
  });
  return { db, commands, close };
}

/** Runs `action` and returns the commands it sent (and what it returned). */
export async function counting<T>(commands: StoreCommand[], action: () => Promise<T>): Promise<{ result: T; sent: StoreCommand[] }> {
  const from = commands.length;
  const result = await action();
  return { result, sent: commands.slice(from) };
}

export const named = (sent: StoreCommand[], name: string, collection?: string) =>
  sent.filter((c) => c.name === name && (collection === undefined || c.collection === collection)).length;
