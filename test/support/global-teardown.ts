/** Stops the servers the global setup started. */
export default async function globalTeardown(): Promise<void> {
  for (const server of (globalThis.__EMBEDDED_SERVERS__ ?? []).reverse()) await server.stop();
}
