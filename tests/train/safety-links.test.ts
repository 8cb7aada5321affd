import { describe, expect, it } from "vitest";
import { parseCard } from "../../src/engine/card.js";
import type { State } from "../../src/engine/state.js";
import {
  CARD_WIDTH,
  cardWidthOf,
  encodeCards,
  LINK_WIDTH,
} from "../../src/players/safety/cards.js";
import { relIndex } from "../../src/players/safety/structure.js";
import { FIRST, position } from "./positions.js";

const W = cardWidthOf(true);

/** The LINK_WIDTH numbers of one card (by name) of s. */
function links(s: State, card: string): number[] {
  const out = new Float32Array(52 * W);
  encodeCards(s, out, 0, W);
  const k = relIndex(s, parseCard(card));
  return Array.from(out.subarray(k * W + CARD_WIDTH, (k + 1) * W));
}

describe("the links of the card rows", () => {
  it("count what uncovering a card's successor and predecessor costs, its home route, and the parked cards waiting behind it", () => {
    // Five flippers free. 7S is parked: 8S lies under KH (no empty column) and 9H (TH buried), two
    // flippers; 6S lies under TH, JS and QH, none of which has a top card to go to, three.
    const s = position([13, 12, 5, 5], FIRST, ["7H", "7S"]);
    expect(links(s, "7S")).toEqual([2 / 8, 3 / 8, 3 / 8, 2 / 8, 0, 0, 0, 0].map(Math.fround));
    // 9H tops column 1: its successor TH lies under JS and QH (two flippers), 8H is a top card; every
    // lower heart is reachable (6H under 8H, which can go onto 9H), and 7S waits on 8S, under it.
    expect(links(s, "9H")).toEqual([2 / 8, 0, 0, 0, 0, 0, 0, 1 / 7].map(Math.fround));
    // 8S is the card 7S waits for; digging it out takes two flippers.
    expect(links(s, "8S")).toEqual([0, 0, 3 / 8, 0, 0, 0, 0, 1 / 7].map(Math.fround));
    // Cards at home have no links.
    expect(links(s, "5S")).toEqual(new Array(LINK_WIDTH).fill(0));
  });

  it("mark the cards above a card that can only go to a flipper (their successor lies under them), and a dig dearer than the free flippers", () => {
    // Column 0: 9H, KH, 8H: 8H's successor lies under it in its own column. Six flippers are full.
    const s = position(
      [13, 9, 5, 5],
      [
        ["9H", "KH", "8H"],
        ["8S"],
        ["6S", "TH", "JS", "QH"],
        ["JH", "9S"],
        ["QS", "KS"],
        ["TS"],
        ["KD"],
      ],
      ["7H", "7S", "6H", "QD", "JD", "TD"],
    );
    // 9H: 8H above it is self-blocked; two cards above it with nowhere to go cost two flippers, more than the one free.
    expect(links(s, "9H")[6]).toBe(1 / 4);
    expect(links(s, "9H")[5]).toBe(1);
    expect(links(s, "KH")[6]).toBe(1 / 4);
    // 8H itself has nothing above it; 7H waits on it (its successor, at the top).
    expect(links(s, "8H")[6]).toBe(0);
    expect(links(s, "8H")[7]).toBe(Math.fround(1 / 7));
    // 6S (three flippers to dig out) is dearer than the one free flipper.
    expect(links(s, "6S")[5]).toBe(1);
    expect(links(s, "7S")[4]).toBe(0); // 8S is a top card: 7S goes free
  });
});
