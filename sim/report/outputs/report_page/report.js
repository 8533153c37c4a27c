// Draws the report from the JSON object in #report-data (sim/report/outputs/report_data.h names its keys). Plain
// DOM and SVG, no library: the page must open anywhere, offline. Every figure sets data-drawn to the number of marks
// it drew, and the body gets data-ready="1" when all are done, so a headless browser can check the page drew.
// common.js comes before it.

const BOUND_COLORS = {
  compute: '#2f6fdf', memory: '#e07b1a', latency: '#8e44ad', remote: '#c0392b', launch: '#7f8c8d',
  recorded: '#16a085', '': '#95a5a6',
};
const SLICE_COLORS = ['#4c78a8', '#f58518', '#9d9da1'];  // kernel, copy, memset (SliceKind)
const SLICE_NAMES = ['kernel', 'copy', 'memset'];

// ---- sections -------------------------------------------------------------------------------------------------

function drawTraces(data) {
  const box = document.querySelector('#traces .content');
  const table = el('table', { class: 'traces-table' });
  const head = el('tr');
  for (const h of ['', 'file', 'kind', 'recorded on', 'devices', 'kernels', 'span', 'command']) head.appendChild(el('th', {}, h));
  table.appendChild(el('thead')).appendChild(head);
  const body = table.appendChild(el('tbody'));
  for (const t of data.traces) {
    const row = body.appendChild(el('tr'));
    for (const v of [t.label, t.path, t.mode, t.host, t.devices.join('; '), String(t.kernels), formatTime(t.span_ns), t.command])
      row.appendChild(el('td', {}, v));
  }
  box.appendChild(table);
  const simulated = data.traces.find((t) => t.simulation);
  if (simulated) {
    const s = simulated.simulation;
    const kv = el('dl', { class: 'kv' });
    const pairs = [
      ['platform', s.platform], ['model', s.model],
      ['overrides', s.overrides.length ? s.overrides.join(', ') : 'none'],
      ['kernel times', s.reuses_recorded_kernel_times ? 'recorded (topology study, not predicted)' : 'predicted by the model'],
      ['host time', (s.host_time_recorded ? 'from the recording' : 'not recorded: a fixed cost per call') +
        (s.host_scale !== null && s.host_scale !== 1 ? `, times ${s.host_scale}` : '')],
      ['simulated from', s.source_trace],
    ];
    for (const [k, v] of pairs) { kv.appendChild(el('dt', {}, k)); kv.appendChild(el('dd', {}, v)); }
    box.appendChild(el('h3', {}, `Simulation (${simulated.label})`));
    box.appendChild(kv);
  }
  const names = data.traces.map((t) => t.path.split('/').pop());
  document.getElementById('subtitle').textContent = names.length > 1 ? `A: ${names[0]}  -  B: ${names[1]}` : names[0];
}

function drawWarnings(data) {
  if (!data.warnings.length) return;
  const section = document.getElementById('warnings');
  section.hidden = false;
  const list = section.querySelector('.content');
  for (const w of data.warnings) list.appendChild(el('li', {}, w));
}

function drawSummary(data) {
  const box = document.querySelector('#summary .content');
  const c = data.comparison;
  const card = (value, label, cls) => {
    const node = box.appendChild(el('div', { class: 'card' }));
    node.appendChild(el('div', { class: 'value' + (cls ? ' ' + cls : '') }, value));
    node.appendChild(el('div', { class: 'label' }, label));
  };
  if (!c) {
    const t = data.traces[0];
    card(String(t.kernels), 'kernels');
    card(formatTime(t.span_ns), 'span');
    card('-', 'one trace: nothing to compare');
    return;
  }
  const quality = (p) => (p <= 15 ? 'good' : p >= 40 ? 'bad' : '');
  card(c.mape_pct.toFixed(1) + '%', `kernel MAPE (${c.matched} kernels)`, quality(c.mape_pct));
  card(c.median_ape_pct.toFixed(1) + '%', 'median kernel error');
  card(formatPct(c.span_error_pct), 'span error (B against A)', quality(Math.abs(c.span_error_pct || 0)));
  card(`${formatTime(c.span_ns.a)} / ${formatTime(c.span_ns.b)}`, 'span A / B');
  card(`${formatTime(c.kernel_time_ns.a)} / ${formatTime(c.kernel_time_ns.b)}`, 'kernel time A / B');
}

// ---- timeline ---------------------------------------------------------------------------------------------------

function timelineRows(data) {
  const keys = new Map();
  data.timelines.forEach((t) => t.tracks.forEach(([device, stream]) => keys.set(`${device}:${stream}`, [device, stream])));
  const sorted = [...keys.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const rows = [];
  for (const [device, stream] of sorted) {
    data.timelines.forEach((t, trace) => {
      const track = t.tracks.findIndex(([d, s]) => d === device && s === stream);
      if (track >= 0) rows.push({ trace, track, label: `${data.traces[trace].label} GPU${device} stream ${stream}` });
    });
  }
  return rows;
}

// Per row, its slices sorted by start: [start, end, kind, label, bytes].
function rowSlices(data, rows) {
  return rows.map((row) => {
    const t = data.timelines[row.trace];
    const out = [];
    for (let i = 0; i < t.track.length; ++i) {
      if (t.track[i] !== row.track) continue;
      out.push([t.start_ns[i], t.start_ns[i] + t.duration_ns[i], t.kind[i], t.labels[t.label[i]], t.bytes[i]]);
    }
    out.sort((x, y) => x[0] - y[0]);
    return out;
  });
}

function drawTimeline(data) {
  const figure = document.getElementById('timeline-figure');
  legend(document.getElementById('timeline-legend'), SLICE_NAMES.map((n, i) => [n, SLICE_COLORS[i]]));
  const rows = timelineRows(data);
  if (!rows.length) { figure.appendChild(el('p', {}, 'No timed GPU operations (a counters-mode trace).')); figure.dataset.drawn = '0'; return; }
  const slices = rowSlices(data, rows);
  // The first view spans the GPU operations: a recording's host start-up before its first copy is empty here.
  let begin = Infinity, end = 1;
  for (const row of slices) for (const s of row) { begin = Math.min(begin, s[0]); end = Math.max(end, s[1]); }
  begin = Math.max(0, begin - (end - begin) * 0.01);
  const width = 1400, labelWidth = 190, rowHeight = 18, top = 6, axisHeight = 26;
  const height = top + rows.length * rowHeight + axisHeight;
  const svg = figureSvg(figure, width, height);
  const plot = svgEl('g');
  const axis = svgEl('g', { class: 'axis' });
  svg.appendChild(plot);
  svg.appendChild(axis);
  rows.forEach((row, i) => {
    svg.appendChild(svgEl('text', { x: 4, y: top + i * rowHeight + 13 }, row.label));
    if (i > 0 && rows[i - 1].trace !== 0 && row.trace === 0)
      svg.appendChild(svgEl('line', { x1: 0, x2: width, y1: top + i * rowHeight, y2: top + i * rowHeight, stroke: '#d8dde6' }));
  });
  let view = [begin, end];
  const x = (t) => labelWidth + ((t - view[0]) / (view[1] - view[0])) * (width - labelWidth - 10);

  function render() {
    plot.replaceChildren();
    axis.replaceChildren();
    let marks = 0;
    slices.forEach((row, r) => {
      const y = top + r * rowHeight + 2;
      let last = null;
      const flush = () => { if (last) { drawMark(last, y); marks += 1; } };
      for (const [start, stop, kind, label, bytes] of row) {
        if (stop < view[0] || start > view[1]) continue;
        const x0 = Math.max(labelWidth, x(start)), x1 = Math.min(width - 10, x(stop));
        if (last && x0 - last.x1 < 1 && x1 - x0 < 1) { last.x1 = Math.max(last.x1, x1); last.count += 1; continue; }
        flush();
        last = { x0, x1, kind, label, bytes, start, stop, count: 1 };
      }
      flush();
    });
    const y0 = top + rows.length * rowHeight;
    axis.appendChild(svgEl('line', { x1: labelWidth, x2: width - 10, y1: y0, y2: y0 }));
    for (const t of linearTicks(view[0], view[1], 8)) {
      axis.appendChild(svgEl('line', { x1: x(t), x2: x(t), y1: y0, y2: y0 + 4 }));
      axis.appendChild(svgEl('text', { x: x(t), y: y0 + 16, 'text-anchor': 'middle' }, formatTick(t)));
    }
    figure.dataset.drawn = String(marks);
  }
  function drawMark(m, y) {
    const tip = m.count > 1 ? `${m.count} operations` :
      `${m.label}\n${formatTime(m.stop - m.start)} at ${formatTime(m.start)}` + (m.bytes ? `\n${formatBytes(m.bytes)}` : '');
    plot.appendChild(titled(svgEl('rect', { x: m.x0, y, width: Math.max(0.5, m.x1 - m.x0), height: rowHeight - 4,
                                            fill: SLICE_COLORS[m.kind] }), tip));
  }

  zoomable(svg, () => view, (v) => { view = v; render(); }, [begin, end], (width - labelWidth - 10) / width,
           labelWidth / width);
  render();
}

// Wheel zooms around the pointer, drag pans, double-click goes back to `home`. `plotShare` and `plotStart`: the
// plot area's width and left edge as shares of the SVG's width (its labels take the rest).
function zoomable(svg, getView, setView, home, plotShare, plotStart) {
  const timeAt = (event) => {
    const box = svg.getBoundingClientRect();
    const share = ((event.clientX - box.left) / box.width - plotStart) / plotShare;
    const [lo, hi] = getView();
    return lo + share * (hi - lo);
  };
  svg.addEventListener('wheel', (event) => {
    event.preventDefault();
    const [lo, hi] = getView();
    const at = Math.min(Math.max(timeAt(event), lo), hi);
    const span = Math.max(100, (hi - lo) * (event.deltaY > 0 ? 1.25 : 0.8));
    const left = Math.max(0, at - (at - lo) * (span / (hi - lo)));
    setView([left, left + span]);
  }, { passive: false });
  let drag = null;
  svg.addEventListener('mousedown', (event) => { drag = { x: event.clientX, view: getView().slice() }; });
  window.addEventListener('mouseup', () => { drag = null; });
  svg.addEventListener('mousemove', (event) => {
    if (!drag) return;
    const perPixel = (drag.view[1] - drag.view[0]) / (plotShare * svg.getBoundingClientRect().width);
    const shift = (drag.x - event.clientX) * perPixel;
    setView([drag.view[0] + shift, drag.view[1] + shift]);
  });
  svg.addEventListener('dblclick', () => setView(home.slice()));
}

// ---- accuracy ---------------------------------------------------------------------------------------------------

function kernelObjects(data) {
  const cols = data.kernels.columns;
  return data.kernels.rows.map((r) => Object.fromEntries(cols.map((c, i) => [c, r[i]])));
}

function drawScatter(data, kernels) {
  const figure = document.getElementById('scatter-figure');
  const points = kernels.filter((k) => k.b_ns !== null && k.a_ns > 0 && k.b_ns > 0);
  if (!points.length) {
    figure.appendChild(el('p', {}, data.comparison ? 'No kernel with both times.' : 'One trace: give a second (its simulation) to compare.'));
    figure.dataset.drawn = '0';
    return;
  }
  const bounds = [...new Set(points.map((p) => p.bound))];
  legend(document.getElementById('scatter-legend'), bounds.map((b) => [b || 'bound not recorded', BOUND_COLORS[b] || BOUND_COLORS['']]));
  const size = 520, pad = 64;
  const svg = figureSvg(figure, size, size);
  let lo = Infinity, hi = 0;
  for (const p of points) { lo = Math.min(lo, p.a_ns, p.b_ns); hi = Math.max(hi, p.a_ns, p.b_ns); }
  const l0 = Math.floor(Math.log10(lo)), l1 = Math.max(l0 + 1, Math.ceil(Math.log10(hi)));
  const scale = (v) => (Math.log10(v) - l0) / (l1 - l0) * (size - pad - 12);
  const sx = (v) => pad + scale(v), sy = (v) => size - pad - scale(v);
  const grid = svg.appendChild(svgEl('g', { class: 'grid' }));
  const axis = svg.appendChild(svgEl('g', { class: 'axis' }));
  for (let e = l0; e <= l1; ++e) {
    const v = Math.pow(10, e);
    grid.appendChild(svgEl('line', { x1: sx(v), x2: sx(v), y1: sy(Math.pow(10, l0)), y2: sy(Math.pow(10, l1)) }));
    grid.appendChild(svgEl('line', { y1: sy(v), y2: sy(v), x1: sx(Math.pow(10, l0)), x2: sx(Math.pow(10, l1)) }));
    axis.appendChild(svgEl('text', { x: sx(v), y: size - pad + 16, 'text-anchor': 'middle' }, formatTick(v)));
    axis.appendChild(svgEl('text', { x: pad - 6, y: sy(v) + 4, 'text-anchor': 'end' }, formatTick(v)));
  }
  const vmin = Math.pow(10, l0), vmax = Math.pow(10, l1);
  svg.appendChild(svgEl('line', { x1: sx(vmin), y1: sy(vmin), x2: sx(vmax), y2: sy(vmax), stroke: '#333', 'stroke-width': 1 }));
  svg.appendChild(svgEl('text', { x: sx(vmax) - 4, y: sy(vmax) + 14, 'text-anchor': 'end' }, 'y = x'));
  svg.appendChild(svgEl('text', { x: pad + (size - pad) / 2, y: size - 12, 'text-anchor': 'middle' }, 'measured (A)'));
  svg.appendChild(svgEl('text', { x: 14, y: (size - pad) / 2, transform: `rotate(-90 14 ${(size - pad) / 2})`, 'text-anchor': 'middle' }, 'predicted (B)'));
  const dots = svg.appendChild(svgEl('g'));
  for (const p of points) {
    dots.appendChild(titled(svgEl('circle', { cx: sx(p.a_ns), cy: sy(p.b_ns), r: 3, fill: BOUND_COLORS[p.bound] || BOUND_COLORS[''], 'fill-opacity': 0.7 }),
      `${p.name} (GPU${p.device} stream ${p.stream} #${p.index})\nmeasured ${formatTime(p.a_ns)}, predicted ${formatTime(p.b_ns)} (${formatPct(p.error_pct)})` +
      (p.limiter ? `\nbound: ${p.bound} (${p.limiter})` : '')));
  }
  figure.dataset.drawn = String(points.length);
}

function drawHistogram(data, kernels) {
  const figure = document.getElementById('histogram-figure');
  const errors = kernels.map((k) => k.error_pct).filter((e) => e !== null);
  if (!errors.length) { figure.appendChild(el('p', {}, 'No errors to show.')); figure.dataset.drawn = '0'; return; }
  // 10-point bins from -100% (B takes no time) to +100%, and one for B at least twice A.
  const counts = new Array(21).fill(0);
  for (const e of errors) counts[Math.min(20, Math.max(0, Math.floor((e + 100) / 10)))] += 1;
  const width = 560, height = 520, pad = 46;
  const svg = figureSvg(figure, width, height);
  const top = Math.max(...counts);
  const bw = (width - pad - 10) / counts.length;
  const sy = (c) => height - pad - (c / top) * (height - pad - 16);
  const axis = svg.appendChild(svgEl('g', { class: 'axis' }));
  for (const t of linearTicks(0, top, 5)) {
    axis.appendChild(svgEl('text', { x: pad - 6, y: sy(t) + 4, 'text-anchor': 'end' }, String(Math.round(t))));
    axis.appendChild(svgEl('line', { x1: pad, x2: width - 10, y1: sy(t), y2: sy(t), stroke: '#eef1f5' }));
  }
  let bars = 0;
  counts.forEach((c, i) => {
    const lo = -100 + i * 10;
    const label = i === 20 ? '>= +100%' : `${lo}% to ${lo + 10}%`;
    const x0 = pad + i * bw;
    if (c > 0) {
      svg.appendChild(titled(svgEl('rect', { x: x0 + 1, y: sy(c), width: bw - 2, height: height - pad - sy(c),
                                              fill: Math.abs(lo + 5) <= 15 ? '#4c9a5e' : '#4c78a8' }), `${label}: ${c} kernels`));
      bars += 1;
    }
    if (i % 2 === 0) axis.appendChild(svgEl('text', { x: x0 + bw / 2, y: height - pad + 16, 'text-anchor': 'middle' }, i === 20 ? '+100' : String(lo)));
  });
  axis.appendChild(svgEl('text', { x: pad + (width - pad) / 2, y: height - 10, 'text-anchor': 'middle' }, 'error of B against A (%), kernels per 10-point bin'));
  figure.dataset.drawn = String(bars);
}

// ---- kernel table -----------------------------------------------------------------------------------------------

function drawKernelTable(data, kernels) {
  const compared = data.comparison !== null;
  const columns = [
    ['device', 'GPU', true], ['stream', 'stream', true], ['index', '#', true], ['name', 'kernel', false],
    ['grid', 'grid', false], ['block', 'block', false], ['a_ns', compared ? 'measured (A)' : 'time', true],
  ].concat(compared ? [['b_ns', 'predicted (B)', true], ['error_pct', 'error', true]] : [])
   .concat([['bound', 'bound', false], ['limiter', 'what bounds it', false]]);
  const table = document.getElementById('kernel-table');
  const headRow = table.tHead.appendChild(el('tr'));
  const body = table.tBodies[0];
  let sortKey = compared ? 'a_ns' : 'a_ns', ascending = false, shown = 200, filter = '';
  const format = (key, v) => {
    if (v === null || v === undefined) return '';
    if (key === 'a_ns' || key === 'b_ns') return formatTime(v);
    if (key === 'error_pct') return formatPct(v);
    return String(v);
  };
  function render() {
    const visible = kernels.filter((k) => !filter || k.name.toLowerCase().includes(filter));
    visible.sort((x, y) => {
      const a = x[sortKey], b = y[sortKey];
      const order = a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;
      return ascending ? order : -order;
    });
    body.replaceChildren();
    for (const k of visible.slice(0, shown)) {
      const row = body.appendChild(el('tr'));
      for (const [key, , numeric] of columns) {
        const cell = row.appendChild(el('td', { class: numeric ? 'num' : key === 'name' ? 'name' : '' }, format(key, k[key])));
        if (key === 'name') cell.title = k.name;
        if (key === 'error_pct' && k.error_pct !== null) cell.className = 'num ' + (Math.abs(k.error_pct) <= 15 ? 'good' : Math.abs(k.error_pct) >= 40 ? 'bad' : '');
      }
    }
    const more = document.getElementById('kernel-more');
    more.hidden = visible.length <= shown;
    document.getElementById('kernel-count').textContent =
      `${Math.min(shown, visible.length)} of ${visible.length} rows` + (data.kernels.total > kernels.length ? ` (the page holds ${kernels.length} of ${data.kernels.total} kernels)` : '');
    for (const th of headRow.children) th.className = th.dataset.key === sortKey ? (ascending ? 'sorted-asc' : 'sorted-desc') : '';
    table.dataset.drawn = String(body.children.length);
  }
  for (const [key, title] of columns) {
    const th = headRow.appendChild(el('th', { 'data-key': key }, title));
    th.addEventListener('click', () => { ascending = sortKey === key ? !ascending : key === 'name'; sortKey = key; render(); });
  }
  document.getElementById('kernel-filter').addEventListener('input', (e) => { filter = e.target.value.toLowerCase(); shown = 200; render(); });
  document.getElementById('kernel-more').addEventListener('click', () => { shown += 1000; render(); });
  render();
}

// ---- links ------------------------------------------------------------------------------------------------------

const LINE_COLORS = ['#2f6fdf', '#e07b1a', '#16a085', '#c0392b', '#8e44ad', '#7f8c8d', '#b7950b', '#1f618d'];

function drawLinks(data) {
  const box = document.querySelector('#links .content');
  let drawn = 0;
  data.links.forEach((links, trace) => {
    const label = data.traces[trace].label;
    box.appendChild(el('h3', {}, `${label}: ${data.traces[trace].path.split('/').pop()}`));
    if (!links.series.length) { box.appendChild(el('p', { class: 'hint' }, 'No bytes over PCIe or NVLink in this trace (or no link in its header).')); return; }
    const legendBox = box.appendChild(el('div', { class: 'legend' }));
    legend(legendBox, links.series.map((s, i) => [s.name + (s.capacity_gb_per_s ? ` (capacity ${s.capacity_gb_per_s.toFixed(0)} GB/s, dashed)` : ''), LINE_COLORS[i % LINE_COLORS.length]]));
    const figure = box.appendChild(el('div', { class: 'figure', id: `links-figure-${trace}` }));
    const width = 1400, height = 240, pad = 56;
    const svg = figureSvg(figure, width, height);
    const bins = links.series[0].gb_per_s.length;
    let top = 1;
    for (const s of links.series) { top = Math.max(top, ...s.gb_per_s); if (s.capacity_gb_per_s) top = Math.max(top, s.capacity_gb_per_s); }
    top *= 1.05;
    const sx = (i) => pad + (i / bins) * (width - pad - 10);
    const sy = (v) => height - 30 - (v / top) * (height - 40);
    const axis = svg.appendChild(svgEl('g', { class: 'axis' }));
    for (const t of linearTicks(0, top, 4)) {
      axis.appendChild(svgEl('line', { x1: pad, x2: width - 10, y1: sy(t), y2: sy(t), stroke: '#eef1f5' }));
      axis.appendChild(svgEl('text', { x: pad - 6, y: sy(t) + 4, 'text-anchor': 'end' }, `${Math.round(t)} GB/s`));
    }
    for (const t of linearTicks(0, bins * links.bin_ns, 8)) {
      const px = sx(t / links.bin_ns);
      if (px > width - 10) continue;
      axis.appendChild(svgEl('text', { x: px, y: height - 12, 'text-anchor': 'middle' }, formatTick(t)));
    }
    links.series.forEach((s, i) => {
      const color = LINE_COLORS[i % LINE_COLORS.length];
      const points = s.gb_per_s.map((v, b) => `${sx(b).toFixed(1)},${sy(v).toFixed(1)} ${sx(b + 1).toFixed(1)},${sy(v).toFixed(1)}`).join(' ');
      svg.appendChild(titled(svgEl('polyline', { points, fill: 'none', stroke: color, 'stroke-width': 1.5 }), s.name));
      if (s.capacity_gb_per_s)
        svg.appendChild(svgEl('line', { x1: pad, x2: width - 10, y1: sy(s.capacity_gb_per_s), y2: sy(s.capacity_gb_per_s), stroke: color, 'stroke-dasharray': '5 4' }));
      drawn += 1;
    });
    figure.dataset.drawn = String(links.series.length);
  });
  box.dataset.drawn = String(drawn);
}

// ---- main -------------------------------------------------------------------------------------------------------

function main() {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  drawTraces(data);
  drawWarnings(data);
  drawSummary(data);
  drawTimeline(data);
  const kernels = kernelObjects(data);
  drawScatter(data, kernels);
  drawHistogram(data, kernels);
  drawKernelTable(data, kernels);
  drawLinks(data);
  document.body.dataset.ready = '1';
}

main();
