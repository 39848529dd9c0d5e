/**
 * /notes/stats: a deliberately slow page. Its totals take NOTES_STATS_DELAY (the shell and the
 * loading view stream first), and the per-author tally streams in after the same delay again.
 */
import { Await, segment, type DeferredRef } from '@strata/web';
import {
  busiestAuthors,
  noteTotals,
  type AuthorCount,
  type NoteTotals,
} from '../domain/note-stats.js';
import type { NotesServices } from '../services.js';
import { NoteTime } from './note-date.js';
import { NotesError } from './notes-layout.js';

/** Resolves with `value` after `ms`, or rejects when the request is abandoned. */
function after<T>(ms: number, value: () => T, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => resolve(value()), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

interface StatsData {
  readonly totals: NoteTotals;
  readonly busiest: DeferredRef<AuthorCount[]>;
}

/** /notes/stats */
export const noteStatsPage = segment<StatsData, NotesServices>({
  id: 'note-stats',
  path: 'stats',
  kind: 'page',
  async loader({ services, tag, defer, signal }) {
    const { notes, tags } = await services.notes.list();
    tag(...tags);
    const delay = services.statsDelayMs;
    const totals = await after(delay, () => noteTotals(notes), signal);
    const busiest = defer(
      'busiest',
      after(delay, () => busiestAuthors(notes, 5), signal),
    );
    return { totals, busiest };
  },
  component: ({ data: { totals, busiest } }) => (
    <section className="stats">
      <h1>Stats</h1>
      <p className="totals">
        <strong>{totals.notes}</strong> notes by <strong>{totals.authors}</strong> authors.
        {totals.latest ? (
          <>
            {' '}
            Latest: <NoteTime iso={totals.latest} />.
          </>
        ) : null}
      </p>
      <h2>Busiest authors</h2>
      <Await value={busiest} fallback={<p className="busiest-loading">Tallying authors…</p>}>
        {(authors) => (
          <ol className="busiest">
            {authors.map((entry) => (
              <li key={entry.author}>
                {entry.author}: {entry.notes}
              </li>
            ))}
          </ol>
        )}
      </Await>
    </section>
  ),
  loading: () => <p className="stats-loading">Counting the notes…</p>,
  error: NotesError,
});
