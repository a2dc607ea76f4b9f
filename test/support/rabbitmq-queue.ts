import amqp from 'amqplib';

/** Every message in `queue` now, in queue order, taken off it (a connection of its own to the broker at `address`). */
export async function drainQueue(address: string, queue: string): Promise<amqp.GetMessage[]> {
  const connection = await amqp.connect(address);
  try {
    const channel = await connection.createChannel();
    const messages: amqp.GetMessage[] = [];
    for (let m = await channel.get(queue, { noAck: true }); m; m = await channel.get(queue, { noAck: true })) messages.push(m);
    return messages;
  } finally {
    await connection.close();
  }
}
