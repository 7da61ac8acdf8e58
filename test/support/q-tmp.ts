import { startLoam } from "/work/wt-csv-derived/test/support/server";
const l = await startLoam();
for (const p of process.argv.slice(2)) { const r = await l.json(p); console.log(p, r.status, JSON.stringify(eval(process.env.PICK ?? "(b)=>b")(r.body), null, 1)); }
await l.stop(); process.exit(0);
