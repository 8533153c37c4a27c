// Helpers shared by the report pages' scripts (report.js, sweep.js): DOM and SVG elements, number formats, axis
// ticks, legends. Put before each page's own script.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function titled(node, text) {
  node.appendChild(svgEl('title', {}, text));
  return node;
}

function formatTime(ns) {
  if (ns === null || ns === undefined) return '';
  const a = Math.abs(ns);
  if (a >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
  if (a >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
  if (a >= 1e3) return (ns / 1e3).toFixed(2) + ' us';
  return Math.round(ns) + ' ns';
}

// Axis ticks: as few digits as the value needs ("10 ms", "2.5 us").
function formatTick(ns) {
  const a = Math.abs(ns);
  const [div, unit] = a >= 1e9 ? [1e9, 's'] : a >= 1e6 ? [1e6, 'ms'] : a >= 1e3 ? [1e3, 'us'] : [1, 'ns'];
  return `${parseFloat((ns / div).toPrecision(3))} ${unit}`;
}

function formatBytes(bytes) {
  if (!bytes) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = bytes;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; ++i; }
  return (i === 0 ? v : v.toFixed(2)) + ' ' + units[i];
}

function formatPct(p) { return p === null || p === undefined ? '' : (p > 0 ? '+' : '') + p.toFixed(1) + '%'; }

function legend(container, entries) {
  for (const [name, color] of entries) {
    const item = el('span', {}, name);
    item.style.setProperty('--swatch', color);
    container.appendChild(item);
  }
}

// An SVG drawn in width x height units that scales with the page; `grow` false: never above its own size (a small
// heat map stays small, its text readable).
function figureSvg(container, width, height, grow = true) {
  const svg = svgEl('svg', { viewBox: `0 0 ${width} ${height}`, width: width, height: height,
                              preserveAspectRatio: 'xMinYMin meet' });
  if (!grow) svg.style.maxWidth = `${width}px`;
  container.appendChild(svg);
  return svg;
}

// Round tick values: 1, 2 or 5 times a power of ten, about `count` of them over [lo, hi].
function linearTicks(lo, hi, count) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(t);
  return ticks;
}

