/**
 * A local stand-in for pubs.usgs.gov serving the USGS DS 801 Appendix 2b file (tests only; the real
 * host is unreachable here): the real file of the data directory, byte for byte, at the download path
 * of the official address, as text/plain. Faults on demand: a truncated copy, a copy with a renamed
 * header column, a copy with a changed unit row, or an HTTP 500.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export type UsgsFault = "truncated" | "reheaded" | "unit-row" | "http-500";

export interface FakeUsgs {
  /** A GEOCHEM_URL pointing here. */
  url: string;
  setFault(fault: UsgsFault | null): void;
  /** GET requests received so far. */
  readonly calls: number;
  close(): void;
}

export const GEOCHEM_PATH = "/ds/801/downloads/Appendix_2b_Top5_18Sept2013.txt";

export function startFakeUsgs({ dataDir }: { dataDir: string }): FakeUsgs {
  const real = readFileSync(join(dataDir, "geochem/Appendix_2b_Top5_18Sept2013.txt"));
  const text = real.toString("latin1");
  const lines = text.split("\r\n");
  const headerAt = lines.findIndex((l) => l.startsWith("Top5_LabID\t"));
  const bodies: Record<UsgsFault, string> = {
    // The first 3,000 lines: the download stopped part-way (the last line may be cut too).
    truncated: text.slice(0, Math.floor(text.length * 0.6)),
    // The arsenic column renamed: the header is not the one the survey published.
    reheaded: lines.map((l, i) => (i === headerAt ? l.replace("\tTop5_As\t", "\tTop5_Arsenic\t") : l)).join("\r\n"),
    // The unit row says ppb for lead.
    "unit-row": lines
      .map((l, i) => {
        if (i !== headerAt + 1) return l;
        const cells = l.split("\t");
        cells[lines[headerAt]!.split("\t").indexOf("Top5_Pb")] = "ug/kg";
        return cells.join("\t");
      })
      .join("\r\n"),
    "http-500": "",
  };
  let fault: UsgsFault | null = null;
  let calls = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      calls += 1;
      if (new URL(request.url).pathname !== GEOCHEM_PATH) return new Response("Not Found", { status: 404 });
      if (fault === "http-500") return new Response("<html>500</html>", { status: 500, headers: { "content-type": "text/html" } });
      return new Response(fault ? bodies[fault] : real, { headers: { "content-type": "text/plain" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}${GEOCHEM_PATH}`,
    setFault: (next) => void (fault = next),
    get calls() {
      return calls;
    },
    close: () => void server.stop(true),
  };
}
