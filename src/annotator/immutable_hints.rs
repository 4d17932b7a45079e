//! The `_immutable_` hint of classes, checked as the reference's RTyper checks it when it
//! lays out a class's instances: a class whose base says `_immutable_ = True` must say
//! so itself (its own dict, not inherited), and a class's own `_immutable_` must be
//! `True` exactly, or `None` (no hint, as the reference's `get_param` reads it). Takes
//! the classdefs of the finished annotation; reports at the class statement. Classes of
//! rpy-lsp's bundled models are not judged (they are not the reference's).

use super::annrpython::Annotator;
use super::AnnError;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::Value;
use crate::syntax::Span;

impl<C: ConcreteSpace> Annotator<'_, C> {
    pub(super) fn check_immutable_hints(&mut self) {
        let mut found: Vec<(Span, String)> = Vec::new();
        for cd in &self.bk.classdefs {
            let Some(desc) = self.bk.class_desc(cd.desc) else {
                continue;
            };
            let Some(span) = desc.name_span else {
                continue;
            };
            if self.bundled_files.contains(&span.file) {
                continue;
            }
            let heap = self.space.heap();
            let Some(class) = heap.class(desc.cls) else {
                continue;
            };
            let name = &cd.name;
            match class.dict.get("_immutable_") {
                // `getattr(cls, '_immutable_')` through the bases (mixins included)
                None => {
                    let inherited = class.mro.iter().skip(1).find_map(|&k| {
                        heap.class(k).and_then(|kc| kc.dict.get("_immutable_"))
                    });
                    if inherited.is_some_and(|v| truthy(heap, v)) {
                        found.push((span, format!("class `{name}` inherits `_immutable_ = True` from a base, so it must declare `_immutable_ = True` itself (the RPython typer refuses it otherwise)")));
                    }
                }
                // the reference reads the hint with `get_param`: None is no hint (`immut
                // is None`), and the class's own None hides a base's True from getattr
                Some(Value::Bool(true) | Value::None) => {}
                Some(_) => found.push((
                    span,
                    format!("class `{name}`: `_immutable_` must be True (the only value the RPython typer accepts)"),
                )),
            }
        }
        for (span, msg) in found {
            // the reference's annotator ignores the hint; its typer refuses the class
            self.report(AnnError::new("RPY203", msg).at_typer(), span);
        }
    }
}

/// Python's truth of a class attribute's value, as far as hints use them: the annotator's
/// truth of a constant, a list by its length, anything else true.
fn truthy(heap: &crate::objspace::object::Heap, v: Value) -> bool {
    use crate::objspace::object::Object;
    match v {
        Value::Obj(id) if matches!(heap.get(id), Object::List(_)) => {
            !matches!(heap.get(id), Object::List(items) if items.is_empty())
        }
        _ => super::unaryop::const_truth(heap, v).unwrap_or(true),
    }
}
