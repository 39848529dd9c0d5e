// Pure: the method table's source: the service's ts-proto grpc-js definition with the fast
// codecs on its hot methods (the client's requestSerialize and the server's responseSerialize
// fall back to ts-proto for values the encoders decline; the client's responseDeserialize for
// bytes the decoder declines).
import { lowerFirst } from './codec-plan.mjs';
import { HEADER, importPath, messageOf } from './emit-common.mjs';

/** The method table file for `plan`; `codecFiles` names the encoders and decoders files. */
export function emitMethodTable(plan, outFile, wireDir, codecFiles) {
  const definition = `${plan.name}Service`;
  const table = `${lowerFirst(plan.name)}Methods`;
  const typeOf = (typeName) => messageOf(plan, typeName).tsName;
  const requests = plan.methods.map((m) => typeOf(m.request));
  const responses = plan.methods.map((m) => typeOf(m.response));
  const encoded = [...new Set([...responses, ...requests])];
  const decoded = [...new Set(responses)];
  const entries = plan.methods.map((method) => {
    const generated = `${definition}.${method.property}`;
    return `  ${method.property}: {
    ...${generated},
    requestSerialize: withFallback(encode${typeOf(method.request)}, ${generated}.requestSerialize),
    responseSerialize: withFallback(encode${typeOf(method.response)}, ${generated}.responseSerialize),
    responseDeserialize: decode${typeOf(method.response)},
  },`;
  });
  return `${HEADER}/**
 * ${plan.typeName}'s methods: ts-proto's grpc-js definition (paths, request
 * decoders, streams), with the fast codecs on the requests and answers of
 * ${plan.methods.map((m) => m.name).join(' and ')}.
 */
import { ${definition} } from '${importPath(outFile, plan.file)}';
import { ${encoded.map((t) => `encode${t}`).join(', ')} } from '${importPath(outFile, codecFiles.encoders)}';
import { ${decoded.map((t) => `decode${t}`).join(', ')} } from '${importPath(outFile, codecFiles.decoders)}';
import { withFallback } from '${wireDir}/with-fallback.js';

export const ${table}: typeof ${definition} = {
  ...${definition},
${entries.join('\n')}
};
`;
}
