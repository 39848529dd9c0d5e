// Pure: which messages the fast codecs cover and how each field is read and written. The fast
// path supports only the field types the hot methods' requests and responses use; any other type
// fails generation with the message and field named, so a schema change can never be silently
// half-covered.
import { ScalarType } from '@bufbuild/protobuf';

const TIMESTAMP = 'google.protobuf.Timestamp';

/** ts-proto's property name for a .proto field name (snake_case → camelCase). */
export const propertyName = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

/** The bytes of a field's tag (field number and wire type) as a varint. */
export function tagBytes(number, wireType) {
  const bytes = [];
  let value = number * 8 + wireType;
  while (value >= 128) {
    bytes.push((value % 128) | 128);
    value = Math.floor(value / 128);
  }
  bytes.push(value);
  return bytes;
}

/** The tag as the reader returns it (a number), for a decoder's switch. */
export const tagValue = (number, wireType) => number * 8 + wireType;

function fieldKind(field, where) {
  if (field.fieldKind === 'map') throw unsupported(where, 'a map');
  if (field.oneof) throw unsupported(where, 'a oneof member');
  if (field.proto.proto3Optional) throw unsupported(where, 'an optional scalar');
  const kind = field.fieldKind === 'list' ? field.listKind : field.fieldKind;
  if (kind === 'scalar') {
    if (field.scalar === ScalarType.INT64) return 'int64';
    if (field.scalar === ScalarType.INT32) return 'int32';
    if (field.scalar === ScalarType.STRING) return 'string';
    throw unsupported(where, `scalar type ${ScalarType[field.scalar].toLowerCase()}`);
  }
  if (kind === 'message') return field.message.typeName === TIMESTAMP ? 'timestamp' : 'message';
  return 'enum';
}

/** A kind as error messages name it: `int32`, `enum (pkg.Name)`. */
const kindName = (field, kind) => (kind === 'enum' ? `enum (${field.enum.typeName})` : kind);

function unsupported(where, what, why = 'which the generator does not support') {
  return new Error(
    `fast codecs: ${where} is ${what}, ${why}; ` +
      'add it to proto/scripts/fast-codecs or take the method out of proto/fast-codecs.json',
  );
}

/** The kinds written as varints (wire type 0). */
export const VARINT_KINDS = new Set(['int64', 'int32', 'enum']);
/** The kinds ts-proto writes as int32 (negatives sign-extended to ten bytes). */
export const INT32_KINDS = new Set(['int32', 'enum']);

/** A field of `message` as the codecs see it; `side` is 'request' or 'response'. */
function planField(field, message, side) {
  const where = `${message.typeName}.${field.name}`;
  const kind = fieldKind(field, where);
  const repeated = field.fieldKind === 'list';
  // ts-proto packs repeated varints, a layout the encoders do not write.
  if (repeated && (VARINT_KINDS.has(kind) || kind === 'timestamp'))
    throw unsupported(where, `a repeated ${kindName(field, kind)}`);
  if (INT32_KINDS.has(kind) && side === 'response')
    throw unsupported(
      where,
      `an ${kindName(field, kind)} in a response`,
      'which the fast decoders do not read',
    );
  const wireType = VARINT_KINDS.has(kind) ? 0 : 2;
  return {
    name: field.name,
    property: propertyName(field.name),
    number: field.number,
    kind,
    repeated,
    messageType: kind === 'message' ? field.message.typeName : undefined,
    tag: tagBytes(field.number, wireType),
    tagValue: tagValue(field.number, wireType),
  };
}

/** A message and every message its fields reach, dependencies first, each once. */
function planMessages(root, planned, side) {
  if (planned.has(root.typeName)) return;
  planned.set(root.typeName, undefined); // marks it in progress: recursive types stop here
  const fields = root.fields.map((field) => planField(field, root, side));
  root.fields.forEach((field, i) => {
    if (fields[i].kind === 'message') planMessages(field.message, planned, side);
  });
  planned.delete(root.typeName);
  planned.set(root.typeName, {
    typeName: root.typeName,
    name: root.name,
    tsName: tsTypeName(root),
    file: root.file.name,
    fields,
  });
}

/** ts-proto's name for a message: nested messages are joined with underscores. */
function tsTypeName(message) {
  return message.parent ? `${tsTypeName(message.parent)}_${message.name}` : message.name;
}

/** ts-proto's property name for a method or a service (`ListItems` → `listItems`). */
export const lowerFirst = (name) => name[0].toLowerCase() + name.slice(1);

/**
 * The plan for one service: its hot methods (named in `methodNames`); `messages`, their
 * response messages and every message those reach (encoded and decoded); `requestMessages`,
 * their request messages and what those reach beyond `messages` (only encoded).
 */
export function planService(registry, serviceName, methodNames) {
  const service = registry.getService(serviceName);
  if (!service) throw new Error(`fast codecs: no service ${serviceName} in the schema`);
  const hot = methodNames.map((name) => {
    const method = service.methods.find((m) => m.name === name);
    if (!method) throw new Error(`fast codecs: ${serviceName} has no method ${name}`);
    if (method.methodKind !== 'unary')
      throw new Error(`fast codecs: ${serviceName}.${name} is not unary`);
    return method;
  });
  const responses = new Map();
  for (const method of hot) planMessages(method.output, responses, 'response');
  // A message both sides reach is planned once, as a response message (the stricter rules).
  const reached = new Map(responses);
  for (const method of hot) planMessages(method.input, reached, 'request');
  return {
    typeName: service.typeName,
    name: service.name,
    file: service.file.name,
    methods: hot.map((method) => ({
      name: method.name,
      property: lowerFirst(method.name),
      request: method.input.typeName,
      response: method.output.typeName,
    })),
    messages: [...responses.values()],
    requestMessages: [...reached.values()].filter((m) => !responses.has(m.typeName)),
  };
}
