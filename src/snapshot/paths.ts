/** Where the snapshot lives unless LOAM_SNAPSHOT says otherwise (relative to the working directory; gitignored). */
export const DEFAULT_SNAPSHOT_PATH = "data/snapshot.sqlite";
