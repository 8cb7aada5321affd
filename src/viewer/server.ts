/**
 * The server behind `penguin web`: it serves the play page and two small JSON endpoints, nothing
 * else (no files from disk). It binds to 127.0.0.1 unless told otherwise, and on a loopback
 * address it answers only requests addressed to a loopback name, so a web page elsewhere cannot
 * reach it through a DNS name that points here.
 *
 *   GET  /               the page
 *   GET  /api/deal?rules=penguin&cells=5&seed=17 (or ms=5)   a new deal (DealData)
 *   POST /api/hint  {"query": {...}, "board": "penguin-board 1 …"}   the solver's next move
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { formatBoard, parseBoard } from "../engine/board.js";
import { moveToString } from "../engine/notation.js";
import { UsageError } from "../errors.js";
import { PRESET_NAMES, rulesLabel } from "../engine/rules.js";
import { solve } from "../solver/search.js";
import { dealFromArgs, rulesFromArgs, type DealArgs, type RuleArgs } from "../engine/from-args.js";
import { playHtml } from "./html.js";
import type { DealData, HintAnswer, RuleQuery } from "./page/play-data.js";
import { beakOf, dealName } from "./record.js";
import { printable } from "../util/text.js";

/** Largest request body read (a board is about 300 bytes). */
const MAX_BODY = 16 * 1024;
/** Solver budget per hint: decides a Penguin position in well under a second. */
const HINT_STATES = 500_000;

const RULE_KEYS = ["rules", "cells", "empty", "group-move", "build", "base", "deal"] as const;
const DEAL_KEYS = ["seed", "ms"] as const;

function ruleArgs(q: RuleQuery): RuleArgs {
  const a: Record<string, string | number> = { rules: q.rules ?? "penguin" };
  for (const k of RULE_KEYS.slice(1)) {
    const v = q[k];
    if (v === undefined || v === "") continue;
    if (k === "cells") {
      if (!/^\d+$/.test(v))
        throw new UsageError(`cells must be an integer from 0 to 8, got "${v}"`);
      a.cells = Number(v);
    } else a[k] = v;
  }
  return a as unknown as RuleArgs;
}

function ruleQuery(q: RuleQuery): RuleQuery {
  const out: Record<string, string> = {};
  for (const k of RULE_KEYS) if (q[k] !== undefined && q[k] !== "") out[k] = q[k]!;
  return out;
}

/** A deal for the page from query parameters, checked like the command line's options. */
function dealFor(q: RuleQuery): DealData {
  const allowed: readonly string[] = [...RULE_KEYS, ...DEAL_KEYS];
  for (const k of Object.keys(q))
    if (!allowed.includes(k))
      throw new UsageError(`unknown parameter "${k}"; allowed: ${allowed.join(", ")}`);
  const rules = rulesFromArgs(ruleArgs(q));
  const d: DealArgs = {};
  if (q.seed !== undefined) {
    if (!/^-?\d+$/.test(q.seed))
      throw new UsageError(`the seed must be an integer, got "${q.seed}"`);
    d.seed = q.seed;
  }
  if (q.ms !== undefined) {
    if (!/^\d+$/.test(q.ms))
      throw new UsageError(`the Microsoft deal number must be a positive integer, got "${q.ms}"`);
    d.ms = Number(q.ms);
  }
  const s = dealFromArgs(rules, d)!;
  const beak = beakOf(s);
  const name = d.ms !== undefined ? dealName({ kind: "ms", n: d.ms }) : `seed ${d.seed}`;
  const kind = d.ms !== undefined ? "ms" : "seed";
  return {
    deal: name,
    kind,
    number: String(d.ms ?? d.seed),
    rules,
    rulesLabel: rulesLabel(rules),
    query: ruleQuery(q),
    board: formatBoard(s),
    ...(beak === undefined ? {} : { beak }),
  };
}

/** The solver's next move in the position the page sends. */
function hintFor(body: unknown): HintAnswer {
  const b = body as { query?: unknown; board?: unknown } | null;
  if (!b || typeof b.board !== "string" || typeof b.query !== "object" || b.query === null)
    throw new UsageError('expected {"query": {...rule options}, "board": "<board text>"}');
  const q = b.query as Record<string, unknown>;
  for (const [k, v] of Object.entries(q))
    if (!(RULE_KEYS as readonly string[]).includes(k) || typeof v !== "string")
      throw new UsageError(`bad rule option "${k}"; allowed: ${RULE_KEYS.join(", ")}`);
  const s = parseBoard(b.board, rulesFromArgs(ruleArgs(q as RuleQuery)));
  if (s.isWon()) return { message: "the game is won" };
  const r = solve(s, { maxStates: HINT_STATES });
  if (r.result === "solved") return { move: moveToString(r.moves[0]!, s), line: r.moves.length };
  if (r.result === "unsolvable")
    return { message: "the solver finds no win from here: undo some moves" };
  return { message: "the solver ran out of budget on this position: no hint" };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}
const sendJson = (res: ServerResponse, status: number, value: unknown): void =>
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));

/** Reads at most MAX_BODY bytes; a longer body is drained unread (up to 1 MB, then cut off) and refused. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) parts.push(chunk);
      else if (size > 1 << 20) req.destroy();
    });
    req.on("end", () =>
      size > MAX_BODY
        ? reject(new UsageError(`request body over ${MAX_BODY} bytes`))
        : resolve(Buffer.concat(parts).toString("utf8")),
    );
    req.on("error", reject);
  });
}

/** The query's parameters, each given once: `seed=1&seed=2` is refused, not read as the last. */
function singleParams(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) {
    if (Object.hasOwn(out, k))
      throw new UsageError(
        `query parameter ${JSON.stringify(printable(k))} is given more than once`,
      );
    out[k] = v;
  }
  return out;
}

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);
function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost";
}

export interface WebServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export async function startWebServer(o: {
  host: string;
  port: number;
  first: RuleQuery;
}): Promise<WebServer> {
  const page = await playHtml({ presets: PRESET_NAMES, first: dealFor(o.first) });
  const loopback = isLoopback(o.host);
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const hostName = (req.headers.host ?? "").replace(/:\d+$/, "");
      if (loopback && !LOOPBACK_NAMES.has(hostName))
        return send(res, 403, "text/plain", "this server answers only on 127.0.0.1 / localhost\n");
      try {
        if (url.pathname === "/" || url.pathname === "/index.html") {
          if (req.method !== "GET" && req.method !== "HEAD")
            return send(res, 405, "text/plain", "GET only\n");
          return send(res, 200, "text/html; charset=utf-8", page);
        }
        if (url.pathname === "/api/deal" && req.method === "GET")
          return sendJson(res, 200, dealFor(singleParams(url.searchParams)));
        if (url.pathname === "/api/hint" && req.method === "POST") {
          let body: unknown;
          try {
            body = JSON.parse(await readBody(req));
          } catch (e) {
            throw e instanceof UsageError ? e : new UsageError("the request body is not JSON");
          }
          return sendJson(res, 200, hintFor(body));
        }
        return send(res, 404, "text/plain", "not found\n");
      } catch (e) {
        if (e instanceof UsageError) return sendJson(res, 400, { error: e.message.split("\n")[0] });
        return sendJson(res, 500, {
          error: e instanceof Error ? e.message.split("\n")[0] : String(e),
        });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(
        e.code === "EADDRINUSE"
          ? new UsageError(`port ${o.port} on ${o.host} is in use; pick another with --port`)
          : e.code === "EADDRNOTAVAIL"
            ? new UsageError(`cannot bind to ${o.host}: no such local address`)
            : e.code === "ENOTFOUND" || e.code === "EAI_AGAIN" || e.code === "EAI_FAIL"
              ? new UsageError(
                  `--host ${printable(o.host)} is not a name or address this machine can resolve (${e.code}); use an address such as 127.0.0.1`,
                )
              : e.code === "EACCES"
                ? new UsageError(
                    `port ${o.port} on ${o.host} needs privileges this user lacks; pick a port above 1023`,
                  )
                : e,
      ),
    );
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shown = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shown}:${addr.port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
