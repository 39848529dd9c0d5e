#!/usr/bin/env node
// Prints the self-time summary of a .cpuprofile (any service's; the groups cover them all).
// Usage: node bench/kit/summarise-profile.mjs <file.cpuprofile> [requests] [fromUs toUs]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { profileMarkdown, summariseProfile } from './profile-summary.mjs';

const [file, requests, fromUs, toUs] = process.argv.slice(2);
if (!file) {
  console.error('usage: summarise-profile.mjs <file.cpuprofile> [requests] [fromUs toUs]');
  process.exit(64);
}
const summary = summariseProfile(JSON.parse(readFileSync(file, 'utf8')), {
  fromUs: fromUs ? Number(fromUs) : -Infinity,
  toUs: toUs ? Number(toUs) : Infinity,
});
console.log(profileMarkdown(basename(file), summary, { requests: Number(requests) || undefined }));
