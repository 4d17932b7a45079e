//! Low-level types (seed 000, "Low-Level Types"): primitives, structures, arrays, pointers,
//! function types and opaque types, interned in one arena and addressed by `LlType` ids.
//!
//! Structures are nominal: `new_struct` creates one (its fields may be given later, so a
//! structure can point to itself). Arrays, pointers and function types are structural and
//! interned: building the same one twice gives the same id, so ids compare as types do.

use crate::fasthash::HashMap;
use std::fmt::Write;
use std::rc::Rc;

/// A low-level type, by id in its `LlTypes` arena (`Void` by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LlType(pub u32);

/// The primitive types, at fixed ids in every arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    Void,
    Signed,
    Unsigned,
    SignedLongLong,
    UnsignedLongLong,
    Float,
    Char,
    UniChar,
    Bool,
    /// The narrow C integers of rffi (`int`, `unsigned int`, `short`, `unsigned short`,
    /// `signed char`, `unsigned char`).
    Int,
    UInt,
    Short,
    UShort,
    SignedChar,
    UChar,
    /// C's 4-byte `float` (`lltype.SingleFloat`, rffi's `FLOAT`): its values are kept as
    /// the doubles they are exactly, rounded to single precision when made.
    SingleFloat,
    /// `SignedLongLongLong`, C's `__int128_t` (`r_longlonglong`).
    SignedLongLongLong,
}

const PRIMITIVES: [(Primitive, &str); 17] = [
    (Primitive::Void, "Void"),
    (Primitive::Signed, "Signed"),
    (Primitive::Unsigned, "Unsigned"),
    (Primitive::SignedLongLong, "SignedLongLong"),
    (Primitive::UnsignedLongLong, "UnsignedLongLong"),
    (Primitive::Float, "Float"),
    (Primitive::Char, "Char"),
    (Primitive::UniChar, "UniChar"),
    (Primitive::Bool, "Bool"),
    (Primitive::Int, "INT"),
    (Primitive::UInt, "UINT"),
    (Primitive::Short, "SHORT"),
    (Primitive::UShort, "USHORT"),
    (Primitive::SignedChar, "SIGNEDCHAR"),
    (Primitive::UChar, "UCHAR"),
    (Primitive::SingleFloat, "SingleFloat"),
    (Primitive::SignedLongLongLong, "SignedLongLongLong"),
];

impl LlType {
    pub const VOID: LlType = LlType(0);
    pub const SIGNED: LlType = LlType(1);
    pub const UNSIGNED: LlType = LlType(2);
    pub const SIGNEDLONGLONG: LlType = LlType(3);
    pub const UNSIGNEDLONGLONG: LlType = LlType(4);
    pub const FLOAT: LlType = LlType(5);
    pub const CHAR: LlType = LlType(6);
    pub const UNICHAR: LlType = LlType(7);
    pub const BOOL: LlType = LlType(8);
    pub const INT: LlType = LlType(9);
    pub const UINT: LlType = LlType(10);
    pub const SHORT: LlType = LlType(11);
    pub const USHORT: LlType = LlType(12);
    pub const SIGNEDCHAR: LlType = LlType(13);
    pub const UCHAR: LlType = LlType(14);
    pub const SINGLEFLOAT: LlType = LlType(15);
    pub const SIGNEDLONGLONGLONG: LlType = LlType(16);

    /// The low-level type of a narrow C integer of `bits` bits.
    pub fn narrow(bits: u8, signed: bool) -> LlType {
        match (bits, signed) {
            (32, true) => LlType::INT,
            (32, false) => LlType::UINT,
            (16, true) => LlType::SHORT,
            (16, false) => LlType::USHORT,
            (_, true) => LlType::SIGNEDCHAR,
            (_, false) => LlType::UCHAR,
        }
    }

    /// The low-level type of an integer of kind `kind` (`r_uint` is `Unsigned`...).
    pub fn of_int_kind(kind: crate::objspace::object::IntKind) -> LlType {
        use crate::objspace::object::IntKind;
        match kind {
            IntKind::Signed => LlType::SIGNED,
            IntKind::Unsigned => LlType::UNSIGNED,
            IntKind::LongLong => LlType::SIGNEDLONGLONG,
            IntKind::ULongLong => LlType::UNSIGNEDLONGLONG,
            IntKind::LongLongLong => LlType::SIGNEDLONGLONGLONG,
            IntKind::Narrow { bits, signed } => LlType::narrow(bits, signed),
        }
    }

    /// The size and signedness of a narrow C integer type.
    pub fn narrow_bits(self) -> Option<(u8, bool)> {
        Some(match self {
            LlType::INT => (32, true),
            LlType::UINT => (32, false),
            LlType::SHORT => (16, true),
            LlType::USHORT => (16, false),
            LlType::SIGNEDCHAR => (8, true),
            LlType::UCHAR => (8, false),
            _ => return None,
        })
    }

    /// The integer types: machine words, long longs and narrow C integers (not chars,
    /// bools or floats).
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            LlType::SIGNED
                | LlType::UNSIGNED
                | LlType::SIGNEDLONGLONG
                | LlType::UNSIGNEDLONGLONG
                | LlType::SIGNEDLONGLONGLONG
        ) || self.narrow_bits().is_some()
    }

    pub fn is_primitive(self) -> bool {
        self.0 < PRIMITIVES.len() as u32
    }
}

/// A field or an array item of a structure: its name and type.
pub type Field = (Rc<str>, LlType);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeDef {
    Primitive(Primitive),
    /// `Struct` or `GcStruct` (gc = true). A GcStruct's first field may be a GcStruct (its
    /// parent: the instance layout of a subclass embeds its base class's). The last field
    /// may be an `Array` (not Gc): the structure is then variable-sized.
    Struct {
        name: Rc<str>,
        fields: Vec<Field>,
        gc: bool,
        /// Set on GcStructs that carry a RuntimeTypeInfo (instances, through their vtable).
        rtti: bool,
    },
    /// `Array` or `GcArray` of `item` (a primitive, a pointer or a non-Gc fixed-size Struct).
    /// `nolength`: the `hints={'nolength': True}` of `rffi.CArray`, a bare C array whose
    /// `len()` the reference refuses; it is another type than the array with a length.
    Array {
        item: LlType,
        gc: bool,
        nolength: bool,
        /// `render_as_const`: the hint of `rffi.CONST_CCHARP`'s array (a `const char *`),
        /// another type than `CCHARP`'s to the reference's low-level function calls.
        konst: bool,
        /// `render_as_void`: the hint of `rffi.VOIDP`'s array (a `void *`), another type
        /// than `CCHARP`'s, which a C function's `void *` argument takes any pointer for.
        void: bool,
    },
    Ptr(LlType),
    Func {
        args: Vec<LlType>,
        result: LlType,
    },
    Opaque {
        name: Rc<str>,
        /// The C type's own name when it is a C library's (`rffi.COpaque(name, ...)`, the
        /// reference's `c_name` hint): a raw `malloc` of it is `sizeof` that type.
        c_name: Option<Rc<str>>,
    },
}

/// The arena of low-level types of one translation.
#[derive(Clone, Debug)]
pub struct LlTypes {
    defs: Vec<TypeDef>,
    interned: HashMap<TypeDef, LlType>,
    /// The structures `rffi_platform.configure` laid out without asking the C compiler
    /// (`check`), with their integer fields whose C type is therefore unknown.
    c_unknown: HashMap<LlType, Vec<Rc<str>>>,
    /// Variable-sized types allocated with one item more than their length (the
    /// reference's `extra_item_after_alloc` hint: a string's terminating NUL).
    extra_item: crate::fasthash::HashSet<LlType>,
}

impl Default for LlTypes {
    fn default() -> Self {
        Self::new()
    }
}

impl LlTypes {
    pub fn new() -> LlTypes {
        let mut t = LlTypes {
            defs: Vec::new(),
            interned: HashMap::default(),
            c_unknown: HashMap::default(),
            extra_item: Default::default(),
        };
        for (p, _) in PRIMITIVES {
            t.intern(TypeDef::Primitive(p));
        }
        t
    }

    fn intern(&mut self, def: TypeDef) -> LlType {
        if let Some(&t) = self.interned.get(&def) {
            return t;
        }
        let id = LlType(self.defs.len() as u32);
        self.defs.push(def.clone());
        self.interned.insert(def, id);
        id
    }

    pub fn def(&self, t: LlType) -> &TypeDef {
        &self.defs[t.0 as usize]
    }

    /// A new structure; `fields` may be empty and set later with `set_fields`.
    pub fn new_struct(&mut self, name: &str, gc: bool, fields: Vec<Field>) -> LlType {
        let id = LlType(self.defs.len() as u32);
        self.defs.push(TypeDef::Struct {
            name: Rc::from(name),
            fields,
            gc,
            rtti: false,
        });
        id
    }

    pub fn set_fields(&mut self, s: LlType, new_fields: Vec<Field>) {
        if let TypeDef::Struct { fields, .. } = &mut self.defs[s.0 as usize] {
            *fields = new_fields;
        }
    }

    /// A GcArray whose item type is not known yet (a fixed-size list holding its own type):
    /// not interned until `set_array_item` gives its item.
    pub fn forward_gc_array(&mut self) -> LlType {
        let id = LlType(self.defs.len() as u32);
        self.defs.push(TypeDef::Array {
            item: LlType::VOID,
            gc: true,
            nolength: false,
            konst: false,
            void: false,
        });
        id
    }

    /// Completes a `forward_gc_array` with its item type, and interns it.
    pub fn set_array_item(&mut self, a: LlType, new_item: LlType) {
        if let TypeDef::Array { item, .. } = &mut self.defs[a.0 as usize] {
            *item = new_item;
        }
        let def = self.defs[a.0 as usize].clone();
        self.interned.entry(def).or_insert(a);
    }

    pub fn set_rtti(&mut self, s: LlType) {
        if let TypeDef::Struct { rtti, .. } = &mut self.defs[s.0 as usize] {
            *rtti = true;
        }
    }

    pub fn array(&mut self, item: LlType) -> LlType {
        self.intern(TypeDef::Array {
            item,
            gc: false,
            nolength: false,
            konst: false,
            void: false,
        })
    }
    /// A raw array without a length (`rffi.CArray(T)`).
    pub fn array_nolength(&mut self, item: LlType) -> LlType {
        self.intern(TypeDef::Array {
            item,
            gc: false,
            nolength: true,
            konst: false,
            void: false,
        })
    }
    pub fn gc_array(&mut self, item: LlType) -> LlType {
        self.intern(TypeDef::Array {
            item,
            gc: true,
            nolength: false,
            konst: false,
            void: false,
        })
    }
    /// A raw array without a length whose pointer is a `const` one in C
    /// (`rffi.CONST_CCHARP`'s).
    pub fn array_nolength_const(&mut self, item: LlType) -> LlType {
        self.intern(TypeDef::Array {
            item,
            gc: false,
            nolength: true,
            konst: true,
            void: false,
        })
    }
    /// A raw array without a length whose pointer is a `void *` in C (`rffi.VOIDP`'s).
    pub fn array_nolength_void(&mut self, item: LlType) -> LlType {
        self.intern(TypeDef::Array {
            item,
            gc: false,
            nolength: true,
            konst: false,
            void: true,
        })
    }
    /// Whether `a` is an array declared without a length (`rffi.CArray`).
    pub fn is_nolength_array(&self, a: LlType) -> bool {
        matches!(self.def(a), TypeDef::Array { nolength: true, .. })
    }
    pub fn ptr(&mut self, to: LlType) -> LlType {
        self.intern(TypeDef::Ptr(to))
    }
    pub fn func(&mut self, args: Vec<LlType>, result: LlType) -> LlType {
        self.intern(TypeDef::Func { args, result })
    }
    pub fn opaque(&mut self, name: &str, c_name: Option<&str>) -> LlType {
        self.intern(TypeDef::Opaque {
            name: Rc::from(name),
            c_name: c_name.map(Rc::from),
        })
    }

    /// What a pointer type points to.
    pub fn pointee(&self, p: LlType) -> Option<LlType> {
        match self.def(p) {
            TypeDef::Ptr(to) => Some(*to),
            _ => None,
        }
    }
    pub fn is_ptr(&self, t: LlType) -> bool {
        matches!(self.def(t), TypeDef::Ptr(_))
    }
    pub fn is_gc(&self, t: LlType) -> bool {
        matches!(
            self.def(t),
            TypeDef::Struct { gc: true, .. } | TypeDef::Array { gc: true, .. }
        )
    }
    /// A pointer to a Gc container (what the GC must trace).
    pub fn is_gc_ptr(&self, t: LlType) -> bool {
        self.pointee(t).is_some_and(|to| self.is_gc(to))
    }

    pub fn fields(&self, s: LlType) -> &[Field] {
        match self.def(s) {
            TypeDef::Struct { fields, .. } => fields,
            _ => &[],
        }
    }
    pub fn struct_name(&self, s: LlType) -> Option<&Rc<str>> {
        match self.def(s) {
            TypeDef::Struct { name, .. } => Some(name),
            _ => None,
        }
    }
    pub fn array_item(&self, a: LlType) -> Option<LlType> {
        match self.def(a) {
            TypeDef::Array { item, .. } => Some(*item),
            _ => None,
        }
    }

    /// The type of field `name` of structure `s`.
    pub fn field_type(&self, s: LlType, name: &str) -> Option<LlType> {
        let declared = self
            .fields(s)
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, t)| *t);
        // the toolchain fills a configured structure's holes with `unsigned char` fields
        // `c__pad0`, `c__pad1`...: how many is the C compiler's answer
        declared.or_else(|| {
            let pad = name.strip_prefix("c__pad")?;
            (self.c_unknown.contains_key(&s)
                && !pad.is_empty()
                && pad.bytes().all(|b| b.is_ascii_digit()))
            .then_some(LlType::UCHAR)
        })
    }

    /// Whether `a` and `b` are one type on the reference's 64-bit platform, where
    /// `SignedLongLong` is `Signed` and `UnsignedLongLong` is `Unsigned` (`r_longlong` is
    /// `r_int`): so are arrays of them and pointers to those. Structures are nominal.
    pub fn same_on_64_bit(&self, a: LlType, b: LlType) -> bool {
        let word = |t: LlType| match t {
            LlType::SIGNEDLONGLONG => LlType::SIGNED,
            LlType::UNSIGNEDLONGLONG => LlType::UNSIGNED,
            t => t,
        };
        if word(a) == word(b) {
            return true;
        }
        match (self.def(a), self.def(b)) {
            (TypeDef::Ptr(x), TypeDef::Ptr(y)) => self.same_on_64_bit(*x, *y),
            (
                TypeDef::Array {
                    item: x,
                    gc: g1,
                    nolength: n1,
                    konst: k1,
                    void: v1,
                },
                TypeDef::Array {
                    item: y,
                    gc: g2,
                    nolength: n2,
                    konst: k2,
                    void: v2,
                },
            ) => (g1, n1, k1, v1) == (g2, n2, k2, v2) && word(*x) == word(*y),
            _ => false,
        }
    }

    /// Marks `s` as a structure the C compiler lays out but was not asked about, whose
    /// integer fields `unknown` have a C type of unknown size and sign.
    pub fn set_c_unknown(&mut self, s: LlType, unknown: Vec<Rc<str>>) {
        self.c_unknown.insert(s, unknown);
    }

    /// Marks the variable-sized `t` as allocated with one zeroed item past its length
    /// (`extra_item_after_alloc`), which the program may read (`s[len(s)]` of a string).
    pub fn set_extra_item_after_alloc(&mut self, t: LlType) {
        self.extra_item.insert(t);
    }

    /// How many items past its length an object of type `t` is allocated with: 1 for a
    /// type marked by `set_extra_item_after_alloc`, else 0.
    pub fn extra_item_after_alloc(&self, t: LlType) -> usize {
        usize::from(self.extra_item.contains(&t))
    }

    /// Whether field `name` of `s` is an integer of unknown C type (`set_c_unknown`):
    /// any integer may be read from it or stored into it.
    pub fn is_c_unknown_int(&self, s: LlType, name: &str) -> bool {
        self.c_unknown
            .get(&s)
            .is_some_and(|fs| fs.iter().any(|f| &**f == name))
    }

    /// The variable-sized array at the end of a structure, or the array itself.
    pub fn varsize_array(&self, t: LlType) -> Option<LlType> {
        match self.def(t) {
            TypeDef::Array { .. } => Some(t),
            TypeDef::Struct { fields, .. } => fields
                .last()
                .filter(|(_, ft)| matches!(self.def(*ft), TypeDef::Array { .. }))
                .map(|(_, ft)| *ft),
            _ => None,
        }
    }

    /// The first-field parent of a structure (`GcStruct` inheritance).
    pub fn parent(&self, s: LlType) -> Option<LlType> {
        match self.def(s) {
            TypeDef::Struct { fields, .. } => fields
                .first()
                .filter(|(_, ft)| matches!(self.def(*ft), TypeDef::Struct { .. }))
                .map(|(_, ft)| *ft),
            _ => None,
        }
    }

    /// Whether `sub` is `sup` or has it as first field, transitively: a pointer to `sub` can
    /// be cast to a pointer to `sup` and back.
    pub fn is_first_field_descendant(&self, sub: LlType, sup: LlType) -> bool {
        let mut t = Some(sub);
        while let Some(s) = t {
            if s == sup {
                return true;
            }
            t = self.parent(s);
        }
        false
    }

    /// The flattened fixed-size fields of a structure: nested first-field (and other
    /// inlined) structures expanded in place, the variable-sized array left out. A parent's
    /// flattening is a prefix of its children's, which is what makes `cast_pointer` free.
    pub fn flat_fields(&self, s: LlType) -> Vec<(Vec<Rc<str>>, LlType)> {
        let mut out = Vec::new();
        self.flatten_into(s, &mut Vec::new(), &mut out);
        out
    }

    fn flatten_into(
        &self,
        s: LlType,
        path: &mut Vec<Rc<str>>,
        out: &mut Vec<(Vec<Rc<str>>, LlType)>,
    ) {
        for (name, ft) in self.fields(s) {
            match self.def(*ft) {
                TypeDef::Struct { .. } => {
                    path.push(name.clone());
                    self.flatten_into(*ft, path, out);
                    path.pop();
                }
                TypeDef::Array { .. } => {}
                _ => {
                    let mut p = path.clone();
                    p.push(name.clone());
                    out.push((p, *ft));
                }
            }
        }
    }

    /// Number of flattened slots of a structure (see `flat_fields`).
    pub fn flat_len(&self, s: LlType) -> usize {
        self.fields(s)
            .iter()
            .map(|(_, ft)| match self.def(*ft) {
                TypeDef::Struct { .. } => self.flat_len(*ft),
                TypeDef::Array { .. } => 0,
                _ => 1,
            })
            .sum()
    }

    /// The slot of field `name` of structure `s` in the flattening of `s` (and of every
    /// structure that has `s` as first field), with the field's type; an inlined
    /// sub-structure gives the slot of its first field.
    pub fn field_slot(&self, s: LlType, name: &str) -> Option<(usize, LlType)> {
        let mut slot = 0;
        for (n, ft) in self.fields(s) {
            if &**n == name {
                return Some((slot, *ft));
            }
            slot += match self.def(*ft) {
                TypeDef::Struct { .. } => self.flat_len(*ft),
                TypeDef::Array { .. } => 0,
                _ => 1,
            };
        }
        None
    }

    /// The type as printed in graphs: `Signed`, `* GcStruct rpy_string`, `* GcArray(Signed)`.
    pub fn name(&self, t: LlType) -> String {
        let mut s = String::new();
        self.write_name(t, &mut s, 0);
        s
    }

    fn write_name(&self, t: LlType, out: &mut String, depth: usize) {
        if depth > 8 {
            out.push_str("...");
            return;
        }
        if t.0 as usize >= self.defs.len() {
            // a type of another arena (a message written while the arena is lent out)
            let _ = write!(out, "<low-level type {}>", t.0);
            return;
        }
        match self.def(t) {
            TypeDef::Primitive(p) => {
                out.push_str(PRIMITIVES.iter().find(|(q, _)| q == p).unwrap().1);
            }
            TypeDef::Struct { name, gc, .. } => {
                let _ = write!(out, "{} {}", if *gc { "GcStruct" } else { "Struct" }, name);
            }
            TypeDef::Array {
                item,
                gc,
                konst,
                void,
                ..
            } => {
                out.push_str(if *gc { "GcArray(" } else { "Array(" });
                self.write_name(*item, out, depth + 1);
                out.push_str(match (*konst, *void) {
                    (true, _) => ", const)",
                    (_, true) => ", void)",
                    _ => ")",
                });
            }
            TypeDef::Ptr(to) => {
                out.push_str("* ");
                self.write_name(*to, out, depth + 1);
            }
            TypeDef::Func { args, result } => {
                out.push_str("Func(");
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_name(*a, out, depth + 1);
                }
                out.push_str(") -> ");
                self.write_name(*result, out, depth + 1);
            }
            TypeDef::Opaque { name, .. } => {
                let _ = write!(out, "Opaque {}", name);
            }
        }
    }

    /// Every type in the arena, in creation order (for deterministic output).
    pub fn all(&self) -> impl Iterator<Item = LlType> {
        (0..self.defs.len() as u32).map(LlType)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structural_types_are_interned_and_structs_are_nominal() {
        let mut t = LlTypes::new();
        let a1 = t.gc_array(LlType::SIGNED);
        let a2 = t.gc_array(LlType::SIGNED);
        assert_eq!(a1, a2);
        assert_ne!(a1, t.array(LlType::SIGNED));
        let s1 = t.new_struct("point", true, vec![]);
        let s2 = t.new_struct("point", true, vec![]);
        assert_ne!(s1, s2);
        assert_eq!(t.ptr(s1), t.ptr(s1));
        let pa = t.ptr(a1);
        assert_eq!(t.name(pa), "* GcArray(Signed)");
    }

    #[test]
    fn parent_layout_is_a_prefix_of_the_child_layout() {
        let mut t = LlTypes::new();
        let object = t.new_struct("object", true, vec![("typeptr".into(), LlType::SIGNED)]);
        let base = t.new_struct(
            "Base",
            true,
            vec![("super".into(), object), ("x".into(), LlType::FLOAT)],
        );
        let sub = t.new_struct(
            "Sub",
            true,
            vec![("super".into(), base), ("y".into(), LlType::CHAR)],
        );
        assert_eq!(t.field_slot(base, "x"), Some((1, LlType::FLOAT)));
        assert_eq!(t.field_slot(sub, "y"), Some((2, LlType::CHAR)));
        assert_eq!(t.flat_len(sub), 3);
        assert!(t.is_first_field_descendant(sub, object));
        assert!(!t.is_first_field_descendant(object, sub));
        // a self-referencing structure through a pointer
        let node = t.new_struct("node", true, vec![]);
        let p = t.ptr(node);
        t.set_fields(
            node,
            vec![("next".into(), p), ("value".into(), LlType::SIGNED)],
        );
        assert_eq!(t.field_type(node, "next"), Some(p));
    }
}
