export function workspaceDirs(root: string): string[];
