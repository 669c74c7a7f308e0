/**
 * Imports one of the suite's own modules (its helper, or a module its lineup names): JavaScript natively, TypeScript
 * through tsx, scoped to that module and what it imports, so a suite needs no build step and nothing else pays for it.
 */
export async function importModule(url: string): Promise<Record<string, unknown>> {
  if (/\.[cm]?tsx?$/.test(new URL(url).pathname)) {
    const { tsImport } = await import('tsx/esm/api');
    return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  }
  return (await import(url)) as Record<string, unknown>;
}
