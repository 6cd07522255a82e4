// The lobby: pick an example or upload a scenario file, choose who plays whom and the rule options (each with its
// rule ID as help), create the table, and go to the GM page (which lists every seat's link).
import { esc } from "./api.js";
import { storeCreated } from "./gm.js";

const $ = (id) => document.getElementById(id);
let examples = [], rulesets = {}, uploaded = null;

async function load() {
  [examples, rulesets] = await Promise.all([fetch("/api/examples").then((r) => r.json()), fetch("/api/rulesets").then((r) => r.json())]);
  const groups = new Map();
  for (const e of examples) { if (!groups.has(e.ruleset)) groups.set(e.ruleset, []); groups.get(e.ruleset).push(e); }
  $("example").innerHTML = [...groups.entries()].map(([rs, list]) => `<optgroup label="${esc(rulesets[rs]?.title || rs)}">` +
    list.map((e) => `<option value="${esc(e.name)}">${esc(e.title)} (${esc(e.name)})</option>`).join("") + "</optgroup>").join("");
  const wanted = new URLSearchParams(location.search).get("example");
  if (wanted) $("example").value = wanted;
  chosen();
}

function currentRuleset() {
  if (uploaded) return (uploaded.text.match(/^ruleset:\s*([a-z_]+)/m) || [])[1] || null;
  return examples.find((e) => e.name === $("example").value)?.ruleset || null;
}

function chosen() {
  const example = uploaded ? null : examples.find((e) => e.name === $("example").value);
  $("example-text").textContent = example?.description || "";
  const rs = rulesets[currentRuleset()] || { options: [], policies: [] };
  const controllers = (example?.combatants || []).map((c) => {
    const opts = ["human", ...rs.policies].map((p) => `<option${p === c.controller ? " selected" : ""}>${esc(p)}</option>`).join("");
    return `<label>${esc(c.name)} <span class="small muted">(${esc(c.side)}${c.gm ? ", GM's seat" : ""})</span> <select data-controller="${esc(c.id)}" data-default="${esc(c.controller)}">${opts}</select></label>`;
  });
  $("controllers-box").hidden = !controllers.length;
  $("controllers").innerHTML = controllers.join("");
  $("options").innerHTML = rs.options.map((o) => {
    const id = `opt-${o.name}`, help = `<span class="small muted" id="${id}-help">${esc(o.rule)}: ${esc(o.doc)}</span>`;
    let input;
    if (o.type === "bool") input = `<input type="checkbox" id="${id}" data-option="${esc(o.name)}" data-type="bool"${o.default ? " checked" : ""} aria-describedby="${id}-help">`;
    else if (o.choices.length) input = `<select id="${id}" data-option="${esc(o.name)}" data-type="${esc(o.type)}" aria-describedby="${id}-help">${o.choices.map((c) => `<option${c === o.default ? " selected" : ""}>${esc(c)}</option>`).join("")}</select>`;
    else input = `<input id="${id}" data-option="${esc(o.name)}" data-type="${esc(o.type)}" value="${esc(o.default)}" aria-describedby="${id}-help">`;
    return `<label for="${id}">${esc(o.name.replace(/_/g, " "))} ${input}</label>${help}`;
  }).join("") || '<p class="muted">This ruleset has no rule options.</p>';
}

function optionValues() {
  const out = {};
  const rs = rulesets[currentRuleset()] || { options: [] };
  for (const el of document.querySelectorAll("[data-option]")) {
    const info = rs.options.find((o) => o.name === el.dataset.option);
    let value = el.type === "checkbox" ? el.checked : el.value;
    if (el.dataset.type === "int") value = Number.parseInt(value, 10);
    else if (el.dataset.type === "float") value = Number(value);
    if (info && value !== info.default) out[el.dataset.option] = value;
  }
  return out;
}

async function create(ev) {
  ev.preventDefault();
  $("problems").innerHTML = "";
  const controllers = {};
  for (const el of document.querySelectorAll("[data-controller]")) if (el.value !== el.dataset.default) controllers[el.dataset.controller] = el.value;
  const seed = $("seed").value.trim();
  const body = { scenario: uploaded ? uploaded.text : $("example").value, options: optionValues(), controllers, seed: seed ? Number(seed) : null };
  const res = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ message: `The server answered ${res.status}.` }));
  if (res.status !== 201) {
    const file = uploaded ? uploaded.name : null;
    const problems = (data.problems || data.details || []).map((p) =>
      `<li><b>${esc(file && p.file === "scenario.yaml" ? file : p.file || file || "")}</b>: ${esc(p.field)}: expected ${esc(p.expected)}</li>`);
    $("problems").innerHTML = `<p>${esc(data.message || "The table could not be created.")}</p><ul>${problems.join("")}</ul>`;
    return;
  }
  storeCreated(data);
  $("created").hidden = false;
  $("gm-link").href = data.gm.link;
  location.assign(data.gm.link);
}

$("example").addEventListener("change", () => { uploaded = null; $("upload").value = ""; $("upload-name").textContent = ""; chosen(); });
$("upload").addEventListener("change", async () => {
  const file = $("upload").files[0];
  uploaded = file ? { name: file.name, text: await file.text() } : null;
  $("upload-name").textContent = uploaded ? `Using ${uploaded.name} (${currentRuleset() || "no ruleset named"}).` : "";
  chosen();
});
$("lobby").addEventListener("submit", create);
load().catch((err) => { $("problems").textContent = `Could not load the examples: ${err.message}`; });
