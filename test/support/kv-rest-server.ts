/**
 * A local server that speaks the Upstash REST protocol (POST a command as a JSON array to `/`, or
 * an array of them to `/pipeline`; bearer token; base64 results on request) over the machine's real
 * Redis, so that the @upstash/redis client is exercised end to end without the internet.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

type RedisValue = string | number | null | RedisValue[];

function encode(value: RedisValue, base64: boolean): RedisValue {
  if (!base64) return value;
  if (typeof value === 'string')
    return value === 'OK' ? value : Buffer.from(value, 'utf8').toString('base64');
  if (Array.isArray(value)) return value.map((item) => encode(item, base64));
  return value;
}

export interface KvRestServer {
  url: string;
  token: string;
  /** Requests answered, for assertions. */
  commands: string[][];
  /** Makes the server answer 503 to everything (an outage). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

export async function startKvRestServer(
  redisUrl: string,
  token = 'test-kv-token',
): Promise<KvRestServer> {
  const prefix = `kvrest:${Math.random().toString(36).slice(2)}:`;
  const redis = new Redis(redisUrl, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
  const commands: string[][] = [];
  let down = false;
  const run = async (command: string[]): Promise<{ result?: RedisValue; error?: string }> => {
    commands.push(command);
    const [name, ...args] = command;
    try {
      return { result: (await redis.call(name!, ...args)) as RedisValue };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  /** One request, its body read: a thrown error (a body that is not JSON) is answered 500, never left unhandled. */
  const respond = async (req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> => {
    if (down) return void res.writeHead(503).end('{"error":"down"}');
    if (req.headers.authorization !== `Bearer ${token}`)
      return void res.writeHead(401).end('{"error":"Unauthorized"}');
    const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    const body = JSON.parse(raw.toString('utf8') || '[]') as string[] | string[][];
    res.setHeader('content-type', 'application/json');
    const answer = async (command: string[]) => {
      const out = await run(command.map(String));
      return out.error ? { error: out.error } : { result: encode(out.result ?? null, base64) };
    };
    if (req.url?.startsWith('/pipeline') || req.url?.startsWith('/multi-exec')) {
      const results = [];
      for (const command of body as string[][]) results.push(await answer(command));
      return void res.end(JSON.stringify(results));
    }
    const single = await answer(body as string[]);
    res.writeHead(single.error ? 400 : 200).end(JSON.stringify(single));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      respond(req, res, Buffer.concat(chunks)).catch((error: unknown) => {
        res
          .writeHead(500)
          .end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    commands,
    setDown: (value) => {
      down = value;
    },
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      redis.disconnect();
    },
  };
}
