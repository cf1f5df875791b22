import { buildApp, RENDERER_OUT, rendererStale } from '../../../scripts/build.mjs';

/** The built web client the web host serves. */
export { RENDERER_OUT };

/**
 * Builds the renderer when out/renderer is missing or older than its sources (the rule of
 * scripts/build.mjs, which `npm run web` follows too), so the tests run the web client as it is
 * in the working tree and not a stale build.
 */
export function ensureRendererBuilt(): string {
  if (rendererStale()) buildApp();
  return RENDERER_OUT;
}
