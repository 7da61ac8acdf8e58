// Binary and image files the map page imports `with { type: "file" }`: the import is the file's path
// (embedded by `bun build --compile`).
declare module "*.png" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
