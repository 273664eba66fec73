import { expect } from 'chai';
import { wrap } from 'comlink';
import { createAgentsService, type SiloError } from '../../../src/index.ts';
import type { PlumbingApi } from '../fixtures/plumbing-worker.ts';

describe('plumbing', () => {
  it('a module worker opens IndexedDB through idb and answers over Comlink', async () => {
    const worker = new Worker(new URL('../fixtures/plumbing-worker.ts', import.meta.url), { type: 'module' });
    const api = wrap<PlumbingApi>(worker);
    const name = `plumbing-${crypto.randomUUID()}`;
    expect(await api.roundTrip(name, 'first')).to.deep.equal({ stored: 'first', count: 1 });
    expect(await api.roundTrip(name, 'second')).to.deep.equal({ stored: 'second', count: 2 });
    worker.terminate();
    indexedDB.deleteDatabase(name);
  });
});

describe('worker lifetime', () => {
  it('a worker that answered and then throws failed; it is not one that could not start', async () => {
    const worker = new Worker(new URL('../fixtures/late-lock-worker.ts', import.meta.url), {
      type: 'module',
    });
    const service = createAgentsService({ worker });
    try {
      const error = await service.sessions().then(
        () => undefined,
        (e: SiloError) => e,
      );
      expect(error?.code).to.equal('internal');
      expect(error?.message).to.match(/^The Silo worker failed: .*thrown after init answered/);
    } finally {
      worker.terminate();
    }
  });
});
