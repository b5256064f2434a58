/**
 * Local stand-ins for Google and GitHub sign-in: a real OAuth 2.0 / OIDC server (oauth2-mock-server)
 * for both providers' authorize and token endpoints, plus GitHub's REST endpoints (/user,
 * /user/emails) beside it, which accept only that server's access tokens. Tests set who signs in
 * next and point the service at them with `env()`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';

export interface GoogleIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface GithubIdentity {
  id: number;
  login: string;
  name: string;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export interface OAuthProviders {
  issuer: string;
  githubUrl: string;
  /** The service's environment for both providers (with outbound requests to loopback allowed). */
  env(): Record<string, string>;
  /** Who the OIDC userinfo endpoint (Google) answers with next. */
  nextGoogle(identity: GoogleIdentity): void;
  /** Who GitHub's REST endpoints answer with next. */
  nextGithub(identity: GithubIdentity): void;
  /** Every access token GitHub's endpoints accepted, in order. */
  githubTokensSeen: string[];
  stop(): Promise<void>;
}

export async function startOAuthProviders(): Promise<OAuthProviders> {
  const oauth = new OAuth2Server();
  await oauth.issuer.keys.generate('RS256');
  await oauth.start(0, '127.0.0.1');
  let google: GoogleIdentity | undefined;
  let github: GithubIdentity | undefined;
  const githubTokensSeen: string[] = [];
  oauth.service.on('beforeUserinfo', (response: { body: unknown }) => {
    response.body = google;
  });

  const githubServer: Server = createServer((req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const payload = token.split('.')[1];
    const claims = payload
      ? (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss?: string })
      : {};
    if (claims.iss !== oauth.issuer.url || !github) {
      res.writeHead(401).end('{"message":"Bad credentials"}');
      return;
    }
    githubTokensSeen.push(token);
    res.setHeader('content-type', 'application/json');
    if (req.url === '/user')
      res.end(JSON.stringify({ id: github.id, login: github.login, name: github.name }));
    else if (req.url === '/user/emails') res.end(JSON.stringify(github.emails));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => githubServer.listen(0, '127.0.0.1', resolve));

  const issuer = oauth.issuer.url!;
  const githubUrl = `http://127.0.0.1:${(githubServer.address() as AddressInfo).port}`;
  return {
    issuer,
    githubUrl,
    env: () => ({
      OUTBOUND_ALLOW_PRIVATE: '1',
      GOOGLE_CLIENT_ID: 'google-client',
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_AUTHORIZATION_URL: `${issuer}/authorize`,
      GOOGLE_TOKEN_URL: `${issuer}/token`,
      GOOGLE_USERINFO_URL: `${issuer}/userinfo`,
      GITHUB_CLIENT_ID: 'github-client',
      GITHUB_CLIENT_SECRET: 'github-secret',
      GITHUB_AUTHORIZATION_URL: `${issuer}/authorize`,
      GITHUB_TOKEN_URL: `${issuer}/token`,
      GITHUB_API_URL: githubUrl,
    }),
    nextGoogle: (identity) => void (google = identity),
    nextGithub: (identity) => void (github = identity),
    githubTokensSeen,
    async stop() {
      await oauth.stop();
      await new Promise((resolve) => githubServer.close(resolve));
    },
  };
}
