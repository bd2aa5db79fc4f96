/**
 * TypeScript SDK of the edged edge data gateway: a thin layer over an
 * openapi-fetch client typed by `schema.d.ts`, which openapi-typescript
 * generates from the contract (`make generate`; never edit it by hand).
 *
 * ```ts
 * const edge = createEdgeClient({ baseUrl: "http://localhost:8081" });
 * const ping = await edge.get("/edge/ping");
 * ```
 */
import createClient, { type Client, type ClientOptions, type MaybeOptionalInit } from "openapi-fetch";
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf, SuccessResponse, ResponseObjectMap } from "openapi-typescript-helpers";
import type { components as datedComponents, paths as datedPaths } from "./dated.js";
import type { paths } from "./schema.js";
import { timestampFields } from "./timestamps.js";

export type { components, operations, paths } from "./schema.js";
/** The API's types as `EdgeClient`'s methods return them: timestamps are `Date`s. */
export type { components as dated, paths as datedPaths } from "./dated.js";

/** The raw openapi-fetch client: `GET`, `POST`, `PUT`, `DELETE`, … on the API's paths. */
export type RawEdgeClient = Client<paths>;

/** A schema of the API, as `EdgeClient`'s methods return it (timestamps as `Date`). */
export type Schema<Name extends keyof datedComponents["schemas"]> = datedComponents["schemas"][Name];

/** The seconds each request may take by default (`timeoutMs`). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** How many times an idempotent request answered 429 or 503 is sent again by default (`retries`). */
export const DEFAULT_RETRIES = 3;
/** The longest wait before a retry by default (`maxRetryWaitMs`). */
export const DEFAULT_MAX_RETRY_WAIT_MS = 30_000;
/** The page size of the iterators. */
export const DEFAULT_PAGE_SIZE = 100;

/** What `createEdgeClient` takes. */
export interface EdgeClientOptions {
  /** The gateway, e.g. `http://localhost:8081`; the API's paths (`/edge/…`) are appended. */
  baseUrl: string;
  /** A session token, sent in the `authorization` header of every request (`login` sets it too). */
  token?: string;
  /** Headers sent with every request (the token wins for `authorization`). */
  headers?: Record<string, string>;
  /** Milliseconds each request may take, until its answer is read (30 000; 0: no bound). */
  timeoutMs?: number;
  /** How many times a GET, HEAD, OPTIONS, PUT or DELETE answered 429 or 503 is sent again (3; 0: never). */
  retries?: number;
  /** The longest wait before a retry; an answer whose Retry-After asks for more is thrown at once (30 000). */
  maxRetryWaitMs?: number;
  /**
   * A fetch implementation; the global `fetch` by default. In Node, a fetch
   * bound to an undici `Agent` with `connect: { cert, key, ca }` presents a
   * client certificate, for `loginWithCertificate`.
   */
  fetch?: ClientOptions["fetch"];
}

/**
 * The phrase of each status, as Go's net/http names it, so that the three
 * SDKs render an answer alike (a fetch over HTTP/2 has no status text).
 */
const PHRASES: Record<number, string> = {
  300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
  305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
  400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
  405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
  409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Request Entity Too Large",
  414: "Request URI Too Long", 415: "Unsupported Media Type", 416: "Requested Range Not Satisfiable",
  417: "Expectation Failed", 418: "I'm a teapot", 421: "Misdirected Request", 422: "Unprocessable Entity",
  423: "Locked", 424: "Failed Dependency", 425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required",
  429: "Too Many Requests", 431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
  500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
  504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
  507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended", 511: "Network Authentication Required",
};

/**
 * The text of an answer outside 2xx, as all three SDKs render it:
 * `edged: STATUS PHRASE: MESSAGE (request id ID)`, with no phrase for a
 * status without one and no request id when the answer had none.
 */
export function renderApiError(status: number, apiMessage: string, requestId?: string): string {
  const phrase = PHRASES[status];
  return `edged: ${status}${phrase ? ` ${phrase}` : ""}${apiMessage ? `: ${apiMessage}` : ""}${requestId ? ` (request id ${requestId})` : ""}`;
}

/**
 * A response of the gateway with a status outside 2xx. The API's error body
 * is `{"message": "..."}`; `apiMessage` holds that sentence (or the raw body,
 * or the status's phrase, when the body has another shape). Its `message` is
 * the text the Go and Python SDKs render the same answer as:
 * `edged: 400 Bad Request: name: must not be empty (request id req-1)`.
 * `EdgeClient`'s methods throw it; `edge.raw` returns a failed answer as a
 * value (`{ error, response }`), and `toEdgeApiError` makes this error of it.
 */
export class EdgeApiError extends Error {
  /** The HTTP status, e.g. 404. */
  readonly status: number;
  /** The gateway's explanation. */
  readonly apiMessage: string;
  /** The response's `X-Request-Id`, which the gateway's log lines quote. */
  readonly requestId: string | undefined;
  /** The wait in milliseconds the answer's `Retry-After` asks for (429, 503), or undefined. */
  readonly retryAfterMs: number | undefined;
  /** The parsed error body. */
  readonly body: unknown;
  /** The answer's headers. */
  readonly headers: Headers;

  constructor(status: number, apiMessage: string, requestId?: string, body?: unknown, headers?: Headers) {
    super(renderApiError(status, apiMessage, requestId));
    this.name = "EdgeApiError";
    this.status = status;
    this.apiMessage = apiMessage;
    this.requestId = requestId;
    this.body = body;
    this.headers = headers ?? new Headers();
    this.retryAfterMs = retryAfterMs(this.headers.get("retry-after"));
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
  /** True for 413. */
  get isTooLarge(): boolean { return this.status === 413; }
  /** True for 429: too many failed logins (see `retryAfterMs`). */
  get isTooManyRequests(): boolean { return this.status === 429; }
  /** True for 501: the gateway does not implement the operation yet. */
  get isNotImplemented(): boolean { return this.status === 501; }
  /** True for 503: the gateway's storage is unavailable (see `retryAfterMs`). */
  get isUnavailable(): boolean { return this.status === 503; }
}

/** The shape of every openapi-fetch result. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * Returns the data of a 2xx result of the raw client and throws an
 * `EdgeApiError` for any other status; `EdgeClient`'s own methods need no
 * `unwrap`. It takes the result or its promise.
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
  // The body's message, else its text (at most 200 characters), else the
  // status's phrase, as the Go and Python SDKs take it.
  let message = "";
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string") {
    message = error.message;
  }
  if (message === "" && error !== undefined && error !== null) {
    const text = (typeof error === "string" ? error : JSON.stringify(error)).trim();
    const chars = Array.from(text);
    message = chars.length > 200 ? chars.slice(0, 200).join("") + "…" : text;
  }
  if (message === "") {
    message = PHRASES[response.status] ?? "";
  }
  return new EdgeApiError(response.status, message, response.headers.get("x-request-id") ?? undefined, error, response.headers);
}

/** The body of an operation's 2xx answer, timestamps as `Date`. */
export type SuccessData<P extends keyof datedPaths, M extends HttpMethod> = datedPaths[P] extends Record<M, infer Op>
  ? Op extends Record<string | number, unknown>
    ? SuccessResponse<ResponseObjectMap<Op>, MediaType>
    : never
  : never;

type Init<P extends keyof paths, M extends HttpMethod> = MaybeOptionalInit<paths[P], M>;
type InitArg<I> = RequiredKeysOf<I> extends never ? [init?: I] : [init: I];

/** A method of `EdgeClient` for one HTTP method: path, then the parameters and body when the operation has any. */
export type EdgeMethod<M extends HttpMethod> = <P extends PathsWithMethod<paths, M> & keyof datedPaths>(
  path: P,
  ...init: InitArg<Init<P, M>>
) => Promise<SuccessData<P, M>>;

/** A paged list read by `limit` and `skip`: one page, and the number of items of the whole list if it says. */
export type PageFetcher<T> = (limit: number, skip: number) => Promise<{ items: T[]; total?: number }>;

/**
 * Iterates over every item of a paged list, fetching pages of `pageSize`
 * items from `skip` on as the loop advances, until `total` items (when the
 * pages tell it) or a page shorter than `pageSize`.
 */
export async function* pages<T>(fetchPage: PageFetcher<T>, skip = 0, pageSize = DEFAULT_PAGE_SIZE): AsyncGenerator<T, void, undefined> {
  if (!(pageSize > 0)) throw new RangeError(`edged: page size ${pageSize} is not positive`);
  for (;;) {
    const { items, total } = await fetchPage(pageSize, skip);
    yield* items;
    skip += items.length;
    if (items.length < pageSize || (total !== undefined && skip >= total)) return;
  }
}

/** The filters of `auditEntries`. */
export type AuditQuery = Omit<NonNullable<paths["/edge/audit"]["get"]["parameters"]["query"]>, "limit" | "skip">;
/** The filters of `tasks`. */
export type TaskQuery = Omit<NonNullable<paths["/edge/task"]["get"]["parameters"]["query"]>, "limit" | "skip">;

/**
 * The client of the gateway. `get`, `post`, `put` and `delete` call any
 * operation of the contract by its path and return the body of its 2xx
 * answer, with timestamps as `Date`s; any other answer throws an
 * `EdgeApiError`. It sends the session token once `login` (or `token`) set
 * it, bounds each request by `timeoutMs`, and retries idempotent requests
 * answered 429 or 503. `raw` is the openapi-fetch client underneath (same
 * token, timeout and retries), which returns every answer as it came.
 */
export class EdgeClient {
  /** The openapi-fetch client: `{ data, error, response }` for every answer, timestamps as strings. */
  readonly raw: RawEdgeClient;
  /** The session token sent in the `authorization` header, if any. */
  token: string | undefined;

  /** Calls a GET operation. */
  readonly get: EdgeMethod<"get">;
  /** Calls a POST operation. */
  readonly post: EdgeMethod<"post">;
  /** Calls a PUT operation. */
  readonly put: EdgeMethod<"put">;
  /** Calls a DELETE operation. */
  readonly delete: EdgeMethod<"delete">;

  constructor(options: EdgeClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`edged: base URL ${JSON.stringify(options.baseUrl)} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`edged: base URL ${JSON.stringify(options.baseUrl)}: want http:// or https://`);
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const retries = options.retries ?? DEFAULT_RETRIES;
    const maxWait = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    for (const [name, v] of [["timeoutMs", timeoutMs], ["retries", retries], ["maxRetryWaitMs", maxWait]] as const) {
      if (!(v >= 0)) throw new RangeError(`edged: ${name} ${v} is negative`);
    }
    this.token = options.token;
    const base = options.fetch ?? globalThis.fetch;
    const send = async (request: Request): Promise<Response> => {
      for (let attempt = 0; ; attempt++) {
        const req = request.clone();
        if (this.token) req.headers.set("authorization", this.token);
        const signal = timeoutMs > 0 ? AbortSignal.any([req.signal, AbortSignal.timeout(timeoutMs)]) : req.signal;
        const response = await base(new Request(req, { signal }));
        const wait = retryWait(request.method, response, attempt, retries, maxWait);
        if (wait === undefined) return response;
        await response.body?.cancel();
        await sleep(wait, request.signal);
      }
    };
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: { ...options.headers },
      fetch: send,
      bodySerializer: serializeBody,
    });
    const call = (method: Uppercase<HttpMethod>) =>
      (async (path: string, init?: object) => {
        const r = (await (this.raw.request as (m: string, p: string, i?: object) => Promise<FetchResult>)(method, path, init));
        if (!r.response.ok) throw toEdgeApiError(r);
        return toDates(r.data, timestampFields[`${method} ${path}`]);
      }) as never;
    this.get = call("GET");
    this.post = call("POST");
    this.put = call("PUT");
    this.delete = call("DELETE");
  }

  /**
   * Logs in with a user name and password and sends the session token from
   * then on. A wrong name or password throws an `EdgeApiError` with
   * `isUnauthorized`; a locked account one with `isTooManyRequests`.
   */
  async login(username: string, password: string): Promise<Schema<"LoginResult">> {
    const result = await this.post("/edge/login", { body: { username, password } });
    this.token = result.token;
    return result;
  }

  /**
   * Logs in with the client certificate the connection presents (a browser's
   * own, or in Node the `fetch` option's) and sends the session token from
   * then on. The gateway must be on https:// and request client certificates.
   */
  async loginWithCertificate(): Promise<Schema<"LoginResult">> {
    const result = await this.post("/edge/authenticate");
    this.token = result.token;
    return result;
  }

  /** Ends the session of the client's token and forgets the token. */
  async logout(): Promise<void> {
    await this.put("/edge/logout");
    this.token = undefined;
  }

  /**
   * Iterates over the audit entries matching `query`, newest first, fetching
   * pages of `pageSize` entries as the loop advances, until `totalCount` of
   * them are read: `for await (const e of edge.auditEntries({ source: "CONCH" })) …`.
   */
  auditEntries(query: AuditQuery = {}, options: { skip?: number; pageSize?: number } = {}): AsyncGenerator<Schema<"AuditEntry">, void, undefined> {
    return pages(async (limit, skip) => {
      const page = await this.get("/edge/audit", { params: { query: { ...query, limit, skip } } });
      return { items: page.audit, total: page.totalCount };
    }, options.skip, options.pageSize);
  }

  /** Iterates over the tasks matching `query`, newest first, page by page, until a page comes back short. */
  tasks(query: TaskQuery = {}, options: { skip?: number; pageSize?: number } = {}): AsyncGenerator<Schema<"Task">, void, undefined> {
    return pages(async (limit, skip) => {
      const page = await this.get("/edge/task", { params: { query: { ...query, limit, skip } } });
      return { items: page.tasks };
    }, options.skip, options.pageSize);
  }
}

/** Returns a client of the gateway at `options.baseUrl`. */
export function createEdgeClient(options: EdgeClientOptions): EdgeClient {
  return new EdgeClient(options);
}

// Methods whose repetition has the effect of one request (RFC 9110, 9.2.2).
const idempotent = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** The milliseconds to wait before sending a request again, or undefined not to. */
function retryWait(method: string, response: Response, attempt: number, retries: number, maxWait: number): number | undefined {
  if (attempt >= retries || !idempotent.has(method) || (response.status !== 429 && response.status !== 503)) return undefined;
  let wait = retryAfterMs(response.headers.get("retry-after"));
  if (wait === undefined) {
    // 250 ms doubling up to 8 s, half of it random, so that clients turned
    // away together do not come back together.
    const step = 250 * 2 ** Math.min(attempt, 5);
    wait = step / 2 + Math.random() * (step / 2);
  }
  return wait <= maxWait ? wait : undefined;
}

/** Parses a `Retry-After` header (seconds, or an HTTP date) into milliseconds. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(at - Date.now(), 0);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
  });
}

/** Formats a Date as the gateway writes timestamps (UTC, milliseconds). */
export function formatTimestamp(d: Date): string {
  return d.toISOString().replace("T", " ").replace("Z", "");
}

/** Parses a timestamp of the gateway ("2024-05-01 10:15:42.123", UTC), or an ISO 8601 one with an offset. */
export function parseTimestamp(s: string): Date {
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s.replace(" ", "T") : `${s.replace(" ", "T")}Z`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new TypeError(`edged: timestamp ${JSON.stringify(s)} is not YYYY-MM-DD HH:MM:SS.fff`);
  return d;
}

/** JSON bodies, with Dates written as the gateway's timestamps. */
function serializeBody(body: unknown): string {
  return JSON.stringify(body, function (this: Record<string, unknown>, key, value: unknown) {
    const original = this[key];
    return original instanceof Date ? formatTimestamp(original) : value;
  });
}

/** Replaces, in place, the timestamps at `fields` of `data` by Dates. */
function toDates(data: unknown, fields: readonly (readonly string[])[] | undefined): unknown {
  if (!fields) return data;
  const visit = (node: unknown, path: readonly string[], at: number, set: (v: unknown) => void): void => {
    if (at === path.length) {
      if (typeof node === "string") set(parseTimestamp(node));
      return;
    }
    if (node === null || typeof node !== "object") return;
    const seg = path[at];
    const obj = node as Record<string, unknown>;
    const keys = seg === "*" ? Object.keys(obj) : seg !== undefined && seg in obj ? [seg] : [];
    for (const k of keys) visit(obj[k], path, at + 1, (v) => { obj[k] = v; });
  };
  for (const path of fields) visit(data, path, 0, () => {});
  return data;
}
