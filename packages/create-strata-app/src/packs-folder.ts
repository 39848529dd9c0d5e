/**
 * Local tarballs (`--packs <folder>` or STRATA_PACKS): `npm pack` names @strata/web's
 * `strata-web-<version>.tgz`; the package is read back from that name. Pure.
 */

const TARBALL = /^strata-([a-z0-9-]+?)-(\d+\.\d+\.\d+(?:-[\w.]+)?)\.tgz$/;

/** Package name → tarball file name, for the tarballs of `@strata/*` packages in `files`. */
export function strataTarballs(files: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of [...files].sort()) {
    const match = TARBALL.exec(file);
    if (match) found.set(`@strata/${match[1]}`, file);
  }
  return found;
}
