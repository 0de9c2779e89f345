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
    count.textContent = n ? "(" + n + (n === 1 ? " module" : " modules") + ")" : "";
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
          badge.textContent = R.modules[origin].name;
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
      if (selected.length && selected.length === x.modules.length) names.push(x.name);
      else selected.forEach((b) => names.push(R.modules[b].name));
    }
    summary.textContent =
      // Rules without publisher variants have no variant to name.
      edition.name + " (" + edition.id + "), " + (R.variants[v] ? R.variants[v].name + "'s rules; " : "") +
      (names.length ? names.join(", ") : "base game only") + ".";
    let text = shown + " items";
    if (state.modules.size) text += ", " + added + " of them added to the base game by your selection";
    text += ".";
    if (state.ignored.length) text += " Not known, so ignored: " + state.ignored.join(", ") + ".";
    status.textContent = text;
  }

  function update() {
    showControls();
    render();
    writeHash();
  }

  if (isSelection(location.hash)) readHash();
  update();
  document.documentElement.classList.add("ready");
})();
