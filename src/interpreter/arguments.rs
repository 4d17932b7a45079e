//! Argument binding (seed 003, "Arguments Class"): maps a call's positional, keyword and
//! `*args` arguments onto a code object's parameters. Generic over the value type, so the
//! concrete space, the flow space and the annotator share one set of rules.

use std::rc::Rc;

/// What a callee accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Positional parameter names.
    pub argnames: Vec<Rc<str>>,
    /// Name of the `*args` parameter.
    pub varargs: Option<Rc<str>>,
    /// Name of the `**kwargs` parameter.
    pub kwargs: Option<Rc<str>>,
}

impl Signature {
    pub fn from_code(code: &crate::compiler::CodeObject) -> Signature {
        use crate::compiler::bytecode::flags;
        let n = code.co_argcount as usize;
        let mut i = n;
        let varargs = if code.has_flag(flags::VARARGS) {
            i += 1;
            Some(code.co_varnames[i - 1].clone())
        } else {
            None
        };
        let kwargs = if code.has_flag(flags::VARKEYWORDS) {
            Some(code.co_varnames[i].clone())
        } else {
            None
        };
        Signature {
            argnames: code.co_varnames[..n].to_vec(),
            varargs,
            kwargs,
        }
    }
}

/// Why a call does not fit a signature; the message reads like Python's TypeError.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

/// Binds arguments to parameters. `star` items must already be expanded into
/// `positional` by the caller when they are known; `defaults` are for the last parameters.
/// Returns one value per positional parameter, then the `*args` items if the callee has
/// `*args` (as a separate vector).
pub fn bind<V: Clone>(
    name: &str,
    sig: &Signature,
    defaults: &[V],
    positional: Vec<V>,
    keywords: Vec<(Rc<str>, V)>,
) -> Result<(Vec<V>, Vec<V>), ArgError> {
    let nparams = sig.argnames.len();
    let mut slots: Vec<Option<V>> = vec![None; nparams];
    let mut extra = Vec::new();
    for (i, v) in positional.into_iter().enumerate() {
        if i < nparams {
            slots[i] = Some(v);
        } else {
            extra.push(v);
        }
    }
    if !extra.is_empty() && sig.varargs.is_none() {
        let given = nparams + extra.len();
        return Err(ArgError(format!(
            "{}() takes {} {} argument{} ({} given)",
            name,
            if defaults.is_empty() {
                "exactly"
            } else {
                "at most"
            },
            nparams,
            if nparams == 1 { "" } else { "s" },
            given
        )));
    }
    for (kw, v) in keywords {
        match sig.argnames.iter().position(|a| **a == *kw) {
            Some(i) if slots[i].is_some() => {
                return Err(ArgError(format!(
                    "{}() got multiple values for keyword argument '{}'",
                    name, kw
                )))
            }
            Some(i) => slots[i] = Some(v),
            None => {
                return Err(ArgError(format!(
                    "{}() got an unexpected keyword argument '{}'",
                    name, kw
                )))
            }
        }
    }
    let first_default = nparams - defaults.len().min(nparams);
    let mut out = Vec::with_capacity(nparams);
    for (i, slot) in slots.into_iter().enumerate() {
        match slot {
            Some(v) => out.push(v),
            None if i >= first_default => out.push(defaults[i - first_default].clone()),
            None => {
                let required = first_default;
                return Err(ArgError(format!(
                    "{}() takes {} {} argument{} ({} given)",
                    name,
                    if defaults.is_empty() && sig.varargs.is_none() {
                        "exactly"
                    } else {
                        "at least"
                    },
                    required,
                    if required == 1 { "" } else { "s" },
                    i
                )));
            }
        }
    }
    Ok((out, extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(names: &[&str], varargs: bool) -> Signature {
        Signature {
            argnames: names.iter().map(|s| Rc::from(*s)).collect(),
            varargs: varargs.then(|| Rc::from("args")),
            kwargs: None,
        }
    }

    #[test]
    fn binds_defaults_keywords_and_varargs() {
        let s = sig(&["a", "b", "c"], true);
        let (args, extra) = bind("f", &s, &[30], vec![1, 2], vec![]).unwrap();
        assert_eq!((args, extra), (vec![1, 2, 30], vec![]));
        let (args, _) = bind("f", &s, &[30], vec![1], vec![("b".into(), 5)]).unwrap();
        assert_eq!(args, vec![1, 5, 30]);
        let (args, extra) = bind("f", &s, &[], vec![1, 2, 3, 4, 5], vec![]).unwrap();
        assert_eq!((args, extra), (vec![1, 2, 3], vec![4, 5]));
    }

    #[test]
    fn reports_python_style_errors() {
        let s = sig(&["a", "b"], false);
        assert_eq!(
            bind("f", &s, &[], vec![1], vec![]).unwrap_err().0,
            "f() takes exactly 2 arguments (1 given)"
        );
        assert_eq!(
            bind("f", &s, &[], vec![1, 2, 3], vec![]).unwrap_err().0,
            "f() takes exactly 2 arguments (3 given)"
        );
        assert_eq!(
            bind("f", &s, &[], vec![1], vec![("z".into(), 2)])
                .unwrap_err()
                .0,
            "f() got an unexpected keyword argument 'z'"
        );
    }
}
