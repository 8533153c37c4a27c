// Draws a sweep's results from the JSON object in #report-data (sim/report/outputs/sweep_html.cc names its keys):
// over one axis, lines of the simulated span and kernel time; over two, a heat map of the span (the first axis down,
// the second across); with more, one such figure per combination of the others. Each figure sets data-drawn, the body
// data-ready="1" when done. common.js comes before it.

const MAX_PANELS = 24;

function numericAxis(values) { return values.every((v) => v !== '' && !isNaN(Number(v))); }

// The axes' distinct values in the order the points give them (the plan's order).
function axisValues(data) {
  return data.axes.map((_, a) => [...new Set(data.points.map((p) => p.values[a]))]);
}

function pointsByPanel(data, panelAxes) {
  const panels = new Map();
  for (const p of data.points) {
    const key = panelAxes.map((a) => `${data.axes[a]}=${p.values[a]}`).join(', ');
    if (!panels.has(key)) panels.set(key, []);
    panels.get(key).push(p);
  }
  return [...panels.entries()].slice(0, MAX_PANELS);
}

function drawLines(container, data, points, values) {
  const width = 720, height = 300, pad = 64;
  const svg = figureSvg(container, width, height);
  const numeric = numericAxis(values);
  const xs = numeric ? values.map(Number) : values.map((_, i) => i);
  const lo = Math.min(...xs), hi = Math.max(...xs) === lo ? lo + 1 : Math.max(...xs);
  const sx = (v) => pad + ((v - lo) / (hi - lo)) * (width - pad - 20);
  let top = 0;
  for (const p of points) top = Math.max(top, p.span_s || 0, p.kernel_time_s || 0);
  top = (top || 1) * 1.08;
  const sy = (v) => height - 40 - (v / top) * (height - 56);
  const axis = svg.appendChild(svgEl('g', { class: 'axis' }));
  for (const t of linearTicks(0, top, 5)) {
    axis.appendChild(svgEl('line', { x1: pad, x2: width - 20, y1: sy(t), y2: sy(t), stroke: '#eef1f5' }));
    axis.appendChild(svgEl('text', { x: pad - 6, y: sy(t) + 4, 'text-anchor': 'end' }, formatTick(t * 1e9)));
  }
  values.forEach((v, i) => axis.appendChild(svgEl('text', { x: sx(xs[i]), y: height - 22, 'text-anchor': 'middle' }, v)));
  axis.appendChild(svgEl('text', { x: pad + (width - pad) / 2, y: height - 4, 'text-anchor': 'middle' }, data.axes[0]));
  let marks = 0;
  for (const [key, color, label] of [['span_s', '#2f6fdf', 'span'], ['kernel_time_s', '#e07b1a', 'kernel time']]) {
    const line = points.map((p) => (p[key] === null ? null : [sx(xs[values.indexOf(p.values[0])]), sy(p[key]), p]))
      .filter((q) => q !== null);
    if (!line.length) continue;
    svg.appendChild(svgEl('polyline', { points: line.map(([x, y]) => `${x},${y}`).join(' '), fill: 'none', stroke: color, 'stroke-width': 2 }));
    for (const [x, y, p] of line) {
      svg.appendChild(titled(svgEl('circle', { cx: x, cy: y, r: 3.5, fill: color }),
        `${label} ${formatTick(p[key] * 1e9)} at ${data.axes.map((a, i) => `${a}=${p.values[i]}`).join(', ')}`));
      marks += 1;
    }
  }
  return marks;
}

// Blue (short) to red (long) through pale yellow.
function heatColor(f) {
  const stops = [[49, 104, 179], [255, 247, 188], [196, 48, 43]];
  const [a, b, t] = f < 0.5 ? [stops[0], stops[1], f * 2] : [stops[1], stops[2], (f - 0.5) * 2];
  return `rgb(${a.map((c, i) => Math.round(c + (b[i] - c) * t)).join(',')})`;
}

function drawHeatMap(container, data, points, rows, cols) {
  const cell = 64, left = 90, top = 44;
  const width = left + cols.length * cell + 20, height = top + rows.length * cell + 40;
  const svg = figureSvg(container, Math.max(width, 420), height, false);
  const spans = points.map((p) => p.span_s).filter((s) => s !== null);
  const lo = Math.min(...spans), hi = Math.max(...spans);
  const axis = svg.appendChild(svgEl('g', { class: 'axis' }));
  axis.appendChild(svgEl('text', { x: left + (cols.length * cell) / 2, y: 14, 'text-anchor': 'middle' }, data.axes[1]));
  cols.forEach((c, j) => axis.appendChild(svgEl('text', { x: left + j * cell + cell / 2, y: top - 8, 'text-anchor': 'middle' }, c)));
  const middle = top + (rows.length * cell) / 2;
  axis.appendChild(svgEl('text', { x: 14, y: middle, transform: `rotate(-90 14 ${middle})`, 'text-anchor': 'middle' }, data.axes[0]));
  rows.forEach((r, i) => axis.appendChild(svgEl('text', { x: left - 8, y: top + i * cell + cell / 2 + 4, 'text-anchor': 'end' }, r)));
  let marks = 0;
  for (const p of points) {
    const i = rows.indexOf(p.values[0]), j = cols.indexOf(p.values[1]);
    const f = p.span_s === null || hi === lo ? 0.5 : (p.span_s - lo) / (hi - lo);
    const where = data.axes.map((a, k) => `${a}=${p.values[k]}`).join(', ');
    svg.appendChild(titled(svgEl('rect', { x: left + j * cell + 1, y: top + i * cell + 1, width: cell - 2, height: cell - 2,
                                           fill: p.span_s === null ? '#dddddd' : heatColor(f) }),
      p.span_s === null ? `${where}: no result (${p.error})` : `${where}: span ${formatTick(p.span_s * 1e9)}, kernels ${formatTick(p.kernel_time_s * 1e9)}`));
    svg.appendChild(svgEl('text', { x: left + j * cell + cell / 2, y: top + i * cell + cell / 2 + 4, 'text-anchor': 'middle' },
      p.span_s === null ? 'n/a' : formatTick(p.span_s * 1e9)));
    marks += 1;
  }
  axis.appendChild(svgEl('text', { x: left, y: height - 12 }, `span: blue ${formatTick(lo * 1e9)} to red ${formatTick(hi * 1e9)}`));
  return marks;
}

function drawSetup(data) {
  const kv = el('dl', { class: 'kv' });
  const pairs = [['trace', data.trace], ['platform', data.platform], ['model', data.model],
    ['axes', data.axes.join(' x ')], ['points', `${data.points.length}, ${data.points.filter((p) => p.span_s !== null).length} with results`]];
  for (const [k, v] of pairs) { kv.appendChild(el('dt', {}, k)); kv.appendChild(el('dd', {}, v)); }
  document.querySelector('#setup .content').appendChild(kv);
  document.getElementById('subtitle').textContent = `${data.trace.split('/').pop()} on ${data.platform}`;
}

function drawFigures(data) {
  const box = document.getElementById('sweep-figures');
  const values = axisValues(data);
  const heat = data.axes.length >= 2;
  const panelAxes = data.axes.map((_, a) => a).slice(heat ? 2 : 1);
  document.getElementById('plots-hint').textContent = heat
    ? `Simulated span per point, ${data.axes[0]} down and ${data.axes[1]} across` + (panelAxes.length ? ', one map per value of the other axes.' : '.')
    : `Simulated span and kernel time against ${data.axes[0]}` + (panelAxes.length ? ', one figure per value of the other axes.' : '.');
  let marks = 0;
  for (const [key, points] of pointsByPanel(data, panelAxes)) {
    if (key) box.appendChild(el('h3', {}, key));
    if (!heat) legend(box.appendChild(el('div', { class: 'legend' })), [['span', '#2f6fdf'], ['kernel time', '#e07b1a']]);
    const figure = box.appendChild(el('div', { class: 'figure' }));
    marks += heat ? drawHeatMap(figure, data, points, values[0], values[1]) : drawLines(figure, data, points, values[0]);
  }
  box.dataset.drawn = String(marks);
}

function drawTable(data) {
  const table = document.getElementById('point-table');
  const head = table.tHead.appendChild(el('tr'));
  const columns = ['#', ...data.axes, 'span', 'kernel time', 'kernels', 'without counters', 'error'];
  for (const c of columns) head.appendChild(el('th', {}, c));
  const body = table.tBodies[0];
  data.points.forEach((p, i) => {
    const row = body.appendChild(el('tr'));
    const cells = [String(i), ...p.values, p.span_s === null ? '' : formatTick(p.span_s * 1e9),
      p.kernel_time_s === null ? '' : formatTick(p.kernel_time_s * 1e9), String(p.kernels), String(p.kernels_without_counters), p.error];
    cells.forEach((c, k) => row.appendChild(el('td', { class: k > data.axes.length && k < columns.length - 1 ? 'num' : '' }, c)));
  });
  table.dataset.drawn = String(body.children.length);
}

function main() {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  drawSetup(data);
  drawFigures(data);
  drawTable(data);
  document.body.dataset.ready = '1';
}

main();
