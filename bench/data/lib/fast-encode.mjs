// PROTOTYPE for the report's proposal (not used by the service): a one-buffer encoder for
// ListItemsResponse / GetItemResponse that produces the same bytes as ts-proto's
// `Buffer.from(X.encode(m).finish())` without BinaryWriter's fork/join chunk copies, one
// TextEncoder allocation per string, and the final Buffer.from copy. Returns undefined for
// values it does not handle (negative numbers), so a caller can fall back to ts-proto.

const varintLen = (n) => {
  let len = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    len++;
  }
  return len;
};
function writeVarint(buf, pos, n) {
  while (n >= 128) {
    buf[pos++] = (n % 128) | 128;
    n = Math.floor(n / 128);
  }
  buf[pos++] = n;
  return pos;
}
const ok = (n) => Number.isSafeInteger(n) && n >= 0;

function timestamp(date) {
  const ms = date.getTime();
  return { seconds: Math.trunc(ms / 1_000), nanos: (ms % 1_000) * 1_000_000 };
}
const tsLen = (t) =>
  (t.seconds ? 1 + varintLen(t.seconds) : 0) + (t.nanos ? 1 + varintLen(t.nanos) : 0);

/** Size of an Item's body, or -1 if unsupported; fills `scratch` with reusable per-field data. */
function itemSize(item, scratch) {
  if (!ok(item.id) || !ok(item.priceCents) || !ok(item.version)) return -1;
  let size = 0;
  if (item.id !== 0) size += 1 + varintLen(item.id);
  const title = item.title === '' ? 0 : Buffer.byteLength(item.title);
  if (title) size += 1 + varintLen(title) + title;
  if (item.priceCents !== 0) size += 1 + varintLen(item.priceCents);
  const category = item.categoryId === '' ? 0 : Buffer.byteLength(item.categoryId);
  if (category) size += 1 + varintLen(category) + category;
  const description = item.description === '' ? 0 : Buffer.byteLength(item.description);
  if (description) size += 1 + varintLen(description) + description;
  const created = item.createTime === undefined ? undefined : timestamp(item.createTime);
  const updated = item.updateTime === undefined ? undefined : timestamp(item.updateTime);
  if (
    (created && !(ok(created.seconds) && ok(created.nanos))) ||
    (updated && !(ok(updated.seconds) && ok(updated.nanos)))
  )
    return -1;
  const createdLen = created ? tsLen(created) : 0;
  const updatedLen = updated ? tsLen(updated) : 0;
  if (created) size += 1 + varintLen(createdLen) + createdLen;
  if (updated) size += 1 + varintLen(updatedLen) + updatedLen;
  if (item.version !== 0) size += 1 + varintLen(item.version);
  Object.assign(scratch, {
    title,
    category,
    description,
    created,
    updated,
    createdLen,
    updatedLen,
    size,
  });
  return size;
}

function writeTs(buf, pos, tag, t, len) {
  buf[pos++] = tag;
  pos = writeVarint(buf, pos, len);
  if (t.seconds) pos = writeVarint(buf, ((buf[pos] = 8), pos + 1), t.seconds);
  if (t.nanos) pos = writeVarint(buf, ((buf[pos] = 16), pos + 1), t.nanos);
  return pos;
}

function writeItem(buf, pos, item, s) {
  if (item.id !== 0) pos = writeVarint(buf, ((buf[pos] = 8), pos + 1), item.id);
  if (s.title) {
    buf[pos++] = 18;
    pos = writeVarint(buf, pos, s.title);
    pos += buf.write(item.title, pos);
  }
  if (item.priceCents !== 0) pos = writeVarint(buf, ((buf[pos] = 24), pos + 1), item.priceCents);
  if (s.category) {
    buf[pos++] = 34;
    pos = writeVarint(buf, pos, s.category);
    pos += buf.write(item.categoryId, pos);
  }
  if (s.description) {
    buf[pos++] = 42;
    pos = writeVarint(buf, pos, s.description);
    pos += buf.write(item.description, pos);
  }
  if (s.created) pos = writeTs(buf, pos, 50, s.created, s.createdLen);
  if (s.updated) pos = writeTs(buf, pos, 58, s.updated, s.updatedLen);
  if (item.version !== 0) pos = writeVarint(buf, ((buf[pos] = 64), pos + 1), item.version);
  return pos;
}

function stringsSize(tag1, strings) {
  let size = 0;
  const lens = strings.map((v) => Buffer.byteLength(v));
  for (const len of lens) size += 1 + varintLen(len) + len;
  return { size, lens };
}
function writeStrings(buf, pos, tag, strings, lens) {
  for (let i = 0; i < strings.length; i++) {
    buf[pos++] = tag;
    pos = writeVarint(buf, pos, lens[i]);
    pos += buf.write(strings[i], pos);
  }
  return pos;
}

/** ListItemsResponse -> Buffer, or undefined to fall back. */
export function encodeListItemsResponse(message) {
  const scratch = message.items.map(() => ({}));
  let size = 0;
  for (let i = 0; i < message.items.length; i++) {
    const body = itemSize(message.items[i], scratch[i]);
    if (body < 0) return undefined;
    size += 1 + varintLen(body) + body;
  }
  const token = message.nextPageToken === '' ? 0 : Buffer.byteLength(message.nextPageToken);
  if (token) size += 1 + varintLen(token) + token;
  const tags = stringsSize(26, message.tags);
  size += tags.size;
  const buf = Buffer.allocUnsafe(size);
  let pos = 0;
  for (let i = 0; i < message.items.length; i++) {
    buf[pos++] = 10;
    pos = writeVarint(buf, pos, scratch[i].size);
    pos = writeItem(buf, pos, message.items[i], scratch[i]);
  }
  if (token) {
    buf[pos++] = 18;
    pos = writeVarint(buf, pos, token);
    pos += buf.write(message.nextPageToken, pos);
  }
  pos = writeStrings(buf, pos, 26, message.tags, tags.lens);
  if (pos !== size) throw new Error(`size mismatch ${pos} != ${size}`);
  return buf;
}

/** GetItemResponse -> Buffer, or undefined to fall back. */
export function encodeGetItemResponse(message) {
  let size = 0;
  const scratch = {};
  if (message.item) {
    const body = itemSize(message.item, scratch);
    if (body < 0) return undefined;
    size += 1 + varintLen(body) + body;
  }
  const tags = stringsSize(18, message.tags);
  size += tags.size;
  const buf = Buffer.allocUnsafe(size);
  let pos = 0;
  if (message.item) {
    buf[pos++] = 10;
    pos = writeVarint(buf, pos, scratch.size);
    pos = writeItem(buf, pos, message.item, scratch);
  }
  pos = writeStrings(buf, pos, 18, message.tags, tags.lens);
  return buf;
}
