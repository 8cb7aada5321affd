/** `penguin web`'s server over HTTP: what it serves, what it refuses. */
import { spawn } from "node:child_process";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deal, dealMs, formatBoard, moveToString, resolveRules } from "../../src/engine/index.js";
import { solve } from "../../src/solver/search.js";
import { startWebServer, type WebServer } from "../../src/viewer/server.js";

let web: WebServer;
beforeAll(async () => {
  web = await startWebServer({
    host: "127.0.0.1",
    port: 0,
    first: { rules: "penguin", seed: "1" },
  });
});
afterAll(async () => {
  await web?.close();
});

function get(path: string, host?: string): Promise<{ status: number; body: string }> {
  const u = new URL(path, web.url);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        headers: host ? { host } : {},
      },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      },
    );
    r.on("error", reject);
    r.end();
  });
}

describe("penguin web server", () => {
  it("binds to 127.0.0.1 and serves the page with its first deal inline", async () => {
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const r = await get("/");
    expect(r.status).toBe(200);
    expect(r.body).toContain('<script id="play-data"');
    expect(r.body).toContain(JSON.stringify(formatBoard(deal(resolveRules("penguin"), 1))));
    expect(r.body).not.toMatch(/\s(src|href)=/i);
  });

  it("serves nothing else: no files, no other paths, no foreign Host names", async () => {
    for (const p of [
      "/package.json",
      "/src/viewer/server.ts",
      "/../../etc/passwd",
      "/%2e%2e/package.json",
      "/index.htm",
      "/api/",
    ])
      expect((await get(p)).status, p).toBe(404);
    expect((await get("/", "evil.example:80")).status).toBe(403);
    expect((await get("/", `localhost:${new URL(web.url).port}`)).status).toBe(200);
  });

  it("deals by seed or Microsoft number, and refuses bad parameters with one line", async () => {
    const r = await get("/api/deal?rules=freecell&ms=617");
    expect(r.status).toBe(200);
    const d = JSON.parse(r.body) as { board: string; deal: string; rulesLabel: string };
    expect(d.deal).toBe("Microsoft #617");
    expect(d.board).toBe(formatBoard(dealMs(resolveRules("freecell"), 617)));
    for (const [q, msg] of [
      ["rules=nope&seed=1", /^unknown rules "nope"; known: penguin/],
      ["rules=penguin&cells=9&seed=1", /^--cells must be an integer from 0 to 8, got 9$/],
      ["rules=penguin&ms=0", /^--ms must be an integer from 1 to 2147483647, got 0$/],
      ["rules=penguin&seed=1&colour=red", /^unknown parameter "colour"/],
    ] as const) {
      const bad = await get(`/api/deal?${q}`);
      expect(bad.status).toBe(400);
      expect((JSON.parse(bad.body) as { error: string }).error).toMatch(msg);
    }
  });

  it("hints the solver's first move for the position sent; refuses bad bodies", async () => {
    const s = dealMs(resolveRules("penguin", { cells: 6 }), 3);
    const post = (body: string): Promise<Response> =>
      fetch(new URL("/api/hint", web.url), {
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
      });
    const r = await post(
      JSON.stringify({ query: { rules: "penguin", cells: "6" }, board: formatBoard(s) }),
    );
    expect(r.status).toBe(200);
    const want = solve(s, { maxStates: 500_000 });
    expect(want.result).toBe("solved");
    if (want.result === "solved")
      expect(await r.json()).toEqual({
        move: moveToString(want.moves[0]!, s),
        line: want.moves.length,
      });
    expect((await post("not json")).status).toBe(400);
    expect(
      (
        await post(
          JSON.stringify({ query: { rules: "penguin" }, board: "penguin-board 1\nbase: Q\n" }),
        )
      ).status,
    ).toBe(400);
    expect((await post("x".repeat(20_000))).status).toBe(400);
  });
});

describe("penguin web command", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  it("prints its address, serves, and stops on SIGTERM; a port in use is one line and exit 2", async () => {
    const p = spawn(process.execPath, ["bin/penguin.js", "web", "--port", "0"], { cwd: root });
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      p.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]!);
      });
      p.on("close", () => reject(new Error(`exited early: ${out}`)));
    });
    expect((await fetch(url)).status).toBe(200);
    const closed = new Promise<number | null>((resolve) => p.on("close", resolve));
    p.kill("SIGTERM");
    expect(await closed).toBe(0);

    const port = new URL(web.url).port;
    const busy = spawn(process.execPath, ["bin/penguin.js", "web", "--port", port], { cwd: root });
    let err = "";
    busy.stderr.on("data", (d: Buffer) => (err += d.toString()));
    expect(await new Promise((resolve) => busy.on("close", resolve))).toBe(2);
    expect(err).toBe(`penguin: port ${port} on 127.0.0.1 is in use; pick another with --port\n`);
  });
});
