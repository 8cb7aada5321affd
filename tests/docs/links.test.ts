/**
 * The pages' links lead somewhere: every relative link of README.md, docs/*.md, python/README.md
 * and results/**\/README.md names a file of the repository and, with `#anchor`, a heading of that
 * page (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens). They are relative
 * so that they work in a clone and on the repository's host alike, without the package's
 * `repository` address.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../hardening/helpers.js";

function pages(): string[] {
  const out = ["README.md", "python/README.md"];
  for (const f of readdirSync(join(root, "docs"))) if (f.endsWith(".md")) out.push(`docs/${f}`);
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true }))
      if (e.isDirectory()) walk(`${dir}/${e.name}`);
      else if (e.name === "README.md") out.push(`${dir}/${e.name}`);
  };
  walk("results");
  return out;
}

const withoutCode = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, "");

function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

function anchors(page: string): Set<string> {
  const text = withoutCode(readFileSync(join(root, page), "utf8"));
  return new Set([...text.matchAll(/^#+\s+(.*)$/gm)].map((m) => anchorOf(m[1]!)));
}

describe("links on the pages", () => {
  it("every relative link names a file of the repository and an anchor of its page", () => {
    const bad: string[] = [];
    let checked = 0;
    for (const page of pages()) {
      const text = withoutCode(readFileSync(join(root, page), "utf8"));
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1]!;
        if (/^[a-z][\w+.-]*:/i.test(link)) continue; // https:, mailto:
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path ? normalize(join(dirname(page), path)) : page;
        checked++;
        if (!existsSync(join(root, target))) bad.push(`${page}: ${link} (no such file)`);
        else if (anchor && target.endsWith(".md") && !anchors(target).has(anchor))
          bad.push(`${page}: ${link} (no such heading)`);
      }
    }
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it("anchors follow GitHub's rule", () => {
    expect(anchorOf("Backends")).toBe("backends");
    expect(anchorOf("The `penguin` command")).toBe("the-penguin-command");
    expect(anchorOf("`npm run setup:native`")).toBe("npm-run-setupnative");
  });
});
