//! Signature help: inside the parentheses of a call, the callee's parameters with their
//! inferred types and which one the cursor is on.
//!
//! Takes the buffer's current text and an offset (like completion, it reads the text before
//! the cursor and does not need it to parse); gives the label `name(a: int, b: str) -> int`,
//! each parameter's range in the label and the active parameter.

use super::completion::{char_floor, Thing};
use super::Analysis;
use crate::annotator::SomeValue;
use crate::objspace::object::{Object, Value};
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    /// `name(a: int, b) -> int`.
    pub label: String,
    /// Byte ranges of the parameters in `label`.
    pub params: Vec<(u32, u32)>,
    /// The parameter the cursor is on (0-based; may be past the last one).
    pub active: u32,
}

/// The call the cursor is in: the offset of its `(` and the index of the argument at the
/// cursor (commas at depth 1 before it). Strings and comments on the way are skipped.
fn open_call(text: &str, offset: usize) -> Option<(usize, u32)> {
    // Scan forward from the start of the logical neighbourhood (at most 4 KiB back) so that
    // strings are recognised, keeping a stack of open brackets.
    let mut from = offset.saturating_sub(4096);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    // Start at a line start so that a string is not entered in its middle.
    if from > 0 {
        from = text[from..offset]
            .find('\n')
            .map_or(offset, |i| from + i + 1);
    }
    let b = text.as_bytes();
    let mut stack: Vec<(u8, usize, u32)> = Vec::new();
    let mut i = from;
    while i < offset {
        let c = b[i];
        match c {
            b'#' => {
                while i < offset && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let triple = i + 2 < b.len() && b[i + 1] == c && b[i + 2] == c;
                let q = if triple { 3 } else { 1 };
                i += q;
                while i < offset {
                    if b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if b[i] == c && (!triple || (i + 2 < b.len() && b[i + 1] == c && b[i + 2] == c))
                    {
                        i += q;
                        break;
                    }
                    if !triple && b[i] == b'\n' {
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => stack.push((c, i, 0)),
            b')' | b']' | b'}' => {
                stack.pop();
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.2 += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let &(c, at, commas) = stack.last()?;
    (c == b'(').then_some((at, commas))
}

impl Analysis {
    /// Signature help at `offset` of `text` (the buffer of `path` as it is now).
    pub fn signature_help(&self, path: &Path, text: &str, offset: u32) -> Option<SignatureHelp> {
        let offset = char_floor(text, offset as usize);
        let (paren, active) = open_call(text, offset)?;
        // The callee: the dotted name just before the `(`.
        let b = text.as_bytes();
        let mut end = paren;
        while end > 0 && b[end - 1] == b' ' {
            end -= 1;
        }
        let mut start = end;
        while start > 0
            && (b[start - 1].is_ascii_alphanumeric()
                || b[start - 1] == b'_'
                || b[start - 1] == b'.')
        {
            start -= 1;
        }
        let dotted = &text[start..end];
        if dotted.is_empty() || dotted.starts_with('.') || dotted.ends_with('.') {
            return None;
        }
        let parts: Vec<String> = dotted.split('.').map(str::to_string).collect();
        let name = parts.last()?.clone();
        let (pi, view, thing) = self.resolve_typed(path, text, start, &parts)?;
        let heap = &self.programs[pi].space.heap;
        // The function called, and whether its first parameter is bound (a method through
        // an instance, a class's `__init__`).
        let mut constructor = false;
        let (func, bound) = match thing {
            Thing::Value(v @ Value::Obj(id)) => match heap.get(id) {
                Object::Class(c) => {
                    let init = c.mro.iter().find_map(|&k| {
                        heap.class(k)
                            .filter(|k| k.builtin.is_none())
                            .and_then(|k| k.dict.get("__init__"))
                    })?;
                    constructor = true;
                    (init, true)
                }
                _ => {
                    // A method looked up on an instance's class is called bound.
                    let through_instance = parts.len() > 1
                        && matches!(heap.get(id), Object::Function(_))
                        && self.is_instance_receiver(path, text, start, &parts);
                    (v, through_instance)
                }
            },
            Thing::Value(_) => return None,
            Thing::Ann(vals) => {
                // A function or method held in a variable: the first of its graphs.
                let view = view.as_ref()?;
                let ann = view.ann?;
                let s = vals.iter().find(|s| matches!(s, SomeValue::Pbc { .. }))?;
                let g = *ann.bookkeeper.graphs_of(s).first()?;
                let f = ann.graphs.get(g as usize)?.func?;
                let bound = match s {
                    SomeValue::Pbc { descs, .. } => descs.iter().any(|&d| {
                        matches!(
                            ann.bookkeeper.desc(d),
                            crate::annotator::description::Desc::Method(_)
                        )
                    }),
                    _ => false,
                };
                (Value::Obj(f), bound)
            }
        };
        let (params, mut ret) = self.parameters(pi, func, bound)?;
        if constructor {
            // `__init__` returns None; the call gives an instance, which its name says.
            ret = None;
        }
        let mut label = format!("{name}(");
        let mut ranges = Vec::new();
        for (i, (n, t)) in params.iter().enumerate() {
            if i > 0 {
                label.push_str(", ");
            }
            let s = label.len() as u32;
            label.push_str(n);
            if let Some(t) = t {
                label.push_str(": ");
                label.push_str(t);
            }
            ranges.push((s, label.len() as u32));
        }
        label.push(')');
        if let Some(r) = ret {
            label.push_str(" -> ");
            label.push_str(&r);
        }
        // `f(*args)`: every argument past the fixed ones is the varargs parameter.
        let active = match params.last() {
            Some((n, _)) if n.starts_with('*') => active.min(params.len() as u32 - 1),
            _ => active,
        };
        Some(SignatureHelp {
            label,
            params: ranges,
            active,
        })
    }

    /// Whether the receiver of `a.b.method` (all parts but the last) is an instance.
    fn is_instance_receiver(
        &self,
        path: &Path,
        text: &str,
        offset: usize,
        parts: &[String],
    ) -> bool {
        let Some((pi, _, thing)) =
            self.resolve_typed(path, text, offset, &parts[..parts.len() - 1])
        else {
            return false;
        };
        match thing {
            Thing::Ann(vals) => vals.iter().any(|s| matches!(s, SomeValue::Instance { .. })),
            Thing::Value(Value::Obj(id)) => {
                matches!(self.programs[pi].space.heap.get(id), Object::Instance(_))
            }
            Thing::Value(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::open_call;

    #[test]
    fn finds_the_open_call_and_the_argument() {
        let t = "x = f(a, g(b), 'c,d', ";
        let (at, n) = open_call(t, t.len()).unwrap();
        assert_eq!((at, n), (5, 3));
        let t = "x = f(a, g(b";
        assert_eq!(open_call(t, t.len()), Some((10, 0)));
        assert_eq!(open_call("x = f(a)", 8), None);
        assert_eq!(open_call("x = [a, ", 8), None);
    }
}
