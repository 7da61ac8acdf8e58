import { startLoam } from "/work/wt/honest/test/support/server";
const loam = await startLoam();
for (const p of process.argv.slice(2)) { const r = await loam.get(p); const t = await r.text(); console.log(r.status, t.length, t.split("\r\n").length - 2); if (process.env.SHOW) console.log(t.slice(0, Number(process.env.SHOW))); }
await loam.stop(); process.exit(0);
