// The honest clients of the attack bench, in a process of their own so that the attack's load
// generator never delays them or their clocks. Forked by run.mjs with its settings as JSON in
// argv[2]; sends real SDK envelopes at a fixed rate for the duration, then reports the event
// ids it sent, the answers and every latency to its parent.
import { sendAtRate } from './lib/senders.mjs';
import { eventId, honestEnvelope } from './lib/traffic.mjs';

const { url, rate, dsn, clientIps, durationS } = JSON.parse(process.argv[2]);
const ids = [];
const latencies = [];
const sender = sendAtRate({
  url,
  rate,
  clientIps,
  build: () => {
    const id = eventId();
    ids.push(id);
    return honestEnvelope(dsn, id);
  },
  onResult: (_request, result) => latencies.push(result.ms),
});
setTimeout(async () => {
  await sender.stop();
  process.send({ ...sender.counts, ids, latencies }, () => process.exit(0));
}, durationS * 1000);
