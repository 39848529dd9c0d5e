/**
 * Where the cache remembers each segment's shape (the names its loader reads) per build: in
 * process first, then in the shared store, so a replica that never ran a loader can still find
 * what another replica cached. Store failures are swallowed here (the caller only loses reuse).
 */
import type { SegmentStore } from './segment-store.js';
import {
  mergeShapes,
  shapeFromMembers,
  shapeToMembers,
  type SegmentShape,
} from './segment-shape.js';

/** The shapes known to this replica. */
export interface ShapeRegistry {
  /** The known shape, 'unavailable' when the store failed, null when nobody has learned it. */
  get(build: string, segmentId: string): Promise<SegmentShape | 'unavailable' | null>;
  /** Adds what one run read; returns the merged shape. */
  learn(build: string, segmentId: string, next: SegmentShape): Promise<SegmentShape>;
}

// Builds × segments this process remembers; beyond, the oldest are asked of the store again.
const MAX_SHAPES = 4096;

/** Creates a registry over `store`. */
export function createShapeRegistry(store: SegmentStore): ShapeRegistry {
  const known = new Map<string, SegmentShape>();
  const remember = (id: string, shape: SegmentShape) => {
    known.delete(id);
    known.set(id, shape);
    for (const [oldest] of known) {
      if (known.size <= MAX_SHAPES) break;
      known.delete(oldest);
    }
  };

  return {
    async get(build, segmentId) {
      const id = `${build}\u0000${segmentId}`;
      const local = known.get(id);
      if (local) return local;
      let members: string[];
      try {
        members = await store.readShape(build, segmentId);
      } catch {
        return 'unavailable';
      }
      const shape = shapeFromMembers(members);
      if (shape) remember(id, shape);
      return shape;
    },
    async learn(build, segmentId, next) {
      const id = `${build}\u0000${segmentId}`;
      const { shape, changed } = mergeShapes(known.get(id) ?? null, next);
      if (!changed) return shape;
      remember(id, shape);
      try {
        await store.addToShape(build, segmentId, shapeToMembers(shape));
      } catch {
        // Another lookup will add the names again; the local copy already has them.
      }
      return shape;
    },
  };
}
