//! The bookkeeper: the tables every annotation refers to — descriptions of prebuilt objects,
//! class definitions, list and dict definitions — and the choices made at each position, so
//! that re-flowing a block finds the same definitions again (seed 001, "Mutable Values and
//! Containers"). The list and dict items are handled in `listdef`; import-time values
//! become annotations in `immutablevalue`.

use super::classdef::{ClassDef, ClassDesc};
use super::description::{Desc, FunctionDesc, MethodDesc};
use super::model::*;
use super::AnnError;
use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use crate::objspace::object::{BuiltinType, Heap, ObjId, Object, Value};
use crate::syntax::Span;
use std::collections::BTreeSet;
use std::rc::Rc;

/// A list item, or a dict key or value: the element annotation shared by every definition
/// that can meet at run time (a union-find node).
#[derive(Clone, Debug)]
pub struct Item {
    pub(super) parent: u32,
    pub s_value: SomeValue,
    /// Items were written after creation.
    pub mutated: bool,
    /// The list was resized after creation (append, pop…).
    pub resized: bool,
    /// The list was resized other than by the one `append` of a loop filling it, after
    /// which the reference's annotator sees a fresh copy (`fill_loops`).
    pub resized_outside_fill: bool,
    /// `make_sure_not_resized()` was called on the list, or it was stored in or read from
    /// a field declared with immutable items: resizing it is an error.
    pub must_not_resize: bool,
    /// The field (`Class.field`) that made the list one that must not be resized, for
    /// messages (`None`: `make_sure_not_resized()`).
    pub no_resize_field: Option<Rc<str>>,
    /// Where the list was first stored in or read from that field, for messages.
    pub no_resize_at: Option<Span>,
    /// Where the list was first resized (as `resized_outside_fill`), for messages.
    pub resized_at: Option<Span>,
    /// Lists made by `range()`: their step (0 when it varies).
    pub range_step: Option<i64>,
    /// Operations that read the item annotation: re-flowed when it generalizes.
    pub read_locations: BTreeSet<Position>,
    /// Where the element type was first established.
    pub origin: Option<Span>,
    /// The import-time list or dict this item belongs to, when it is prebuilt.
    pub prebuilt: Option<Value>,
}

impl Item {
    pub(super) fn new(id: u32, s_value: SomeValue) -> Item {
        Item {
            parent: id,
            s_value,
            mutated: false,
            resized: false,
            resized_outside_fill: false,
            must_not_resize: false,
            no_resize_field: None,
            no_resize_at: None,
            resized_at: None,
            range_step: None,
            read_locations: BTreeSet::new(),
            origin: None,
            prebuilt: None,
        }
    }
}

/// What a list or dict item is, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemRole {
    ListItem,
    DictKey,
    DictValue,
}

impl ItemRole {
    pub fn what(self) -> &'static str {
        match self {
            ItemRole::ListItem => "list items",
            ItemRole::DictKey => "dict keys",
            ItemRole::DictValue => "dict values",
        }
    }
}

/// What a generator graph yields.
#[derive(Clone, Debug)]
pub struct GenInfo {
    /// The generator function's name.
    pub name: Option<Rc<str>>,
    pub s_yield: SomeValue,
    pub read_locations: BTreeSet<Position>,
    pub origin: Option<Span>,
}

pub struct Bookkeeper {
    /// The low-level types the annotations `Ptr`, `InteriorPtr` and `LlType` name (from
    /// `lltype` objects of the program, or handed in by the RTyper for its helpers).
    pub lltypes: crate::lltypesystem::LlTypes,
    /// Objects of the `lltype` model (`STR = GcStruct(...)`) → their low-level type.
    pub lltype_objs: HashMap<ObjId, crate::lltypesystem::LlType>,
    string_structs: Option<(crate::lltypesystem::LlType, crate::lltypesystem::LlType)>,
    pub descs: Vec<Desc>,
    pub desc_of_obj: HashMap<ObjId, DescId>,
    method_descs: HashMap<(DescId, ClassDefId, Option<ClassDefId>, Rc<str>), DescId>,
    /// Memos of the union and instance filter of large PBCs (`pbcmemo`).
    pub pbc_memo: super::pbcmemo::PbcMemo,
    /// `os.environ` (set by the annotator from its space) and the dict definition of its
    /// annotation: the process's environment when the program runs, whatever the
    /// import-time snapshot holds, so its keys and values are any strings.
    pub os_environ: Option<ObjId>,
    pub os_environ_def: Option<DictDefId>,
    methods_of_frozen: HashMap<(DescId, DescId), DescId>,
    /// Functions copied into a class from a `_mixin_` base get one description per class.
    pub mixin_funcs: HashMap<(ObjId, ObjId), DescId>,
    /// The getter and setter of a property defined in a class body, as the methods
    /// `NAME__getter__` / `NAME__setter__` of that class: one description per function,
    /// class and method name (`ClassDesc::add_property_accessors`).
    pub property_funcs: HashMap<(ObjId, ObjId, Rc<str>), DescId>,
    pub classdefs: Vec<ClassDef>,
    /// Attributes moved up to a class whose `_attrs_` forbid them by a read through that
    /// class (reported there): the writes on its subclasses are that same mistake.
    pub attrs_forbidden_by_read: HashSet<(ClassDefId, Rc<str>)>,
    /// Per class and attribute, the first value known code writes to it that is not a
    /// list (`checks::not_a_list`): an attribute that is unknown as a whole (unknown code
    /// writes it too) may still be known not to be a list (`check_immutable_list_fields`).
    pub known_attr_writes: HashMap<(ClassDefId, Rc<str>), SomeValue>,
    pub items: Vec<Item>,
    /// ListDefId → its item.
    pub listdefs: Vec<ItemId>,
    /// DictDefId → (key item, value item).
    pub dictdefs: Vec<(ItemId, ItemId)>,
    /// Each `r_dict(eq, hash)` created: its definition and the two functions.
    pub r_dicts: Vec<(DictDefId, SomeValue, SomeValue)>,
    pub(super) listdef_at: HashMap<(Position, u8), ListDefId>,
    /// The annotation of each `rlib.types` object of a `@signature` (one list or dict
    /// definition per object, as the reference's `types.list()` makes one ListDef).
    pub signature_types: HashMap<ObjId, SomeValue>,
    pub(super) dictdef_at: HashMap<(Position, u8), DictDefId>,
    /// Annotations of prebuilt lists, dicts and instances (one definition per object).
    pub(super) immutable_cache: HashMap<ObjId, SomeValue>,
    /// Generator graphs: what they yield.
    pub generators: HashMap<u32, GenInfo>,
    /// Positions to re-flow, drained by the annotator.
    pub reflow: Vec<Position>,
    /// The operation being annotated.
    pub position: Position,
    pub span: Span,
    /// Warnings produced while annotating (mutation of prebuilt containers…).
    pub warnings: Vec<Diagnostic>,
    /// The annotation (`SomeValue::External`) of each prebuilt instance of a class an
    /// ExtRegistryEntry is about (`_type_`), by instance (see `annotator::extregistry`).
    pub ext_types: HashMap<ObjId, ObjId>,
    /// The classes of those annotations whose pair has a `union` (`pairtype(K, K)`).
    pub ext_unions: HashSet<ObjId>,
    /// The modules `rpython.annotator.model` and `rpython.annotator.bookkeeper` of the
    /// ExtRegistryEntry bridge, once a program imported the bundled extregistry.
    pub ext_bridge: Option<(ObjId, ObjId)>,
    pub(super) warned: HashSet<(&'static str, Span)>,
    /// Class definitions whose `__del__` must still be annotated (called on an instance).
    pub pending_del: Vec<ClassDefId>,
    /// Graphs holding a `jit_merge_point` or `can_enter_jit`: the reference marks their
    /// functions `_dont_reach_me_in_del_` (no `__del__` may reach them, `rtyper::rdel`).
    pub jit_marker_graphs: HashSet<u32>,
    /// Prebuilt `r_dict`s: their definition and the key annotation their equality and hash
    /// functions were last called with (the annotator calls them again when it grows).
    pub prebuilt_r_dicts: Vec<(DictDefId, SomeValue)>,
    /// Bound methods stored into list items and dict keys or values (by item, role and
    /// place: the set of methods stored the last time the store was flowed, i.e. with its
    /// final annotation): judged against the item's final set after the fixpoint
    /// (`checks.rs`), as the typer has no conversion between two sets of methods.
    pub method_stores: HashMap<(ItemId, ItemRole, Span), Rc<[DescId]>>,
    /// The same for bound methods passed as arguments, by the callee's graph and input
    /// variable and the call.
    pub method_args: HashMap<(u32, crate::flowspace::VarId, Span), Rc<[DescId]>>,
    /// Heap ids of the built-in classes the annotator needs, by name.
    pub builtin_classes: HashMap<Rc<str>, ObjId>,
}

impl Bookkeeper {
    /// The structures of str and unicode (`rpy_string`, `rpy_unicode`: a hash and an
    /// inlined array of characters), made in the type arena on first use: the types of
    /// `annlowlevel.llstr()` and of the RTyper's strings.
    pub fn string_types(&mut self) -> (crate::lltypesystem::LlType, crate::lltypesystem::LlType) {
        use crate::lltypesystem::LlType;
        if let Some(t) = self.string_structs {
            return t;
        }
        let types = &mut self.lltypes;
        let mut make = |name: &str, ch: LlType| {
            let chars = types.array(ch);
            types.new_struct(
                name,
                true,
                vec![("hash".into(), LlType::SIGNED), ("chars".into(), chars)],
            )
        };
        let t = (
            make("rpy_string", LlType::CHAR),
            make("rpy_unicode", LlType::UNICHAR),
        );
        // every string is allocated with its terminating NUL (the reference's STR hint);
        // unicode strings are not
        types.set_extra_item_after_alloc(t.0);
        self.string_structs = Some(t);
        t
    }

    pub fn new(heap: &Heap) -> Bookkeeper {
        let mut builtin_classes = HashMap::default();
        for i in 0..heap.len() {
            if let Object::Class(c) = heap.get(ObjId(i as u32)) {
                if c.builtin.is_some() {
                    builtin_classes
                        .entry(c.name.clone())
                        .or_insert(ObjId(i as u32));
                }
            }
        }
        Bookkeeper {
            lltypes: crate::lltypesystem::LlTypes::new(),
            lltype_objs: HashMap::default(),
            string_structs: None,
            descs: Vec::new(),
            desc_of_obj: HashMap::default(),
            method_descs: HashMap::default(),
            pbc_memo: Default::default(),
            os_environ: None,
            os_environ_def: None,
            methods_of_frozen: HashMap::default(),
            mixin_funcs: HashMap::default(),
            property_funcs: HashMap::default(),
            classdefs: Vec::new(),
            attrs_forbidden_by_read: Default::default(),
            known_attr_writes: HashMap::default(),
            items: Vec::new(),
            listdefs: Vec::new(),
            dictdefs: Vec::new(),
            r_dicts: Vec::new(),
            listdef_at: HashMap::default(),
            signature_types: HashMap::default(),
            dictdef_at: HashMap::default(),
            immutable_cache: HashMap::default(),
            generators: HashMap::default(),
            reflow: Vec::new(),
            position: Position {
                graph: 0,
                block: 0,
                op: 0,
            },
            span: Span::default(),
            warnings: Vec::new(),
            ext_types: HashMap::default(),
            ext_unions: HashSet::default(),
            ext_bridge: None,
            warned: HashSet::default(),
            pending_del: Vec::new(),
            jit_marker_graphs: HashSet::default(),
            prebuilt_r_dicts: Vec::new(),
            method_stores: HashMap::default(),
            method_args: HashMap::default(),
            builtin_classes,
        }
    }

    pub fn warn(
        &mut self,
        code: &'static str,
        span: Span,
        msg: String,
        labels: Vec<(Span, String)>,
    ) {
        if !self.warned.insert((code, span)) {
            return;
        }
        let mut d = Diagnostic::new(code, span, msg);
        for (s, m) in labels {
            d = d.with_label(s, m);
        }
        self.warnings.push(d);
    }

    // ----- generators -----

    pub fn read_yield(&mut self, graph: u32) -> SomeValue {
        let pos = self.position;
        let g = self.generators.entry(graph).or_insert(GenInfo {
            name: None,
            s_yield: SomeValue::Impossible,
            read_locations: BTreeSet::new(),
            origin: None,
        });
        g.read_locations.insert(pos);
        g.s_yield.clone()
    }

    pub fn generalize_yield(
        &mut self,
        heap: &Heap,
        graph: u32,
        s: &SomeValue,
    ) -> Result<(), AnnError> {
        let span = self.span;
        let g = self.generators.entry(graph).or_insert(GenInfo {
            name: None,
            s_yield: SomeValue::Impossible,
            read_locations: BTreeSet::new(),
            origin: None,
        });
        let old = g.s_yield.clone();
        let origin = g.origin;
        let new = match self.union(heap, &old, s) {
            Ok(u) => u,
            Err(e) => {
                let mut err = AnnError::new(
                    "RPY201",
                    format!(
                        "this generator yields {} here but {} elsewhere{}",
                        self.describe_type(heap, s),
                        self.describe_type(heap, &old),
                        e.detail_suffix()
                    ),
                )
                .stage_of(&e);
                if let Some(o) = origin {
                    // The later of the two yields is the odd one out.
                    if o.file == span.file && o.start > span.start {
                        err = err
                            .at(o)
                            .label(span, format!("yields {} here", self.describe_type(heap, s)));
                        err.msg = format!(
                            "this generator yields {} here but {} elsewhere{}",
                            self.describe_type(heap, &old),
                            self.describe_type(heap, s),
                            e.detail_suffix()
                        );
                    } else {
                        err =
                            err.label(o, format!("yields {} here", self.describe_type(heap, &old)));
                    }
                }
                return Err(err);
            }
        };
        if !self.eq(heap, &new, &old) {
            let g = self.generators.get_mut(&graph).expect("generator");
            if g.origin.is_none() {
                g.origin = Some(span);
            }
            g.s_yield = new;
            let locs: Vec<Position> = g.read_locations.iter().copied().collect();
            self.reflow.extend(locs);
        }
        Ok(())
    }

    // ----- descriptions -----

    pub fn desc(&self, d: DescId) -> &Desc {
        &self.descs[d.index()]
    }
    pub fn desc_mut(&mut self, d: DescId) -> &mut Desc {
        &mut self.descs[d.index()]
    }
    pub fn add_desc(&mut self, d: Desc) -> DescId {
        self.descs.push(d);
        DescId(self.descs.len() as u32 - 1)
    }

    pub fn getmethoddesc(
        &mut self,
        func: DescId,
        origin: ClassDefId,
        selfclassdef: Option<ClassDefId>,
        name: &Rc<str>,
    ) -> DescId {
        let key = (func, origin, selfclassdef, name.clone());
        if let Some(&d) = self.method_descs.get(&key) {
            return d;
        }
        let d = self.add_desc(Desc::Method(MethodDesc {
            func,
            origin,
            selfclassdef,
            name: name.clone(),
        }));
        self.method_descs.insert(key, d);
        d
    }

    /// A function bound to a frozen prebuilt object (one description per pair).
    pub fn getmethodoffrozen(&mut self, func: DescId, frozen: DescId) -> DescId {
        if let Some(&d) = self.methods_of_frozen.get(&(func, frozen)) {
            return d;
        }
        let d = self.add_desc(Desc::MethodOfFrozen { func, frozen });
        self.methods_of_frozen.insert((func, frozen), d);
        d
    }

    /// The description of a prebuilt function, class, module or frozen object.
    pub fn getdesc(&mut self, heap: &Heap, obj: ObjId) -> Result<DescId, AnnError> {
        if let Some(&d) = self.desc_of_obj.get(&obj) {
            return Ok(d);
        }
        let desc = match heap.get(obj) {
            // an unbound method (`C.f`) is described as its function
            Object::UnboundMethod {
                func: Value::Obj(f),
                ..
            } => {
                let d = self.getdesc(heap, *f)?;
                self.desc_of_obj.insert(obj, d);
                return Ok(d);
            }
            Object::Function(_) => Desc::Function(FunctionDesc::new(heap, obj)),
            Object::Class(_) => {
                let cd = ClassDesc::new(self, heap, obj)?;
                Desc::Class(cd)
            }
            Object::Module(_) | Object::Instance(_) => {
                Desc::Frozen(super::description::FrozenDesc { obj })
            }
            _ => {
                return Err(AnnError::new(
                    "RPY217",
                    "unexpected prebuilt constant".to_string(),
                ))
            }
        };
        let d = self.add_desc(desc);
        self.desc_of_obj.insert(obj, d);
        Ok(d)
    }

    /// The class definition of a user (or exception) class.
    pub fn getuniqueclassdef(&mut self, heap: &Heap, cls: ObjId) -> Result<ClassDefId, AnnError> {
        let d = self.getdesc(heap, cls)?;
        self.classdef_of_desc(heap, d)
    }

    /// An object of the `lltype` model that stands for the low-level type `t` (the lowest
    /// id when several do: equal types are interchangeable).
    pub fn lltype_obj_of(&self, t: crate::lltypesystem::LlType) -> Option<ObjId> {
        self.lltype_objs
            .iter()
            .filter(|(_, &x)| x == t)
            .map(|(&o, _)| o)
            .min_by_key(|o| o.0)
    }

    pub fn class_desc(&self, d: DescId) -> Option<&ClassDesc> {
        match self.desc(d) {
            Desc::Class(c) => Some(c),
            _ => None,
        }
    }

    pub fn classdef(&self, c: ClassDefId) -> &ClassDef {
        &self.classdefs[c.index()]
    }
    pub fn classdef_mut(&mut self, c: ClassDefId) -> &mut ClassDef {
        &mut self.classdefs[c.index()]
    }

    /// Is `cls` (a heap class) an exception class?
    pub fn is_exception_class(heap: &Heap, cls: ObjId) -> bool {
        heap.class(cls).is_some_and(|c| {
            c.mro.iter().any(|&k| {
                heap.class(k)
                    .is_some_and(|k| k.builtin == Some(BuiltinType::BaseException))
            })
        })
    }

    /// Is `cls` a built-in type whose values are annotated by kind, not by class (int, str,
    /// list, object…), as opposed to user classes and exception classes?
    pub fn is_builtin_type(heap: &Heap, cls: ObjId) -> bool {
        heap.class(cls).is_some_and(|c| c.builtin.is_some()) && !Self::is_exception_class(heap, cls)
    }

    pub fn class_name(heap: &Heap, cls: ObjId) -> Rc<str> {
        heap.class(cls)
            .map(|c| c.name.clone())
            .unwrap_or_else(|| Rc::from("?"))
    }
}

/// Deepest nesting of a prebuilt constant the annotator accepts.
pub const MAX_PREBUILT_DEPTH: usize = 500;
