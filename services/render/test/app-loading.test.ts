/**
 * The render service serves whichever app RENDER_APP names, and refuses, with a message that
 * says why, a name that is not installed or a module that is not a Strata app.
 */
import { ConfigError } from '@strata/config';
import { createRouteTable, segment } from '@strata/web';
import { defineAction, type StrataApp } from '@strata/web/server';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  appShapeProblems,
  buildRenderApp,
  loadApp,
  loadRenderConfig,
  startServedApp,
} from '../src/index.js';

const silent = pino({ level: 'silent' });
// The apps are found the way an outside app is: installed for the directory render starts in.
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const config = loadRenderConfig({ ACTION_SALT: 'test-action-salt', BUILD_ID: 'test-build' });
const noAssets = { directory: undefined, scripts: [], contentHash: 'test' };

/** A root layout `site` with one page per id. */
function siteRoutes(pages: string[]) {
  const pageSegments = pages.map((id) =>
    segment({ id, path: id === 'home' ? '' : id, kind: 'page', component: () => null }),
  );
  return createRouteTable([
    segment({
      id: 'site',
      path: '',
      kind: 'layout',
      root: true,
      component: ({ children }) => children ?? null,
      children: pageSegments,
    }),
  ]);
}

describe('loading the app named by RENDER_APP', () => {
  it('refuses a module whose default export is not an app, saying what is missing', async () => {
    const loading = loadApp('@strata/config', repositoryRoot);
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(/default export is not an object/);
    expect(appShapeProblems({ name: 'Shop!', start: 1, actions: {} })).toEqual([
      '`name` must be lowercase letters, digits and dashes',
      '`start(host)` must be a function',
      '`actions`, when given, must be an array',
    ]);
  });

  it('refuses an app whose routes do not say which root layout renders not-found pages, and closes it', async () => {
    let closed = false;
    const layout = (id: string, page: string) =>
      segment({
        id,
        path: id,
        kind: 'layout',
        root: true,
        component: ({ children }) => children ?? null,
        children: [segment({ id: page, path: page, kind: 'page', component: () => null })],
      });
    const app: StrataApp<object> = {
      name: 'broken',
      start: async () => ({
        routes: createRouteTable([layout('site', 'about'), layout('admin', 'users')]),
        servicesFor: () => ({}),
        close: async () => void (closed = true),
      }),
    };
    const starting = startServedApp(app, { config, env: {}, logger: silent });
    await expect(starting).rejects.toBeInstanceOf(ConfigError);
    await expect(starting).rejects.toThrow(
      /no root layout for not-found pages: no page serves "\/" and 2 root layouts could render not-found pages \(site, admin\)/,
    );
    expect(closed).toBe(true);
  });

  it('refuses an app whose action belongs to a segment its routes lack', async () => {
    const app: StrataApp<object> = {
      name: 'stray',
      actions: [
        defineAction({
          module: 'site/notes',
          name: 'addNote',
          segment: 'guestbook',
          input: z.object({}),
          handler: async () => ({ ok: true, result: null }),
        }),
      ],
      start: async () => ({
        routes: siteRoutes(['home']),
        servicesFor: () => ({}),
        close: async () => undefined,
      }),
    };
    await expect(startServedApp(app, { config, env: {}, logger: silent })).rejects.toThrow(
      /action "addNote" belongs to segment "guestbook", which its routes lack/,
    );
    expect(appShapeProblems({ name: 'a', start: () => null, actions: [{ name: 'x' }] })).toEqual([
      'each action must name the `segment` it belongs to',
    ]);
  });

  it('refuses an app whose browser bundle lacks segments the server renders', async () => {
    const app: StrataApp<object> = {
      name: 'split',
      start: async () => ({
        routes: siteRoutes(['home', 'about']),
        servicesFor: () => ({}),
        close: async () => undefined,
      }),
    };
    const clientRoutes = siteRoutes(['home']);
    await expect(
      startServedApp(app, { config, env: {}, logger: silent, clientRoutes }),
    ).rejects.toThrow(/segments the browser bundle lacks \(they could not hydrate\): about$/);
  });

  it('finds every app of this repository whole: server and browser tables agree', async () => {
    for (const name of ['@strata/app-catalog', '@strata/app-bench', '@strata/app-notes']) {
      const { definition, clientRoutes } = await loadApp(name, repositoryRoot);
      const env = {
        RENDER_ERROR_DRILLS: 'true',
        NOTES_ERROR_DRILL: 'true',
      };
      const served = await startServedApp(definition, {
        config,
        env,
        logger: silent,
        clientRoutes,
      });
      await served.running.close();
      expect(served.running.routes.byId.size).toBeGreaterThan(1);
    }
  });

  it('serves the notes app, with its own shell, readiness and action ids', async () => {
    const { definition } = await loadApp('@strata/app-notes', repositoryRoot);
    const served = await startServedApp(definition, { config, env: {}, logger: silent });
    const app = await buildRenderApp({ config, logger: silent, served, assets: noAssets });
    try {
      const page = await app.inject('/notes');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Strata Notes</title>');
      expect(page.body).not.toContain('Catalogue');
      // Its form posts the id the service derived from ACTION_SALT.
      const addNote = served.actions.idOf({ module: 'notes/notes', name: 'addNote' });
      expect(served.actions.byId(addNote)?.name).toBe('addNote');
      expect(page.body).toContain(`value="${addNote}"`);
      // The browser reads it from the boot record, by the segment the action belongs to.
      expect(page.body).toContain(`"actions":{"note-list":{"addNote":"${addNote}"}}`);
      const ready = await app.inject('/readyz');
      expect(ready.json()).toEqual({
        status: 'ok',
        build: 'test-build',
        storage: 'memory',
        readable: true,
        cache: 'none',
      });
      // The catalogue's routes are not there: its JSON API is a not-found page of the notes app.
      const api = await app.inject('/api/items');
      expect(api.statusCode).toBe(404);
      expect(api.body).toContain('<title>Strata Notes</title>');
    } finally {
      await app.close();
      await served.running.close();
    }
  });
});
