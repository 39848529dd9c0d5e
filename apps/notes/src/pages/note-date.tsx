/**
 * A note's time, spelled out by hand in UTC: Intl's output differs between Node's and a
 * browser's ICU data, and the server's text must match what hydration renders.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "7 January 2025, 16:03 UTC". */
export function formatNoteTime(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** A <time> element for `iso`. */
export function NoteTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatNoteTime(iso)}</time>;
}
