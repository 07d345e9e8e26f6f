import express from 'express';
import request from 'supertest';
import { sendReadOnce } from './sendReadOnce';

function appSending(body: () => { resources: object; graph?: unknown }) {
  const app = express();
  app.get('/read', (req, res, next) => {
    sendReadOnce(req, res, body()).catch(next);
  });
  return app;
}

const rawBody = (res: request.Response, done: (e: any, b: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('sendReadOnce', () => {
  const resources = Array.from({ length: 1_234 }, (_, i) => ({
    metadata: { name: `pod-${i}`, labels: { 'app.kubernetes.io/name': 'web' } },
    spec: { dropped: undefined, containers: [{ name: 'web' }] },
  }));
  const read = {
    entityRef: 'component:default/shop',
    resources,
    graph: { nodes: resources.map((_, i) => ({ id: `n${i}` })), roots: [] },
    health: { status: 'Healthy' },
    errors: [],
    fetchedAt: new Date(0),
    skipped: undefined,
  };

  it('answers what res.json would, to clients with and without gzip', async () => {
    const app = appSending(() => read);
    const plain = await request(app)
      .get('/read')
      .set('accept-encoding', 'identity')
      .buffer(true)
      .parse(rawBody);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/application\/json/);
    expect(plain.body.toString()).toBe(JSON.stringify(read));
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);

    const zipped = await request(app)
      .get('/read')
      .set('accept-encoding', 'gzip, deflate')
      .buffer(true)
      .parse(rawBody);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    // supertest has inflated it
    expect(zipped.body.toString()).toBe(JSON.stringify(read));
  });

  it('serializes one read once for all its viewers, and anew for another answer around it', async () => {
    let serialized = 0;
    const counted = [
      {
        toJSON() {
          serialized += 1;
          return { kind: 'Pod' };
        },
      },
    ];
    let entityRef = 'component:default/shop';
    const app = appSending(() => ({ entityRef, resources: counted }));
    const viewers = await Promise.all(
      Array.from({ length: 5 }, () => request(app).get('/read')),
    );
    expect(viewers.map(v => v.body)).toEqual(
      Array(5).fill({ entityRef, resources: [{ kind: 'Pod' }] }),
    );
    expect(serialized).toBe(1);

    entityRef = 'component:default/other';
    const other = await request(app).get('/read');
    expect(other.body.entityRef).toBe('component:default/other');
    expect(serialized).toBe(2);
  });
});
