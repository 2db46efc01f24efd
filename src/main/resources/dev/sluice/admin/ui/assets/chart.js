// Charts drawn as SVG with DOM calls (no library, no markup strings, no inline styles): stacked
// bars for amounts per day and lines for counts per day. Each chart is one image for assistive
// technology (role="img" and an aria-label that summarises it), with a legend beside it; the
// numbers themselves are in the page's tables.

import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Colours told apart by most readers, the last one standing for "the rest". */
export const PALETTE = ['#1f4e79', '#d9822b', '#2e8b57', '#a4161a', '#6a4c93', '#0f7c8c', '#8a5a00', '#c2185b', '#5b6470'];

const HEIGHT = 260;

/** The drawing's width in its own units: the space on screen when drawn, so text stays legible on a phone. */
function drawnWidth() {
  return Math.round(Math.min(960, Math.max(340, (window.innerWidth || 960) - 40)));
}
const PAD = { left: 70, right: 16, top: 12, bottom: 36 };

function svg(tag, attrs, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/**
 * The axis: a round top (1, 2 or 5 times a power of ten, at least `max`) and how many steps
 * divide it into round ticks. Counts (`whole`) get whole-number ticks.
 */
function axis(max, whole) {
  let top = 1;
  if (max > 0) {
    const power = 10 ** Math.floor(Math.log10(max));
    top = [1, 2, 5, 10].map(step => step * power).find(value => value >= max);
  }
  if (whole) top = Math.max(top, 5);
  return { top, steps: String(top).startsWith('2') ? 4 : 5 };
}

function frame(label, xLabels, { top, steps }, format) {
  const WIDTH = drawnWidth();
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': label,
    preserveAspectRatio: 'xMidYMid meet', focusable: 'false',
  });
  root.append(svg('title', {}, label));
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const ticks = Array.from({ length: steps + 1 }, (_, i) => format((top * i) / steps));
  // Room for the longest tick label (about 7 units a character at font size 11), so small
  // amounts such as $0.0000080 are not cut at the left edge.
  const left = Math.max(PAD.left, 12 + 7 * Math.max(...ticks.map(t => String(t).length)));
  ticks.forEach((tick, i) => {
    const y = PAD.top + plotH - (plotH * i) / steps;
    root.append(svg('line', { x1: left, x2: WIDTH - PAD.right, y1: y, y2: y, stroke: '#d8dde3', 'stroke-width': 1 }));
    root.append(svg('text', { x: left - 6, y: y + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#5b6470' }, tick));
  });
  const plotW = WIDTH - left - PAD.right;
  const every = Math.max(1, Math.ceil(xLabels.length / Math.max(2, Math.floor(plotW / 70))));
  const last = xLabels.length - 1;
  xLabels.forEach((text, i) => {
    // Every `every`th label, and the last one when it does not crowd the one before it.
    if (i === last ? last % every !== 0 && last % every < every / 2 : i % every !== 0) return;
    const x = left + (plotW * (i + 0.5)) / xLabels.length;
    root.append(svg('text', { x, y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle', 'font-size': 11, fill: '#5b6470' }, text));
  });
  return { root, plotW, plotH, left };
}

/**
 * Stacked bars: one bar per x label, one segment per series.
 * series: [{name, values: [number per x label]}]; format shows an axis value.
 */
export function stackedBars(label, xLabels, series, format) {
  const totals = xLabels.map((_, i) => series.reduce((sum, s) => sum + (Number(s.values[i]) || 0), 0));
  const scale = axis(Math.max(0, ...totals), false);
  const top = scale.top;
  const { root, plotW, plotH, left } = frame(label, xLabels, scale, format);
  const slot = plotW / Math.max(1, xLabels.length);
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  xLabels.forEach((_, i) => {
    let base = 0;
    series.forEach((s, k) => {
      const value = Number(s.values[i]) || 0;
      if (value <= 0) return;
      const y0 = PAD.top + plotH - (plotH * base) / top;
      const height = (plotH * value) / top;
      base += value;
      root.append(svg('rect', {
        x: left + slot * i + (slot - barW) / 2, y: y0 - height, width: barW, height: Math.max(height, 0.5),
        fill: PALETTE[k % PALETTE.length],
      }));
    });
  });
  return root;
}

/**
 * Lines of counts: one per series over the x labels (a dot per point, so one day still shows).
 * series: [{name, values: [number|null per x label]}].
 */
export function lines(label, xLabels, series, format) {
  const scale = axis(Math.max(0, ...series.flatMap(s => s.values.map(v => Number(v) || 0))), true);
  const top = scale.top;
  const { root, plotW, plotH, left } = frame(label, xLabels, scale, format);
  const x = i => left + (plotW * (i + 0.5)) / Math.max(1, xLabels.length);
  const y = v => PAD.top + plotH - (plotH * v) / top;
  series.forEach((s, k) => {
    const colour = PALETTE[k % PALETTE.length];
    const points = s.values.map((v, i) => (v === null || v === undefined ? null : [x(i), y(Number(v) || 0)])).filter(Boolean);
    if (points.length > 1) {
      root.append(svg('polyline', {
        points: points.map(p => p.join(',')).join(' '), fill: 'none', stroke: colour, 'stroke-width': 2,
      }));
    }
    points.forEach(([px, py]) => root.append(svg('circle', { cx: px, cy: py, r: 3, fill: colour })));
  });
  return root;
}

/**
 * Horizontal bars, one per name, for totals over a range.
 * items: [{name, value}].
 */
export function bars(label, items, format) {
  const rowH = 26;
  const height = PAD.top + items.length * rowH + 8;
  const WIDTH = drawnWidth();
  const left = Math.min(180, Math.round(WIDTH * 0.35));
  const top = axis(Math.max(0, ...items.map(i => Number(i.value) || 0)), false).top;
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`, class: 'chart', role: 'img', 'aria-label': label, focusable: 'false',
  });
  root.append(svg('title', {}, label));
  items.forEach((item, i) => {
    const y = PAD.top + i * rowH;
    const width = ((WIDTH - left - 90) * (Number(item.value) || 0)) / top;
    root.append(svg('text', { x: left - 8, y: y + 16, 'text-anchor': 'end', 'font-size': 12, fill: '#1b1f24' },
      item.name.length > 26 ? item.name.slice(0, 25) + '…' : item.name));
    root.append(svg('rect', { x: left, y: y + 4, width: Math.max(width, 0.5), height: rowH - 8, fill: PALETTE[i % PALETTE.length] }));
    root.append(svg('text', { x: left + width + 6, y: y + 16, 'font-size': 12, fill: '#1b1f24' }, format(item.value)));
  });
  return root;
}

/** The legend: a swatch and a name per series, in the charts' colours. */
export function legend(names) {
  return h('ul', { class: 'legend', 'aria-label': 'Legend' }, names.map((name, k) => h('li', {},
    swatch(PALETTE[k % PALETTE.length]), name)));
}

function swatch(colour) {
  return svg('svg', { class: 'swatch', viewBox: '0 0 10 10', width: 10, height: 10, 'aria-hidden': 'true', focusable: 'false' },
    svg('rect', { width: 10, height: 10, rx: 2, fill: colour }));
}
