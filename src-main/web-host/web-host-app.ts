import { join, sep } from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import { WEB_CLIENT_CONFIG_PATH } from '../../src-shared/signaling/endpoints';
import { HTTP_ERROR, type WebClientConfig } from '../../src-shared/signaling/http-api';
import { finalErrorHandler, type LogSink } from '../signaling-server';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

export interface WebHostAppOptions {
  /** The built renderer: index.html plus hashed files under assets/. */
  root: string;
  config: WebClientConfig;
  /** Answers the signaling server's HTTP paths when it is mounted here. */
  signaling?: RequestHandler;
  log: LogSink;
}

// What the signaling server answers when it shares this origin; /api/config stays the host's.
function isSignalingPath(path: string): boolean {
  return path === '/health' || (path.startsWith('/api/') && path !== WEB_CLIENT_CONFIG_PATH);
}

// A deep link into the app (/receive, say) gets the app; a missing file (/assets/x.js) does not.
function isAppRoute(path: string): boolean {
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  return !lastSegment.includes('.') && !path.startsWith('/api/');
}

/** The web client as a static single-page site, with its config endpoint. */
export function webHostApp(options: WebHostAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  const indexFile = join(options.root, 'index.html');

  // No other site may frame the client: under a transparent frame, a click meant for the framing
  // page could land on Accept. X-Frame-Options is for browsers without CSP frame-ancestors.
  app.use((_request, response, next) => {
    response.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
    response.setHeader('X-Frame-Options', 'DENY');
    next();
  });

  app.get(WEB_CLIENT_CONFIG_PATH, (_request, response) => {
    response.setHeader('Cache-Control', 'no-cache');
    response.json(options.config);
  });

  const signaling = options.signaling;
  if (signaling !== undefined) {
    app.use((request, response, next) => {
      if (isSignalingPath(request.path)) signaling(request, response, next);
      else next();
    });
  }

  app.use(
    express.static(options.root, {
      index: 'index.html',
      setHeaders: (response, path) => {
        // Built assets carry a content hash in their names; index.html must always be fetched anew.
        response.setHeader(
          'Cache-Control',
          path.includes(`${sep}assets${sep}`)
            ? `public, max-age=${ONE_YEAR_S}, immutable`
            : 'no-cache',
        );
      },
    }),
  );

  app.use((request, response, next) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !isAppRoute(request.path)) {
      next();
      return;
    }
    response.setHeader('Cache-Control', 'no-cache');
    // Without a built index.html the request falls through to the JSON 404.
    response.sendFile(indexFile, (error) => {
      if (error && !response.headersSent) next();
    });
  });

  app.use((_request, response) => {
    response.status(404).json({ error: HTTP_ERROR.notFound });
  });
  app.use(finalErrorHandler(options.log));
  return app;
}
