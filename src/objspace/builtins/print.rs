//! Import-time output: what module bodies print goes to the space's captured stdout/stderr
//! (never to the process's), through the `print` statement (soft-space rules of Python 2)
//! or the `print` function. Separate because the interpreter calls the statement helpers
//! directly, not through the registry.

use super::BArgs;
use crate::objspace::object::{Object, Value};
use crate::objspace::{ObjSpace, R};

impl ObjSpace {
    /// Writes text to the import-time stdout (or stderr).
    pub(crate) fn write_out(&mut self, text: &[u8], to_stderr: bool) {
        let s = String::from_utf8_lossy(text);
        if to_stderr {
            self.stderr.push_str(&s);
        } else {
            self.stdout.push_str(&s);
        }
    }

    /// Writes to a print destination (`None`: stdout).
    fn print_write(&mut self, dest: Option<Value>, text: &[u8]) -> R<()> {
        match dest {
            None | Some(Value::None) => {
                self.write_out(text, false);
                Ok(())
            }
            Some(d) => {
                let s = self.new_str(text);
                self.call_method(d, "write", vec![s])?;
                Ok(())
            }
        }
    }

    /// `print x,` item.
    pub(crate) fn do_print_item(&mut self, dest: Option<Value>, v: Value) -> R<()> {
        let s = match v {
            Value::Obj(id) if matches!(self.heap.get(id), Object::Unicode(_)) => {
                self.text_of(v).unwrap_or_default().into_bytes()
            }
            _ => self.str_value(v)?,
        };
        if self.softspace {
            self.print_write(dest, b" ")?;
        }
        self.print_write(dest, &s)?;
        self.softspace = !matches!(s.last(), Some(&c) if c.is_ascii_whitespace() && c != b' ');
        Ok(())
    }

    /// End of a `print` statement.
    pub(crate) fn do_print_newline(&mut self, dest: Option<Value>) -> R<()> {
        self.print_write(dest, b"\n")?;
        self.softspace = false;
        Ok(())
    }
}

pub(super) fn b_print(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let sep = match a.kw("sep") {
        Some(v) if v != Value::None => sp.str_value(v)?,
        _ => b" ".to_vec(),
    };
    let end = match a.kw("end") {
        Some(v) if v != Value::None => sp.str_value(v)?,
        _ => b"\n".to_vec(),
    };
    let dest = a.kw("file").filter(|v| *v != Value::None);
    let mut out = Vec::new();
    for (i, &x) in a.args.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(&sep);
        }
        match x {
            Value::Obj(id) if matches!(sp.heap.get(id), Object::Unicode(_)) => {
                out.extend(sp.text_of(x).unwrap_or_default().into_bytes())
            }
            _ => out.extend(sp.str_value(x)?),
        }
    }
    out.extend_from_slice(&end);
    sp.print_write(dest, &out)?;
    Ok(Value::None)
}

pub(super) fn b_print_item(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    sp.do_print_item(None, a.args[0])?;
    Ok(Value::None)
}

pub(super) fn b_print_newline(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    sp.do_print_newline(None)?;
    Ok(Value::None)
}
