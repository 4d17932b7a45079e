//! Name access: how a load, store or delete of a name compiles depends on the scope the
//! symbol table gives it (fast local, cell/free variable, global, or class/module name), and
//! on class-private mangling. Hidden compiler variables (`.0`, `.with{n}`…) get the same
//! treatment without a symbol-table entry. Separate because every other part of code
//! generation goes through these few entry points.

use super::{Codegen, Ctx};
use crate::compiler::bytecode::Instr;
use crate::compiler::symtable::{mangle, NameScope, ScopeKind};
use crate::syntax::Span;

impl<'a> Codegen<'a> {
    pub(super) fn name_op(&mut self, name: &str, ctx: Ctx, span: Span) {
        let mangled = mangle(self.ur().private.as_deref(), name);
        let (scope_id, kind) = (self.ur().scope, self.ur().kind);
        let scope = self.table.scopes[scope_id].lookup(&mangled);
        let function = kind == ScopeKind::Function;
        match scope {
            Some(NameScope::Free | NameScope::Cell) => {
                let Some(i) = self.deref_index(&mangled) else {
                    self.diag(
                        "RPY004",
                        span,
                        format!("internal compiler error: no cell for '{name}'"),
                    );
                    return;
                };
                match ctx {
                    Ctx::Load => self.emit(Instr::LoadDeref(i), span),
                    Ctx::Store => self.emit(Instr::StoreDeref(i), span),
                    Ctx::Del => self.diag(
                        "RPY001",
                        span,
                        format!("can not delete variable '{name}' referenced in nested scope"),
                    ),
                }
            }
            Some(NameScope::Local) if function => {
                let i = self.varname_index(&mangled);
                self.emit(
                    match ctx {
                        Ctx::Load => Instr::LoadFast(i),
                        Ctx::Store => Instr::StoreFast(i),
                        Ctx::Del => Instr::DeleteFast(i),
                    },
                    span,
                );
            }
            Some(NameScope::GlobalImplicit)
                if function && self.table.scopes[scope_id].bare_exec && ctx == Ctx::Load =>
            {
                // A bare `exec` may have bound the name in the function's namespace.
                let i = self.name_index(&mangled);
                self.emit(Instr::LoadName(i), span);
            }
            Some(NameScope::GlobalExplicit) | Some(NameScope::GlobalImplicit)
                if function || scope == Some(NameScope::GlobalExplicit) =>
            {
                let i = self.name_index(&mangled);
                self.emit(
                    match ctx {
                        Ctx::Load => Instr::LoadGlobal(i),
                        Ctx::Store => Instr::StoreGlobal(i),
                        Ctx::Del => Instr::DeleteGlobal(i),
                    },
                    span,
                );
            }
            _ => {
                let i = self.name_index(&mangled);
                self.emit(
                    match ctx {
                        Ctx::Load => Instr::LoadName(i),
                        Ctx::Store => Instr::StoreName(i),
                        Ctx::Del => Instr::DeleteName(i),
                    },
                    span,
                );
            }
        }
    }

    /// Access to a hidden compiler variable (fast local in functions, name elsewhere).
    pub(super) fn hidden_op(&mut self, name: &str, ctx: Ctx, span: Span) {
        if self.ur().kind == ScopeKind::Function {
            let i = self.varname_index(name);
            self.emit(
                match ctx {
                    Ctx::Load => Instr::LoadFast(i),
                    Ctx::Store => Instr::StoreFast(i),
                    Ctx::Del => Instr::DeleteFast(i),
                },
                span,
            );
        } else {
            let i = self.name_index(name);
            self.emit(
                match ctx {
                    Ctx::Load => Instr::LoadName(i),
                    Ctx::Store => Instr::StoreName(i),
                    Ctx::Del => Instr::DeleteName(i),
                },
                span,
            );
        }
    }

    /// Deletes hidden variables at the end of their use, in module and class bodies only
    /// (so that they do not end up in the namespace).
    pub(super) fn hidden_cleanup(&mut self, names: &[&str], span: Span) {
        if self.ur().kind != ScopeKind::Function {
            for n in names {
                self.hidden_op(n, Ctx::Del, span);
            }
        }
    }

    pub(super) fn attr_name(&self, attr: &str) -> String {
        mangle(self.ur().private.as_deref(), attr)
    }
}
