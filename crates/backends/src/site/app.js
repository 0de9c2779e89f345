// The order-of-play page's script. It knows no rule: the catalog and the
// compiled conditions come from rules.js (window.carcassonneRules), every item
// is already in index.html in its place. This script reads the selection from
// the controls or the link (#edition=C2&variant=hig&with=abbey_and_mayor,builder),
// evaluates the conditions and shows what they allow. "Play a turn" runs on the
// runtime itself (wasm.js and carcassonne-rules.js: window.CarcassonneRules),
// where the page has it.
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
    // The answers of the turn played ("Play a turn"), null when not playing.
    play: null,
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

  /** The link's fragment: the selection, and the turn played unless `selectionOnly`. */
  function hashOf(selectionOnly) {
    const parts = ["edition=" + encodeURIComponent(R.editions[state.edition].id)];
    if (state.variant !== R.editions[state.edition].variant && R.variants[state.variant]) {
      parts.push("variant=" + encodeURIComponent(R.variants[state.variant].id));
    }
    const ids = withList();
    if (ids.length) parts.push("with=" + ids.map(encodeURIComponent).join(","));
    if (state.changes) parts.push("changes=1");
    if (state.play !== null && !selectionOnly) parts.push("play=" + state.play.map(answerToken).join("."));
    return "#" + parts.join("&");
  }

  // A turn's answers in the link, one token each, "."-separated (item ids are
  // kebab-case): y / n ({do}), 3 ({count}), o_ID or o_ ({choose}, null), a_ID ({any_time}).
  function answerToken(a) {
    if ("do" in a) return a.do ? "y" : "n";
    if ("count" in a) return String(a.count);
    if ("choose" in a) return "o_" + (a.choose === null ? "" : a.choose);
    return "a_" + a.any_time;
  }

  /** The answers of a link's `play=`, up to the first token that is none. */
  function answersOf(text) {
    const out = [];
    for (const token of text ? text.split(".") : []) {
      if (token === "y" || token === "n") out.push({ do: token === "y" });
      else if (/^[0-9]+$/.test(token)) out.push({ count: Number(token) });
      else if (token.startsWith("o_")) out.push({ choose: token.length > 2 ? token.slice(2) : null });
      else if (token.startsWith("a_") && token.length > 2) out.push({ any_time: token.slice(2) });
      else break;
    }
    return out;
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
    state.play = params.has("play") ? answersOf(params.get("play")) : null;
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
    // The link to share names the selection, not the turn being played.
    shareUrl.value = location.href.replace(/#.*$/, "") + hashOf(true);
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
  // A link followed, Back or Forward: its selection, and its turn (or none).
  window.addEventListener("hashchange", () => {
    if (!isSelection(location.hash)) return writeHash();
    readHash();
    update();
    play.follow();
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

  // ---- Play a turn ----------------------------------------------------------------
  //
  // The runtime plays the turn (wasm.js and carcassonne-rules.js, the JavaScript
  // package's glue): the page sends the selection and the answers so far and shows
  // the pending prompt and the trace it answers with, in the page's own texts (the
  // shown edition's wording of each item) and words. Undo is the same answers but
  // the last. The answers are kept in the link (#…&play=y.n.o_deploy-meeple), so a
  // reload resumes the turn, and Back leaves the play mode.

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
    const Rules = window.CarcassonneRules;
    if (!panel || !startButton || !anyTimeTitle || !Rules) {
      return { ready: Promise.resolve(), follow() { state.play = null; } };
    }

    /** The runtime's bound on the completed features of one count (the field's maximum). */
    const MAX_FEATURES = 64;

    /** The loaded rules, once the module is compiled. */
    let rules = null;
    /** What the runtime answered for state.play. */
    let played = null;
    /** The play mode's entry in the history is ours (Back returns to the order). */
    let pushed = false;

    function selection() {
      const s = { edition: R.editions[state.edition].id, with: withList() };
      if (R.variants[state.variant]) s.variant = R.variants[state.variant].id;
      return s;
    }

    // ---- What the page shows of the rules' ids ----

    /** Whether an element of the order is shown for the selection (the order itself steps aside). */
    function shown(el) {
      for (let e = el; e && e !== turn; e = e.parentElement) if (e.hidden) return false;
      return el !== null;
    }

    const itemLi = (id) => document.getElementById("item-" + id);

    /** An item's text as the order shows it: the shown edition's wording only. */
    function textOf(li) {
      const text = li.querySelector(":scope > .line > .text").cloneNode(true);
      text.querySelectorAll("[hidden]").forEach((e) => e.remove());
      text.removeAttribute("class");
      text.className = "play-text";
      return text;
    }

    /** The same as plain text, for the log. */
    function plainText(id) {
      const li = itemLi(id);
      return li ? textOf(li).textContent.replace(/\s+/g, " ").trim() : id;
    }

    /** The step's heading as the page writes it ("Step 1B: Draw a tile"), without its badges. */
    function stepHeading(id) {
      const h3 = document.querySelector("#step-" + CSS.escape(id) + " > h3");
      if (!h3) return id;
      const heading = h3.cloneNode(true);
      heading.querySelectorAll(".badge").forEach((badge) => badge.remove());
      return heading.textContent.replace(/\s+/g, " ").trim();
    }

    /** The selection's turn can have a second part (a step of the double-turn block shows). */
    function doubleTurns() {
      return Array.from(turn.querySelectorAll(".step.double-turn")).some(shown);
    }

    /** The item an item sits under, if any. */
    function parentItem(li) {
      return li && li.parentElement ? li.parentElement.closest("li.item") : null;
    }

    /** The "at any time" items a player can use (not a note or a heading of others). */
    function anyTimeItems() {
      return Array.from(document.querySelectorAll("#any_time li.item"))
        .filter((li) => shown(li) && (li.dataset.role === undefined || li.dataset.role === "condition"));
    }

    // ---- The screen ----

    function el(tag, props, children) {
      const e = document.createElement(tag);
      Object.assign(e, props || {});
      for (const c of children || []) e.append(c);
      return e;
    }

    /** An answer's button; `about` names what it answers (aria-describedby). */
    function button(label, data, about, onClick) {
      const b = el("button", { type: "button", className: "play-answer" }, [label]);
      Object.assign(b.dataset, data);
      if (about) b.setAttribute("aria-describedby", about);
      b.addEventListener("click", onClick);
      return b;
    }

    /** Who answers a prompt, by the runtime's `actor`, in the page's words; the
     * active player ("active") is not said. An actor the page has no word for
     * shows as the runtime names it. */
    const ACTORS = {
      left: "actorLeft",
      each: "actorEach",
      each_from_left: "actorEachFromLeft",
      owner: "actorOwner",
      scorers: "actorScorers",
    };
    function actorWord(actor) {
      return Object.prototype.hasOwnProperty.call(ACTORS, actor) ? word(ACTORS[actor]) : String(actor);
    }
    const otherActor = (actor) => actor !== undefined && actor !== null && actor !== "active";

    /** "feature 2 of 3" of a per-feature step's round. */
    function featureOf([n, of]) {
      return word("traceFeature", { n, of });
    }

    /** What the log says of one event of the trace. */
    function describe(e) {
      const line = (key, fill) => capitalized(word(key, fill));
      const item = plainText;
      // Who answered, where it was not the active player: " (the player on your left)".
      const by = otherActor(e.actor) ? " (" + actorWord(e.actor) + ")" : "";
      switch (e.event) {
        case "part": return word("playSecondPart", { part: e.part });
        case "step": return line("traceStep", { step: e.step }) + (e.feature ? " (" + featureOf(e.feature) + ")" : "");
        case "item": return word(e.done ? "playLogYes" : "playLogNo", { item: item(e.item) }) + by;
        case "chose": return (e.item === null ? line("traceChoseNone") : line("traceChose", { item: item(e.item) })) + by;
        case "taken": return line("traceTaken", { item: item(e.item) }) + by;
        case "left_out": return line("traceLeftOut", { item: item(e.item) });
        case "skipped": return line("traceSkipped", { step: e.step });
        case "no_features": return line("traceNoFeatures", { step: e.step });
        case "once": return line("traceOnce", { item: item(e.item) });
        case "go_back": return line("traceGoBack", { from: e.from, to: e.to });
        case "any_time": return line("traceAnyTime", { item: item(e.item) });
        default: return line("traceEnd");
      }
    }

    /** The `once` items done this turn, as the saved turn has them. */
    function doneOnce() {
      return (played && played.state && played.state.turn && played.state.turn.once) || [];
    }

    /** Why the runtime refused `a`, in the page's words, by the turn's reason for it
     * (an answer that is no answer at all, such as a count that is no number, has none). */
    function refusal(err, a) {
      const goBacks = played ? played.trace.filter((e) => e.event === "go_back").length : 0;
      const p = pending();
      const askCount = () => capitalized(word("playPleaseAnswer", { hint: word("playNumber", { from: 0, to: MAX_FEATURES }) }));
      switch (err.reason) {
        case "too-many-features": return askCount();
        case "done-once": return word("playOnlyOnce");
        case "not-any-time": return word("playNotAnyTime", { section: anyTimeTitle.textContent.trim() });
        case "may-not-pass": return word("playMustChoose");
        case "must": return word("playMust");
        case "too-many-go-backs": return counted("playWentBackCount", goBacks);
        case "not-offered": return word("playNotOffered");
        case "wrong-kind": return word("playWrongAnswer", { answer: Object.keys(a)[0], prompt: p ? p.kind : "" });
        default:
          return "count" in a && !err.reason ? askCount() : capitalized(word("playRefused", { reason: err.message }));
      }
    }

    function pending() {
      return played && !played.over ? played.prompts[played.prompts.length - 1] : null;
    }

    /** Plays the turn's answers; a refused one (a link edited by hand, or of a turn
     * the rules now play otherwise) and those after it are dropped: why it was
     * refused, in the page's words, or null. */
    function replay() {
      try {
        played = rules.play(selection(), state.play);
        return null;
      } catch (err) {
        if (typeof err.answer !== "number" || err.answer >= state.play.length) throw err;
        const refused = state.play[err.answer];
        state.play = state.play.slice(0, err.answer);
        writeHash();
        played = rules.play(selection(), state.play);
        return refusal(err, refused);
      }
    }

    /** Gives one answer; a refused one changes nothing and says why. */
    function give(a) {
      let next;
      try {
        next = rules.play(selection(), state.play.concat([a]));
      } catch (err) {
        if (!err || err.code === undefined) throw err;
        error.textContent = refusal(err, a);
        error.hidden = false;
        return;
      }
      state.play.push(a);
      played = next;
      writeHash();
      show();
      focusQuestion();
    }

    /** The focus on the new question (a screen reader reads it). */
    function focusQuestion() {
      const question = promptBox.querySelector(".play-question");
      if (question) question.focus();
    }

    function show() {
      const p = pending();
      error.hidden = true;
      undoButton.disabled = state.play.length === 0;
      promptBox.replaceChildren();
      const data = promptBox.dataset;
      for (const key of Object.keys(data)) delete data[key];
      data.kind = p ? p.kind : "over";
      data.seq = String(p ? p.seq : state.play.filter((a) => !("any_time" in a)).length);
      const question = (text) => el("p", { className: "play-question", id: "play-question", tabIndex: -1 }, [text]);
      const part = p ? p.part : (played.trace.some((e) => e.event === "part") ? 2 : 1);
      data.part = String(part);
      if (!p) {
        where.textContent = part === 2 ? word("playSecondPart", { part }) : "";
        promptBox.append(question(word("playOver")),
          el("p", {}, [button(word("playAnother"), { again: "" }, null, () => restart())]));
      } else {
        data.step = p.step;
        if (p.feature) data.feature = p.feature.join(" ");
        const partLine = !doubleTurns() ? "" :
          (part === 2 ? word("playSecondPart", { part }) : capitalized(word("tracePart", { part }))) + " · ";
        where.textContent = partLine + stepHeading(p.step) + (p.feature ? " · " + featureOf(p.feature) : "");
        // Who is asked, where it is not the player whose turn it is; the question and
        // every answer are described by it too.
        data.actor = p.actor === undefined ? "active" : String(p.actor);
        const asks = otherActor(p.actor) ? " play-actor" : "";
        if (asks) {
          promptBox.append(el("p", { className: "play-actor", id: "play-actor" },
            [capitalized(word("playAsks", { actor: actorWord(p.actor) }))]));
        }
        const asked = (text) => {
          const q = question(text);
          if (asks) q.setAttribute("aria-describedby", "play-actor");
          return q;
        };
        if (p.must !== undefined) data.must = String(p.must === true);
        if (p.kind === "do") {
          const li = itemLi(p.item);
          data.item = p.item;
          const parent = parentItem(li);
          if (parent) promptBox.append(el("p", { className: "play-context", id: "play-context" }, [textOf(parent)]));
          const about = "play-question play-item" + (parent ? " play-context" : "") + asks;
          if (p.must === true) {
            // A must is an instruction, not a question: carried out and acknowledged, never declined.
            const q = asked(word("playCarryOut"));
            q.append(" ", el("span", { className: "badge play-must" }, [word("playAMust")]));
            promptBox.append(q,
              el("p", { className: "play-item", id: "play-item" }, [textOf(li)]),
              el("p", { className: "play-buttons" }, [
                button(word("playDone"), { answer: "yes" }, about, () => give({ do: true })),
              ]));
          } else {
            const condition = li.dataset.role === "condition";
            const optional = (li.dataset.flow || "").split(" ").includes("optional");
            const [yes, no] = condition
              ? [capitalized(word("traceYes")), capitalized(word("traceNo"))]
              : optional ? [word("playDid"), word("playDidNot")] : [word("playDone"), word("playCouldNot")];
            promptBox.append(asked(word(condition ? "playDoesItHold" : optional ? "playYouMay" : "playCarryOut")),
              el("p", { className: "play-item", id: "play-item" }, [textOf(li)]),
              el("p", { className: "play-buttons" }, [
                button(yes, { answer: "yes" }, about, () => give({ do: true })),
                button(no, { answer: "no" }, about, () => give({ do: false })),
              ]));
          }
        } else if (p.kind === "choose") {
          // The item whose options these are (null: the step's own choice), as the runtime says.
          const of = p.of ? itemLi(p.of) : null;
          if (of) {
            data.of = p.of;
            promptBox.append(el("p", { className: "play-context", id: "play-context" }, [textOf(of)]));
          }
          promptBox.append(asked(capitalized(word(p.may_pass ? "chooseOneOrNone" : "chooseOne"))));
          const about = "play-question" + (of ? " play-context" : "") + asks;
          const list = el("ul", { className: "play-options" });
          for (const id of p.options) {
            const b = button("", { option: id }, about, () => give({ choose: id }));
            b.replaceChildren(textOf(itemLi(id)));
            list.append(el("li", {}, [b]));
          }
          if (p.may_pass) {
            list.append(el("li", {}, [button(capitalized(word("playNoneOfThem")), { pass: "" }, about, () => give({ choose: null }))]));
          }
          promptBox.append(list);
        } else {
          promptBox.append(asked(capitalized(word("playHowMany"))));
          const about = "play-where play-question" + asks;
          const counts = el("p", { className: "play-buttons" });
          for (let n = 0; n <= 4; n++) counts.append(button(String(n), { count: String(n) }, about, () => give({ count: n })));
          const input = el("input", { type: "number", min: "0", max: String(MAX_FEATURES), id: "play-count", value: "5" });
          const more = el("p", { className: "play-more" }, [
            el("label", { htmlFor: "play-count" }, [word("playMore")]), " ", input, " ",
            button(word("playOk"), { countOk: "" }, about, () => give({ count: Number(input.value) })),
          ]);
          promptBox.append(counts, more);
        }
      }
      // The "at any time" items, while a prompt waits; a `once` item only until used,
      // and not the one the prompt asks (an obligation at any time, asked at the end).
      anyTimeList.replaceChildren();
      const usable = p ? anyTimeItems().filter((li) => !(p.kind === "do" && p.item === li.dataset.id)) : [];
      anyTimeBox.hidden = usable.length === 0;
      const once = doneOnce();
      for (const li of usable) {
        const id = li.dataset.id;
        const b = button("", { anyTime: id }, null, () => give({ any_time: id }));
        b.replaceChildren(textOf(li));
        b.disabled = once.includes(id);
        anyTimeList.append(el("li", {}, [b]));
      }
      log.replaceChildren(...played.trace.map((e) => {
        const li = el("li", { className: "play-event play-" + e.event }, [describe(e)]);
        li.dataset.event = JSON.stringify(e);
        return li;
      }));
    }

    /** Shows the turn of state.play (entering the mode), or leaves the mode when it is null. */
    function follow() {
      if (state.play === null) {
        if (panel.hidden) return;
        document.body.classList.remove("playing");
        panel.hidden = true;
        played = null;
        pushed = false;
        startButton.focus();
        return;
      }
      if (rules === null) return;
      const entering = panel.hidden;
      const refused = replay();
      document.body.classList.add("playing");
      panel.hidden = false;
      show();
      if (refused !== null) {
        error.textContent = refused;
        error.hidden = false;
      }
      if (entering) {
        panel.scrollIntoView();
        focusQuestion();
      }
    }

    function restart() {
      state.play = [];
      writeHash();
      follow();
      focusQuestion();
    }

    startButton.addEventListener("click", () => {
      state.play = [];
      // Its own entry in the history: Back leaves the mode, not the page.
      try {
        history.pushState(null, "", hashOf());
        pushed = true;
      } catch (_) {
        pushed = false;
      }
      writeHash();
      follow();
    });
    undoButton.addEventListener("click", () => {
      state.play.pop();
      writeHash();
      follow();
      if (undoButton.disabled) focusQuestion();
    });
    document.getElementById("play-restart").addEventListener("click", restart);
    document.getElementById("play-leave").addEventListener("click", () => {
      if (pushed) return history.back();
      state.play = null;
      writeHash();
      follow();
    });

    const ready = Rules.load().then(
      (loaded) => {
        rules = loaded;
        startButton.hidden = false;
        follow();
      },
      (err) => {
        // No module, no play mode; the order of play is all there.
        if (window.console) console.error(err);
        state.play = null;
      },
    );
    return { ready, follow };
  })();

  if (isSelection(location.hash)) readHash();
  update();
  // The page is ready when the rules' module is (or there is none).
  play.ready.then(() => document.documentElement.classList.add("ready"));
})();
