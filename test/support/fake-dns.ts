import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

/**
 * A UDP name server on 127.0.0.1 for tests: answers A queries for the names in `answers`
 * (no AAAA records), NXDOMAIN for names in `missing`, and never answers anything else, like a
 * name server that is down. Every question it receives is recorded.
 */
export async function startFakeDns() {
  const answers = new Map<string, string>();
  const missing = new Set<string>();
  const questions: { name: string; type: number }[] = [];
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const question = parseQuestion(msg);
    if (!question) return;
    questions.push({ name: question.name, type: question.type });
    const name = question.name.toLowerCase();
    const address = answers.get(name);
    if (address === undefined && !missing.has(name)) return; // silence
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(address === undefined ? 0x8183 : 0x8180, 2); // response, RD, RA; NXDOMAIN or NOERROR
    header.writeUInt16BE(1, 4);
    const withAnswer = address !== undefined && question.type === 1;
    header.writeUInt16BE(withAnswer ? 1 : 0, 6);
    const parts = [header, msg.subarray(12, question.end)];
    if (withAnswer) {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0); // the question's name
      rr.writeUInt16BE(1, 2); // A
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(5, 6); // TTL
      rr.writeUInt16BE(4, 10);
      address.split('.').forEach((octet, i) => rr.writeUInt8(Number(octet), 12 + i));
      parts.push(rr);
    }
    socket.send(Buffer.concat(parts), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    server: `127.0.0.1:${port}`,
    answers,
    missing,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function parseQuestion(msg: Buffer): { name: string; type: number; end: number } | undefined {
  if (msg.length < 17) return undefined;
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length && msg[i] !== 0) {
    const length = msg[i] as number;
    labels.push(msg.subarray(i + 1, i + 1 + length).toString('ascii'));
    i += 1 + length;
  }
  if (i + 5 > msg.length) return undefined;
  return { name: labels.join('.'), type: msg.readUInt16BE(i + 1), end: i + 5 };
}
