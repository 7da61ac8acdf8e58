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

/** Debian's interpreter: its packages (python3-owslib, python3-shapely, ...) are installed for it, and it starts in tens of ms. */
export const DEBIAN_PYTHON = "/usr/bin/python3";

/** The Debian package of each Python module a test imports (what `.ci/run` installs). */
const PYTHON_MODULE_PACKAGES: Record<string, string> = {
  csv: "python3",
  json: "python3",
  owslib: "python3-owslib",
  shapely: "python3-shapely",
  pyproj: "python3-pyproj",
  shapefile: "python3-pyshp",
};

const checkedPythons = new Map<string, string | null>();

/**
 * Debian's /usr/bin/python3 when it exists and imports every one of `modules`, else null (the test is
 * skipped with a line naming the packages; under LOAM_REQUIRE_TOOLS=1 it is an error). Never `python3`
 * from PATH: that may be a shim (pyenv) without Debian's packages that takes seconds to start (issue 27).
 */
export function python(...modules: string[]): string | null {
  const key = modules.join(",");
  if (checkedPythons.has(key)) return checkedPythons.get(key)!;
  const packages = [...new Set(["python3", ...modules.map((m) => PYTHON_MODULE_PACKAGES[m] ?? `python3-${m}`)])];
  let found: string | null = null;
  let why = `${DEBIAN_PYTHON} is missing`;
  if (Bun.file(DEBIAN_PYTHON).size > 0) {
    const probe = Bun.spawnSync([DEBIAN_PYTHON, "-c", modules.map((m) => `import ${m}`).join("; ") || "pass"], { stdout: "ignore", stderr: "pipe" });
    if (probe.exitCode === 0) found = DEBIAN_PYTHON;
    else why = `${DEBIAN_PYTHON} cannot import ${modules.join(", ")}`;
  }
  if (!found) {
    const install = `apt-get install -y ${packages.join(" ")}`;
    if (process.env.LOAM_REQUIRE_TOOLS === "1") throw new Error(`${why} (LOAM_REQUIRE_TOOLS=1): ${install}`);
    if (!announced.has(`python:${key}`)) {
      announced.add(`python:${key}`);
      console.warn(`note: ${why}, so the tests that run it are skipped (${install}).`);
    }
  }
  checkedPythons.set(key, found);
  return found;
}
