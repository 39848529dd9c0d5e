import { describe, expect, it } from 'vitest';
import {
  afterOutcome,
  chooseReplica,
  NO_FAILURES,
  type EjectionPolicy,
  type ReplicaStanding,
} from './replica-choice.js';

const replica = (name: string, standing: Partial<ReplicaStanding> = {}) => ({
  name,
  state: 'ready' as const,
  active: 0,
  ejectedUntil: 0,
  ...standing,
});
const NOW = 1_000_000;

describe('chooseReplica', () => {
  it('picks the replica with the fewest calls in flight', () => {
    const replicas = [
      replica('a', { active: 3 }),
      replica('b', { active: 1 }),
      replica('c', { active: 2 }),
    ];
    for (let turn = 0; turn < 3; turn++) expect(chooseReplica(replicas, NOW, turn)?.name).toBe('b');
  });

  it('shares calls evenly between equal replicas by rotating ties', () => {
    const replicas = [replica('a'), replica('b'), replica('c')];
    const picked = [0, 1, 2, 3, 4, 5].map((turn) => chooseReplica(replicas, NOW, turn)?.name);
    expect(picked).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('prefers connected replicas, then connecting ones, over lost or ejected ones', () => {
    const lost = replica('lost', { state: 'down' });
    const ejected = replica('ejected', { ejectedUntil: NOW + 1 });
    const connecting = replica('connecting', { state: 'connecting', active: 5 });
    const busy = replica('busy', { active: 50 });
    expect(chooseReplica([lost, ejected, connecting, busy], NOW, 0)?.name).toBe('busy');
    expect(chooseReplica([lost, ejected, connecting], NOW, 0)?.name).toBe('connecting');
    // With nothing better, a lost replica is still tried (the call reopens its connection).
    expect(chooseReplica([lost], NOW, 0)?.name).toBe('lost');
  });

  it('takes an ejected replica back once its ejection is over', () => {
    const back = replica('back', { ejectedUntil: NOW });
    const busy = replica('busy', { active: 4 });
    expect(chooseReplica([busy, back], NOW, 0)?.name).toBe('back');
  });

  it('has no choice without replicas', () => {
    expect(chooseReplica([], NOW, 0)).toBeUndefined();
  });
});

describe('afterOutcome', () => {
  const policy: EjectionPolicy = { failuresToEject: 3, ejectionMs: 1000, maxEjectionMs: 3000 };

  it('ejects after failures in a row, for longer each time, up to the cap', () => {
    let record = NO_FAILURES;
    const ejections: number[] = [];
    let now = NOW;
    for (let round = 0; round < 4; round++) {
      for (let failure = 0; failure < 3; failure++)
        record = afterOutcome(record, true, now, policy);
      ejections.push(record.ejectedUntil - now);
      now = record.ejectedUntil;
    }
    expect(ejections).toEqual([1000, 2000, 3000, 3000]);
  });

  it('forgives failures broken by a success, and clears the record when the replica serves again', () => {
    let record = afterOutcome(NO_FAILURES, true, NOW, policy);
    record = afterOutcome(record, true, NOW, policy);
    record = afterOutcome(record, false, NOW, policy);
    record = afterOutcome(record, true, NOW, policy);
    expect(record.ejectedUntil).toBe(0);
    for (let failure = 0; failure < 3; failure++) record = afterOutcome(record, true, NOW, policy);
    expect(record.ejectedUntil).toBe(NOW + 1000);
    expect(afterOutcome(record, false, NOW + 1000, policy)).toEqual(NO_FAILURES);
  });

  it('does not count the failures of calls already in flight when it was ejected', () => {
    let record = NO_FAILURES;
    for (let failure = 0; failure < 3; failure++) record = afterOutcome(record, true, NOW, policy);
    expect(afterOutcome(record, true, NOW + 10, policy)).toBe(record);
  });
});
