// Pure: the fast decoders' source. One reader function per message, a switch over the tags it
// knows; any other tag, a varint too long or a truncation throws Unsupported, and the public
// decoder hands the whole message to ts-proto.
import { HEADER, importPath, messageOf, typeImports, usesTimestamps } from './emit-common.mjs';

const DEFAULTS = { int64: '0', string: "''", timestamp: 'undefined', message: 'undefined' };

function readExpression(plan, field) {
  if (field.kind === 'int64') return 'reader.uint()';
  if (field.kind === 'string') return 'reader.string()';
  if (field.kind === 'timestamp') return 'readTimestamp(reader)';
  return `read${messageOf(plan, field.messageType).tsName}(reader.nested())`;
}

function readFunction(plan, message) {
  const initial = message.fields
    .map((f) => `${f.property}: ${f.repeated ? '[]' : DEFAULTS[f.kind]}`)
    .join(', ');
  const cases = message.fields
    .map((f) => {
      const value = readExpression(plan, f);
      const store = f.repeated
        ? `message.${f.property}.push(${value})`
        : `message.${f.property} = ${value}`;
      return `      case ${f.tagValue}:\n        ${store};\n        break;`;
    })
    .join('\n');
  return `function read${message.tsName}(reader: ProtoReader): ${message.tsName} {
  const message: ${message.tsName} = { ${initial} };
  const end = reader.end;
  while (reader.pos < end) {
    switch (reader.uint()) {
${cases}
      default:
        unsupported();
    }
  }
  return message;
}`;
}

function publicDecoders(message) {
  const type = message.tsName;
  return `/** ${type} from the wire by the fast path alone (throws Unsupported where ts-proto must decode). */
export const decode${type}Fast = (buf: Buffer): ${type} => read${type}(new ProtoReader(buf));

/** ${type} from the wire, as ts-proto's decode returns it. */
export const decode${type} = withFallback(declining(decode${type}Fast), (buf: Buffer) =>
  ${type}Codec.decode(buf),
);`;
}

/** The decoders file for `plan`, written to `outFile` (a path relative to the gen root). */
export function emitDecoders(plan, outFile, wireDir) {
  const responses = [...new Set(plan.methods.map((method) => messageOf(plan, method.response)))];
  const codecImports = responses
    .map((m) => `import { ${m.tsName} as ${m.tsName}Codec } from '${importPath(outFile, m.file)}';`)
    .join('\n');
  return `${HEADER}/**
 * Fast responseDeserialize for ${plan.name}'s hot reads: straight into ts-proto's shapes, without
 * ts-proto's int64 → string → number path; anything unusual goes to ts-proto's decode.
 */
${typeImports(outFile, plan.messages)}
${codecImports}
import { ProtoReader, unsupported } from '${wireDir}/proto-reader.js';
${usesTimestamps(plan.messages) ? `import { readTimestamp } from '${wireDir}/timestamp.js';\n` : ''}import { declining, withFallback } from '${wireDir}/with-fallback.js';

${plan.messages.map((m) => readFunction(plan, m)).join('\n\n')}

${responses.map((message) => publicDecoders(message)).join('\n\n')}
`;
}
