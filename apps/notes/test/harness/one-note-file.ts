/** A notes file holding one note, as the store's tests write it before opening the store. */
export const ONE_NOTE = `${JSON.stringify({
  version: 1,
  notes: [{ id: 1, author: 'Ada', text: 'First', createdAt: '2025-01-01T00:00:00.000Z' }],
})}\n`;
