// Types for runtime.mjs, for the tests that read it.

/** The pinned runtime version (the root package.json's `node` devDependency). */
export declare const RUNTIME_VERSION: string;
/** Its major. */
export declare const RUNTIME_MAJOR: number;

/** Stops the process with a clear message when it runs on an older node. */
export declare function requireRuntime(command: string): void;
