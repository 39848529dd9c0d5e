/**
 * The notes app's route tree. Shared by the server and the browser bundle, so it imports no
 * server-only code. The browser holds the whole tree; the server leaves the error drill out
 * unless NOTES_ERROR_DRILL is on (then /notes/broken is just an id that is not found).
 */
import { createRouteTable, segment, type RouteTable } from '@strata/web';
import { errorDrillPage } from './pages/error-drill-page.js';
import { noteDetailPage } from './pages/note-detail-page.js';
import { noteListPage } from './pages/note-list-page.js';
import { noteStatsPage } from './pages/note-stats-page.js';
import { NotesLayout, NotesNotFound } from './pages/notes-layout.js';
import { notesSection } from './pages/notes-section.js';
import type { NotesServices } from './services.js';

/** Id of the root layout; it serves `/`, so it also renders the not-found page for unknown URLs. */
export const NOTES_ROOT = 'notes';

/** / has nothing of its own: the guestbook is the home page. */
const home = segment<never, NotesServices>({
  id: 'notes-home',
  path: '',
  kind: 'page',
  loader: ({ redirect }) => redirect('/notes'),
  component: () => null,
});

/** The route table, with or without the error drill page. */
export function notesRoutes(options: { errorDrill: boolean }): RouteTable<NotesServices> {
  const pages = [noteListPage, noteStatsPage, noteDetailPage];
  return createRouteTable<NotesServices>([
    segment<null, NotesServices>({
      id: NOTES_ROOT,
      path: '',
      kind: 'layout',
      root: true,
      component: NotesLayout,
      notFound: NotesNotFound,
      children: [home, notesSection(options.errorDrill ? [...pages, errorDrillPage] : pages)],
    }),
  ]);
}
