// Files imported `with { type: "text" }` or `{ type: "file" }` (embedded by `bun build --compile`).
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const path: string;
  export default path;
}
declare module "*.js" {
  const path: string;
  export default path;
}
