import { createSocket, RemoteInfo, Socket } from 'node:dgram';

/**
 * A tiny authoritative DNS server on loopback UDP for tests: it answers TXT queries from a
 * table the test edits while it runs (`setTxt`), NXDOMAIN for names it does not know.
 * About 80 lines of node:dgram instead of dns2, which declares Node >= 22 while this
 * project runs on Node 20, and so that a record can be added or removed between lookups.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, ready for DNS_SERVERS. */
  address: string;
  port: number;
  /** Sets the TXT values of a name (each value one record); null removes the name. */
  setTxt(name: string, values: string[] | null): void;
  /** Queries answered so far. */
  readonly queries: number;
  close(): Promise<void>;
}

const TYPE_TXT = 16;
const CLASS_IN = 1;

function readName(msg: Buffer, offset: number): { name: string; end: number } | null {
  const labels: string[] = [];
  let i = offset;
  while (i < msg.length) {
    const len = msg[i];
    if (len === 0) return { name: labels.join('.').toLowerCase(), end: i + 1 };
    if (len > 63 || i + 1 + len > msg.length) return null; // no compression in questions
    labels.push(msg.toString('latin1', i + 1, i + 1 + len));
    i += 1 + len;
  }
  return null;
}

function txtRdata(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i === 0 || i < bytes.length; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

function answer(query: Buffer, table: Map<string, string[]>): Buffer | null {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return null;
  const q = readName(query, 12);
  if (!q || q.end + 4 > query.length) return null;
  const qtype = query.readUInt16BE(q.end);
  const question = query.subarray(12, q.end + 4);
  const values = table.get(q.name);
  const records = values && qtype === TYPE_TXT ? values : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  const rd = query[2] & 0x01;
  header[2] = 0x80 | 0x04 | rd; // QR, AA, RD copied
  header[3] = 0x80 | (values ? 0 : 3); // RA, NOERROR or NXDOMAIN
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((value) => {
    const rdata = txtRdata(value);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(CLASS_IN, 4);
    rr.writeUInt32BE(0, 6); // TTL 0: nothing caches a test answer
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, question, ...answers]);
}

/** Starts the server on a free loopback port. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const table = new Map<string, string[]>();
  const socket: Socket = createSocket('udp4');
  let queries = 0;
  socket.on('message', (msg: Buffer, from: RemoteInfo) => {
    const reply = answer(msg, table);
    if (!reply) return;
    queries++;
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const port = socket.address().port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    setTxt(name, values) {
      const key = name.toLowerCase().replace(/\.$/, '');
      if (values === null) table.delete(key);
      else table.set(key, values);
    },
    get queries() {
      return queries;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
