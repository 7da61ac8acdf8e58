/**
 * Which budget a counted request spends, and how much (docs/decisions.md#rate-budgets).
 *
 * - `api`: a fresh query (any `/v1` route, an items page without a cursor, /health): one ticket of
 *   RATE_LIMIT_PER_MINUTE.
 * - `documents`: what a client reads before its data (/openapi.json, the OGC landing page,
 *   conformance, collections, one collection, its queryables): one ticket of a budget of the same size
 *   of its own, so a GIS client's start never spends the data budget.
 * - `walk`: an OGC items page carrying a cursor Loam made (the follow-up page of a walk GDAL, QGIS or
 *   OWSLib is making): a budget ten times the limit, a page costing one ticket per 100 features it may
 *   return. A walk at GDAL 3.6's 10 a page then costs a tenth of a fresh query per page, and a flood of
 *   follow-up pages returns at most as many features a minute as the same number of fresh full pages.
 */
import { isLoamCursor } from "../domain/cursor";
import { parsedQuery } from "./query";
import type { RateDecision } from "./rate-limit";

export type BudgetName = "api" | "documents" | "walk" | "metrics";

/** The walk budget's size against RATE_LIMIT_PER_MINUTE. */
export const WALK_FACTOR = 10;
/** Features of a follow-up page one walk ticket pays for. */
export const FEATURES_PER_WALK_TICKET = 100;

/** The documents a client reads before its data. */
const DOCUMENT_PATH = /^\/(openapi\.json|ogc\/?|ogc\/conformance|ogc\/collections|ogc\/collections\/[^/]+|ogc\/collections\/[^/]+\/queryables)$/;
const ITEMS_PATH = /^\/ogc\/collections\/[^/]+\/items$/;

export interface Spend {
  budget: BudgetName;
  cost: number;
}

/** The budget a request on a counted path spends and its cost in that budget's tickets. */
export function spendOf(path: string, url: string): Spend {
  if (path === "/metrics") return { budget: "metrics", cost: 1 };
  if (DOCUMENT_PATH.test(path)) return { budget: "documents", cost: 1 };
  if (ITEMS_PATH.test(path) && url.includes("cursor=")) {
    const query = parsedQuery(url).values;
    const cursor = query.get("cursor");
    if (cursor !== undefined && isLoamCursor(cursor)) {
      // An invalid limit is refused by the route; it is charged as the largest page.
      const asked = Number(query.get("limit") ?? FEATURES_PER_WALK_TICKET);
      const limit = Number.isInteger(asked) && asked >= 1 ? asked : 1000;
      return { budget: "walk", cost: Math.min(WALK_FACTOR, Math.ceil(limit / FEATURES_PER_WALK_TICKET)) };
    }
  }
  return { budget: "api", cost: 1 };
}

export interface Limiter {
  hit(client: string, nowMs: number, cost?: number): RateDecision | Promise<RateDecision>;
}

/**
 * The budgets over two limiters: `perMinute` (RATE_LIMIT_PER_MINUTE) counts the api, documents and
 * metrics budgets under keys of their own, `walks` (WALK_FACTOR times as many) the walk budget.
 */
export function createBudgets(perMinute: Limiter, walks: Limiter) {
  return {
    spend(client: string, nowMs: number, spend: Spend): RateDecision | Promise<RateDecision> {
      if (spend.budget === "api") return perMinute.hit(client, nowMs, spend.cost);
      if (spend.budget === "walk") return walks.hit(`walk|${client}`, nowMs, spend.cost);
      return perMinute.hit(`${spend.budget}|${client}`, nowMs, spend.cost);
    },
    /** An upstream call a request makes beyond its first (docs/decisions.md#upstream-budget): the api budget. */
    hit(client: string, nowMs: number): RateDecision | Promise<RateDecision> {
      return perMinute.hit(client, nowMs);
    },
  };
}
export type Budgets = ReturnType<typeof createBudgets>;
