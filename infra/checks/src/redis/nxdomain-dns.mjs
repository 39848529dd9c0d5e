/**
 * A DNS server that answers every query NXDOMAIN at once: the upstream of Docker's embedded DNS in
 * the Sentinel checks (`docker run --dns`). Docker answers the names of running containers itself
 * and forwards the rest here, so a removed pod's name fails at once, as cluster DNS does for a
 * deleted pod, instead of waiting for the host's resolvers.
 */
import { createSocket } from 'node:dgram';

const HEADER = 12;
const socket = createSocket('udp4');
socket.on('message', (query, peer) => {
  if (query.length < HEADER + 5) return;
  // The question is one name (length-prefixed labels up to a 0) and 4 bytes of type and class.
  let end = HEADER;
  while (end < query.length && query[end] !== 0) end += query[end] + 1;
  end += 5;
  if (end > query.length) return;
  const reply = Buffer.from(query.subarray(0, end));
  reply[2] = 0x80 | (query[2] & 0x01); // a response; recursion desired copied
  reply[3] = 0x83; // recursion available, NXDOMAIN
  reply.writeUInt16BE(1, 4); // one question, no records
  reply.fill(0, 6, HEADER);
  socket.send(reply, peer.port, peer.address);
});
socket.bind(53);
