//! `rpy-lsp serve` driven by a third-party client: headless Neovim's built-in LSP client.
//! A Lua script opens a file of a program with a syntax error, waits for the diagnostics,
//! fixes the error in the buffer (Neovim sends an incremental change), waits for the
//! diagnostics to clear and hovers a function's name and a local variable.
//!
//! Where `nvim` is missing or too old the test says so on the terminal (not through the
//! captured output of a passing test) and passes: `SKIPPED lsp_neovim: <why>`.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Neovim API used (`vim.lsp.start_client`, `vim.lsp.buf_attach_client`,
/// `vim.diagnostic`, `vim.wait`) is there from 0.7 on (Debian 12 ships 0.7.2).
const MIN_VERSION: (u32, u32) = (0, 7);

const SCRIPT: &str = r#"
local function say(s) io.stdout:write(s .. "\n"); io.stdout:flush() end
local function fail(s) say("FAIL " .. s); vim.cmd("cquit 1") end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(vim.env.RPY_FILE))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = "rpy-lsp",
    cmd = { vim.env.RPY_BIN, "serve" },
    root_dir = vim.env.RPY_ROOT,
    cmd_env = { RPY_LSP_CACHE_DIR = vim.env.RPY_ROOT .. "/.cache" },
  })
  if not id then return fail("the client did not start") end
  vim.lsp.buf_attach_client(buf, id)

  local function codes()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      out[#out + 1] = { code = tostring(code), lnum = d.lnum, col = d.col, message = d.message }
    end
    return out
  end
  local function has(code)
    for _, d in ipairs(codes()) do if d.code == code then return true end end
    return false
  end

  if not vim.wait(60000, function() return has("RPY001") end, 20) then
    return fail("no RPY001 diagnostic arrived")
  end
  for _, d in ipairs(codes()) do
    say(string.format("DIAG %d:%d %s %s", d.lnum, d.col, d.code, d.message))
  end

  -- Fix the broken line in the buffer (unsaved): Neovim sends an incremental didChange.
  local line = tonumber(vim.env.RPY_BROKEN_LINE)
  vim.api.nvim_buf_set_lines(buf, line, line + 1, false, { "def f():" })
  if not vim.wait(60000, function() return not has("RPY001") end, 20) then
    return fail("the RPY001 diagnostic did not clear")
  end
  say("CLEARED")
  -- Hover each "line:col" of RPY_HOVERS (a function's name, a local variable).
  for pos in string.gmatch(vim.env.RPY_HOVERS, "[^,]+") do
    local l, c = string.match(pos, "(%d+):(%d+)")
    local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = tonumber(l), character = tonumber(c) },
    }, 30000)
    local text = ""
    for _, r in pairs(hover or {}) do
      if r.result and r.result.contents then
        text = r.result.contents.value or vim.inspect(r.result.contents)
      end
    end
    say("HOVER " .. pos .. " " .. text:gsub("\n", " "))
  end

  vim.lsp.stop_client(id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
  vim.cmd("qall!")
end)
if not ok then fail(tostring(err)) end
"#;

fn skip(why: &str) {
    // Written to the terminal directly: a passing test's println! output is captured.
    let _ = writeln!(std::io::stderr(), "SKIPPED lsp_neovim: {why}");
}

/// `(major, minor)` of `nvim --version`, or why there is none.
fn nvim_version() -> Result<(u32, u32), String> {
    let out = Command::new("nvim")
        .arg("--version")
        .output()
        .map_err(|e| {
            format!("`nvim` is not runnable ({e}); install it with `apt-get install -y neovim`")
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    let v = first
        .trim()
        .strip_prefix("NVIM v")
        .ok_or_else(|| format!("unrecognised `nvim --version` output: {first:?}"))?;
    let mut parts = v.split(['.', '-']).map(|p| p.parse::<u32>().unwrap_or(0));
    Ok((parts.next().unwrap_or(0), parts.next().unwrap_or(0)))
}

#[test]
fn neovim_builtin_client_shows_hovers_and_clears_diagnostics() {
    let version = match nvim_version() {
        Ok(v) => v,
        Err(why) => return skip(&why),
    };
    if version < MIN_VERSION {
        return skip(&format!(
            "nvim {}.{} is older than {}.{}",
            version.0, version.1, MIN_VERSION.0, MIN_VERSION.1
        ));
    }

    let root = std::env::temp_dir().join(format!("rpy-lsp-nvim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let main = "import helper\n\n\ndef entry_point(argv):\n    n = len(argv)\n    return helper.double(n)\n\n\ndef f(:\n    return 1\n\n\ndef target(*args):\n    return entry_point, None\n";
    std::fs::write(root.join("main.py"), main).unwrap();
    std::fs::write(root.join("helper.py"), "def double(n):\n    return n * 2\n").unwrap();
    let script: PathBuf = root.join("client.lua");
    std::fs::write(&script, SCRIPT).unwrap();
    let double_col = main.lines().nth(5).unwrap().find("double").unwrap() + 1;
    let hovers = format!("5:{double_col},5:{}", double_col + 6);

    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("RPY_BIN", env!("CARGO_BIN_EXE_rpy-lsp"))
        .env("RPY_ROOT", &root)
        .env("RPY_FILE", root.join("main.py"))
        .env("RPY_BROKEN_LINE", "8")
        .env("RPY_HOVERS", &hovers)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start nvim");
    let until = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let _ = std::fs::remove_dir_all(&root);
    println!("nvim {}.{} said:\n{out}{err}", version.0, version.1);

    assert!(status.success(), "nvim failed ({status}):\n{out}\n{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("DIAG 8:") && l.contains("RPY001")),
        "RPY001 on line 9 expected:\n{out}"
    );
    let hover = |pos: String| {
        out.lines()
            .find_map(|l| l.strip_prefix(&format!("HOVER {pos} ")))
            .unwrap_or_default()
            .to_string()
    };
    // The function's signature with its annotations; the local's type.
    let double = hover(format!("5:{double_col}"));
    assert!(
        double.starts_with("def double(n)") && double.contains("returns: int"),
        "hover: {double:?}"
    );
    assert_eq!(
        hover(format!("5:{}", double_col + 6)),
        "(variable) n: int, non-negative  --- annotator: `SomeInteger(nonneg=True)`"
    );
    assert!(out.lines().any(|l| l == "CLEARED"), "{out}");
}
