/**
 * TypeScript SDK of the edged edge data gateway: an openapi-fetch client
 * typed by `schema.d.ts`, which openapi-typescript generates from the
 * contract (`make generate`; never edit it by hand).
 *
 * ```ts
 * const edge = createEdgeClient({ baseUrl: "http://localhost:8081" });
 * const ping = await unwrap(edge.GET("/edge/ping"));
 * ```
 */
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** The typed client: `GET`, `POST`, `PUT`, `DELETE`, … on the API's paths. */
export type EdgeClient = Client<paths>;

/** What `createEdgeClient` takes. */
export interface EdgeClientOptions {
  /** The gateway, e.g. `http://localhost:8081`; the API's paths (`/edge/…`) are appended. */
  baseUrl: string;
  /** A session token from `POST /edge/login`, sent in the `authorization` header of every request. */
  token?: string;
  /** Headers sent with every request (the token wins for `authorization`). */
  headers?: Record<string, string>;
  /** A fetch implementation; the global `fetch` by default. */
  fetch?: ClientOptions["fetch"];
}

/** Returns a typed client of the gateway at `baseUrl`, sending `token` if given. */
export function createEdgeClient(options: EdgeClientOptions): EdgeClient {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`edged: base URL ${JSON.stringify(options.baseUrl)} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`edged: base URL ${JSON.stringify(options.baseUrl)}: want http:// or https://`);
  }
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) {
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === "authorization") delete headers[name];
    }
    headers.authorization = options.token;
  }
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/**
 * A response of the gateway with a status outside 2xx. The API's error body
 * is `{"message": "..."}`; `message` holds that sentence (or the raw body, or
 * the status text, when the body has another shape).
 */
export class EdgeApiError extends Error {
  /** The HTTP status, e.g. 404. */
  readonly status: number;
  /** The gateway's explanation. */
  readonly apiMessage: string;
  /** The response's `X-Request-Id`, which the gateway's log lines quote. */
  readonly requestId: string | undefined;
  /** The parsed error body, as openapi-fetch returned it. */
  readonly body: unknown;

  constructor(status: number, apiMessage: string, requestId?: string, body?: unknown) {
    const suffix = requestId ? ` (request id ${requestId})` : "";
    super(`edged: ${status}: ${apiMessage}${suffix}`);
    this.name = "EdgeApiError";
    this.status = status;
    this.apiMessage = apiMessage;
    this.requestId = requestId;
    this.body = body;
  }

  /** True for 400. */
  get isBadRequest(): boolean { return this.status === 400; }
  /** True for 401. */
  get isUnauthorized(): boolean { return this.status === 401; }
  /** True for 403. */
  get isForbidden(): boolean { return this.status === 403; }
  /** True for 404. */
  get isNotFound(): boolean { return this.status === 404; }
  /** True for 409. */
  get isConflict(): boolean { return this.status === 409; }
  /** True for 501: the gateway does not implement the operation yet. */
  get isNotImplemented(): boolean { return this.status === 501; }
}

/** The shape of every openapi-fetch result. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * Returns the data of a 2xx result and throws an `EdgeApiError` for any other
 * status. It takes the result or its promise:
 * `const cat = await unwrap(edge.GET("/edge/category/{name}", { params: { path: { name: "rest_api" } } }))`.
 */
export async function unwrap<R extends FetchResult>(result: R | Promise<R>): Promise<Exclude<R["data"], undefined>> {
  const r = await result;
  if (r.response.ok) {
    return r.data as Exclude<R["data"], undefined>;
  }
  throw toEdgeApiError(r);
}

/** Returns the `EdgeApiError` describing a result outside 2xx. */
export function toEdgeApiError(result: FetchResult): EdgeApiError {
  const { response, error } = result;
  let message = "";
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string") {
    message = error.message;
  } else if (typeof error === "string" && error.trim() !== "") {
    message = error.trim().slice(0, 200);
  }
  if (message === "") {
    message = response.statusText || `HTTP ${response.status}`;
  }
  return new EdgeApiError(response.status, message, response.headers.get("x-request-id") ?? undefined, error);
}
