// The comparison page: plain JavaScript, charts drawn as inline SVG by this file.
// No CDN, no build step: it works offline.
(function () {
  'use strict';

  const SVG = 'http://www.w3.org/2000/svg';
  const COLORS = ['#d1495b', '#edae49', '#0b63c5', '#2a9d8f', '#7b4fa0', '#6c757d'];

  const form = document.getElementById('run-form');
  const countInput = document.getElementById('count');
  const operationInput = document.getElementById('operation');
  const includeSweep = document.getElementById('include-sweep');
  const runButton = document.getElementById('run');
  const status = document.getElementById('status');
  const strategiesBox = document.getElementById('strategies');
  const rttBox = document.getElementById('rtt-choices');

  let setup = null;
  let running = false;
  const colorByStrategy = {};

  // ---- helpers ------------------------------------------------------------

  function formatInt(value) {
    return Math.round(value).toLocaleString('en-US');
  }

  function formatMillis(value) {
    return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : formatInt(value);
  }

  function formatShort(value) {
    if (value >= 1e6) {
      return trim(value / 1e6) + 'M';
    }
    if (value >= 1e3) {
      return trim(value / 1e3) + 'k';
    }
    return trim(value);
  }

  function trim(value) {
    return String(Math.round(value * 10) / 10);
  }

  function el(name, attributes, text) {
    const node = document.createElement(name);
    Object.entries(attributes || {}).forEach(([key, value]) => node.setAttribute(key, value));
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function svg(name, attributes, text) {
    const node = document.createElementNS(SVG, name);
    Object.entries(attributes || {}).forEach(([key, value]) => node.setAttribute(key, value));
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }

  async function call(method, url) {
    const response = await fetch(url, { method: method, headers: { Accept: 'application/json' } });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(body.detail || body.title || ('HTTP ' + response.status));
      error.status = response.status;
      throw error;
    }
    return body;
  }

  // ---- setup: strategies, round-trip picker, limits -----------------------

  async function loadSetup() {
    setup = await call('GET', 'redis/setup');
    countInput.max = setup.maxCount;
    document.getElementById('count-hint').textContent = '1 to ' + formatInt(setup.maxCount);
    setup.strategies.forEach((strategy, index) => {
      colorByStrategy[strategy.name] = COLORS[index % COLORS.length];
      const label = el('label');
      const box = el('input', { type: 'checkbox', name: 'strategy', value: strategy.name });
      box.checked = true;
      const text = el('span');
      text.appendChild(el('strong', {}, strategy.name));
      text.appendChild(el('span', { class: 'description' }, strategy.description));
      label.appendChild(box);
      label.appendChild(text);
      strategiesBox.appendChild(label);
    });
    drawRttChoices();
    describeRoute();
    describeJvm();
  }

  function drawRttChoices() {
    rttBox.textContent = '';
    const choices = setup.rttChoices.slice();
    if (!choices.includes(setup.rttMillis)) {
      choices.push(setup.rttMillis);
    }
    choices.forEach((millis) => {
      const label = el('label', { class: 'inline' });
      const radio = el('input', { type: 'radio', name: 'rtt', value: String(millis), id: 'rtt-' + millis });
      radio.checked = millis === setup.rttMillis;
      radio.disabled = !setup.rttAdjustable;
      radio.addEventListener('change', () => changeRtt(millis));
      label.appendChild(radio);
      label.appendChild(document.createTextNode(' ' + millis + ' ms'));
      rttBox.appendChild(label);
    });
    if (!setup.rttAdjustable) {
      document.getElementById('rtt-hint').textContent = 'Fixed: ' + ((setup.route && setup.route.proxyOff) || 'no latency proxy') + '.';
    }
  }

  function describeRoute() {
    const route = setup.route;
    if (!route) {
      return;
    }
    let text = 'Redis: ' + route.server;
    if (route.origin === 'EMBEDDED') {
      text += ' (embedded ' + route.embeddedBinary + ', started because nothing answered at the configured address)';
    }
    text += route.proxyPort ? ', through a latency proxy on port ' + route.proxyPort : ', direct';
    document.getElementById('route').textContent = text;
  }

  function describeJvm() {
    const jvm = setup.jvm;
    if (!jvm) {
      return;
    }
    const line = document.getElementById('jvm');
    line.textContent = 'Timings run on Java ' + jvm.version + ', JIT: ' + jvm.jit + '.';
    line.dataset.fullJit = String(jvm.fullJit);
  }

  async function changeRtt(millis) {
    try {
      setup = await call('PUT', 'redis/rtt/' + millis);
      if (!running) {
        setStatus('idle', 'Simulated round trip is now ' + millis + ' ms.');
      }
    }
    catch (error) {
      setStatus('error', error.message);
    }
  }

  // ---- running ------------------------------------------------------------

  function selectedStrategies() {
    return Array.from(strategiesBox.querySelectorAll('input[name=strategy]:checked')).map((box) => box.value);
  }

  function setRunning(value) {
    running = value;
    runButton.disabled = value;
    document.body.dataset.running = String(value);
    form.setAttribute('aria-busy', String(value));
  }

  async function run(event) {
    event.preventDefault();
    if (running) {
      return;
    }
    const count = Number(countInput.value);
    if (!Number.isInteger(count) || count < 1 || (setup && count > setup.maxCount)) {
      setStatus('error', 'The count must be a whole number from 1 to ' + formatInt(setup ? setup.maxCount : 1) + '.');
      return;
    }
    const strategies = selectedStrategies();
    if (strategies.length === 0) {
      setStatus('error', 'Pick at least one strategy.');
      return;
    }
    const operation = operationInput.value;
    const rtt = setup ? setup.rttMillis : 0;
    setRunning(true);
    const started = performance.now();
    try {
      setStatus('running', 'Running: ' + formatInt(count) + ' ' + operation.toUpperCase() + 's with each of '
          + strategies.length + ' strategies at ' + rtt + ' ms simulated round trip…');
      const comparison = await call('GET', 'redis/compare/' + count + '?operation=' + encodeURIComponent(operation)
          + '&strategies=' + strategies.map(encodeURIComponent).join(','));
      drawComparison(comparison);
      let summary = 'Done: comparison in ' + ((performance.now() - started) / 1000).toFixed(1) + ' s';
      if (includeSweep.checked) {
        const sweepStarted = performance.now();
        setStatus('running', 'Running: chunk-size sweep of ' + formatInt(count) + ' SETs at ' + rtt
            + ' ms simulated round trip…');
        const sweep = await call('GET', 'redis/sweep/' + count);
        drawSweep(sweep);
        summary += ', sweep in ' + ((performance.now() - sweepStarted) / 1000).toFixed(1) + ' s';
      }
      setStatus('done', summary + '.');
    }
    catch (error) {
      setStatus('error', error.message);
    }
    finally {
      setRunning(false);
    }
  }

  // ---- the comparison: bar chart and table --------------------------------

  function drawComparison(comparison) {
    const rows = comparison.rows;
    const slowest = Math.max(1, Math.min(...rows.map((row) => row.opsPerSecond)));
    drawBars(rows);
    const body = document.querySelector('#results-table tbody');
    body.textContent = '';
    rows.forEach((row) => {
      const tr = el('tr', { 'data-strategy': row.strategy });
      const name = el('td', { class: 'strategy' });
      name.appendChild(el('span', { class: 'swatch', style: 'background:' + colorOf(row.strategy) }));
      name.appendChild(document.createTextNode(row.strategy));
      tr.appendChild(name);
      const commands = el('td', { class: 'num count' }, formatInt(row.count));
      if (!row.complete) {
        commands.appendChild(el('div', { class: 'note' }, 'stopped by the time budget'));
      }
      tr.appendChild(commands);
      tr.appendChild(el('td', { class: 'num millis' }, formatMillis(row.millis)));
      tr.appendChild(el('td', { class: 'num ops' }, formatInt(row.opsPerSecond)));
      tr.appendChild(el('td', { class: 'num speedup' }, (row.opsPerSecond / slowest).toFixed(1) + '×'));
      tr.appendChild(el('td', { class: 'description' }, row.description));
      body.appendChild(tr);
    });
    document.getElementById('results-caption').textContent = 'Comparison: ' + formatInt(comparison.count) + ' '
        + comparison.operation.toUpperCase() + 's per strategy at ' + comparison.rttMillis + ' ms simulated round trip';
  }

  function colorOf(strategy) {
    return colorByStrategy[strategy] || COLORS[COLORS.length - 1];
  }

  function drawBars(rows) {
    const container = document.getElementById('bar-chart');
    const width = 960;
    const left = 190;
    const right = 110;
    const top = 24;
    const rowHeight = 38;
    const height = top + rows.length * rowHeight + 10;
    const values = rows.map((row) => Math.max(1, row.opsPerSecond));
    let low = Math.floor(Math.log10(Math.min(...values)));
    let high = Math.ceil(Math.log10(Math.max(...values)));
    if (high <= low) {
      high = low + 1;
    }
    low = Math.max(0, Math.min(low, high - 2));
    const x = (value) => left + (Math.log10(Math.max(1, value)) - low) / (high - low) * (width - left - right);

    const chart = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img',
      'aria-label': 'Commands per second per strategy, log scale' });
    const grid = svg('g', { class: 'grid axis' });
    for (let power = low; power <= high; power++) {
      const gx = x(Math.pow(10, power));
      grid.appendChild(svg('line', { x1: gx, x2: gx, y1: top - 6, y2: height - 10 }));
      grid.appendChild(svg('text', { x: gx, y: top - 10, 'text-anchor': 'middle' }, formatShort(Math.pow(10, power))));
    }
    chart.appendChild(grid);
    rows.forEach((row, index) => {
      const y = top + index * rowHeight + 6;
      const barWidth = Math.max(2, x(row.opsPerSecond) - left);
      const group = svg('g', { class: 'bar-row', 'data-strategy': row.strategy });
      group.appendChild(svg('text', { x: left - 10, y: y + 17, 'text-anchor': 'end', class: 'bar-name' }, row.strategy));
      const bar = svg('rect', { class: 'bar', x: left, y: y, width: barWidth, height: 26, rx: 3,
        fill: colorOf(row.strategy), 'data-strategy': row.strategy, 'data-ops': String(row.opsPerSecond) });
      bar.appendChild(svg('title', {}, row.strategy + ': ' + formatInt(row.opsPerSecond) + ' commands/s'));
      group.appendChild(bar);
      group.appendChild(svg('text', { x: left + barWidth + 8, y: y + 17, class: 'bar-label',
        'data-strategy': row.strategy }, formatInt(row.opsPerSecond) + '/s'));
      chart.appendChild(group);
    });
    chart.appendChild(svg('line', { class: 'axis-line', x1: left, x2: left, y1: top - 6, y2: height - 10 }));
    container.textContent = '';
    container.appendChild(chart);
    container.dataset.rows = String(rows.length);
  }

  // ---- the sweep: line chart and table ------------------------------------

  function drawSweep(sweep) {
    const points = sweep.points;
    drawLine(points);
    // One column per chunk size: the sweep fits the page width.
    const body = document.querySelector('#sweep-table tbody');
    body.textContent = '';
    const lines = [
      ['Chunk size', 'chunk-size', (point) => formatInt(point.chunkSize)],
      ['Commands', 'count', (point) => formatInt(point.count) + (point.complete ? '' : '*')],
      ['Time (ms)', 'millis', (point) => formatMillis(point.millis)],
      ['Commands/s', 'ops', (point) => formatInt(point.opsPerSecond)]
    ];
    lines.forEach(([title, kind, value]) => {
      const tr = el('tr', { class: kind });
      tr.appendChild(el('th', { scope: 'row' }, title));
      points.forEach((point) => tr.appendChild(el('td', { class: 'num ' + kind,
        'data-chunk-size': String(point.chunkSize) }, value(point))));
      body.appendChild(tr);
    });
    const stopped = points.some((point) => !point.complete);
    document.getElementById('sweep-caption').textContent = 'Chunk-size sweep: ' + formatInt(sweep.count)
        + ' SETs per chunk size at ' + sweep.rttMillis + ' ms simulated round trip'
        + (stopped ? ' (* stopped by the time budget)' : '');
  }

  function drawLine(points) {
    const container = document.getElementById('sweep-chart');
    const width = 960;
    const height = 320;
    const left = 70;
    const right = 30;
    const top = 16;
    const bottom = 44;
    const maxSize = Math.max(2, ...points.map((point) => point.chunkSize));
    const maxOps = niceCeiling(Math.max(1, ...points.map((point) => point.opsPerSecond)));
    const x = (size) => left + Math.log2(size) / Math.log2(maxSize) * (width - left - right);
    const y = (ops) => height - bottom - ops / maxOps * (height - top - bottom);

    const chart = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img',
      'aria-label': 'Commands per second by chunk size' });
    const grid = svg('g', { class: 'grid axis' });
    for (let i = 0; i <= 5; i++) {
      const ops = maxOps * i / 5;
      grid.appendChild(svg('line', { x1: left, x2: width - right, y1: y(ops), y2: y(ops) }));
      grid.appendChild(svg('text', { x: left - 8, y: y(ops) + 4, 'text-anchor': 'end' }, formatShort(ops)));
    }
    const lastX = x(points[points.length - 1].chunkSize);
    points.forEach((point, index) => {
      const isLast = index === points.length - 1;
      const crowded = !isLast && lastX - x(point.chunkSize) < 40;
      if (isLast || (Math.log2(point.chunkSize) % 2 === 0 && !crowded)) {
        grid.appendChild(svg('text', { x: x(point.chunkSize), y: height - bottom + 18, 'text-anchor': 'middle' },
            formatInt(point.chunkSize)));
      }
    });
    grid.appendChild(svg('text', { x: (left + width - right) / 2, y: height - 6, 'text-anchor': 'middle' },
        'chunk size (commands per pipeline write, log scale)'));
    chart.appendChild(grid);
    chart.appendChild(svg('line', { class: 'axis-line', x1: left, x2: width - right, y1: y(0), y2: y(0) }));
    const path = points.map((point, index) => (index === 0 ? 'M' : 'L') + x(point.chunkSize).toFixed(1) + ','
        + y(point.opsPerSecond).toFixed(1)).join(' ');
    chart.appendChild(svg('path', { class: 'sweep-line', d: path }));
    points.forEach((point) => {
      const circle = svg('circle', { class: 'point', cx: x(point.chunkSize), cy: y(point.opsPerSecond), r: 4,
        'data-chunk-size': String(point.chunkSize), 'data-ops': String(point.opsPerSecond) });
      circle.appendChild(svg('title', {}, 'chunk size ' + formatInt(point.chunkSize) + ': '
          + formatInt(point.opsPerSecond) + ' commands/s'));
      chart.appendChild(circle);
    });
    container.textContent = '';
    container.appendChild(chart);
    container.dataset.points = String(points.length);
  }

  function niceCeiling(value) {
    const power = Math.pow(10, Math.floor(Math.log10(value)));
    for (const step of [1, 2, 2.5, 5, 10]) {
      if (value <= step * power) {
        return step * power;
      }
    }
    return 10 * power;
  }

  // ---- start --------------------------------------------------------------

  form.addEventListener('submit', run);
  loadSetup().then(() => {
    if (setup.running) {
      setStatus('running', 'A ' + setup.running + ' started elsewhere is running; try again when it has finished.');
    }
    document.body.dataset.ready = 'true';
  }).catch((error) => setStatus('error', 'Cannot load the setup: ' + error.message));
})();
