-- yaml-language-server for YAML files, on Neovim 0.7 and later, with nothing
-- else installed (no nvim-lspconfig). Copy this file into
-- ~/.config/nvim/plugin/ beside carcassonne-rules.lua (or `dofile` it). The
-- binary is `yaml-language-server` on PATH (`npm i -g yaml-language-server`)
-- unless vim.g.yaml_language_server names it. It checks and completes each
-- rules file against the schema its first line names
-- (`# yaml-language-server: $schema=...`); tests/editor_nvim.rs runs it beside
-- the project's server on Neovim 0.7.2 and 0.11.

-- One server for every YAML file.
local client_id

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'yaml',
  callback = function(args)
    if not client_id or vim.lsp.get_client_by_id(client_id) == nil then
      client_id = vim.lsp.start_client({
        name = 'yamlls',
        cmd = { vim.g.yaml_language_server or 'yaml-language-server', '--stdio' },
        root_dir = vim.fn.getcwd(),
        -- The schemas come from the files' `$schema` lines: no catalogue
        -- fetched from schemastore.org.
        -- `editor.tabSize` of `[yaml]`: yaml-language-server's fix of a tab
        -- writes that many spaces (without it, `undefined`: `undefinedtext:`);
        -- rules files indent by 2.
        settings = {
          yaml = { schemaStore = { enable = false } },
          ['[yaml]'] = { ['editor.tabSize'] = 2 },
          editor = { detectIndentation = false },
        },
        on_init = function(client)
          -- The server reads its settings when told they changed; Neovim
          -- tells it by itself from 0.11 on.
          if vim.fn.has('nvim-0.11') == 0 then
            client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
          end
        end,
      })
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
    -- Completion with <C-x><C-o> (0.11 sets it by itself; 0.7 does not).
    vim.bo[args.buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
  end,
})
