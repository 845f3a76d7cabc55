// The page's concurrent panel: GET /redis/concurrent, drawn as two bars (inline SVG).
// Plain JavaScript, no CDN.
(function () {
  'use strict';

  const SVG = 'http://www.w3.org/2000/svg';
  const COLORS = { 'auto-batching-off': '#d1495b', 'auto-batching-on': '#2a9d8f' };
  const form = document.getElementById('concurrent-form');
  const status = document.getElementById('concurrent-status');
  const chart = document.getElementById('concurrent-chart');
  const table = document.querySelector('#concurrent-table tbody');
  const button = document.getElementById('concurrent-run');

  function formatInt(value) {
    return Math.round(value).toLocaleString('en-US');
  }

  function node(name, attributes, text) {
    const element = document.createElementNS(SVG, name);
    Object.entries(attributes).forEach(([key, value]) => element.setAttribute(key, value));
    if (text !== undefined) {
      element.textContent = text;
    }
    return element;
  }

  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }

  function draw(rows) {
    const width = 640;
    const barHeight = 28;
    const left = 150;
    const max = Math.max(...rows.map((row) => row.commandsPerSecond));
    const svg = node('svg', { viewBox: '0 0 ' + width + ' ' + (rows.length * (barHeight + 12) + 8), role: 'img',
      'aria-label': 'Commands per second without and with auto-batching' });
    rows.forEach((row, i) => {
      const y = 4 + i * (barHeight + 12);
      const length = Math.max(2, (width - left - 110) * row.commandsPerSecond / max);
      svg.appendChild(node('text', { x: left - 8, y: y + barHeight * 0.68, 'text-anchor': 'end' }, row.strategy));
      svg.appendChild(node('rect', { x: left, y: y, width: length, height: barHeight, fill: COLORS[row.strategy] || '#6c757d',
        'data-strategy': row.strategy }));
      svg.appendChild(node('text', { x: left + length + 6, y: y + barHeight * 0.68 }, formatInt(row.commandsPerSecond) + '/s'));
    });
    chart.replaceChildren(svg);
    chart.dataset.rows = String(rows.length);
  }

  function fill(rows) {
    table.replaceChildren(...rows.map((row) => {
      const tr = document.createElement('tr');
      [row.strategy, formatInt(row.commandsPerSecond), formatInt(row.p50Micros), formatInt(row.p99Micros),
        row.commandsPerWrite === null ? '1 (each on its own)' : row.commandsPerWrite.toFixed(1), row.description]
        .forEach((value, i) => {
          const td = document.createElement('td');
          if (i > 0 && i < 5) {
            td.className = 'num';
          }
          td.textContent = value;
          tr.appendChild(td);
        });
      return tr;
    }));
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const threads = document.getElementById('concurrent-threads').value;
    const millis = document.getElementById('concurrent-millis').value;
    button.disabled = true;
    setStatus('running', 'Running ' + threads + ' threads for ' + (millis / 1000) + ' s on each side…');
    try {
      const response = await fetch('redis/concurrent?threads=' + threads + '&millis=' + millis,
        { headers: { Accept: 'application/json' } });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        throw new Error(body.detail || body.title || ('HTTP ' + response.status));
      }
      draw(body.rows);
      fill(body.rows);
      setStatus('done', 'With auto-batching: ' + body.speedUp.toFixed(2) + '× the commands per second of Boot\'s defaults, '
        + threads + ' threads.');
    } catch (error) {
      setStatus('error', error.message);
    } finally {
      button.disabled = false;
    }
  });
}());
