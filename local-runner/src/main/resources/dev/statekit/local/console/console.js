// The StateKit console: polls the local runner's JSON API (/statekit/api/, see
// docs/local-runner.md) with fetch and redraws each panel. No framework, no build step.
"use strict";

const API = "/statekit/api/";
const POLL_MS = 1000;
const KEPT_ROWS = 200;
let lastInvocation = 0;
let shownAddress = null;
let readOnly = true;
let openDetails = new Set();

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

async function get(path) {
  const response = await fetch(API + path, { cache: "no-store" });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function setStatus(ok, text) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.className = "status " + (ok ? "live" : "down");
}

// --- graph ---------------------------------------------------------------------------------

function drawOverview(overview) {
  readOnly = overview.readOnly;
  document.getElementById("app-name").textContent = overview.application;
  document.getElementById("backend").textContent = overview.backend + (overview.readOnly ? " (read only)" : "");
  const functions = document.getElementById("functions");
  functions.replaceChildren(...overview.functions.map(f =>
    el("li", { "data-type": f.type }, el("code", {}, f.type), " ",
       el("small", {}, f.values.map(v => v.name + ": " + v.type).join(", ")))));
  const edges = document.querySelector("#edges tbody");
  edges.replaceChildren(...(overview.edges.length ? overview.edges.map(e =>
    el("tr", { class: "edge", "data-from": e.from, "data-to": e.to },
       el("td", { class: "mono" }, e.from), el("td", { class: "mono" }, e.to), el("td", {}, e.count)))
    : [el("tr", {}, el("td", { colspan: 3, class: "hint" },
        overview.invocationsObserved ? "No messages seen yet." : "This backend does not observe invocations."))]));
  const graphs = document.getElementById("pipeline-graphs");
  graphs.replaceChildren(...overview.pipelines.map(p => {
    const row = el("div", { class: "stages", "data-pipeline": p.name });
    p.stages.forEach((stage, i) => {
      if (i > 0) row.append(el("span", { class: "stage-sep" }, "⇒ x" + stage.parallelism));
      [stage.input, ...stage.operators].forEach((op, j) => {
        if (j > 0) row.append(el("span", { class: "arrow" }, "→"));
        row.append(operator(op));
      });
    });
    return el("div", {}, el("div", { class: "mono" }, p.name), row);
  }));
}

function operator(op) {
  const config = Object.entries(op.config).map(([k, v]) => k + "=" + v).join(" ");
  return el("div", { class: "operator", "data-type": op.type, "data-label": op.label },
    el("div", { class: "label" }, op.label),
    op.label !== op.type ? el("div", { class: "kind" }, op.type) : null,
    config ? el("div", { class: "config" }, config) : null);
}

// --- addresses -----------------------------------------------------------------------------

function showAddress(address) {
  shownAddress = address;
  document.getElementById("address-input").value = address;
  return drawAddress(address);
}

// The periodic refresh redraws the address shown but leaves the input alone: the user may be
// typing another one there.
async function drawAddress(address) {
  const view = document.getElementById("address-view");
  try {
    // Encoded: an id may hold '?', '#', '%' or '+', which would else change the address asked.
    const state = await get("address/" + encodeURIComponent(address));
    if (address !== shownAddress) return; // another address was asked for while this one loaded
    const rows = Object.entries(state.values).map(([name, v]) =>
      el("tr", { "data-value": name, class: v.expired ? "expired" : null },
        el("td", {}, name), el("td", { class: "value" }, show(v.value)),
        el("td", { class: "mono" }, v.type), el("td", {}, v.expiresAt ? (v.expired ? "expired " : "") + v.expiresAt : "never")));
    const pending = state.pending.map(t =>
      el("tr", { class: "pending" }, el("td", { class: "mono" }, t.token), el("td", {}, t.dueAt), el("td", {}, el("pre", {}, t.message || ""))));
    view.replaceChildren(
      el("div", { class: "mono" }, state.address, " · version " + state.version),
      rows.length ? el("table", { class: "grid values" },
        el("thead", {}, el("tr", {}, el("th", {}, "value"), el("th", {}, "decoded"), el("th", {}, "type"), el("th", {}, "expires"))),
        el("tbody", {}, rows)) : el("p", { class: "hint" }, "No values stored."),
      el("h3", {}, "Pending delayed messages"),
      pending.length ? el("table", { class: "grid pending-messages" },
        el("thead", {}, el("tr", {}, el("th", {}, "token"), el("th", {}, "due"), el("th", {}, "message"))),
        el("tbody", {}, pending)) : el("p", { class: "hint" }, "None."));
  } catch (e) {
    view.replaceChildren(el("p", { class: "notice" }, e.message));
  }
}

function drawAddresses(list) {
  document.getElementById("address-list").replaceChildren(...list.addresses.map(a => el("option", { value: a })));
  document.getElementById("recent-addresses").replaceChildren(...list.addresses.slice(-30).reverse().map(a =>
    el("li", {}, el("a", { href: "#" + a, onclick: ev => { ev.preventDefault(); showAddress(a); } }, a))));
}

// --- queues and dead letters ---------------------------------------------------------------

function drawQueues(queues) {
  document.querySelector("#queues tbody").replaceChildren(...queues.queues.map(q =>
    el("tr", { "data-queue": q.name }, el("td", {}, q.name), el("td", { class: "depth" }, q.depth),
       el("td", {}, q.inFlight === null ? "–" : q.inFlight))));
  // Cards are kept by id, never redrawn under the user's hands (an edit, a click in progress):
  // only letters that arrived are added and letters that left are removed.
  const box = document.getElementById("dead-letters");
  const ids = new Set(queues.deadLetters.map(d => d.id));
  for (const card of [...box.querySelectorAll(".dead-letter")]) {
    if (!ids.has(card.dataset.id)) card.remove();
  }
  box.querySelector("p.hint")?.remove();
  for (const d of queues.deadLetters) {
    if (![...box.children].some(c => c.dataset.id === d.id)) box.append(deadLetter(d));
  }
  if (!box.children.length) box.append(el("p", { class: "hint" }, "None."));
}

function deadLetter(d) {
  const envelope = el("textarea", { class: "envelope", hidden: "" });
  envelope.value = d.editable;
  const card = el("div", { class: "dead-letter", "data-id": d.id, "data-target": d.target },
    el("div", {}, el("strong", { class: "mono" }, d.target || "(no target)"),
       " · " + (d.attempts ? d.attempts + " attempts" : "") + (d.applied ? " · applied: " + d.applied : "")),
    el("div", { class: "error" }, d.error),
    d.errorType ? el("div", { class: "hint mono" }, d.errorType) : null,
    el("pre", { class: "body" }, d.editable),
    envelope);
  const resend = el("button", { class: "resend primary", type: "button" }, "Resend");
  const edit = el("button", { class: "edit", type: "button" }, "Edit, then resend");
  const result = el("span", { class: "result" });
  if (readOnly) { resend.disabled = true; edit.disabled = true; }
  edit.addEventListener("click", () => {
    card.classList.add("editing");
    envelope.hidden = false;
    card.querySelector("pre.body").hidden = true;
    edit.hidden = true;
    resend.textContent = "Resend edited";
    envelope.focus();
  });
  resend.addEventListener("click", async () => {
    resend.disabled = true;
    const body = card.classList.contains("editing") ? envelope.value : "";
    try {
      const response = await fetch(API + "dead-letters/" + encodeURIComponent(d.id) + "/resend", { method: "POST", body });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error);
      card.classList.remove("editing");
      result.textContent = "resent to " + answer.target;
      setTimeout(refresh, 100);
    } catch (e) {
      result.textContent = e.message;
      result.className = "result notice";
      resend.disabled = false;
    }
  });
  card.append(el("div", { class: "actions" }, resend, edit, result));
  return card;
}

// --- pipelines -----------------------------------------------------------------------------

function drawPipelines(pipelines) {
  document.getElementById("pipelines").replaceChildren(...pipelines.pipelines.map(p =>
    el("div", { class: "pipeline", "data-pipeline": p.name },
      el("div", {}, el("strong", { class: "mono" }, p.name),
        ` · ${p.batches} batches · ${p.records} records · ${p.late} late · ${p.windowsFired} windows fired · ${p.ticks} ticks` +
        (p.failedBatches ? ` · ${p.failedBatches} failed batches` : "")),
      el("table", { class: "grid splits" },
        el("thead", {}, el("tr", {}, ["split", "position", "watermark", "idle", "given up"].map(h => el("th", {}, h)))),
        el("tbody", {}, p.splits.map(s => el("tr", { "data-split": s.split },
          el("td", { class: "mono" }, s.split), el("td", { class: "mono" }, s.position || "–"),
          el("td", {}, s.watermark || "–"), el("td", {}, s.idleMillis < 0 ? "–" : (s.idleMillis / 1000).toFixed(1) + " s"),
          el("td", {}, s.givenUp))))))));
}

// --- invocations ---------------------------------------------------------------------------

function addInvocations(answer) {
  const body = document.querySelector("#invocations tbody");
  for (const inv of answer.invocations) {
    lastInvocation = Math.max(lastInvocation, inv.seq);
    const row = el("tr", { class: "invocation", "data-seq": inv.seq, "data-address": inv.address, "data-outcome": inv.outcome },
      el("td", {}, inv.seq), el("td", {}, inv.time.substring(11, 23)),
      el("td", { class: "mono" }, inv.address),
      el("td", { class: "mono" }, inv.caller ? inv.source + " " + inv.caller : inv.source),
      el("td", { class: "mono" }, show(inv.message.value)),
      el("td", { class: "outcome-" + inv.outcome }, inv.outcome.replace("_", " ")));
    const details = el("tr", { class: "details", hidden: "" }, el("td", { colspan: 6 }, effects(inv)));
    row.addEventListener("click", () => { details.hidden = !details.hidden; });
    body.prepend(details);
    body.prepend(row);
  }
  while (body.rows.length > KEPT_ROWS * 2) body.deleteRow(body.rows.length - 1);
  document.getElementById("invocations-note").textContent =
    `(latest ${answer.latest}; the runner keeps the last ${answer.capacity}; click a row for its effects)`;
}

function effects(inv) {
  const list = (title, items, fmt) => el("div", {}, el("h3", {}, title),
    items.length ? items.map(i => el("pre", {}, fmt(i))) : el("p", { class: "hint" }, "none"));
  return el("div", { class: "effects" },
    el("div", {}, el("h3", {}, "Message in"), el("pre", {}, inv.message.type + "\n" + show(inv.message.value)),
      inv.traceId ? el("div", { class: "mono" }, "trace " + inv.traceId) : null,
      inv.error ? el("pre", { class: "notice" }, inv.error) : null,
      el("div", { class: "hint" }, "attempt " + inv.attempt)),
    el("div", {}, el("h3", {}, "State before"), el("pre", {}, JSON.stringify(inv.before, null, 1))),
    el("div", {}, el("h3", {}, "State after"), el("pre", { class: "after" }, JSON.stringify(inv.after, null, 1))),
    list("Messages sent", inv.sent, m => m.target + "\n" + show(m.value)),
    list("Delayed messages", inv.delayed.concat(inv.cancelled.map(c => ({ cancelled: c }))),
      d => d.cancelled ? "cancelled " + d.cancelled : `${d.target} in ${d.delayMillis} ms` + (d.token ? ` (${d.token})` : "") + "\n" + show(d.value)),
    list("Egress out", inv.egress, e => e.egress + "\n" + show(e.value)));
}

// --- charts --------------------------------------------------------------------------------

const CHARTS = [
  ["applied", "messages applied", "#2f6fdf"],
  ["sent", "messages sent", "#6b4fd8"],
  ["egress", "egress records", "#1f8a4c"],
  ["failed", "failed (will retry)", "#b26b00"],
  ["deadLettered", "dead letters", "#c4312b"],
];

function drawMetrics(metrics) {
  const box = document.getElementById("charts");
  if (!box.children.length) {
    box.replaceChildren(...CHARTS.map(([key, title]) => el("div", { class: "chart", "data-metric": key },
      el("div", { class: "title" }, el("span", {}, title), el("span", { class: "total" }, "0")),
      el("canvas", { width: 240, height: 46 }))));
  }
  for (const [key, , color] of CHARTS) {
    const chart = box.querySelector(`[data-metric="${key}"]`);
    chart.querySelector(".total").textContent = metrics.totals[key];
    const canvas = chart.querySelector("canvas");
    const ctx = canvas.getContext("2d");
    const points = metrics.seconds.map(s => s[key]);
    const max = Math.max(1, ...points);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const w = canvas.width / points.length;
    ctx.fillStyle = color;
    points.forEach((p, i) => {
      const h = Math.round((p / max) * (canvas.height - 2));
      if (p > 0) ctx.fillRect(i * w, canvas.height - Math.max(1, h), Math.max(1, w - 0.5), Math.max(1, h));
    });
  }
}

// --- polling -------------------------------------------------------------------------------

async function refresh() {
  try {
    const [overview, queues, pipelines, addresses, invocations, metrics] = await Promise.all([
      get("overview"), get("queues"), get("pipelines"), get("addresses"),
      get("invocations?after=" + lastInvocation + "&limit=200"), get("metrics")]);
    drawOverview(overview);
    drawQueues(queues);
    drawPipelines(pipelines);
    drawAddresses(addresses);
    addInvocations(invocations);
    drawMetrics(metrics);
    if (shownAddress) await drawAddress(shownAddress);
    setStatus(true, "live · " + new Date().toLocaleTimeString());
  } catch (e) {
    setStatus(false, "no answer from the runner: " + e.message);
  }
}

document.getElementById("address-form").addEventListener("submit", ev => {
  ev.preventDefault();
  const address = document.getElementById("address-input").value.trim();
  if (address) showAddress(address);
});
if (location.hash.length > 1) showAddress(decodeURIComponent(location.hash.substring(1)));
refresh();
setInterval(refresh, POLL_MS);
