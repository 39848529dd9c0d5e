/**
 * The entry `strata start` runs the service from (service-process.ts): the composition root,
 * stopped gracefully when the `strata` process that started it is gone (its IPC channel closes).
 */
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
// The channel alone must not keep the service running once it has closed its server.
process.channel?.unref();

await import('../main.js');
