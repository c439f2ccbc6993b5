/** Attributes of `h()`: properties and `on…` handlers of the element, or data-/aria- attributes. */
type Attrs = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;
type Child = Node | string | number | null | undefined | false;

/** Makes an element: `h("a", { href: "#/" }, "home")`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Makes an SVG element (attributes are set as attributes). */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs, true);
  append(el, children);
  return el;
}

function setAttrs(el: Element, attrs: Attrs, svg = false): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else if (!svg && !k.includes("-") && k !== "class" && k in el) {
      (el as unknown as Record<string, unknown>)[k] = v;
    } else el.setAttribute(k === "className" ? "class" : k, v === true ? "" : String(v));
  }
}

function append(el: Element, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "number" ? String(c) : c);
  }
}

/** Formats a number for a table or tooltip: up to `digits` significant decimals. */
export function fmt(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "–";
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toFixed(digits)));
}
