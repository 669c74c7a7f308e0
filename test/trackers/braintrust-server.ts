import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server received it. */
export interface BraintrustRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Experiment {
  id: string;
  project_id: string;
  name: string;
  /** Rows by id: inserting a row whose id is known replaces it, as Braintrust does. */
  rows: Map<string, Record<string, unknown>>;
}

/**
 * A real HTTP server on 127.0.0.1 that speaks the part of Braintrust's API the tracker uses: projects and experiments
 * found or created by name, rows stored by id, and the experiment's summary with its page URL.
 */
export class BraintrustServer {
  readonly requests: BraintrustRequest[] = [];
  readonly projects = new Map<string, { id: string; name: string }>();
  readonly experiments = new Map<string, Experiment>();
  /** When set, every request is answered with this status. */
  failWith?: number;
  /** While set, requests are received and recorded but not answered, until release(). */
  hold = false;
  private readonly held: (() => void)[] = [];
  private server?: Server;

  constructor(private readonly apiKey: string) {}

  /** Starts listening on a free port and returns the API URL. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        this.requests.push(request);
        const reply = () => {
          const [status, answer] = this.answer(request);
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer));
        };
        if (this.hold) this.held.push(reply);
        else reply();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** How many requests wait for release(). */
  get waiting(): number {
    return this.held.length;
  }

  /** Stops holding, and answers the requests held so far. */
  release(): void {
    this.hold = false;
    for (const reply of this.held.splice(0)) reply();
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(request: BraintrustRequest): [number, unknown] {
    if (this.failWith) return [this.failWith, { error: 'the test server is failing on purpose' }];
    if (request.headers.authorization !== `Bearer ${this.apiKey}`) return [401, { error: 'bad key' }];
    const body = (request.body ? JSON.parse(request.body) : {}) as Record<string, unknown>;
    const [path] = request.path.split('?') as [string];
    if (request.method === 'POST' && path === '/v1/project') {
      const name = body.name as string;
      const project = this.projects.get(name) ?? { id: `proj-${this.projects.size + 1}`, name };
      this.projects.set(name, project);
      return [200, project];
    }
    if (request.method === 'POST' && path === '/v1/experiment') {
      const known = [...this.experiments.values()].find(
        (e) => e.project_id === body.project_id && e.name === body.name,
      );
      const experiment = known ?? {
        id: `exp-${this.experiments.size + 1}`,
        project_id: body.project_id as string,
        name: body.name as string,
        rows: new Map(),
      };
      this.experiments.set(experiment.id, experiment);
      return [
        200,
        { id: experiment.id, project_id: experiment.project_id, name: experiment.name, public: false },
      ];
    }
    const insert = /^\/v1\/experiment\/([^/]+)\/insert$/.exec(path);
    const experiment = this.experiments.get(
      insert?.[1] ?? /^\/v1\/experiment\/([^/]+)\//.exec(path)?.[1] ?? '',
    );
    if (request.method === 'POST' && insert && experiment) {
      const events = body.events as Record<string, unknown>[];
      for (const event of events) experiment.rows.set(event.id as string, event);
      return [200, { row_ids: events.map((e) => e.id) }];
    }
    if (request.method === 'GET' && path.endsWith('/summarize') && experiment) {
      const project = [...this.projects.values()].find((p) => p.id === experiment.project_id);
      const projectUrl = `https://www.braintrust.dev/app/test-org/p/${project?.name ?? experiment.project_id}`;
      return [
        200,
        {
          project_name: project?.name ?? '',
          experiment_name: experiment.name,
          project_url: projectUrl,
          experiment_url: `${projectUrl}/experiments/${experiment.name}`,
        },
      ];
    }
    return [404, { error: `no route for ${request.method} ${path}` }];
  }
}
