export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly license?: string;
  readonly files?: readonly string[];
  readonly exports?: Record<string, unknown>;
  readonly bin?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}
export function publishableWorkspaces(root: string): { dir: string; manifest: PackageManifest }[];
