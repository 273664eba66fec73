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

  /** The error every call of a service on `worker` rejects with (the worker is terminated after). */
  async function startError(worker: Worker): Promise<SiloError | undefined> {
    const service = createAgentsService({ worker });
    try {
      return await service.sessions().then(
        () => undefined,
        (e: SiloError) => e,
      );
    } finally {
      worker.terminate();
    }
  }

  it('a worker whose script did not load says so: no exception of its own, and when', async () => {
    for (const file of ['no-such-worker.ts', 'missing-import-worker.ts']) {
      const url = new URL(`../fixtures/${file}`, import.meta.url);
      const error = await startError(new Worker(url, { type: 'module' }));
      expect(error?.code, file).to.equal('internal');
      expect(error?.message, file).to.match(
        /^The Silo worker could not start: its script or one of its imports did not load, \d+\.\d s after it was started/,
      );
      const data = error?.data as { cause?: string; afterMs?: number } | undefined;
      expect(data?.cause, file).to.equal('load');
      expect(data?.afterMs, file).to.be.a('number');
    }
  });

  it('a worker that threw before it answered says what it threw, not that it did not load', async () => {
    const url = new URL('../fixtures/throwing-worker.ts', import.meta.url);
    const error = await startError(new Worker(url, { type: 'module' }));
    expect(error?.code).to.equal('internal');
    expect(error?.message).to.match(/^The Silo worker could not start: it threw .*thrown while starting/);
    expect((error?.data as { cause?: string } | undefined)?.cause).to.equal('threw');
  });
});
