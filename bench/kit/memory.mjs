// A process's resident memory from /proc (Linux). The parsing is proc-stat.mjs's.
import { readFileSync } from 'node:fs';
import { rssKbOfStatus } from './proc-stat.mjs';

/** The resident set of `pid` in MiB; throws once it has exited. */
export const rssMiB = (pid) => rssKbOfStatus(readFileSync(`/proc/${pid}/status`, 'utf8')) / 1024;
