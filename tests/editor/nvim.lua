-- Drives the language server from Neovim (0.7+), set up by
-- editors/nvim/carcassonne-rules.lua: diagnostics and their quick
-- fix, completion, hover, definition, references, rename, the outline, inlay
-- hints, semantic tokens, the text-variant snippet, and the mistakes an author
-- makes while typing (an open `(`, a misspelt key, an unknown edition after
-- non-ASCII text, a marker list, a half-written item, a too-long id), on a
-- copy of the rules. Writes one line per check to $RESULTS (suite.lua).
local root = os.getenv('RULES_ROOT')
local suite = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/suite.lua')
local check = suite.check

-- A snippet's text as Neovim's own parser expands it (0.10 moved it).
local function snippet_text(body)
  if vim.lsp.util.parse_snippet then return vim.lsp.util.parse_snippet(body) end
  return tostring(require('vim.lsp._snippet_grammar').parse(body))
end

local attached = suite.attached

local function run()
  -- The set-up as a user installs it (editors/nvim/), then a rules file.
  vim.g.carcassonne_rules_server = os.getenv('SERVER')
  dofile(os.getenv('CONFIG'))
  vim.cmd('edit ' .. root .. '/rules/expansions/abbey-and-mayor.yaml')
  local buf = vim.api.nvim_get_current_buf()
  -- A client is listed once the server has answered `initialize`.
  local clients = {}
  vim.wait(20000, function()
    clients = attached(buf)
    return #clients > 0
  end)
  check('attached', #clients == 1 and clients[1].name == 'carcassonne-rules'
    and vim.bo[buf].omnifunc == 'v:lua.vim.lsp.omnifunc', vim.inspect(clients))
  local client = clients[1]

  local function line_of(pattern)
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      local col = line:find(pattern, 1, true)
      if col then return i - 1, col - 1, line end
    end
  end
  local function at(line, character)
    return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
  end

  -- A misspelt module in a condition.
  local l = line_of('when: mayor')
  vim.api.nvim_buf_set_lines(buf, l, l + 1, false, { '      when: mayr' })
  vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end)
  local diags = vim.diagnostic.get(buf)
  check('diagnostic', #diags == 1 and diags[1].lnum == l and diags[1].col == 12 and diags[1].message:find('mayr', 1, true)
    and diags[1].severity == vim.diagnostic.severity.ERROR, vim.inspect(diags))

  -- Its quick fix: the did-you-mean in the diagnostic's range.
  -- (Neovim 0.7 keeps only part of the server's diagnostic: it is rebuilt here.)
  local lsp_diag = diags[1] and {
    range = { start = { line = diags[1].lnum, character = diags[1].col },
      ['end'] = { line = diags[1].end_lnum, character = diags[1].end_col } },
    severity = diags[1].severity, message = diags[1].message,
  }
  local actions = lsp_diag and client.request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) }, range = lsp_diag.range, context = { diagnostics = { lsp_diag } },
  }, 10000, buf)
  local fix = actions and actions.result and actions.result[1]
  local fix_edits = fix and fix.edit and fix.edit.changes and fix.edit.changes[vim.uri_from_bufnr(buf)]
  check('quick fix', fix_edits and #fix_edits == 1 and fix_edits[1].newText == 'mayor'
    and fix_edits[1].range.start.line == l and fix_edits[1].range.start.character == 12, vim.inspect(actions))

  -- Completion after `or `.
  vim.api.nvim_buf_set_lines(buf, l, l + 1, false, { '      when: abbey or ' })
  vim.wait(20000, function() return #vim.diagnostic.get(buf) == 1 and vim.diagnostic.get(buf)[1].message:find('condition') end)
  local answer = client.request_sync('textDocument/completion', at(l, 21), 10000, buf)
  local labels = {}
  for _, item in ipairs((answer and answer.result) or {}) do labels[item.label] = true end
  check('completion', labels['mayor'] and labels['tiles_in_supply'] and not labels['C1'], vim.inspect(answer))
  vim.api.nvim_buf_set_lines(buf, l, l + 1, false, { '      when: mayor' })
  vim.wait(20000, function() return #vim.diagnostic.get(buf) == 0 end)
  check('fixed', #vim.diagnostic.get(buf) == 0, vim.inspect(vim.diagnostic.get(buf)))

  -- <C-x><C-o> at a half-typed hyphenated id, `-` not part of Vim's word
  -- (its default): the items' textEdit gives the word's start, so the menu
  -- holds the ids that start with `deploy-n` and <C-y> writes the whole id.
  local al, _, after_line = line_of('      after: deploy-normal-meeple')
  vim.api.nvim_buf_set_lines(buf, al, al + 1, false, { '      after: deploy-n' })
  vim.cmd('setlocal iskeyword-=-')
  local offered = client.request_sync('textDocument/completion', at(al, 20), 10000, buf)
  local expected = {}
  for _, item in ipairs((offered and offered.result) or {}) do table.insert(expected, item.label) end
  vim.api.nvim_win_set_cursor(0, { al + 1, 0 })
  local menu, timer, started = nil, vim.loop.new_timer(), vim.loop.now()
  -- Insert mode waits for keys; this timer reads the menu and types the next ones.
  timer:start(100, 100, vim.schedule_wrap(function()
    if menu then return end
    local items = vim.fn.complete_info({ 'items' }).items
    local pending = false
    for _, request in pairs(client.requests) do
      if request.type == 'pending' and request.method == 'textDocument/completion' then pending = true end
    end
    local done = #items > 0 and not pending
    if not done and vim.loop.now() - started < 20000 then return end
    timer:stop()
    menu = items
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(done and '<C-y><Esc>' or '<Esc>', true, false, true), 'n', false)
  end))
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('A<C-x><C-o>', true, false, true), 'nx!', false)
  vim.wait(20000, function() return menu ~= nil end)
  timer:close()
  local words = {}
  for _, item in ipairs(menu or {}) do table.insert(words, item.word) end
  local written = vim.api.nvim_buf_get_lines(buf, al, al + 1, false)[1]
  local vim_word = vim.fn.matchstr('deploy-n', '\\k*$')
  local sorted = vim.deepcopy(words)
  table.sort(sorted)
  table.sort(expected)
  check('omnifunc textEdit', #expected > 0 and vim.deep_equal(sorted, expected) and words[1] == 'deploy-normal-meeple'
    and written == '      after: deploy-normal-meeple' and vim_word == 'n',
    vim.inspect({ written = written, menu = words, offered = expected, iskeyword = vim.bo[buf].iskeyword }))
  vim.cmd('setlocal iskeyword+=-')
  vim.api.nvim_buf_set_lines(buf, al, al + 1, false, { after_line })

  -- Hover on an item id: its text, its share of the selections, its placement.
  local hl, hc = line_of('id: abbey-take-tile')
  local hover = client.request_sync('textDocument/hover', at(hl, hc + 6), 10000, buf)
  local shown = hover and hover.result and hover.result.contents and hover.result.contents.value or ''
  check('hover', shown:find('50.0% of selections', 1, true) and shown:find('placed', 1, true), vim.inspect(hover))

  -- The outline: steps, their items, and the items' children.
  local outline = client.request_sync('textDocument/documentSymbol', { textDocument = { uri = vim.uri_from_bufnr(buf) } }, 10000, buf)
  local supply
  for _, step in ipairs((outline and outline.result) or {}) do
    for _, item in ipairs((step.name == '1B' and step.children) or {}) do
      if item.name == 'abbey-play-from-supply' then supply = item end
    end
  end
  check('outline', supply and supply.range.start.line == select(1, line_of('id: abbey-play-from-supply')), vim.inspect(outline))

  -- Definition of an `before:` target in base.yaml.
  local dl, dc = line_of('before: draw-tile')
  local def = client.request_sync('textDocument/definition', at(dl, dc + 9), 10000, buf)
  local target = def and def.result and (def.result.uri or (def.result[1] and def.result[1].uri))
  check('definition', target and target:find('base.yaml', 1, true), vim.inspect(def))

  -- Definition of a module, written in a flow mapping of modules.yaml.
  local ml, mc = line_of('when: mayor')
  local mdef = client.request_sync('textDocument/definition', at(ml, mc + 6), 10000, buf)
  local mtarget = mdef and mdef.result and (mdef.result.uri and mdef.result or mdef.result[1])
  check('module definition', mtarget and mtarget.uri:find('modules.yaml', 1, true)
    and vim.fn.readfile(vim.uri_to_fname(mtarget.uri))[mtarget.range.start.line + 1]:find('{ id: mayor', 1, true),
    vim.inspect(mdef))

  -- References of a derived flag: its definition in modules.yaml and its uses here.
  local rl, rc = line_of('tiles_in_supply or wetlands')
  local refs = client.request_sync('textDocument/references', vim.tbl_extend('force', at(rl, rc),
    { context = { includeDeclaration = true } }), 10000, buf)
  local in_modules, here = 0, 0
  for _, place in ipairs((refs and refs.result) or {}) do
    if place.uri:find('modules.yaml', 1, true) then in_modules = in_modules + 1 end
    if place.uri == vim.uri_from_bufnr(buf) then here = here + 1 end
  end
  check('references', in_modules >= 1 and here >= 1, vim.inspect(refs))

  -- Rename a derived flag: an edit in modules.yaml and here.
  local edit = client.request_sync('textDocument/rename', vim.tbl_extend('force', at(rl, rc), { newName = 'supply_tiles' }), 10000, buf)
  local files = 0
  for uri, _ in pairs((edit and edit.result and edit.result.changes) or {}) do
    if uri:find('modules.yaml', 1, true) or uri:find('abbey-and-mayor.yaml', 1, true) then files = files + 1 end
  end
  check('rename', files == 2, vim.inspect(edit))
  local refused = client.request_sync('textDocument/rename', vim.tbl_extend('force', at(rl, rc), { newName = 'abbey' }), 10000, buf)
  check('rename refused', refused and refused.err ~= nil, vim.inspect(refused))

  -- Inlay hints: one per `when:`, the abbey's in half the games.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local whens, abbey_line = 0, nil
  for i, line in ipairs(lines) do
    if line:match('^%s*when:') then whens = whens + 1 end
    if line == '      when: abbey' and not abbey_line then abbey_line = i - 1 end
  end
  local range = { start = { line = 0, character = 0 }, ['end'] = { line = #lines, character = 0 } }
  local hints = client.request_sync('textDocument/inlayHint', { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = range }, 10000, buf)
  local abbey_hint
  for _, hint in ipairs((hints and hints.result) or {}) do
    if hint.position.line == abbey_line then abbey_hint = hint.label end
  end
  check('inlay hints', hints and hints.result and #hints.result == whens and abbey_hint == 'in 50% of games',
    vim.inspect({ whens, abbey_hint, hints }))

  -- Semantic tokens, decoded with the legend the server announced.
  local legend = client.server_capabilities.semanticTokensProvider.legend.tokenTypes
  local tokens = client.request_sync('textDocument/semanticTokens/full', { textDocument = { uri = vim.uri_from_bufnr(buf) } }, 10000, buf)
  local data = (tokens and tokens.result and tokens.result.data) or {}
  local kinds, line, start = {}, 0, 0
  for i = 1, #data, 5 do
    if data[i] > 0 then start = 0 end
    line, start = line + data[i], start + data[i + 1]
    kinds[line .. ':' .. start] = legend[data[i + 3] + 1]
  end
  check('semantic tokens', kinds[rl .. ':' .. rc] == 'variable' and kinds[rl .. ':' .. (rc + 16)] == 'keyword'
    and kinds[rl .. ':' .. (rc + 19)] == 'namespace', vim.inspect({ rl, rc, kinds }))

  -- The text-variant snippet, expanded by Neovim's parser, quotes the plain
  -- text and leaves rules that check accepts.
  -- The buffer's own diagnostics, without those of problems its edits
  -- caused in other files (each says where: "in translations/…").
  local function own(b)
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(b)) do
      if not d.message:find('^in translations/') then table.insert(found, d) end
    end
    return found
  end
  local sl, sc, snippet_line = line_of('adds the mayor')
  local offered = client.request_sync('textDocument/completion', at(sl, sc + 9), 10000, buf)
  local variant
  for _, item in ipairs((offered and offered.result) or {}) do
    if item.label == '{C1: … | C2, WE: …}' then variant = item end
  end
  local edits = { { range = { start = { line = sl, character = sc + 9 }, ['end'] = { line = sl, character = sc + 9 } },
    newText = snippet_text(variant and variant.textEdit.newText or '') } }
  for _, quote in ipairs((variant and variant.additionalTextEdits) or {}) do table.insert(edits, quote) end
  vim.lsp.util.apply_text_edits(edits, buf, 'utf-16')
  -- The answer to a request comes after the diagnostics of the edits before it.
  client.request_sync('textDocument/hover', at(0, 0), 10000, buf)
  local written = vim.api.nvim_buf_get_lines(buf, sl, sl + 1, false)[1]
  -- A snippet where Neovim says it takes them (0.9 and later), plain text on 0.7.
  local snippets = vim.fn.has('nvim-0.9') == 1
  local expected = snippets and '      text: "Every player adds the {C1:  | C2, WE: }mayor of their colour to their supply."'
    or '      text: Every player adds the {C1:|C2, WE:}mayor of their colour to their supply.'
  -- The item's Dutch translation is outdated now, which the edit shows here
  -- too, reported in the Dutch file; the text put back, both go.
  local outdated
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('^in translations/nl/expansions/abbey%-and%-mayor.yaml') and d.lnum == sl then outdated = d end
  end
  check('snippet', variant and variant.insertTextFormat == (snippets and 2 or 1) and written == expected
    and #own(buf) == 0 and outdated, vim.inspect({ written, variant, vim.diagnostic.get(buf) }))
  vim.api.nvim_buf_set_lines(buf, sl, sl + 1, false, { snippet_line })
  client.request_sync('textDocument/hover', at(0, 0), 10000, buf)

  -- The mistakes an author makes while typing, each at its place, with a fix
  -- where one is clear; each line is put back after.
  local uri = vim.uri_from_bufnr(buf)
  -- The answer to a request comes after the diagnostics of the edits before it.
  local function settle() client.request_sync('textDocument/hover', at(0, 0), 10000, buf) end
  local function typed(l, text)
    vim.api.nvim_buf_set_lines(buf, l, l + 1, false, { text })
    settle()
    return vim.diagnostic.get(buf)
  end
  -- A diagnostic's byte column as a position's character in the encoding
  -- client and server agreed on.
  local function character(l, col)
    if client.offset_encoding == 'utf-8' then return col end
    local _, units = vim.str_utfindex(vim.api.nvim_buf_get_lines(buf, l, l + 1, false)[1], col)
    return units
  end
  -- The server's code actions for diagnostic `d` (rebuilt: 0.7 keeps only part of it).
  local function actions_for(d)
    local range = { start = { line = d.lnum, character = character(d.lnum, d.col) },
      ['end'] = { line = d.end_lnum, character = character(d.end_lnum, d.end_col) } }
    local answer = client.request_sync('textDocument/codeAction', { textDocument = { uri = uri }, range = range,
      context = { diagnostics = { { range = range, severity = d.severity, message = d.message } } } }, 10000, buf)
    return (answer and answer.result) or {}
  end
  local wl, _, when_line = line_of('when: mayor')

  -- An unclosed `(`: reported at the `(`, fixed by closing it.
  local d = typed(wl, '      when: (abbey or mayor')
  local close = d[1] and actions_for(d[1])[1]
  if close then vim.lsp.util.apply_workspace_edit(close.edit, client.offset_encoding) end
  settle()
  check('unclosed parenthesis', #d == 1 and d[1].lnum == wl and d[1].col == 12 and close
    and vim.api.nvim_buf_get_lines(buf, wl, wl + 1, false)[1] == '      when: (abbey or mayor)'
    and #vim.diagnostic.get(buf) == 0, vim.inspect({ d, close }))

  -- A misspelt key: did-you-mean, and its fix.
  local kl = line_of('after: deploy-normal-meeple')
  local _, _, key_line = line_of('after: deploy-normal-meeple')
  d = typed(kl, (key_line:gsub('after:', 'afer:')))
  local right = d[1] and actions_for(d[1])[1]
  if right then vim.lsp.util.apply_workspace_edit(right.edit, client.offset_encoding) end
  settle()
  check('misspelt key', #d == 1 and d[1].lnum == kl and d[1].message:find('afer', 1, true) and right
    and vim.api.nvim_buf_get_lines(buf, kl, kl + 1, false)[1] == key_line and #vim.diagnostic.get(buf) == 0,
    vim.inspect({ d, right }))

  -- An unknown edition in a text after `Ü →`: the fix names one the list
  -- does not name yet, and applied in the client's encoding it mends the
  -- line rather than corrupting it.
  local tl, _, text_line = line_of('text: Every player adds the barn')
  d = typed(tl, '      text: "Ü → {C1: the barn | C3, WE: the Barn}"')
  local edition = d[1] and actions_for(d[1])[1]
  if edition then vim.lsp.util.apply_workspace_edit(edition.edit, client.offset_encoding) end
  settle()
  check('edition fix after Ü →', #d == 1 and edition
    and vim.api.nvim_buf_get_lines(buf, tl, tl + 1, false)[1] == '      text: "Ü → {C1: the barn | C2, WE: the Barn}"'
    and #own(buf) == 0, vim.inspect({ d, edition, vim.api.nvim_buf_get_lines(buf, tl, tl + 1, false) }))
  typed(tl, text_line)

  -- A marker list being written: after its first marker, markers come first.
  d = typed(wl, '      markers: [ROBBERS when robbers, ')
  local marks = client.request_sync('textDocument/completion', at(wl, 38), 10000, buf)
  local first = marks and marks.result and (marks.result.items or marks.result)[1]
  check('markers after the first', first and first.label:match('^[A-Z_]+$') and first.kind == 21, vim.inspect(first))

  -- An item still being written gets its `after:` from its siblings.
  typed(wl, when_line)
  local il = line_of('- id: wagon-take-figure')
  vim.api.nvim_buf_set_lines(buf, il, il, false, { '    - id: half-typed', '      after: ' })
  settle()
  local siblings = client.request_sync('textDocument/completion', at(il + 1, 13), 10000, buf)
  local offered_ids = {}
  for _, item in ipairs((siblings and siblings.result and (siblings.result.items or siblings.result)) or {}) do
    offered_ids[item.label] = true
  end
  check('after in a half-written item', offered_ids['mayor-take-figure'], vim.inspect(siblings))
  vim.api.nvim_buf_set_lines(buf, il, il + 2, false, {})
  settle()

  -- An item id past the 64-character limit is refused by rename.
  local nl, nc = line_of('id: mayor-take-figure')
  local long = client.request_sync('textDocument/rename', vim.tbl_extend('force', at(nl, nc + 4),
    { newName = string.rep('a', 71) }), 10000, buf)
  check('rename too long', long and long.err ~= nil and #vim.diagnostic.get(buf) == 0, vim.inspect(long))

  -- One workspace: a translation file opened in the same session joins the
  -- expansion file's server, and has no diagnostic of a rules file.
  local servers = function()
    local n = 0
    for _, c in pairs(vim.lsp.get_active_clients()) do
      if c.name == 'carcassonne-rules' then n = n + 1 end
    end
    return n
  end
  local dutch_file = root .. '/rules/translations/nl/expansions/abbey-and-mayor.yaml'
  vim.cmd('edit ' .. dutch_file)
  local dutch = vim.api.nvim_get_current_buf()
  vim.wait(20000, function() return #attached(dutch) > 0 end)
  local joined = attached(dutch)
  settle()
  check('one server for a translation file', #joined == 1 and joined[1].id == client.id and servers() == 1
    and #vim.diagnostic.get(dutch) == 0, vim.inspect({ #joined, servers(), vim.diagnostic.get(dutch) }))

  -- An orphaned Dutch unit is shown at its key.
  local ok_line
  for i, line in ipairs(vim.api.nvim_buf_get_lines(dutch, 0, -1, false)) do
    if line == '  abbey-take-tile:' then ok_line = i - 1 end
  end
  vim.api.nvim_buf_set_lines(dutch, ok_line, ok_line + 1, false, { '  abbey-take-tyle:' })
  client.request_sync('textDocument/hover', at(0, 0), 10000, dutch)
  -- (Besides, the unit it leaves missing, reported in languages.yaml, shown here too.)
  local orphans = {}
  for _, d in ipairs(vim.diagnostic.get(dutch)) do
    if not d.message:find('^in translations/languages.yaml') then table.insert(orphans, d) end
  end
  check('orphaned translation', #orphans == 1 and orphans[1].lnum == ok_line
    and orphans[1].message:find('did you mean `abbey-take-tile`', 1, true)
    and #vim.diagnostic.get(dutch) == 2, vim.inspect(vim.diagnostic.get(dutch)))
  vim.api.nvim_buf_set_lines(dutch, ok_line, ok_line + 1, false, { '  abbey-take-tile:' })
  client.request_sync('textDocument/hover', at(0, 0), 10000, dutch)

  -- A rename of an item, applied and saved with :wall, leaves no stale
  -- problem in either file (its Dutch key is renamed with it).
  vim.cmd('buffer ' .. buf)
  local il2, ic2 = line_of('id: abbey-take-tile')
  local renamed = client.request_sync('textDocument/rename', vim.tbl_extend('force', at(il2, ic2 + 4),
    { newName = 'abbey-tile-taken' }), 10000, buf)
  if renamed and renamed.result then vim.lsp.util.apply_workspace_edit(renamed.result, client.offset_encoding) end
  vim.cmd('silent wall')
  vim.wait(20000, function() return #vim.diagnostic.get() == 0 end)
  local on_disk = table.concat(vim.fn.readfile(dutch_file), '\n')
  check('rename and save', renamed and renamed.result and on_disk:find('abbey-tile-taken:', 1, true)
    and #vim.diagnostic.get() == 0, vim.inspect({ renamed, vim.diagnostic.get() }))

  -- An editor's backup written beside the expansion file: one message, at
  -- the backup itself (seen by the file watcher, or at the next save where
  -- Neovim watches nothing), none at base.yaml, nothing else refused.
  local backup = root .. '/rules/expansions/abbey-and-mayor.yaml~'
  vim.fn.writefile(vim.api.nvim_buf_get_lines(buf, 0, -1, false), backup)
  vim.cmd('silent write')
  local backup_buf = vim.uri_to_bufnr(vim.uri_from_fname(backup))
  vim.wait(20000, function() return #vim.diagnostic.get(backup_buf) > 0 end)
  -- The backup's message only: a translation the rename above touched may
  -- still be re-read from disk meanwhile (its file watched, a timing).
  local at_backup = vim.diagnostic.get(backup_buf)
  local everywhere = vim.tbl_filter(function(d) return d.code == 'not-a-rules-file' end, vim.diagnostic.get())
  check('backup file', #at_backup == 1 and #everywhere == 1 and at_backup[1].lnum == 0
    and at_backup[1].message:find('backup', 1, true), vim.inspect(everywhere))

  -- A YAML file outside any rules folder gets no server.
  vim.cmd('edit ' .. os.getenv('ELSEWHERE'))
  local others = attached(vim.api.nvim_get_current_buf())
  check('not elsewhere', #others == 0, vim.inspect(others))
end

suite.run(run)
