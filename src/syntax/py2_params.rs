//! Python 2 tuple parameters (`def f(a, (b, c)):`, `lambda (k, v): ...`), a part of
//! the py2 pre-pass: each tuple becomes one fresh parameter, unpacked by a statement
//! inserted before the body (for a lambda, by a nested lambda called with it). Takes the
//! tokens of the `def` or `lambda`; gives the edits.

use super::py2::Rewriter;
use super::tokenize::TokKind;

impl Rewriter<'_> {
    /// Tuple parameters among the parameters in tokens `from..to` (depth 0 there): each
    /// `(a, (b, c))` is replaced by a fresh name; returns (name, tuple text) pairs.
    fn rename_tuple_params(&mut self, from: usize, to: usize) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut j = from;
        let mut at_param_start = true;
        while j < to {
            if at_param_start && self.is_op(j, "(") {
                let Some(close) = self.matching_close(j, to) else {
                    return out;
                };
                let (s, e) = (self.toks[j].start, self.toks[close].end);
                let name = format!("__rpy_targ{}", self.tuple_params);
                self.tuple_params += 1;
                out.push((name.clone(), self.src[s as usize..e as usize].to_string()));
                self.replace_span(s, e, name);
                j = close + 1;
                at_param_start = false;
                continue;
            }
            at_param_start = false;
            if self.is_op(j, "(") || self.is_op(j, "[") || self.is_op(j, "{") {
                match self.matching_close(j, to) {
                    Some(c) => j = c,
                    None => return out,
                }
            } else if self.is_op(j, ",") {
                at_param_start = true;
            }
            j += 1;
        }
        out
    }

    /// `def f(a, (b, c)):` (Python 2 tuple parameters): the tuple becomes one parameter,
    /// unpacked by a statement inserted before the body.
    pub(super) fn def_tuple_params(&mut self, def: usize) {
        let open = def + 2;
        if !self.is_op(open, "(") {
            return;
        }
        let Some(close) = self.matching_close(open, self.toks.len()) else {
            return;
        };
        if !(open + 1..close).any(|j| self.is_op(j, "(")) {
            return;
        }
        // The `:` ending the header, and where the unpacking goes.
        let mut j = close + 1;
        while j < self.toks.len() && !self.is_op(j, ":") {
            j += 1;
        }
        let first = j + 1;
        if first >= self.toks.len() {
            return;
        }
        // (offset, unpacking after it instead of before)
        let at = if self.toks[first].kind != TokKind::Newline {
            // One-line body: `def f((a, b)): return a`.
            (self.toks[first].start, false)
        } else {
            let mut k = first;
            while k < self.toks.len() && self.toks[k].kind == TokKind::Newline {
                k += 1;
            }
            if k >= self.toks.len() {
                return;
            }
            if self.toks[k].kind == TokKind::String
                && self
                    .toks
                    .get(k + 1)
                    .is_some_and(|t| t.kind == TokKind::Newline)
            {
                // Keep a docstring first.
                (self.toks[k].end, true)
            } else {
                // Before the first statement, on its line. A compound statement cannot
                // follow `x = t;` on one line, so there the unpacking gets a line of its
                // own, indented like that statement (pydrofoil's bodies start with `if`).
                // The inserted text maps back to the statement's start, so the original
                // lines keep their numbers.
                let compound = self.toks[k].kind == TokKind::Name
                    && matches!(
                        self.text(k),
                        "if" | "for" | "while" | "try" | "with" | "def" | "class"
                    )
                    || self.is_op(k, "@");
                if compound {
                    let start = self.toks[k].start as usize;
                    let line_start = self.src[..start].rfind('\n').map_or(0, |p| p + 1);
                    let indent = &self.src[line_start..start];
                    // Tab indentation is rewritten separately; leave such a body alone.
                    if indent.is_empty() || indent.bytes().any(|b| b != b' ') {
                        return;
                    }
                    let indent = indent.to_string();
                    let renamed = self.rename_tuple_params(open + 1, close);
                    if renamed.is_empty() {
                        return;
                    }
                    let unpack: Vec<String> =
                        renamed.iter().map(|(n, t)| format!("{t} = {n}")).collect();
                    self.insert(
                        self.toks[k].start,
                        format!("{}\n{indent}", unpack.join("; ")),
                    );
                    return;
                }
                (self.toks[k].start, false)
            }
        };
        let renamed = self.rename_tuple_params(open + 1, close);
        if renamed.is_empty() {
            return;
        }
        let unpack: Vec<String> = renamed.iter().map(|(n, t)| format!("{t} = {n}")).collect();
        let unpack = unpack.join("; ");
        match at {
            (off, true) => self.insert(off, format!("; {unpack}")),
            (off, false) => self.insert(off, format!("{unpack}; ")),
        }
    }

    /// `lambda (x, y): body` → `lambda t: (lambda x, y: body)(*t)`.
    pub(super) fn lambda_tuple_params(&mut self, lam: usize) {
        let mut depth = 0i32;
        let mut colon = None;
        for j in lam + 1..self.toks.len() {
            if self.toks[j].kind == TokKind::Newline {
                return;
            }
            match self.text(j) {
                "(" | "[" | "{" if self.toks[j].kind == TokKind::Op => depth += 1,
                ")" | "]" | "}" if self.toks[j].kind == TokKind::Op => depth -= 1,
                ":" if depth == 0 && self.toks[j].kind == TokKind::Op => {
                    colon = Some(j);
                    break;
                }
                _ => {}
            }
        }
        let Some(colon) = colon else { return };
        let renamed = self.rename_tuple_params(lam + 1, colon);
        if renamed.is_empty() {
            return;
        }
        // The end of the body: a closing bracket, a comma or `for` at depth 0, or the end
        // of the line.
        let mut depth = 0i32;
        let mut end = self.toks.len();
        for j in colon + 1..self.toks.len() {
            let t = self.toks[j];
            if t.kind == TokKind::Newline {
                end = j;
                break;
            }
            if t.kind == TokKind::Op {
                match self.text(j) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => {
                        if depth == 0 {
                            end = j;
                            break;
                        }
                        depth -= 1;
                    }
                    "," | ";" if depth == 0 => {
                        end = j;
                        break;
                    }
                    _ => {}
                }
            } else if t.kind == TokKind::Name && depth == 0 && self.text(j) == "for" {
                end = j;
                break;
            }
        }
        let body_end = if end > colon + 1 {
            self.toks[end - 1].end
        } else {
            return;
        };
        let mut inner_params = Vec::new();
        for (_, t) in &renamed {
            let t = t.strip_prefix('(').unwrap_or(t);
            inner_params.push(t.strip_suffix(')').unwrap_or(t).to_string());
        }
        let names: Vec<&str> = renamed.iter().map(|(n, _)| n.as_str()).collect();
        let colon_end = self.toks[colon].end;
        self.insert(colon_end, format!(" (lambda {}:", inner_params.join(", ")));
        self.insert(body_end, format!(")(*({}))", names.join(" + ")));
    }
}
