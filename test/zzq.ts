import { startLoam } from "/work/wt/honest/test/support/server";
const loam = await startLoam();
for (const p of process.argv.slice(2)) { const r = await loam.get(p); const t = await r.text(); console.log(r.status, t.length > 6000 ? t.slice(0, 6000) : t); }
await loam.stop(); process.exit(0);
