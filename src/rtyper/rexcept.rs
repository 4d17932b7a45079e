//! The exception links the reference's RTyper sees on a block that catches exceptions, and
//! its check of them (`HighLevelOp.has_implicit_exception` / `exception_is_here`).
//!
//! Our flow graphs keep the shape the flow space built: one link per exception the
//! operation can raise implicitly (`IndexError`, `KeyError` of a `getitem`), those no handler
//! takes going straight to the except block, and one `Exception` link into the chain of
//! `issubtype` tests of the `except` clauses. Before typing, the reference rewrites that
//! (`simplify_exceptions`: one link per clause class; `remove_assertion_errors`: the
//! implicit exceptions no handler takes are gone; `remove_dead_exceptions`: a class after
//! one of its bases is gone), and its annotator follows only the links whose class can catch
//! what the operation can raise (`Bookkeeper::can_only_throw`). The typing function of an
//! operation declares which exceptions it raises (`has_implicit_exception`); if it then
//! marks the raising low-level operation (`exception_is_here`) while some surviving link's
//! class is not one of those nor a base of one, the reference refuses the program: the
//! handler expects an exception the low-level operation cannot raise.

use super::hop::Hop;
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::flowspace::{BlockId, ExitCase, Hlvalue, LinkId, SpaceOperation};
use crate::interpreter::Op;
use crate::objspace::builtin_exception_derives;
use crate::objspace::object::{ObjId, Value};
use crate::syntax::Span;

/// The class of an exception link, and the `except` clause that tests it (its span;
/// `Span::default()` for the links of no clause).
pub(super) type ExceptionCase = (ObjId, Span);

impl RTyper<'_> {
    /// The classes of the exception links of block `b` of graph `g` (which catches
    /// exceptions around its last operation `op`) as the reference's RTyper sees them.
    pub(super) fn reference_exception_cases(
        &self,
        g: u32,
        b: BlockId,
        op: &SpaceOperation,
        args_s: &[SomeValue],
    ) -> Vec<ExceptionCase> {
        let hl = &self.ann.graphs[g as usize];
        let mut covered: Vec<ObjId> = Vec::new();
        let mut cases: Vec<ExceptionCase> = Vec::new();
        for &l in hl.block(b).exits.iter().skip(1) {
            let link = hl.link(l);
            let ExitCase::Exception(cls) = link.exitcase else {
                continue;
            };
            if self.is_builtin_exception(cls, "Exception") {
                self.clause_cases(g, l, cls, &covered, &mut cases);
            } else if !self.is_unhandled_implicit(g, l, cls) {
                covered.push(cls);
                cases.push((cls, Span::default()));
            }
        }
        // a class after one of its bases is never taken
        let mut kept: Vec<ExceptionCase> = Vec::new();
        for c in cases {
            if !kept.iter().any(|&(k, _)| self.class_derives(c.0, k)) {
                kept.push(c);
            }
        }
        self.followed_cases(kept, self.ann.bookkeeper.can_only_throw(op.opname, args_s))
    }

    /// The classes the `except` clauses test, in order, along the chain of `issubtype`
    /// tests the `Exception` link `l` enters (those covered by an implicit-exception link
    /// already taken are left out), then `Exception` itself for the exceptions no clause
    /// takes, unless a clause takes them all.
    fn clause_cases(
        &self,
        g: u32,
        l: LinkId,
        exception: ObjId,
        covered: &[ObjId],
        cases: &mut Vec<ExceptionCase>,
    ) {
        let hl = &self.ann.graphs[g as usize];
        let mut seen_exception = false;
        let mut link = hl.link(l);
        let mut exc = link.last_exception.map(Hlvalue::Var);
        // at most one test per block of the graph: a malformed chain cannot loop
        for _ in 0..hl.blocks.len() {
            let Some(v) = exc else { break };
            let Some(i) = link.args.iter().position(|&a| a == v) else {
                break;
            };
            let query = hl.block(link.target);
            let renamed = Hlvalue::Var(query.inputargs[i]);
            let test = match query.operations.first() {
                Some(o) if o.opname == Op::IsSubtype && query.exits.len() == 2 => o,
                _ => break,
            };
            let (Some(&a0), Some(Value::Obj(case))) = (
                test.args.first(),
                test.args.get(1).and_then(|c| c.constant()),
            ) else {
                break;
            };
            if a0 != renamed {
                break;
            }
            if !covered.iter().any(|&c| self.class_derives(case, c)) {
                cases.push((case, test.span));
            }
            seen_exception |= self.is_builtin_exception(case, "Exception");
            // on along the branch where the test failed
            let Some(&no) = query
                .exits
                .iter()
                .find(|&&x| hl.link(x).exitcase == ExitCase::Value(Value::Bool(false)))
            else {
                break;
            };
            link = hl.link(no);
            exc = Some(renamed);
        }
        if !seen_exception {
            cases.push((exception, Span::default()));
        }
    }

    /// Whether link `l`, for the implicit exception `cls`, only raises it on out of the
    /// function: no handler takes it (the reference drops such links; a bare `raise` in a
    /// handler that took it is not one).
    fn is_unhandled_implicit(&self, g: u32, l: LinkId, cls: ObjId) -> bool {
        let hl = &self.ann.graphs[g as usize];
        let link = hl.link(l);
        !hl.is_reraise_of_caught(l)
            && link.target == hl.exceptblock
            && link.args.first().and_then(|a| a.constant()) == Some(Value::Obj(cls))
            && link
                .args
                .get(1)
                .and_then(|a| a.var())
                .is_some_and(|v| Some(v) == link.last_exc_value)
    }

    /// The cases the reference's annotator follows when the operation can raise only
    /// `can_only_throw` (`None`: any Exception): each case that can catch something still
    /// possible, until nothing is left.
    fn followed_cases(
        &self,
        cases: Vec<ExceptionCase>,
        can_only_throw: Option<&'static [&'static str]>,
    ) -> Vec<ExceptionCase> {
        let mut followed = Vec::new();
        match can_only_throw {
            None => {
                for case in cases {
                    let c = case.0;
                    let all = self.is_builtin_exception(c, "Exception")
                        || self.is_builtin_exception(c, "BaseException");
                    if all || self.derives_from_builtin(c, "Exception") {
                        followed.push(case);
                    }
                    if all {
                        break;
                    }
                }
            }
            Some(names) => {
                let mut left: Vec<&str> = names.to_vec();
                for case in cases {
                    let c = case.0;
                    if left.is_empty() {
                        break;
                    }
                    if left.iter().any(|n| self.builtin_name_derives(n, c)) {
                        followed.push(case);
                    }
                    left.retain(|n| !self.builtin_name_derives(n, c));
                }
            }
        }
        followed
    }

    /// The reference's sanity check after `exception_is_here`: every surviving exception
    /// link must be one the operation's typing declared (`has_implicit_exception`).
    pub(super) fn check_implicit_exceptions(&self, hop: &Hop) -> Result<(), TyperError> {
        if !hop.exception_is_here_called {
            return Ok(());
        }
        let declared = hop.implicit_declared.borrow();
        let Some(declared) = declared.as_ref() else {
            return Ok(());
        };
        for &(c, clause) in hop.exception_cases.iter() {
            if declared.iter().any(|n| self.builtin_name_derives(n, c)) {
                continue;
            }
            let name = crate::annotator::Bookkeeper::class_name(self.objheap, c);
            let raised = if declared.is_empty() {
                "nothing it can catch".to_string()
            } else {
                declared.join(", ")
            };
            let mut e = TyperError::rejected(
                "RPY205",
                format!(
                    "`except {name}` around this operation is not supported: the operation raises only {raised} here, and an `except` clause of a built-in operation must catch what it raises (the reference's RTyper: \"the graph catches {name}, but the rtyper did not explicitely handle it\")"
                ),
            );
            if clause != Span::default() {
                e.labels
                    .push((clause, format!("this clause expects {name}")));
            }
            return Err(e);
        }
        Ok(())
    }

    /// Whether the built-in exception `name` is class `c` or derives from it.
    pub(super) fn builtin_name_derives(&self, name: &str, c: ObjId) -> bool {
        match self.objheap.class(c) {
            Some(k) if k.module.is_none() => builtin_exception_derives(name, &k.name),
            _ => false,
        }
    }

    /// Whether `c` is the built-in exception `name`.
    fn is_builtin_exception(&self, c: ObjId, name: &str) -> bool {
        self.objheap
            .class(c)
            .is_some_and(|k| k.module.is_none() && &*k.name == name)
    }

    /// Whether class `c` derives from the built-in exception `name`.
    fn derives_from_builtin(&self, c: ObjId, name: &str) -> bool {
        self.objheap
            .class(c)
            .is_some_and(|k| k.mro.iter().any(|&m| self.is_builtin_exception(m, name)))
    }

    /// Whether class `c` is `base` or derives from it.
    fn class_derives(&self, c: ObjId, base: ObjId) -> bool {
        c == base || self.objheap.class(c).is_some_and(|k| k.mro.contains(&base))
    }
}
