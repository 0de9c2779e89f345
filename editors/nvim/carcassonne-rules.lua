-- The carcassonne-rules language server for the rules' YAML files, on Neovim
-- 0.7 and later, with nothing else installed. Copy this file into
-- ~/.config/nvim/plugin/ (or `dofile` it from init.lua). The binary is
-- `carcassonne-rules` on PATH unless vim.g.carcassonne_rules_server names it.
-- tests/editor_nvim.rs runs the suite through this file, on Debian's Neovim
-- (0.7.2) and on the current stable one.

-- The rules folder `path` is in: the nearest folder at or above it holding
-- base.yaml. Other YAML files (a CI workflow, say) get no server.
local function rules_root(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while true do
    if vim.fn.filereadable(dir .. '/base.yaml') == 1 then return dir end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then return nil end
    dir = parent
  end
end

-- One server per rules folder, shared by its files.
local clients = {}

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'yaml',
  callback = function(args)
    local root = rules_root(vim.api.nvim_buf_get_name(args.buf))
    if not root then return end
    if not clients[root] or vim.lsp.get_client_by_id(clients[root]) == nil then
      local capabilities = vim.lsp.protocol.make_client_capabilities()
      -- The server's text variants are snippets; Neovim 0.7 does not say it takes them.
      capabilities.textDocument.completion.completionItem.snippetSupport = true
      clients[root] = vim.lsp.start_client({
        name = 'carcassonne-rules',
        cmd = { vim.g.carcassonne_rules_server or 'carcassonne-rules', 'lsp' },
        root_dir = root,
        capabilities = capabilities,
      })
    end
    vim.lsp.buf_attach_client(args.buf, clients[root])
    -- Completion with <C-x><C-o> (0.11 sets it by itself; 0.7 does not).
    vim.bo[args.buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
    -- Ids are kebab-case: a word includes its hyphens, so that completion
    -- after `after: deploy-n` matches the whole id typed.
    vim.api.nvim_buf_call(args.buf, function() vim.cmd('setlocal iskeyword+=-') end)
  end,
})
