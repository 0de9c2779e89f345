-- Both servers at once, as the README sets them up: editors/nvim/carcassonne-rules.lua
-- and editors/nvim/yamlls.lua, on a copy of the rules. Completion goes
-- through Neovim's own merge of the two answers (`<C-x><C-o>`, the omnifunc
-- both files set) and its first item is accepted with `<C-y>`: at a condition,
-- a marker and an `after:`, the menu holds the project's items and none of
-- yaml-language-server's, and the line is right. yaml-language-server is
-- seen working: a schema diagnostic on an unknown key, keys completed at a
-- key's place. Writes one line per check to $RESULTS (suite.lua).
local root = os.getenv('RULES_ROOT')
local suite = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/suite.lua')
local check = suite.check

local function run()
  vim.g.carcassonne_rules_server = os.getenv('SERVER')
  vim.g.yaml_language_server = os.getenv('YAMLLS')
  dofile(os.getenv('CONFIG'))
  dofile(os.getenv('YAMLLS_CONFIG'))
  vim.cmd('edit ' .. root .. '/rules/expansions/abbey-and-mayor.yaml')
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)

  -- Both clients attached (a client is listed once its server has answered `initialize`).
  local by_name = {}
  vim.wait(20000, function()
    by_name = {}
    for _, client in pairs(vim.lsp.get_active_clients()) do
      if client.attached_buffers[buf] then by_name[client.name] = client end
    end
    return by_name['carcassonne-rules'] ~= nil and by_name['yamlls'] ~= nil
  end)
  local ours, yamlls = by_name['carcassonne-rules'], by_name['yamlls']
  check('both attached', ours and yamlls and vim.tbl_count(by_name) == 2, vim.inspect(vim.tbl_keys(by_name)))
  if not (ours and yamlls) then return end

  local function line_of(text)
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      if line == text then return i - 1 end
    end
  end
  local function labels(client, l, character)
    local answer = client.request_sync('textDocument/completion',
      { textDocument = { uri = uri }, position = { line = l, character = character } }, 10000, buf)
    local found = {}
    local result = answer and answer.result or {}
    for _, item in ipairs(result.items or result) do table.insert(found, item.label) end
    return found
  end
  -- Whether a completion request of any client is still unanswered (a
  -- request is listed until after its handler ran).
  local function pending()
    for _, client in pairs(by_name) do
      for _, request in pairs(client.requests) do
        if request.type == 'pending' and request.method == 'textDocument/completion' then return true end
      end
    end
    return false
  end

  -- On line `l`, asks for completion at its end with <C-x><C-o> and, once
  -- both servers answered, accepts the first item with <C-y>. Returns the
  -- menu's words and the line after.
  local function complete(l)
    vim.api.nvim_win_set_cursor(0, { l + 1, 0 })
    local menu, timer, started = nil, vim.loop.new_timer(), vim.loop.now()
    -- Insert mode waits for keys; this timer reads the menu and types the next ones.
    timer:start(100, 100, vim.schedule_wrap(function()
      if menu then return end
      -- (A lone match is inserted with no menu shown: the items tell.)
      local items = vim.fn.complete_info({ 'items' }).items
      local done = #items > 0 and not pending()
      if not done and vim.loop.now() - started < 20000 then return end
      timer:stop()
      menu = items
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(done and '<C-y><Esc>' or '<Esc>', true, false, true), 'n', false)
    end))
    -- 'x!' runs the keys and stays in Insert mode until the timer's <Esc>.
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('A<C-x><C-o>', true, false, true), 'nx!', false)
    vim.wait(20000, function() return menu ~= nil end)
    timer:close()
    local words = {}
    for _, item in ipairs(menu or {}) do table.insert(words, item.word) end
    return words, vim.api.nvim_buf_get_lines(buf, l, l + 1, false)[1]
  end

  -- Accepting the first item of the merged menu at `text`, typed as line `l`:
  -- `first` comes first, the menu is the project's server's items that start
  -- with the word typed, each once, and the line reads `want`.
  local function accepted(name, l, text, first, want)
    vim.api.nvim_buf_set_lines(buf, l, l + 1, false, { text })
    local typed = text:match('[%w_-]*$')
    local expected = vim.tbl_filter(function(label) return label:sub(1, #typed) == typed end, labels(ours, l, #text))
    local theirs = labels(yamlls, l, #text)
    local words, line = complete(l)
    local foreign = vim.tbl_filter(function(w) return not vim.tbl_contains(expected, w) end, words)
    check(name, words[1] == first and #foreign == 0 and #words == #expected and line == want,
      vim.inspect({ line = line, menu = words, not_ours = foreign, ours = expected, yamlls = theirs }))
  end

  local wl = line_of('      when: mayor')
  accepted('condition', wl, '      when: abbey or ma', 'mayor', '      when: abbey or mayor')
  vim.api.nvim_buf_set_lines(buf, wl, wl + 1, false, { '      when: mayor' })

  local ml = line_of('      markers: ["TREE_TRAP when russian_promos", "LAKE_TRAP when russian_promos"]')
  accepted('marker', ml, '      markers: [ROBBERS when robbers, TR', 'TREE_TRAP',
    '      markers: [ROBBERS when robbers, TREE_TRAP')
  vim.api.nvim_buf_set_lines(buf, ml, ml + 1, false,
    { '      markers: ["TREE_TRAP when russian_promos", "LAKE_TRAP when russian_promos"]' })

  local al = line_of('      after: deploy-normal-meeple')
  accepted('after', al, '      after: deploy-n', 'deploy-normal-meeple', '      after: deploy-normal-meeple')

  -- yaml-language-server at work: an unknown key flagged by the schema …
  local yl = line_of('      text: Mayor into a city')
  vim.api.nvim_buf_set_lines(buf, yl, yl, false, { '      colour: red' })
  local schema
  vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == yl and d.message:find('colour', 1, true) and (d.source or ''):find('yaml-schema', 1, true) then
        schema = d
      end
    end
    return schema ~= nil
  end)
  check('schema diagnostic', schema and schema.col == 6, vim.inspect(vim.diagnostic.get(buf)))
  -- … and the keys an item may have, at a key's place.
  vim.api.nvim_buf_set_lines(buf, yl, yl + 1, false, { '      o' })
  local keys = labels(yamlls, yl, 7)
  check('key completion', vim.tbl_contains(keys, 'once') and vim.tbl_contains(keys, 'optional')
    and not vim.tbl_contains(keys, 'when'), vim.inspect(keys))

  -- yaml-language-server's fix of a tab writes the set-up's editor.tabSize
  -- spaces (without it, `undefined`).
  vim.api.nvim_buf_set_lines(buf, yl, yl + 1, false, { '\ttext: Mayor into a city' })
  local tab
  vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == yl and d.message:find('Tabs', 1, true) then tab = d end
    end
    return tab ~= nil
  end)
  local range = tab and { start = { line = tab.lnum, character = tab.col }, ['end'] = { line = tab.end_lnum, character = tab.end_col } }
  local answer = tab and yamlls.request_sync('textDocument/codeAction', { textDocument = { uri = uri }, range = range,
    context = { diagnostics = { { range = range, message = tab.message, severity = tab.severity, source = tab.source } } } }, 10000, buf)
  local spaces
  for _, action in ipairs((answer and answer.result) or {}) do
    for _, edits in pairs((action.edit and action.edit.changes) or {}) do
      for _, e in ipairs(edits) do spaces = e.newText end
    end
  end
  check('tab fix', spaces == '  ', vim.inspect({ tab, answer }))
end

suite.run(run)
