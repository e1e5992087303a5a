-- Headless Neovim (0.7+) as an LSP client of dist/server.js, driven the way a user's config would:
-- vim.lsp.start_client + buf_attach_client, vim.diagnostic, vim.lsp.buf_request_sync,
-- vim.lsp.util.apply_workspace_edit. It only gathers what the editor saw and prints one line
-- `LWIR_REPORT <json>` on stdout; run.mjs decides what passes. Every phase runs under xpcall, so
-- one failure is reported with its phase and the later phases still run.
--
-- Input: the JSON plan in $LWIR_E2E_PLAN (written by run.mjs): node, server, root,
-- budgetMs, shutdownMs, docs = [{ name, path, filetype }], and per-feature positions (LSP line + UTF-16
-- character). Waits share one budget, so a silent server still leaves time to report before run.mjs's
-- hard timeout; the shutdown has its own.
local util = vim.lsp.util
local hr0 = vim.loop.hrtime()
local function now_ms() return (vim.loop.hrtime() - hr0) / 1e6 end

local v = vim.version()
local report = { nvim = string.format('%d.%d.%d', v.major, v.minor, v.patch), errors = {}, publishes = {}, docs = {} }
local plan, deadline
-- How long the next wait may take: what is left of the budget.
local function wait_ms() return math.max(0, deadline - now_ms()) end

local function phase(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if not ok then table.insert(report.errors, { phase = name, error = tostring(err) }) end
  return ok
end

local function finish()
  report.total_ms = now_ms()
  local ok, json = pcall(vim.fn.json_encode, report)
  if not ok then json = vim.fn.json_encode({ errors = { { phase = 'report', error = tostring(json) } } }) end
  io.stdout:write('LWIR_REPORT ' .. json .. '\n')
  io.stdout:flush()
  vim.cmd('qall!')
end

-- Raw textDocument/publishDiagnostics params, in arrival order, before Neovim converts them.
local publishes = {}
local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  table.insert(publishes, { uri = result.uri, version = result.version, diagnostics = result.diagnostics, at_ms = now_ms() })
  table.insert(report.publishes, { uri = result.uri, version = result.version or vim.NIL, count = #result.diagnostics, at_ms = now_ms() })
  return default_publish(err, result, ctx, config)
end
report.server_log = {}
local function log_message(_, result) table.insert(report.server_log, { type = result.type, message = result.message }) end
vim.lsp.handlers['window/logMessage'] = log_message
vim.lsp.handlers['window/showMessage'] = log_message

-- The newest publish for `uri` that satisfies `pred`, waiting for it.
local function wait_publish(uri, pred)
  local found
  vim.wait(wait_ms(), function()
    for i = #publishes, 1, -1 do
      local p = publishes[i]
      if p.uri == uri and (pred == nil or pred(p)) then found = p return true end
    end
    return false
  end, 10)
  return found
end

-- What vim.diagnostic holds for a buffer, with byte columns turned back into UTF-16 characters
-- (Neovim stores byte columns; the CLI reports UTF-16 ones).
local function shown(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local function utf16(lnum, col)
    local line = lines[lnum + 1] or ''
    local _, u16 = vim.str_utfindex(line, math.min(col, #line))
    return u16
  end
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out, {
      range = { start = { line = d.lnum, character = utf16(d.lnum, d.col) },
                ['end'] = { line = d.end_lnum, character = utf16(d.end_lnum, d.end_col) } },
      severity = d.severity, message = d.message, source = d.source or vim.NIL,
      code = d.code or vim.NIL, lsp_code = lsp.code or vim.NIL, has_data = lsp.data ~= nil,
    })
  end
  return out
end

-- Byte column of an LSP (UTF-16) position in the buffer.
local function byte_col(bufnr, pos)
  local line = vim.api.nvim_buf_get_lines(bufnr, pos.line, pos.line + 1, true)[1]
  return vim.str_byteindex(line, pos.character, true)
end

local function request(bufnr, method, params)
  local responses, why = vim.lsp.buf_request_sync(bufnr, method, params, wait_ms())
  if not responses then error(method .. ' got no answer: ' .. tostring(why)) end
  for _, r in pairs(responses) do
    if r.err or r.error then error(method .. ' failed: ' .. vim.inspect(r.err or r.error)) end
    return r.result
  end
  error(method .. ': no client answered')
end

local client_id, exit_info
local bufs = {}

-- An error outside the phases must still end Neovim with a report, never leave it waiting.
local function main()
  plan = vim.fn.json_decode(os.getenv('LWIR_E2E_PLAN') or error('LWIR_E2E_PLAN is not set'))
  deadline = now_ms() + plan.budgetMs

  local started = phase('start', function()
    vim.o.hidden = true -- switch between the open documents without writing them
    -- What Neovim advertises (start_client sends exactly this when the config has no `capabilities`).
    local caps = vim.lsp.protocol.make_client_capabilities()
    report.client_push_diagnostics = caps.textDocument.publishDiagnostics ~= nil
    report.client_pull_diagnostics = caps.textDocument.diagnostic ~= nil
    report.client_related_information = caps.textDocument.publishDiagnostics.relatedInformation == true

    client_id = vim.lsp.start_client({
      name = 'lwir',
      cmd = { plan.node, plan.server, '--stdio' },
      root_dir = plan.root,
      on_exit = function(code, signal) exit_info = { code = code, signal = signal, at_ms = now_ms() } end,
    })
    assert(client_id, 'vim.lsp.start_client returned nil')
    -- Open every document as a user would (-u NONE: no filetype detection, so set it; it is the languageId).
    for _, doc in ipairs(plan.docs) do
      local bufnr = vim.fn.bufadd(doc.path)
      vim.fn.bufload(bufnr)
      vim.bo[bufnr].filetype = doc.filetype
      assert(vim.lsp.buf_attach_client(bufnr, client_id), 'buf_attach_client failed for ' .. doc.name)
      bufs[doc.name] = bufnr
      report.docs[doc.name] = { uri = vim.uri_from_bufnr(bufnr) }
    end
    local inited = vim.wait(wait_ms(), function()
      local c = vim.lsp.get_client_by_id(client_id)
      return exit_info ~= nil or (c ~= nil and c.initialized == true)
    end, 10)
    assert(not exit_info, 'the server exited during initialize: ' .. vim.inspect(exit_info))
    assert(inited, 'the server did not answer initialize')
    report.init_ms = now_ms()
    local client = vim.lsp.get_client_by_id(client_id)
    local scaps = client.server_capabilities or {}
    report.server_pid = client.rpc.pid
    report.server_capabilities = {
      diagnosticProvider = scaps.diagnosticProvider ~= nil,
      completionProvider = scaps.completionProvider ~= nil,
      codeActionProvider = scaps.codeActionProvider ~= nil,
      textDocumentSync = scaps.textDocumentSync or vim.NIL,
    }
    report.offset_encoding = client.offset_encoding
  end)
  if not started then
    if client_id then vim.lsp.stop_client(client_id, true) end
    return
  end

  -- First diagnostics of every document: the raw publish and what vim.diagnostic then holds.
  phase('diagnostics', function()
    for _, doc in ipairs(plan.docs) do
      local entry = report.docs[doc.name]
      local p = wait_publish(entry.uri)
      if p then
        entry.raw = p.diagnostics
        entry.version = p.version or vim.NIL
        entry.shown = shown(bufs[doc.name])
      else
        entry.raw = vim.NIL
      end
    end
  end)

  -- Type text into a prompt (nvim_buf_set_text, so Neovim sends an incremental didChange), ask for
  -- completion with the cursor right after it, then delete the text again and wait for the document's
  -- diagnostics to catch up with that version.
  local function completion_at(key, spec)
    phase('completion ' .. key, function()
      local bufnr = bufs[spec.doc]
      vim.api.nvim_set_current_buf(bufnr)
      local col = byte_col(bufnr, spec)
      vim.api.nvim_buf_set_text(bufnr, spec.line, col, spec.line, col, { spec.insert })
      vim.api.nvim_win_set_cursor(0, { spec.line + 1, col + #spec.insert })
      local params = util.make_position_params()
      local result = request(bufnr, 'textDocument/completion', params)
      local items = result and (result.items or result) or {}
      local out = { position = params.position, line_text = vim.api.nvim_buf_get_lines(bufnr, spec.line, spec.line + 1, true)[1], items = {} }
      for _, it in ipairs(items) do
        table.insert(out.items, { label = it.label, kind = it.kind or vim.NIL, adds_needs = it.additionalTextEdits ~= nil and #it.additionalTextEdits > 0 })
      end
      report['completion_' .. key] = out
      vim.api.nvim_buf_set_text(bufnr, spec.line, col, spec.line, col + #spec.insert, { '' })
      local uri = vim.uri_from_bufnr(bufnr)
      assert(wait_publish(uri, function(p) return p.version == util.buf_versions[bufnr] end),
        'no diagnostics for the version after the completion test')
    end)
  end
  completion_at('yaml', plan.completion.yaml)
  completion_at('json', plan.completion.json)

  -- The quick fix, as `:lua vim.lsp.buf.code_action()` asks for it: cursor on the diagnostic, range
  -- params, and the line's diagnostics (vim.lsp.diagnostic.get_line_diagnostics keeps `data`).
  phase('code action', function()
    local name = plan.codeAction.doc
    local bufnr = bufs[name]
    local uri = vim.uri_from_bufnr(bufnr)
    vim.api.nvim_set_current_buf(bufnr)
    local target
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == plan.codeAction.code then target = d end
    end
    assert(target, 'no ' .. plan.codeAction.code .. ' diagnostic in the buffer')
    vim.api.nvim_win_set_cursor(0, { target.lnum + 1, target.col })
    local params = util.make_range_params()
    params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr) }
    local out = { sent = {} }
    for _, d in ipairs(params.context.diagnostics) do
      table.insert(out.sent, { code = d.code or vim.NIL, has_data = d.data ~= nil })
    end
    local actions = request(bufnr, 'textDocument/codeAction', params) or {}
    out.actions = {}
    for _, a in ipairs(actions) do
      table.insert(out.actions, { title = a.title, kind = a.kind or vim.NIL, isPreferred = a.isPreferred or false, has_edit = a.edit ~= nil })
    end
    report.code_action = out
    local chosen = actions[1] -- the only one expected here (run.mjs checks the list)
    assert(chosen and chosen.edit, 'no code action with an edit')
    local before = util.buf_versions[bufnr]
    -- 0.7's signature: apply_workspace_edit(workspace_edit, offset_encoding)
    util.apply_workspace_edit(chosen.edit, vim.lsp.get_client_by_id(client_id).offset_encoding)
    out.applied = chosen.title
    out.line_after = vim.api.nvim_buf_get_lines(bufnr, plan.codeAction.needsLine, plan.codeAction.needsLine + 1, true)[1]
    out.version_before = before
    out.version_after = util.buf_versions[bufnr]
    local p = wait_publish(uri, function(q) return q.version == util.buf_versions[bufnr] and q.version ~= before end)
    assert(p, 'no diagnostics for the edited version')
    out.raw_after = p.diagnostics
    out.shown_after = shown(bufnr)
    vim.cmd('silent write') -- run.mjs runs the CLI on the fixed file
  end)

  phase('hover', function()
    local spec = plan.hover
    local bufnr = bufs[spec.doc]
    local result = request(bufnr, 'textDocument/hover', { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = spec.line, character = spec.character } })
    report.hover = result or vim.NIL
  end)

  phase('definition', function()
    local spec = plan.definition
    local bufnr = bufs[spec.doc]
    local result = request(bufnr, 'textDocument/definition', { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = spec.line, character = spec.character } })
    report.definition = result or vim.NIL
  end)

  -- Neovim's own stop: `shutdown` request, then `exit`; the server must leave by itself (exit code 0,
  -- no signal) before the timeout.
  phase('shutdown', function()
    local t0 = now_ms()
    vim.lsp.stop_client(client_id)
    local exited = vim.wait(plan.shutdownMs, function() return exit_info ~= nil end, 10)
    report.shutdown = { exited = exited, ms = now_ms() - t0, code = exit_info and exit_info.code or vim.NIL,
      signal = exit_info and exit_info.signal or vim.NIL, client_gone = vim.lsp.get_client_by_id(client_id) == nil }
    if not exited then vim.lsp.stop_client(client_id, true) end
  end)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then table.insert(report.errors, { phase = 'main', error = tostring(err) }) end
finish()
