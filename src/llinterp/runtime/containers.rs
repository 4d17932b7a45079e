//! Lists and tuples the runtime makes: the argv list of `entry_point` (a resizable
//! `list {length, items}` or a fixed-size GcArray) and the tuples of `math.modf`/`frexp`.
//! Their operations are low-level helpers (`__rpy_ll__/ll_*.py`).

use super::super::LlInterpreter;
use crate::lltypesystem::{LlPtr, LlType, LlValue, TypeDef};

/// Layout of a list type: fixed-size (a GcArray) or resizable (`list {length, items}`).
pub(super) struct ListLayout {
    pub fixed: bool,
    /// The GcArray type of the items.
    pub array: LlType,
}

impl<'p> LlInterpreter<'p> {
    pub(super) fn list_layout(&self, ty: LlType) -> Option<ListLayout> {
        let types = &self.prog.types;
        let to = types.pointee(ty)?;
        match types.def(to) {
            TypeDef::Array { .. } => Some(ListLayout {
                fixed: true,
                array: to,
            }),
            TypeDef::Struct { .. } => {
                let items = types.field_type(to, "items")?;
                Some(ListLayout {
                    fixed: false,
                    array: types.pointee(items)?,
                })
            }
            _ => None,
        }
    }

    /// A new list of type `ty` holding `items`.
    pub(crate) fn list_new(&mut self, ty: LlType, items: Vec<LlValue>) -> LlPtr {
        let Some(lay) = self.list_layout(ty) else {
            return LlPtr::Null;
        };
        let arr = self.heap.malloc(&self.prog.types, lay.array, items.len());
        for (i, v) in items.iter().enumerate() {
            let _ = self.heap.setitem(arr, i as i64, *v);
        }
        if lay.fixed {
            return arr;
        }
        let st = self.prog.types.pointee(ty).unwrap();
        let p = self.heap.malloc(&self.prog.types, st, 0);
        let types = &self.prog.types;
        let _ = self
            .heap
            .setfield(types, p, st, "length", LlValue::Int(items.len() as i64));
        let _ = self.heap.setfield(types, p, st, "items", LlValue::Ptr(arr));
        p
    }

    pub(super) fn new_tuple(&mut self, ty: LlType, items: &[LlValue]) -> LlValue {
        let st = self.prog.types.pointee(ty).unwrap_or(LlType::VOID);
        let p = self.heap.malloc(&self.prog.types, st, 0);
        for (i, v) in items.iter().enumerate() {
            let _ = self
                .heap
                .setfield(&self.prog.types, p, st, &format!("item{}", i), *v);
        }
        LlValue::Ptr(p)
    }
}
