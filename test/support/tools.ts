/**
 * Outside tools some tests drive as users do (python3, GDAL's ogrinfo). Where one is missing the test
 * is skipped with a line saying which tool to install; `.ci/run` installs them all and sets
 * LOAM_REQUIRE_TOOLS=1, so in CI a missing tool is a failure, never a silent skip.
 */
const announced = new Set<string>();

export function tool(name: string, debianPackage: string): string | null {
  const path = Bun.which(name);
  if (path) return path;
  if (process.env.LOAM_REQUIRE_TOOLS === "1") throw new Error(`${name} is required (LOAM_REQUIRE_TOOLS=1): apt-get install -y ${debianPackage}`);
  if (!announced.has(name)) {
    announced.add(name);
    console.warn(`note: ${name} is not installed, so the tests that run it are skipped (apt-get install -y ${debianPackage}).`);
  }
  return null;
}
