/**
 * A heavy area of interest, as the 0.5.0 review's load used (issue 37): a 963-vertex ring of about
 * 8,900 ha around the IA183 export, where the snapshot has map units, so each one is a real cut of
 * real polygons; `k` moves the centre by k micro-degrees so that every area is its own query.
 */
export const HEAVY_AOI_VERTICES = 963;

export function heavyAoiPath(k: number, properties = "clay"): string {
  const [lon0, lat0, radiusM] = [-91.8145 + k * 1e-6, 41.3045, 5313];
  const points: string[] = [];
  for (let i = 0; i < HEAVY_AOI_VERTICES; i++) {
    const a = (2 * Math.PI * i) / HEAVY_AOI_VERTICES;
    points.push(`${(lon0 + (radiusM * Math.cos(a)) / (111_320 * Math.cos((lat0 * Math.PI) / 180))).toFixed(7)} ${(lat0 + (radiusM * Math.sin(a)) / 110_950).toFixed(7)}`);
  }
  return `/v1/soil/aoi?polygon=${encodeURIComponent(`POLYGON ((${[...points, points[0]].join(", ")}))`)}&properties=${properties}`;
}
