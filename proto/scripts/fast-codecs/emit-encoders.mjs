// Pure: the one-pass encoders' source. Per message a layout (the sizes the sizing pass measured,
// reused by the writing pass), a measure function that declines (-1) values only ts-proto
// writes, and a write function; output is byte-identical to ts-proto's (fields in number order,
// proto3 defaults skipped).
import { INT32_KINDS, VARINT_KINDS } from './codec-plan.mjs';
import {
  HEADER,
  allMessages,
  messageOf,
  typeImports,
  usesTimestamps,
  writeTag,
} from './emit-common.mjs';

const layoutType = (plan, field) => {
  if (field.kind === 'string') return field.repeated ? 'number[]' : 'number';
  if (field.kind === 'timestamp') return 'number';
  const layout = `${messageOf(plan, field.messageType).tsName}Layout`;
  return field.repeated ? `${layout}[]` : `${layout} | undefined`;
};
const layoutInitial = (field) => {
  if (field.repeated) return '[]';
  return { string: '0', timestamp: 'NO_TIMESTAMP', message: 'undefined' }[field.kind];
};
// Varint fields keep nothing in the layout: the writing pass writes the value as it is.
const layoutFields = (message) => message.fields.filter((f) => !VARINT_KINDS.has(f.kind));

function layoutDeclaration(plan, message) {
  const name = `${message.tsName}Layout`;
  const members = layoutFields(message).map((f) => `  ${f.property}: ${layoutType(plan, f)};`);
  const initial = layoutFields(message).map((f) => `${f.property}: ${layoutInitial(f)}`);
  return `interface ${name} {
  bodySize: number;
${members.join('\n')}
}
const new${name} = (): ${name} => ({ bodySize: 0, ${initial.join(', ')} });`;
}

// Each measures one field into `size` (and the layout); `return UNSUPPORTED` declines.
function measureField(plan, field) {
  const value = `message.${field.property}`;
  const tagSize = field.tag.length;
  const into = `layout.${field.property}`;
  if (field.kind === 'int64')
    return `if (!isEncodableUint(${value})) return UNSUPPORTED;
  if (${value} !== 0) size += ${tagSize} + varintSize(${value});`;
  if (INT32_KINDS.has(field.kind))
    return `if (!isEncodableInt32(${value})) return UNSUPPORTED;
  if (${value} !== 0) size += ${tagSize} + varintSize(${value});`;
  if (field.kind === 'string' && field.repeated)
    return `const ${field.property} = measureStrings(${value});
  if (!${field.property}) return UNSUPPORTED;
  ${into} = ${field.property};
  for (let i = 0; i < ${field.property}.length; i++) size += ${tagSize} + delimitedSize(${field.property}[i]!);`;
  if (field.kind === 'string')
    return `const ${field.property} = stringSize(${value});
  if (${field.property} < 0) return UNSUPPORTED;
  ${into} = ${field.property};
  if (${field.property}) size += ${tagSize} + delimitedSize(${field.property});`;
  if (field.kind === 'timestamp')
    return `const ${field.property} = timestampMs(${value});
  if (${field.property} === UNSUPPORTED_TIMESTAMP) return UNSUPPORTED;
  ${into} = ${field.property};
  if (${field.property} !== NO_TIMESTAMP) size += ${tagSize} + timestampSize(${field.property});`;
  const type = messageOf(plan, field.messageType).tsName;
  if (field.repeated)
    return `const ${field.property} = ${value};
  if (!Array.isArray(${field.property})) return UNSUPPORTED;
  for (let i = 0; i < ${field.property}.length; i++) {
    const inner = new${type}Layout();
    const innerSize = measure${type}(${field.property}[i]!, inner);
    if (innerSize < 0) return UNSUPPORTED;
    ${into}.push(inner);
    size += ${tagSize} + delimitedSize(innerSize);
  }`;
  return `if (${value} !== undefined) {
    if (${value} === null) return UNSUPPORTED;
    const inner = new${type}Layout();
    const innerSize = measure${type}(${value}, inner);
    if (innerSize < 0) return UNSUPPORTED;
    ${into} = inner;
    size += ${tagSize} + delimitedSize(innerSize);
  }`;
}

function writeField(plan, field) {
  const value = `message.${field.property}`;
  const sized = `layout.${field.property}`;
  const tag = writeTag(field.tag);
  if (VARINT_KINDS.has(field.kind))
    return `if (${value} !== 0) { ${tag} pos = writeVarint(buf, pos, ${value}); }`;
  if (field.kind === 'string' && field.repeated)
    return `for (let i = 0; i < ${value}.length; i++) { ${tag} pos = writeString(buf, pos, ${value}[i]!, ${sized}[i]!); }`;
  if (field.kind === 'string')
    return `if (${sized}) { ${tag} pos = writeString(buf, pos, ${value}, ${sized}); }`;
  if (field.kind === 'timestamp')
    return `if (${sized} !== NO_TIMESTAMP) { ${tag} pos = writeTimestamp(buf, pos, ${sized}); }`;
  const type = messageOf(plan, field.messageType).tsName;
  const writeOne = (item, layout) =>
    `${tag} pos = writeVarint(buf, pos, ${layout}.bodySize); pos = write${type}(buf, pos, ${item}, ${layout});`;
  if (field.repeated)
    return `for (let i = 0; i < ${value}.length; i++) { ${writeOne(`${value}[i]!`, `${sized}[i]!`)} }`;
  return `if (${sized} !== undefined) { ${writeOne(`${value}!`, sized)} }`;
}

function messageFunctions(plan, message) {
  const type = message.tsName;
  const fields = [...message.fields].sort((a, b) => a.number - b.number);
  return `/** Fills \`layout\` and returns the ${type} body's size, or -1 for values ts-proto must encode. */
function measure${type}(message: ${type}, layout: ${type}Layout): number {
  let size = 0;
  ${fields.map((f) => measureField(plan, f)).join('\n  ')}
  layout.bodySize = size;
  return size;
}

/** Writes the ${type} body measured into \`layout\` at \`pos\`; returns the position after it. */
function write${type}(buf: Buffer, pos: number, message: ${type}, layout: ${type}Layout): number {
  ${fields.map((f) => writeField(plan, f)).join('\n  ')}
  return pos;
}`;
}

const publicEncoder = (
  message,
) => `/** ${message.tsName} → wire bytes, or undefined to fall back to ts-proto. */
export function encode${message.tsName}(message: ${message.tsName}): Buffer | undefined {
  const layout = new${message.tsName}Layout();
  const size = measure${message.tsName}(message, layout);
  if (size < 0) return undefined;
  const buf = Buffer.allocUnsafe(size);
  return checkedSize(buf, write${message.tsName}(buf, 0, message, layout));
}`;

/** The encoders file for `plan`, written to `outFile` (a path relative to the gen root). */
export function emitEncoders(plan, outFile, wireDir) {
  const messages = allMessages(plan);
  const encoded = [
    ...new Set([
      ...plan.methods.map((method) => messageOf(plan, method.response)),
      ...plan.methods.map((method) => messageOf(plan, method.request)),
    ]),
  ];
  const int32s = messages.some((m) => m.fields.some((f) => INT32_KINDS.has(f.kind)));
  const timestamps = usesTimestamps(messages)
    ? `import {\n  NO_TIMESTAMP,\n  UNSUPPORTED_TIMESTAMP,\n  timestampMs,\n  timestampSize,\n  writeTimestamp,\n} from '${wireDir}/timestamp.js';\n`
    : '';
  return `${HEADER}/**
 * One-pass requestSerialize and responseSerialize for ${plan.name}'s hot reads: every field
 * measured first, one Buffer allocated, strings written straight into it (ts-proto's writer
 * copies every nested message at join() and the whole message again at finish()). Each returns
 * undefined for values it does not handle; the serializer then uses ts-proto.
 */
${typeImports(outFile, messages)}
${timestamps}import {
  checkedSize,
  delimitedSize,
${int32s ? '  isEncodableInt32,\n' : ''}  isEncodableUint,
  measureStrings,
  stringSize,
  varintSize,
  writeString,
  writeVarint,
} from '${wireDir}/varint.js';

const UNSUPPORTED = -1;

${messages.map((m) => layoutDeclaration(plan, m)).join('\n\n')}

${messages.map((m) => messageFunctions(plan, m)).join('\n\n')}

${encoded.map(publicEncoder).join('\n\n')}
`;
}
