import { defineConfig, type Plugin } from "vite";

/**
 * The app as one classic script: a static export is opened from file://, where Chromium runs
 * no module script (and sends no CORS request), so the bundle is an IIFE loaded with `defer`
 * and the page's tags carry neither `type="module"` nor `crossorigin`.
 */
const classicScripts: Plugin = {
  name: "cclab-classic-scripts",
  enforce: "post",
  transformIndexHtml: {
    order: "post",
    handler: (html) => html.replace(/ type="module"/g, " defer").replace(/ crossorigin/g, ""),
  },
};

export default defineConfig({
  base: "./",
  plugins: [classicScripts],
  build: {
    outDir: "dist/app",
    emptyOutDir: true,
    modulePreload: false,
    sourcemap: false,
    rolldownOptions: { output: { format: "iife", codeSplitting: false } },
  },
});
