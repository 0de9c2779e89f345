-- The carcassonne-rules language server for the rules' YAML files, on Neovim
-- 0.7 and later, with nothing else installed. Copy this file into
-- ~/.config/nvim/plugin/ (or `dofile` it from init.lua). The binary is
-- `carcassonne-rules` on PATH unless vim.g.carcassonne_rules_server names it.
-- tests/editor_nvim.rs runs the suite through this file, on Debian's Neovim
-- (0.7.2) and on the current stable one.

-- The rules folder `path` is in: the nearest folder at or above it holding
-- modules.yaml that is not a language's folder of translations (those mirror
-- the rules files: rules/translations/nl/modules.yaml), so that a rules file
-- and a translation file share one server. Other YAML files (a CI workflow,
-- say) get no server.
local function is_rules(dir)
  if vim.fn.filereadable(dir .. '/modules.yaml') ~= 1 then return false end
  local parent = vim.fn.fnamemodify(dir, ':h')
  return not (vim.fn.fnamemodify(parent, ':t') == 'translations'
    and vim.fn.filereadable(vim.fn.fnamemodify(parent, ':h') .. '/modules.yaml') == 1)
end

local function rules_root(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while true do
    if is_rules(dir) then return dir end
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
      -- Files changed on disk (a rename saved with :wall, a backup written)
      -- reach the server where Neovim can watch them (0.9 and later; it
      -- does not offer it on Linux by itself). On 0.7 the server reads the
      -- folder again at each save instead.
      if vim.fn.has('nvim-0.9') == 1 then
        capabilities.workspace.didChangeWatchedFiles = { dynamicRegistration = true, relativePatternSupport = true }
      end
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
    -- The server's completions replace the whole word typed (`deploy-n`),
    -- which is all Neovim needs while it is the only server. With another
    -- beside it (yaml-language-server, yamlls.lua), the omnifunc takes the
    -- word's start from the answer it handles last, and an empty answer
    -- puts it back at Vim's own word start: a word must include `-` then.
    vim.api.nvim_buf_call(args.buf, function() vim.cmd('setlocal iskeyword+=-') end)
  end,
})
