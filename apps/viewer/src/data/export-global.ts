/** The global a static export's `data.js` sets; the app reads it instead of fetching. */
export const EXPORT_GLOBAL = "__CCLAB_VIEWER_DATA__";
