// What the render profile (profile.mjs) asks of the kit's summary beyond self time: whose time
// node core, builtins and unplaced JS really are (charged to their nearest caller that owns
// time), and the inclusive time of the functions a render or a read goes through.
export const RENDER_NOT_OWNERS = [
  'node core (other)',
  'builtins (JSON, RegExp, String …)',
  'other JS',
];

const fn = (label, name, url) => ({ label, name, url });

export const RENDER_INCLUSIVE = [
  fn('renderDocument (whole document render, sync parts)', 'renderDocument', /render-document/),
  fn('React performWork (render work)', 'performWork', /react-dom/),
  fn('React renderElement', 'renderElement', /react-dom/),
  fn('React writeChunk / flush', 'flushCompletedQueues', /react-dom/),
  fn('jsonForScript (hydration + boot JSON)', 'jsonForScript', /safe-json/),
  fn('inlineScript', 'inlineScript', /segment-source/),
  fn('SegmentView', 'SegmentView', /segment-tree/),
  fn('items page component', 'component', /bench-routes/),
  fn('formatPrice', 'formatPrice', /services/),
  fn('renderPayload', 'renderPayload', /render-payload/),
  fn('ListItemsResponse.decode (ts-proto)', 'decode', /catalog_service\.js/),
  fn('Item.decode (ts-proto)', 'decode', /catalog\.js$/),
  fn('longToNumber (int64 → number)', 'longToNumber', /gen/),
  fn('grpc-js makeUnaryRequest', 'makeUnaryRequest', /grpc-js/),
  fn('traceIdOf (random trace id)', 'traceIdOf', /request-context/),
  fn('encodeRecord (payload JSON)', 'encodeRecord', /payload-records/),
  fn('ts-proto encode (data service)', 'encode', /gen/),
  fn('grpc-js Http2SubchannelCall handlers', 'handleResponseData', /grpc-js/),
  fn('loader (bench-items)', 'loader', /bench-routes/),
  fn('runLoader', 'runLoader', /run-loader/),
  fn('Fastify onRequest → handler (runPreParsing …)', 'runPreParsing', /fastify/),
  fn('fastify reply send', 'onSendEnd', /fastify/),
  fn('http parserOnHeadersComplete', 'parserOnHeadersComplete', /_http_common|http/),
  fn('Socket write (writeGeneric / writev)', 'writevGeneric', /./),
];
