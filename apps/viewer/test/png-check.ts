import { PNG } from "pngjs";

/**
 * Whether a screenshot shows something: distinct colours (a blank or single-colour page has a
 * handful) and the share of pixels that differ from the most common one (the background).
 */
export function pngContent(png: Buffer): { colours: number; inked: number } {
  const img = PNG.sync.read(png);
  const counts = new Map<number, number>();
  for (let i = 0; i < img.data.length; i += 4) {
    const c = (img.data[i]! << 16) | (img.data[i + 1]! << 8) | img.data[i + 2]!;
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const pixels = img.width * img.height;
  const background = Math.max(...counts.values());
  return { colours: counts.size, inked: (pixels - background) / pixels };
}
