-- What the Neovim suites (nvim.lua, nvim_yamlls.lua) share: one line per
-- check written to $RESULTS as it goes ("ok NAME" or "fail NAME: why"), so
-- that a check that hangs leaves the ones before it, and running a suite so
-- that a Lua error is written as "error: …" and Neovim still quits
-- (headless, an error would otherwise leave it waiting).
local M = { results = {} }

function M.check(name, ok, why)
  table.insert(M.results, (ok and 'ok ' or 'fail ') .. name .. (ok and '' or (': ' .. tostring(why))))
  vim.fn.writefile(M.results, os.getenv('RESULTS'))
end

-- The clients attached to buffer `buf` (0.7 has no filter of its own).
function M.attached(buf)
  local found = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.attached_buffers[buf] then table.insert(found, client) end
  end
  return found
end

-- Runs `suite`, then stops every server and quits.
function M.run(suite)
  local ok, err = pcall(suite)
  if not ok then
    table.insert(M.results, 'error: ' .. tostring(err))
    vim.fn.writefile(M.results, os.getenv('RESULTS'))
  end
  for _, client in pairs(vim.lsp.get_active_clients()) do vim.lsp.stop_client(client.id, true) end
  vim.cmd('qa!')
end

return M
