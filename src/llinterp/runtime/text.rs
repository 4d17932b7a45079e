//! Strings and unicode in the runtime: reading and building `rpy_string` and
//! `rpy_unicode` containers, and `%f` as the runtime functions use them.

use super::super::{LlInterpreter, Unwind};
use crate::lltypesystem::{LlPtr, LlValue};
use crate::syntax::Span;

impl<'p> LlInterpreter<'p> {
    pub(crate) fn mkstr(&mut self, bytes: &[u8]) -> LlPtr {
        let st = self.prog.types.pointee(self.prog.str_ptr).unwrap();
        let p = self.heap.malloc(&self.prog.types, st, bytes.len());
        if let Ok(b) = self.heap.bytes_mut(p) {
            b.copy_from_slice(bytes);
        }
        p
    }
    pub(super) fn sbytes(&self, v: LlValue) -> Option<Vec<u8>> {
        match v.as_ptr() {
            LlPtr::Null => None,
            p => self.heap.bytes(p).ok().map(|b| b.to_vec()),
        }
    }
    pub(super) fn s(&self, v: LlValue, span: Span) -> Result<Vec<u8>, Unwind> {
        self.sbytes(v)
            .ok_or_else(|| self.fatal_at(span, "dereference of None (a null string)"))
    }
    pub(super) fn strv(&mut self, bytes: &[u8]) -> LlValue {
        LlValue::Ptr(self.mkstr(bytes))
    }
}

/// `%.<prec>f` as C prints it (inf, -inf and nan spelled as RPython's formatd does).
pub fn format_f(x: f64, prec: usize) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    format!("{:.*}", prec, x)
}
