// The page of `plausibility serve`: score events with every loaded model, explain one, draw its grid as SVG.
// Plain browser JavaScript, no build step; it reads only this server's API, so it works offline.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40; // pixels per grid cell
const CHAR = 7; // pixels per character of a 12px label, to leave room for the axes' labels
// A sequential blue scale from probability 0 (light) to 1 (dark).
const SCALE = [[247, 251, 255], [198, 219, 239], [107, 174, 214], [33, 113, 181], [8, 48, 107]];

const state = { models: [], triples: [], asGiven: false, selected: null };
const byId = (id) => document.getElementById(id);

async function api(path, body) {
  const request = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, request);
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `${path}: HTTP ${response.status}`);
  return answer;
}

function showError(message) {
  const box = byId("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function element(name, attributes = {}, text = null, namespace = null) {
  const node = namespace ? document.createElementNS(namespace, name) : document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

// The typed events: one per line, three words each (spaces, tabs or commas between them).
function typedEvents(text) {
  const triples = [];
  text.split("\n").forEach((line, index) => {
    const words = line.trim().split(/[\s,]+/).filter(Boolean);
    if (!words.length) return;
    if (words.length !== 3) {
      throw new Error(`line ${index + 1}: "${line.trim()}" has ${words.length} words; give three: subject verb object`);
    }
    triples.push(words);
  });
  if (!triples.length) throw new Error("type an event, e.g. dentist breathe helium");
  return triples;
}

function headline(model) {
  if (!model.card) return model.description;
  const auc = Object.entries(model.card.test_auc).map(([set, value]) => `${set} ${value.toFixed(3)}`).join(", ");
  return `${model.description} (test AUC ${auc})`;
}

async function loadModels() {
  const answer = await api("/v1/models");
  state.models = answer.models;
  byId("models-line").textContent = "models: " + state.models.map(headline).join(" · ");
  const choice = byId("explain-model");
  for (const model of state.models) choice.append(element("option", { value: model.name }, model.name));
  byId("score").disabled = false;
}

async function score() {
  showError("");
  let triples;
  try {
    triples = typedEvents(byId("events").value);
  } catch (error) {
    showError(error.message);
    return;
  }
  const asGiven = byId("as-given").checked;
  byId("score").disabled = true;
  try {
    const answers = await Promise.all(
      state.models.map((model) => api("/v1/score", { triples, model: model.name, as_given: asGiven })),
    );
    Object.assign(state, { triples, asGiven });
    showScores(answers);
    await explain(0);
  } catch (error) {
    showError(error.message);
  } finally {
    byId("score").disabled = false;
  }
}

function showScores(answers) {
  const head = byId("score-head");
  head.replaceChildren(element("th", {}, "event"));
  for (const model of state.models) head.append(element("th", { class: "model" }, model.name));
  head.append(element("th", {}, "flags"));
  const body = byId("score-body");
  body.replaceChildren();
  answers[0].results.forEach((first, index) => {
    const row = element("tr", { "data-index": index });
    const event = element("td", { class: "event" }, `${first.subject} ${first.verb} ${first.object}`);
    if (first.lemmatised) {
      event.append(element("span", { class: "lemma" }, ` → ${first.subject_lemma} ${first.verb_lemma} ${first.object_lemma}`));
    }
    row.append(event);
    answers.forEach((answer, column) => {
      const probability = answer.results[index].probability;
      const cell = element("td", {
        class: "probability",
        "data-model": state.models[column].name,
        "data-probability": String(probability),
      });
      cell.append(element("span", { class: "bar", style: `width: ${Math.round(probability * 60)}px` }));
      cell.append(document.createTextNode(probability.toFixed(4)));
      row.append(cell);
    });
    row.append(element("td", { class: "flags" }, first.flags));
    row.addEventListener("click", () => explain(index).catch((error) => showError(error.message)));
    body.append(row);
  });
  byId("scores").hidden = false;
}

async function explain(index) {
  state.selected = index;
  for (const row of byId("score-body").children) row.classList.toggle("selected", Number(row.dataset.index) === index);
  const model = byId("explain-model").value;
  const answer = await api("/v1/explain", {
    triples: [state.triples[index]], model, as_given: state.asGiven, top: 5,
  });
  const result = answer.results[0];
  byId("explained-event").textContent = result.event;
  const best = result.explanation;
  byId("explanation-text").textContent =
    `${model} gives it ${result.probability.toFixed(4)}; explained by ${best.best} ` +
    `(${best.best_probability.toFixed(4)}), the best abstraction of its grid:`;
  byId("top-list").replaceChildren(
    ...best.top.map((entry) => element("li", {}, `${entry.probability.toFixed(4)}  ${entry.abstraction}`)),
  );
  const verb = result.event.split(" ")[1];
  drawGrid(byId("raw-grid"), result.grid, result.grid.probabilities, verb);
  drawGrid(byId("max-grid"), result.grid, result.grid.running_maximum, verb);
  byId("explanation").hidden = false;
}

function colour(value) {
  const position = Math.min(Math.max(value, 0), 1) * (SCALE.length - 1);
  const low = Math.min(Math.floor(position), SCALE.length - 2);
  const share = position - low;
  const rgb = SCALE[low].map((channel, i) => Math.round(channel + share * (SCALE[low + 1][i] - channel)));
  return `rgb(${rgb.join(",")})`;
}

// A concept's label: a link to its WordNet gloss, or plain text for a word WordNet lacks.
function conceptLabel(concept, attributes) {
  const text = element("text", attributes, concept.text, SVG);
  if (!concept.synset) {
    text.append(element("title", {}, `${concept.text}: not in WordNet`, SVG));
    return text;
  }
  text.append(element("title", {}, `${concept.synset} (depth ${concept.depth})`, SVG));
  const link = element("a", { class: "concept", href: `/v1/concept/${concept.synset}` }, null, SVG);
  link.dataset.synset = concept.synset;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    showGloss(concept.synset).catch((error) => showError(error.message));
  });
  link.append(text);
  return link;
}

function drawGrid(svg, grid, values, verb) {
  const rows = grid.subjects.length;
  const columns = grid.objects.length;
  const left = 14 + CHAR * Math.max(15, ...grid.subjects.map((concept) => concept.text.length)); // 15: the corner's
  const top = 14 + CHAR * Math.max(...grid.objects.map((concept) => concept.text.length));
  const width = left + CELL * columns + 8;
  const height = top + CELL * rows + 8;
  svg.replaceChildren();
  for (const [key, value] of Object.entries({ width, height, viewBox: `0 0 ${width} ${height}` })) {
    svg.setAttribute(key, value);
  }
  svg.append(element("text", { class: "axes", x: left - 6, y: top - 6, "text-anchor": "end" }, "subject \\ object", SVG));
  grid.objects.forEach((concept, column) => {
    const x = left + column * CELL + CELL / 2;
    const y = top - 6;
    svg.append(conceptLabel(concept, { x, y, transform: `rotate(-90 ${x} ${y})`, "dominant-baseline": "middle" }));
  });
  grid.subjects.forEach((concept, row) => {
    const y = top + row * CELL + CELL / 2;
    svg.append(conceptLabel(concept, { x: left - 6, y, "text-anchor": "end", "dominant-baseline": "middle" }));
  });
  values.forEach((line, row) => line.forEach((value, column) => {
    const x = left + column * CELL;
    const y = top + row * CELL;
    const chosen = row === grid.best[0] && column === grid.best[1];
    const cell = element("rect", {
      class: chosen ? "cell chosen" : "cell",
      x, y, width: CELL, height: CELL,
      fill: colour(value),
      "data-row": row,
      "data-column": column,
      "data-probability": String(value),
    }, null, SVG);
    const words = `${grid.subjects[row].text} ${verb} ${grid.objects[column].text}`;
    cell.append(element("title", {}, `${words}: ${value.toFixed(4)}`, SVG));
    svg.append(cell);
    svg.append(element("text", {
      class: value > 0.55 ? "value dark" : "value",
      x: x + CELL / 2, y: y + CELL / 2, "text-anchor": "middle", "dominant-baseline": "middle",
    }, value.toFixed(2), SVG));
  }));
  const [row, column] = grid.best;
  svg.append(element("rect", {
    class: "chosen-mark", x: left + column * CELL + 1.5, y: top + row * CELL + 1.5, width: CELL - 3, height: CELL - 3,
  }, null, SVG));
}

async function showGloss(synset) {
  const gloss = await api(`/v1/concept/${encodeURIComponent(synset)}`);
  const aside = byId("gloss");
  aside.replaceChildren(
    element("strong", {}, gloss.words[0]),
    element("span", { class: "synset" }, `  ${gloss.synset}, depth ${gloss.depth}`),
    element("p", { class: "definition" }, gloss.definition),
    ...gloss.examples.map((example) => element("p", {}, `“${example}”`)),
  );
  if (gloss.words.length > 1) aside.append(element("p", {}, `also: ${gloss.words.slice(1).join(", ")}`));
  aside.hidden = false;
}

byId("score").addEventListener("click", score);
byId("events").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) score();
});
byId("explain-model").addEventListener("change", () => {
  if (state.selected !== null) explain(state.selected).catch((error) => showError(error.message));
});
loadModels().catch((error) => showError(error.message));
