// The order-of-play page's script. It knows no rule: the catalog and the
// compiled conditions come from rules.js (window.carcassonneRules), every item
// is already in index.html in its place. This script reads the selection from
// the controls or the link (#edition=C2&variant=hig&with=abbey_and_mayor,builder),
// evaluates the conditions and shows what they allow.
"use strict";
(function () {
  const R = window.carcassonneRules;
  const form = document.getElementById("selection");
  const turn = document.getElementById("turn");
  if (!R || !form || !turn) return;

  const status = document.getElementById("status");
  const summary = document.getElementById("summary");
  const count = document.getElementById("selected-count");
  const shareUrl = document.getElementById("share-url");
  const changes = document.getElementById("changes");
  const moduleBoxes = Array.from(form.querySelectorAll("input[data-module]"));
  const expansionBoxes = Array.from(form.querySelectorAll("input[data-expansion]"));
  const editionBoxes = Array.from(form.querySelectorAll("input[name=edition]"));
  const variantBoxes = Array.from(form.querySelectorAll("input[name=variant]"));
  const expansionsById = new Map(R.expansions.map((x) => [x.id, x]));
  const moduleBits = new Map(R.modules.map((m, bit) => [m.id, bit]));
  const editionIndex = new Map(R.editions.map((e, i) => [e.id, i]));
  const variantIndex = new Map(R.variants.map((v, i) => [v.id, i]));

  // The page's language: its words (data attributes of #words) and names
  // (each box's data-name), so that rules.js serves every language's page.
  // The script holds no word of any language: a word the page lacks shows
  // as its key.
  const words = (document.getElementById("words") || { dataset: {} }).dataset;
  const lang = document.documentElement.lang || "en";
  const plurals = new Intl.PluralRules(lang);
  /** Fills a word's placeholders in one pass (a value's own braces stay as they are). */
  function filled(text, fill) {
    return text.replace(/\{([a-z_]+)\}/g, (all, name) => (fill && Object.prototype.hasOwnProperty.call(fill, name) ? String(fill[name]) : all));
  }
  /** A word of the page, its placeholders filled in: word("variantRules", { variant: "Z-Man Games" }). */
  function word(key, fill) {
    return filled(words[key] !== undefined ? words[key] : key, fill);
  }
  /** A count in the page's language: its form for n's plural category (CLDR's, as Intl.PluralRules has them). */
  function counted(key, n, fill) {
    const category = plurals.select(n);
    const form = words[key + category[0].toUpperCase() + category.slice(1)];
    return filled(form !== undefined ? form : key, Object.assign({}, fill, { n: String(n) }));
  }
  /** A word that opens a line or labels a button: its first letter in upper case, as the language writes it. */
  function capitalized(text) {
    return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
  }
  const moduleNames = new Map(moduleBoxes.map((box) => [Number(box.dataset.bit), box.dataset.name]));
  const expansionNames = new Map(expansionBoxes.map((box) => [box.dataset.expansion, box.dataset.expansionName]));
  const moduleName = (bit) => moduleNames.get(bit) || R.modules[bit].name;

  const state = {
    edition: R.defaultEdition,
    variant: R.editions[R.defaultEdition] ? R.editions[R.defaultEdition].variant : 0,
    modules: new Set(),
    changes: false,
    ignored: [],
  };

  /** The module mask of a set of module bits: 32-bit words, bit b in word b >> 5. */
  function mask(bits) {
    const m = new Array(R.words).fill(0);
    for (const b of bits) m[b >>> 5] |= 1 << (b & 31);
    return m;
  }

  // ---- The selection and the link -------------------------------------------------

  /** The `with` list of the link: whole expansions by their id, else their modules. */
  function withList() {
    const ids = [];
    const listed = new Set();
    for (const x of R.expansions) {
      const selected = x.modules.filter((b) => state.modules.has(b));
      x.modules.forEach((b) => listed.add(b));
      if (x.modules.length > 1 && selected.length === x.modules.length) ids.push(x.id);
      else selected.forEach((b) => ids.push(R.modules[b].id));
    }
    for (const b of Array.from(state.modules).sort((a, b) => a - b)) {
      if (!listed.has(b)) ids.push(R.modules[b].id);
    }
    return ids;
  }

  function hashOf() {
    const parts = ["edition=" + encodeURIComponent(R.editions[state.edition].id)];
    if (state.variant !== R.editions[state.edition].variant && R.variants[state.variant]) {
      parts.push("variant=" + encodeURIComponent(R.variants[state.variant].id));
    }
    const ids = withList();
    if (ids.length) parts.push("with=" + ids.map(encodeURIComponent).join(","));
    if (state.changes) parts.push("changes=1");
    return "#" + parts.join("&");
  }

  /** Whether a link's fragment is a selection (an anchor such as #order is not). */
  function isSelection(hash) {
    return hash.includes("=");
  }

  /** Reads a link's selection; unknown ids are ignored and reported. */
  function readHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const ignored = [];
    const edition = params.get("edition");
    state.edition = editionIndex.has(edition) ? editionIndex.get(edition) : R.defaultEdition;
    if (edition !== null && !editionIndex.has(edition)) ignored.push(edition);
    const variant = params.get("variant");
    state.variant = variantIndex.has(variant) ? variantIndex.get(variant) : R.editions[state.edition].variant;
    if (variant !== null && !variantIndex.has(variant)) ignored.push(variant);
    state.modules = new Set();
    for (const raw of (params.get("with") || "").split(",")) {
      const id = raw.trim();
      if (!id) continue;
      if (expansionsById.has(id)) expansionsById.get(id).modules.forEach((b) => state.modules.add(b));
      else if (moduleBits.has(id)) state.modules.add(moduleBits.get(id));
      else ignored.push(id);
    }
    state.changes = params.get("changes") === "1";
    state.ignored = ignored;
  }

  function writeHash() {
    const hash = hashOf();
    if (location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (_) {
        location.replace(hash);
      }
    }
    shareUrl.value = location.href;
    // The other languages' pages show the same selection.
    for (const link of document.querySelectorAll("nav.languages a[data-page]")) {
      link.setAttribute("href", link.dataset.page + location.hash);
    }
  }

  /** Puts the state into the controls. */
  function showControls() {
    editionBoxes.forEach((box) => (box.checked = Number(box.dataset.index) === state.edition));
    variantBoxes.forEach((box) => (box.checked = Number(box.dataset.index) === state.variant));
    moduleBoxes.forEach((box) => (box.checked = state.modules.has(Number(box.dataset.bit))));
    for (const box of expansionBoxes) {
      const x = expansionsById.get(box.dataset.expansion);
      const n = x.modules.filter((b) => state.modules.has(b)).length;
      box.checked = n > 0 && n === x.modules.length;
      box.indeterminate = n > 0 && n < x.modules.length;
      box.closest("li").classList.toggle("other-edition", !x.editions.includes(R.editions[state.edition].id));
    }
    changes.checked = state.changes;
    const n = state.modules.size;
    count.textContent = n ? "(" + counted("modulesCount", n) + ")" : "";
  }

  form.addEventListener("change", (event) => {
    const box = event.target;
    if (box.name === "edition") {
      const next = Number(box.dataset.index);
      if (state.variant === R.editions[state.edition].variant) state.variant = R.editions[next].variant;
      state.edition = next;
    } else if (box.name === "variant") {
      state.variant = Number(box.dataset.index);
    } else if (box.dataset.expansion !== undefined) {
      const x = expansionsById.get(box.dataset.expansion);
      x.modules.forEach((b) => (box.checked ? state.modules.add(b) : state.modules.delete(b)));
    } else if (box.dataset.module !== undefined) {
      const b = Number(box.dataset.bit);
      if (box.checked) state.modules.add(b);
      else state.modules.delete(b);
    } else if (box === changes) {
      state.changes = box.checked;
    } else {
      return;
    }
    state.ignored = [];
    update();
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  document.getElementById("clear").addEventListener("click", () => {
    state.modules = new Set();
    state.ignored = [];
    update();
  });
  document.getElementById("copy").addEventListener("click", () => {
    shareUrl.select();
    if (navigator.clipboard) navigator.clipboard.writeText(shareUrl.value).catch(() => document.execCommand("copy"));
    else document.execCommand("copy");
  });
  window.addEventListener("hashchange", () => {
    if (!isSelection(location.hash)) return writeHash();
    readHash();
    update();
  });
  // The skip link moves the focus without touching the link's selection.
  const skip = document.querySelector(".skip");
  if (skip) {
    skip.addEventListener("click", (event) => {
      event.preventDefault();
      document.getElementById("order").focus();
    });
  }

  // ---- The order of play ----------------------------------------------------------

  function render() {
    const e = state.edition;
    const v = state.variant;
    const now = R.conds.map((c) => c(e, v, mask(state.modules)));
    const base = R.conds.map((c) => c(e, v, mask([])));
    const holds = (el, values) => el.dataset.c === undefined || values[Number(el.dataset.c)];
    let shown = 0;
    let added = 0;

    for (const span of turn.querySelectorAll("[data-ed]")) {
      span.hidden = !span.dataset.ed.split(" ").includes(String(e));
    }

    /** Shows the items of a list; returns how many of its own items show. */
    function walk(list, parentOrigin, parentInBase) {
      if (!list) return 0;
      let visible = 0;
      for (const li of list.children) {
        const on = holds(li, now);
        li.hidden = !on;
        if (!on) continue;
        visible += 1;
        shown += 1;
        const inBase = parentInBase && holds(li, base);
        li.classList.toggle("added", !inBase);
        li.querySelector(":scope > .line > .added-badge").hidden = inBase;
        if (!inBase) added += 1;
        // Origin candidates, "6 12:3": module 6, or module 12 where condition 3 holds.
        const candidates = li.dataset.o ? li.dataset.o.split(" ").map((o) => o.split(":").map(Number)) : [];
        const own = candidates.find(([bit, c]) => state.modules.has(bit) && (c === undefined || now[c]));
        const origin = own === undefined ? parentOrigin : own[0];
        const badge = li.querySelector(":scope > .line > .origin");
        badge.hidden = origin === null;
        if (origin !== null) {
          badge.dataset.module = R.modules[origin].id;
          badge.textContent = moduleName(origin);
        }
        const foreign = li.dataset.f !== undefined && li.dataset.f.split(" ").includes(String(e));
        li.classList.toggle("foreign", foreign);
        const foreignBadge = li.querySelector(":scope > .line > .foreign-badge");
        if (foreignBadge) foreignBadge.hidden = !foreign;
        for (const marker of li.querySelectorAll(":scope > .line > .marker")) {
          marker.hidden = !holds(marker, now);
          marker.classList.toggle("added", !inBase || !holds(marker, base));
        }
        walk(li.querySelector(":scope > .items"), origin, inBase);
      }
      return visible;
    }

    for (const section of turn.querySelectorAll(".section")) {
      section.hidden = walk(section.querySelector(":scope > .items"), null, true) === 0;
    }
    for (const step of turn.querySelectorAll(".step")) {
      const on = holds(step, now);
      step.hidden = !on;
      if (!on) continue;
      const inBase = holds(step, base);
      step.classList.toggle("added", !inBase);
      const repeat = step.querySelector(".repeat");
      const repeats = repeat !== null && holds(repeat, now);
      if (repeat) {
        repeat.hidden = !repeats;
        repeat.classList.toggle("added", !inBase || !holds(repeat, base));
      }
      step.classList.toggle("double-turn", repeats && repeat.dataset.repeat === "double_turn");
      const n = walk(step.querySelector(":scope > .items"), null, inBase);
      step.querySelector(".lead.empty").hidden = n > 0;
      const choose = step.querySelector(".lead.choose");
      if (choose) choose.hidden = n === 0;
    }
    turn.hidden = false;
    document.body.classList.toggle("show-changes", state.changes);

    const edition = R.editions[e];
    const names = [];
    for (const x of R.expansions) {
      const selected = x.modules.filter((b) => state.modules.has(b));
      if (selected.length && selected.length === x.modules.length) names.push(expansionNames.get(x.id) || x.name);
      else selected.forEach((b) => names.push(moduleName(b)));
    }
    const editionName = (editionBoxes[e] && editionBoxes[e].dataset.name) || edition.name;
    const variantName = R.variants[v] ? (variantBoxes[v] && variantBoxes[v].dataset.name) || R.variants[v].name : null;
    summary.textContent =
      // Rules without publisher variants have no variant to name.
      editionName + " (" + edition.id + "), " +
      (variantName ? word("variantRules", { variant: variantName }) + "; " : "") +
      (names.length ? names.join(", ") : word("baseGameOnly")) + ".";
    let text = counted("itemsCount", shown);
    if (state.modules.size) text += ", " + counted("addedCount", added);
    text += ".";
    if (state.ignored.length) text += " " + word("notKnown", { ids: state.ignored.join(", ") });
    status.textContent = text;
  }

  function update() {
    showControls();
    render();
    writeHash();
  }

  window.addEventListener("hashchange", () => play.leave());

  // ---- Play a turn ----------------------------------------------------------------
  //
  // The order shown, played one prompt at a time as the runtime's `Turn` plays it
  // (crates/runtime/src/turn.rs): the plan is read from the visible steps and items
  // and their flow attributes; the turn is replayed from its answers, so undo is
  // "the same answers but the last".

  const play = (function () {
    const panel = document.getElementById("play");
    const startButton = document.getElementById("play-start");
    const where = document.getElementById("play-where");
    const promptBox = document.getElementById("play-prompt");
    const error = document.getElementById("play-error");
    const undoButton = document.getElementById("play-undo");
    const anyTimeBox = document.getElementById("play-any-time");
    const anyTimeList = document.getElementById("play-any-time-list");
    const anyTimeTitle = document.getElementById("play-any-time-title");
    const log = document.getElementById("play-log");
    if (!panel || !startButton || !anyTimeTitle) return { leave() {} };

    /** More go-backs than this in one turn is refused, as the runtime does. */
    const MAX_GO_BACKS = 100;
    /** More completed features at once than this is refused. */
    const MAX_FEATURES = 64;

    let plan = null;
    let answers = [];

    // ---- The plan: the shown order with its flow ----

    /** The shown items of a list in pre-order, as the runtime flattens a step. */
    function flatten(list, option, once, depth, nodes) {
      const first = nodes.length;
      for (const li of list ? list.children : []) {
        if (!li.matches("li.item") || li.hidden) continue;
        const flow = (li.dataset.flow || "").split(" ");
        const node = {
          id: li.dataset.id,
          li,
          role: li.dataset.role || "action",
          optional: flow.includes("optional"),
          chooseOne: flow.includes("choose-one"),
          once: once || flow.includes("once"),
          skip: li.dataset.skip !== undefined ? li.dataset.skip.split(" ") : null,
          goBack: li.dataset.goBack !== undefined ? li.dataset.goBack : null,
          doubleTurn: li.dataset.doubleTurn !== undefined,
          option,
          depth,
          end: 0,
          scopeEnd: 0,
        };
        nodes.push(node);
        flatten(li.querySelector(":scope > .items"), node.chooseOne, node.once, depth + 1, nodes);
        node.end = nodes.length;
      }
      for (const node of nodes.slice(first)) if (node.scopeEnd === 0) node.scopeEnd = nodes.length;
      return nodes;
    }

    function readPlan() {
      const steps = [];
      for (const el of turn.querySelectorAll(".phase > .step")) {
        if (el.hidden) continue;
        const repeat = el.querySelector(".repeat");
        // The step's heading as the page writes it ("Step 1B: Draw a tile"), without its badges.
        const heading = el.querySelector("h3").cloneNode(true);
        heading.querySelectorAll(".badge").forEach((badge) => badge.remove());
        steps.push({
          id: el.dataset.step,
          heading: heading.textContent.replace(/\s+/g, " ").trim(),
          chooseOne: el.dataset.chooseOne !== undefined,
          mayPass: el.dataset.mayPass !== undefined,
          perFeature: repeat !== null && !repeat.hidden && repeat.dataset.repeat === "per_feature",
          nodes: flatten(el.querySelector(":scope > .items"), el.dataset.chooseOne !== undefined, false, 0, []),
        });
      }
      const anyTimeItems = flatten(document.querySelector("#any_time > .items"), false, false, 0, []);
      const index = (id) => steps.findIndex((s) => s.id === id);
      let block = null;
      const span = document.getElementById("double-turn-block");
      const m = mask(state.modules);
      if (span && (span.dataset.c === undefined || R.conds[Number(span.dataset.c)](state.edition, state.variant, m))) {
        const [first, last] = [index(span.dataset.first), index(span.dataset.last)];
        if (first >= 0 && last >= first) block = [first, last];
      }
      return { steps, anyTime: anyTimeItems, block, index };
    }

    // ---- The turn ----

    /** A refused answer: the turn stays where it is. */
    class Refused extends Error {}

    function newTurn() {
      const t = {
        seq: 0, part: 1, at: { kind: "over" }, doubleTurn: false, afterBlock: false,
        skipped: [], once: [], goBacks: 0, trace: [], prompts: [],
      };
      if (plan.steps.length === 0) t.trace.push({ event: "end" });
      else walk(t, { go: "step", s: 0 });
      return t;
    }

    /** The choose-one's options at `of` (an item's index, or null for the step's own items). */
    function options(t, s, of) {
      const nodes = plan.steps[s].nodes;
      const out = [];
      for (let i = of === null ? 0 : of + 1, end = of === null ? nodes.length : nodes[of].end; i < end; i = nodes[i].end) {
        const node = nodes[i];
        if (node.role !== "note" && !(node.once && t.once.includes(node.id))) out.push(i);
      }
      return out;
    }

    function mayPass(s, of) {
      return of === null ? plan.steps[s].mayPass : plan.steps[s].nodes[of].optional;
    }

    /** The pending prompt in the `play` command's JSON shape, or null when the turn is over. */
    function prompt(t) {
      const at = t.at;
      if (at.kind === "over") return null;
      const p = { seq: t.seq, kind: at.kind, part: t.part, step: plan.steps[at.s].id, feature: at.feature || null };
      if (at.kind === "do") p.item = plan.steps[at.s].nodes[at.i].id;
      if (at.kind === "choose") {
        p.options = options(t, at.s, at.of).map((o) => plan.steps[at.s].nodes[o].id);
        p.may_pass = mayPass(at.s, at.of);
      }
      return p;
    }

    function checkEffect(t, node) {
      if (node.goBack === null) return;
      if (plan.index(node.goBack) < 0) throw new Refused(word("playNoSuchStep", { step: node.goBack }));
      if (t.goBacks >= MAX_GO_BACKS) throw new Refused(counted("playWentBackCount", t.goBacks));
    }

    /** Takes one answer ({do}, {choose}, {count} or {any_time}); throws Refused, changing nothing. */
    function answer(t, a) {
      const at = t.at;
      if (at.kind === "over") throw new Refused(word("playOver"));
      const stepId = plan.steps[at.s].id;
      if ("any_time" in a) {
        const node = plan.anyTime.find((n) => n.id === a.any_time && (n.role === "action" || n.role === "condition"));
        if (!node) throw new Refused(word("playNotAnyTime", { section: anyTimeTitle.textContent.trim() }));
        if (node.once) {
          if (t.once.includes(node.id)) throw new Refused(word("playOnlyOnce"));
          t.once.push(node.id);
        }
        t.trace.push({ event: "any_time", part: t.part, step: stepId, item: node.id });
        return;
      }
      const nodes = plan.steps[at.s].nodes;
      const asked = prompt(t);
      let next;
      if (at.kind === "do" && "do" in a) {
        const node = nodes[at.i];
        if (a.do) checkEffect(t, node);
        t.trace.push({ event: "item", part: t.part, step: stepId, item: node.id, done: a.do });
        if (a.do) next = take(t, at.s, at.feature, at.i);
        else next = { go: "node", s: at.s, feature: at.feature, i: node.role === "condition" ? node.end : at.i + 1 };
      } else if (at.kind === "choose" && "choose" in a) {
        if (a.choose === null) {
          if (!mayPass(at.s, at.of)) throw new Refused(word("playMustChoose"));
          t.trace.push({ event: "chose", part: t.part, step: stepId, item: null });
          next = { go: "node", s: at.s, feature: at.feature, i: at.of === null ? nodes.length : nodes[at.of].end };
        } else {
          const o = options(t, at.s, at.of).find((o) => nodes[o].id === a.choose);
          if (o === undefined) throw new Refused(word("playNotOffered"));
          checkEffect(t, nodes[o]);
          t.trace.push({ event: "chose", part: t.part, step: stepId, item: nodes[o].id });
          next = take(t, at.s, at.feature, o);
        }
      } else if (at.kind === "count" && "count" in a) {
        const n = a.count;
        if (!Number.isInteger(n) || n < 0 || n > MAX_FEATURES) {
          throw new Refused(capitalized(word("playPleaseAnswer", { hint: word("playNumber", { from: 0, to: MAX_FEATURES }) })));
        }
        if (n === 0) {
          t.trace.push({ event: "no_features", part: t.part, step: stepId });
          next = { go: "after", s: at.s };
        } else {
          t.trace.push({ event: "step", part: t.part, step: stepId, feature: [1, n] });
          next = { go: "round", s: at.s, feature: [1, n] };
        }
      } else {
        throw new Refused(word("playWrongAnswer", { answer: Object.keys(a)[0], prompt: at.kind }));
      }
      t.prompts.push(asked);
      t.seq += 1;
      walk(t, next);
    }

    /** The item at `i` was done (or taken): its effect applies, its sub-items come next. */
    function take(t, s, feature, i) {
      const node = plan.steps[s].nodes[i];
      if (node.once) t.once.push(node.id);
      if (node.skip) t.skipped.push(...node.skip);
      if (node.doubleTurn && t.part === 1 && plan.block) t.doubleTurn = true;
      if (node.goBack !== null) {
        const to = plan.index(node.goBack);
        t.trace.push({ event: "go_back", part: t.part, from: plan.steps[s].id, to: plan.steps[to].id });
        t.goBacks += 1;
        t.skipped = [];
        return { go: "step", s: to };
      }
      return node.chooseOne ? choose(t, s, feature, i) : { go: "node", s, feature, i: i + 1 };
    }

    /** A choose-one prompt, or past the choice when nothing is offered. */
    function choose(t, s, feature, of) {
      if (options(t, s, of).length) {
        t.at = { kind: "choose", s, feature, of };
        return { go: "wait" };
      }
      const nodes = plan.steps[s].nodes;
      return { go: "node", s, feature, i: of === null ? nodes.length : nodes[of].end };
    }

    /** Plays from `go` to the next prompt (or the end), recording the trace. */
    function walk(t, go) {
      for (;;) {
        if (go.go === "wait") return;
        const step = plan.steps[go.s];
        if (go.go === "step") {
          if (t.skipped.includes(step.id)) {
            t.trace.push({ event: "skipped", part: t.part, step: step.id });
            go = { go: "after", s: go.s };
          } else if (step.perFeature) {
            t.at = { kind: "count", s: go.s };
            return;
          } else {
            t.trace.push({ event: "step", part: t.part, step: step.id, feature: null });
            go = { go: "round", s: go.s, feature: null };
          }
        } else if (go.go === "round") {
          go = step.chooseOne ? choose(t, go.s, go.feature, null) : { go: "node", s: go.s, feature: go.feature, i: 0 };
        } else if (go.go === "node") {
          const { s, feature, i } = go;
          const node = step.nodes[i];
          if (!node) {
            if (feature && feature[0] < feature[1]) {
              const f = [feature[0] + 1, feature[1]];
              t.trace.push({ event: "step", part: t.part, step: step.id, feature: f });
              go = { go: "round", s, feature: f };
            } else {
              go = { go: "after", s };
            }
          } else if (node.option) {
            // Reached past the option taken: the others are not played.
            go = { go: "node", s, feature, i: node.scopeEnd };
          } else if (node.role === "note") {
            go = { go: "node", s, feature, i: node.end };
          } else if (node.once && t.once.includes(node.id)) {
            t.trace.push({ event: "once", part: t.part, step: step.id, item: node.id });
            go = { go: "node", s, feature, i: node.end };
          } else if (node.role === "group" && !node.chooseOne) {
            go = { go: "node", s, feature, i: i + 1 };
          } else if (node.role === "condition" || !node.chooseOne) {
            t.at = { kind: "do", s, feature, i };
            return;
          } else {
            go = choose(t, s, feature, i);
          }
        } else {
          const next = nextStep(t, go.s);
          if (next === null) {
            t.at = { kind: "over" };
            t.trace.push({ event: "end" });
            return;
          }
          go = { go: "step", s: next };
        }
      }
    }

    /** The step after step `s`, following the double turn; null at the end. */
    function nextStep(t, s) {
      const len = plan.steps.length;
      if (plan.block) {
        const [first, last] = plan.block;
        const secondPart = (afterBlock) => {
          t.part = 2;
          t.afterBlock = afterBlock;
          t.skipped = [];
          t.trace.push({ event: "part", part: 2 });
          return first;
        };
        if (t.part === 1 && t.doubleTurn && s === last) return secondPart(true);
        if (t.part === 2 && s === last && !t.afterBlock) return null;
        if (t.part === 1 && t.doubleTurn && s + 1 >= len) return secondPart(false);
      }
      return s + 1 < len ? s + 1 : null;
    }

    /** The turn after `list` of answers (each was taken once, so none is refused). */
    function replay(list) {
      const t = newTurn();
      list.forEach((a) => answer(t, a));
      return t;
    }

    // ---- The screen ----

    function el(tag, props, children) {
      const e = document.createElement(tag);
      Object.assign(e, props || {});
      for (const c of children || []) e.append(c);
      return e;
    }

    /** An item's text as the order shows it (the selected edition's wording). */
    function textOf(node) {
      const text = node.li.querySelector(":scope > .line > .text").cloneNode(true);
      text.removeAttribute("class");
      text.className = "play-text";
      return text;
    }

    function button(label, data, onClick) {
      const b = el("button", { type: "button", className: "play-answer" }, [label]);
      Object.assign(b.dataset, data);
      b.addEventListener("click", onClick);
      return b;
    }

    /** "feature 2 of 3" of a per-feature step's round. */
    function featureOf([n, of]) {
      return word("traceFeature", { n, of });
    }

    /** What the log says of one event. */
    function describe(e) {
      const item = (id) => {
        const node = plan.steps.flatMap((s) => s.nodes).concat(plan.anyTime).find((n) => n.id === id);
        return node ? node.li.querySelector(":scope > .line > .text").innerText.replace(/\s+/g, " ").trim() : id;
      };
      const line = (key, fill) => capitalized(word(key, fill));
      switch (e.event) {
        case "part": return word("playSecondPart", { part: e.part });
        case "step": return line("traceStep", { step: e.step }) + (e.feature ? " (" + featureOf(e.feature) + ")" : "");
        case "item": return word(e.done ? "playLogYes" : "playLogNo", { item: item(e.item) });
        case "chose": return e.item === null ? line("traceChoseNone") : line("traceChose", { item: item(e.item) });
        case "skipped": return line("traceSkipped", { step: e.step });
        case "no_features": return line("traceNoFeatures", { step: e.step });
        case "once": return line("traceOnce", { item: item(e.item) });
        case "go_back": return line("traceGoBack", { from: e.from, to: e.to });
        case "any_time": return line("traceAnyTime", { item: item(e.item) });
        default: return line("traceEnd");
      }
    }

    function give(a) {
      const t = replay(answers);
      try {
        answer(t, a);
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        error.textContent = err.message;
        error.hidden = false;
        return;
      }
      answers.push(a);
      show();
    }

    function show() {
      const t = replay(answers);
      const p = prompt(t);
      error.hidden = true;
      undoButton.disabled = answers.length === 0;
      promptBox.replaceChildren();
      const data = promptBox.dataset;
      for (const key of Object.keys(data)) delete data[key];
      data.kind = p ? p.kind : "over";
      data.seq = String(t.seq);
      data.part = String(t.part);
      if (!p) {
        where.textContent = plan.block && t.part === 2 ? word("playSecondPart", { part: t.part }) : "";
        promptBox.append(el("p", { className: "play-question" }, [word("playOver")]),
          el("p", {}, [button(word("playAnother"), { again: "" }, () => { answers = []; show(); })]));
      } else {
        const step = plan.steps[t.at.s];
        data.step = step.id;
        if (p.feature) data.feature = p.feature.join(" ");
        const part = !plan.block ? "" :
          (t.part === 2 ? word("playSecondPart", { part: t.part }) : capitalized(word("tracePart", { part: t.part }))) + " · ";
        where.textContent = part + step.heading + (p.feature ? " · " + featureOf(p.feature) : "");
        if (p.kind === "do") {
          const node = step.nodes[t.at.i];
          data.item = node.id;
          const parent = step.nodes.slice(0, t.at.i).reverse().find((n) => n.end > t.at.i);
          if (parent) promptBox.append(el("p", { className: "play-context" }, [textOf(parent)]));
          const question = word(node.role === "condition" ? "playDoesItHold" : node.optional ? "playYouMay" : "playCarryOut");
          const [yes, no] = node.role === "condition"
            ? [capitalized(word("traceYes")), capitalized(word("traceNo"))]
            : node.optional ? [word("playDid"), word("playDidNot")] : [word("playDone"), word("playCouldNot")];
          promptBox.append(el("p", { className: "play-question" }, [question]),
            el("p", { className: "play-item" }, [textOf(node)]),
            el("p", { className: "play-buttons" }, [
              button(yes, { answer: "yes" }, () => give({ do: true })),
              button(no, { answer: "no" }, () => give({ do: false })),
            ]));
        } else if (p.kind === "choose") {
          const of = t.at.of === null ? null : step.nodes[t.at.of];
          if (of) {
            data.of = of.id;
            promptBox.append(el("p", { className: "play-context" }, [textOf(of)]));
          }
          promptBox.append(el("p", { className: "play-question" }, [capitalized(word(p.may_pass ? "chooseOneOrNone" : "chooseOne"))]));
          const list = el("ul", { className: "play-options" });
          for (const o of options(t, t.at.s, t.at.of)) {
            const node = step.nodes[o];
            const b = button("", { option: node.id }, () => give({ choose: node.id }));
            b.replaceChildren(textOf(node));
            list.append(el("li", {}, [b]));
          }
          if (p.may_pass) list.append(el("li", {}, [button(capitalized(word("playNoneOfThem")), { pass: "" }, () => give({ choose: null }))]));
          promptBox.append(list);
        } else {
          promptBox.append(el("p", { className: "play-question" }, [capitalized(word("playHowMany"))]));
          const counts = el("p", { className: "play-buttons" });
          for (let n = 0; n <= 4; n++) counts.append(button(String(n), { count: String(n) }, () => give({ count: n })));
          const input = el("input", { type: "number", min: "0", max: String(MAX_FEATURES), id: "play-count", value: "5" });
          const more = el("p", { className: "play-more" }, [
            el("label", { htmlFor: "play-count" }, [word("playMore")]), " ", input, " ",
            button(word("playOk"), { countOk: "" }, () => give({ count: Number(input.value) })),
          ]);
          promptBox.append(counts, more);
        }
      }
      // The "at any time" items, while a prompt waits; a `once` item only until used.
      anyTimeList.replaceChildren();
      const usable = plan.anyTime.filter((n) => n.role === "action" || n.role === "condition");
      anyTimeBox.hidden = !p || usable.length === 0;
      for (const node of usable) {
        const b = button("", { anyTime: node.id }, () => give({ any_time: node.id }));
        b.replaceChildren(textOf(node));
        b.disabled = node.once && t.once.includes(node.id);
        anyTimeList.append(el("li", {}, [b]));
      }
      log.replaceChildren(...t.trace.map((e) => {
        const li = el("li", { className: "play-event play-" + e.event }, [describe(e)]);
        li.dataset.event = JSON.stringify(e);
        return li;
      }));
    }

    function enter() {
      plan = readPlan();
      answers = [];
      document.body.classList.add("playing");
      panel.hidden = false;
      show();
      panel.scrollIntoView();
      document.getElementById("play-title").focus();
    }

    function leave() {
      if (panel.hidden) return;
      document.body.classList.remove("playing");
      panel.hidden = true;
      startButton.focus();
    }

    document.getElementById("play-title").tabIndex = -1;
    startButton.hidden = false;
    startButton.addEventListener("click", enter);
    undoButton.addEventListener("click", () => {
      answers.pop();
      show();
    });
    document.getElementById("play-restart").addEventListener("click", () => {
      answers = [];
      show();
    });
    document.getElementById("play-leave").addEventListener("click", leave);
    return { leave };
  })();

  if (isSelection(location.hash)) readHash();
  update();
  document.documentElement.classList.add("ready");
})();
