/**
 * The tests' own planar geometry on GeoJSON polygons ([lon, lat] degrees), deliberately independent
 * of src/, to check the polygons Loam serves and where the map page draws them.
 */
type Ring = number[][];
type Geometry = { type: string; coordinates: any };

const polygonsOf = (geometry: Geometry): Ring[][] => (geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates);

/** Even-odd ray casting over every ring of every polygon: holes are outside. */
export function contains(geometry: Geometry, lon: number, lat: number): boolean {
  let inside = false;
  for (const rings of polygonsOf(geometry)) {
    for (const ring of rings) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i]!, [xj, yj] = ring[j]!;
        if (yi! > lat !== yj! > lat && lon < ((xj! - xi!) * (lat - yi!)) / (yj! - yi!) + xi!) inside = !inside;
      }
    }
  }
  return inside;
}

/** Distance in degrees from (lon, lat) to the nearest edge of the geometry. */
export function edgeDistance(geometry: Geometry, lon: number, lat: number): number {
  let best = Infinity;
  for (const rings of polygonsOf(geometry))
    for (const ring of rings)
      for (let i = 1; i < ring.length; i++) {
        const [ax, ay] = ring[i - 1]!, [bx, by] = ring[i]!;
        const dx = bx! - ax!, dy = by! - ay!;
        const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, ((lon - ax!) * dx + (lat - ay!) * dy) / (dx * dx + dy * dy)));
        best = Math.min(best, Math.hypot(lon - (ax! + t * dx), lat - (ay! + t * dy)));
      }
  return best;
}
