// Pure: the method table's source: the service's ts-proto grpc-js definition with the fast
// codecs on its hot methods' answers (the server's responseSerialize falls back to ts-proto for
// values the encoder declines; the client's responseDeserialize for bytes the decoder declines).
import { HEADER, importPath, messageOf } from './emit-common.mjs';

const lowerFirst = (name) => name[0].toLowerCase() + name.slice(1);

/** The method table file for `plan`; `codecFiles` names the encoders and decoders files. */
export function emitMethodTable(plan, outFile, wireDir, codecFiles) {
  const definition = `${plan.name}Service`;
  const table = `${lowerFirst(plan.name)}Methods`;
  const types = [...new Set(plan.methods.map((m) => messageOf(plan, m.response).tsName))];
  const entries = plan.methods.map((method) => {
    const type = messageOf(plan, method.response).tsName;
    const generated = `${definition}.${method.property}`;
    return `  ${method.property}: {
    ...${generated},
    responseSerialize: withFallback(encode${type}, ${generated}.responseSerialize),
    responseDeserialize: decode${type},
  },`;
  });
  return `${HEADER}/**
 * ${plan.typeName}'s methods: ts-proto's grpc-js definition (paths, request codecs, streams), with
 * the fast codecs on the answers of ${plan.methods.map((m) => m.name).join(' and ')}.
 */
import { ${definition} } from '${importPath(outFile, plan.file)}';
import { ${types.map((t) => `encode${t}`).join(', ')} } from '${importPath(outFile, codecFiles.encoders)}';
import { ${types.map((t) => `decode${t}`).join(', ')} } from '${importPath(outFile, codecFiles.decoders)}';
import { withFallback } from '${wireDir}/with-fallback.js';

export const ${table}: typeof ${definition} = {
  ...${definition},
${entries.join('\n')}
};
`;
}
