/**
 * Providers listed in the catalog that serve no data yet (role planned). Each becomes operational by
 * getting its own folder (src/providers/<id>/) and replacing its entry here in the registry. In 0.5.0 the
 * seed's last two (SCAN, SoilGrids) became operational, so the list is empty.
 */
import type { PlannedProvider } from "./provider";

export const PLANNED_PROVIDERS: readonly PlannedProvider[] = [];
