//! The bookkeeper: the tables every annotation refers to — descriptions of prebuilt objects,
//! class definitions, list and dict definitions — and the choices made at each position, so
//! that re-flowing a block finds the same definitions again (seed 001, "Mutable Values and
//! Containers"). It also turns import-time values into annotations (`immutablevalue`).

use super::classdef::{ClassDef, ClassDesc};
use super::description::{Desc, FunctionDesc, MethodDesc};
use super::model::*;
use super::AnnError;
use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use crate::objspace::object::{BuiltinType, Heap, IntKind, ObjId, Object, Value};
use crate::syntax::Span;
use std::collections::BTreeSet;
use std::rc::Rc;

/// A list item, or a dict key or value: the element annotation shared by every definition
/// that can meet at run time (a union-find node).
#[derive(Clone, Debug)]
pub struct Item {
    parent: u32,
    pub s_value: SomeValue,
    /// Items were written after creation.
    pub mutated: bool,
    /// The list was resized after creation (append, pop…).
    pub resized: bool,
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
    fn new(id: u32, s_value: SomeValue) -> Item {
        Item {
            parent: id,
            s_value,
            mutated: false,
            resized: false,
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
    pub classdefs: Vec<ClassDef>,
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
    listdef_at: HashMap<(Position, u8), ListDefId>,
    /// The annotation of each `rlib.types` object of a `@signature` (one list or dict
    /// definition per object, as the reference's `types.list()` makes one ListDef).
    pub signature_types: HashMap<ObjId, SomeValue>,
    dictdef_at: HashMap<(Position, u8), DictDefId>,
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
    pub(super) warned: HashSet<(&'static str, Span)>,
    /// Class definitions whose `__del__` must still be annotated (called on an instance).
    pub pending_del: Vec<ClassDefId>,
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
            classdefs: Vec::new(),
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
            warned: HashSet::default(),
            pending_del: Vec::new(),
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

    // ----- items (list and dict definitions) -----

    pub fn new_item(&mut self, s_value: SomeValue) -> ItemId {
        let id = self.items.len() as u32;
        self.items.push(Item::new(id, s_value));
        ItemId(id)
    }

    pub fn find(&self, item: ItemId) -> ItemId {
        let mut i = item.0;
        while self.items[i as usize].parent != i {
            i = self.items[i as usize].parent;
        }
        ItemId(i)
    }

    pub fn item(&self, item: ItemId) -> &Item {
        &self.items[self.find(item).index()]
    }
    pub fn item_mut(&mut self, item: ItemId) -> &mut Item {
        let r = self.find(item);
        &mut self.items[r.index()]
    }

    pub fn list_item(&self, def: ListDefId) -> ItemId {
        self.find(self.listdefs[def.index()])
    }
    pub fn dict_items(&self, def: DictDefId) -> (ItemId, ItemId) {
        let (k, v) = self.dictdefs[def.index()];
        (self.find(k), self.find(v))
    }

    /// The `r_dict(eq, hash)` a dict is (dicts that meet share it): its definition and its
    /// key equality and hash functions; `None` for a plain dict.
    pub fn r_dict_of(&self, def: DictDefId) -> Option<&(DictDefId, SomeValue, SomeValue)> {
        if self.r_dicts.is_empty() {
            return None;
        }
        let root = self.dict_items(def).0;
        self.r_dicts
            .iter()
            .find(|(d, _, _)| self.dict_items(*d).0 == root)
    }

    pub fn new_listdef(&mut self, s_item: SomeValue) -> ListDefId {
        let item = self.new_item(s_item);
        self.listdefs.push(item);
        ListDefId(self.listdefs.len() as u32 - 1)
    }
    pub fn new_dictdef(&mut self) -> DictDefId {
        let k = self.new_item(SomeValue::Impossible);
        let v = self.new_item(SomeValue::Impossible);
        self.dictdefs.push((k, v));
        DictDefId(self.dictdefs.len() as u32 - 1)
    }

    /// The list definition of the current position (the same one when the block is
    /// re-flowed); `tag` tells apart several lists made by one operation.
    pub fn listdef_here(&mut self, tag: u8) -> ListDefId {
        let key = (self.position, tag);
        if let Some(&d) = self.listdef_at.get(&key) {
            return d;
        }
        let d = self.new_listdef(SomeValue::Impossible);
        self.listdef_at.insert(key, d);
        d
    }
    pub fn dictdef_here(&mut self, tag: u8) -> DictDefId {
        let key = (self.position, tag);
        if let Some(&d) = self.dictdef_at.get(&key) {
            return d;
        }
        let d = self.new_dictdef();
        self.dictdef_at.insert(key, d);
        d
    }

    /// A list of the current position, general enough for `s_items`.
    pub fn newlist(
        &mut self,
        heap: &Heap,
        tag: u8,
        s_items: &[SomeValue],
        range_step: Option<i64>,
    ) -> Result<SomeValue, AnnError> {
        let is_new = !self.listdef_at.contains_key(&(self.position, tag));
        let def = self.listdef_here(tag);
        if let Some(step) = range_step {
            let it = self.list_item(def);
            let item = &mut self.items[it.index()];
            item.range_step = match item.range_step {
                _ if is_new => Some(step),
                Some(s) if s == step => Some(s),
                Some(_) => Some(0),
                None => None,
            };
        }
        for s in s_items {
            self.generalize_list(heap, def, s)?;
        }
        Ok(SomeValue::List { def, konst: None })
    }

    /// Records that the current position reads the item.
    pub fn read_item(&mut self, item: ItemId) -> SomeValue {
        let pos = self.position;
        let it = self.item_mut(item);
        it.read_locations.insert(pos);
        it.s_value.clone()
    }
    pub fn read_list_item(&mut self, def: ListDefId) -> SomeValue {
        let it = self.list_item(def);
        self.read_item(it)
    }
    pub fn read_dict_key(&mut self, def: DictDefId) -> SomeValue {
        let (k, _) = self.dict_items(def);
        self.read_item(k)
    }
    pub fn read_dict_value(&mut self, def: DictDefId) -> SomeValue {
        let (_, v) = self.dict_items(def);
        self.read_item(v)
    }

    fn notify(&mut self, item: ItemId) {
        let r = self.find(item);
        self.reflow
            .extend(self.items[r.index()].read_locations.iter().copied());
    }

    /// Generalizes an item to contain `s`; re-flows its readers when it changes.
    pub fn generalize_item(
        &mut self,
        heap: &Heap,
        item: ItemId,
        s: &SomeValue,
        role: ItemRole,
    ) -> Result<bool, AnnError> {
        if let SomeValue::Pbc { descs, .. } = s {
            if descs
                .first()
                .is_some_and(|&d| matches!(self.desc(d), Desc::Method(_)))
            {
                self.method_stores
                    .insert((item, role, self.span), descs.clone());
            }
        }
        let r = self.find(item);
        let old = self.items[r.index()].s_value.clone();
        let new = match self.union(heap, &old, s) {
            Ok(u) => u,
            Err(e) => {
                let origin = self.items[self.find(item).index()].origin;
                let mut err = AnnError::new(
                    "RPY202",
                    format!(
                        "{} cannot be both {} and {}{}",
                        role.what(),
                        self.describe_type(heap, &old),
                        self.describe_type(heap, s),
                        e.detail_suffix()
                    ),
                );
                if let Some(o) = origin {
                    err = err.label(
                        o,
                        format!(
                            "{} are {} because of this",
                            role.what(),
                            self.describe_type(heap, &old)
                        ),
                    );
                }
                return Err(err);
            }
        };
        if self.eq(heap, &new, &old) {
            return Ok(false);
        }
        let span = self.span;
        let r = self.find(item);
        let it = &mut self.items[r.index()];
        if old.is_impossible() || it.origin.is_none() {
            it.origin = Some(span);
        }
        it.s_value = new;
        self.notify(r);
        Ok(true)
    }

    pub fn generalize_list(
        &mut self,
        heap: &Heap,
        def: ListDefId,
        s: &SomeValue,
    ) -> Result<bool, AnnError> {
        let it = self.listdefs[def.index()];
        self.generalize_item(heap, it, s, ItemRole::ListItem)
    }
    pub fn generalize_key(
        &mut self,
        heap: &Heap,
        def: DictDefId,
        s: &SomeValue,
    ) -> Result<bool, AnnError> {
        let (k, _) = self.dictdefs[def.index()];
        self.generalize_item(heap, k, s, ItemRole::DictKey)
    }
    pub fn generalize_value(
        &mut self,
        heap: &Heap,
        def: DictDefId,
        s: &SomeValue,
    ) -> Result<bool, AnnError> {
        let (_, v) = self.dictdefs[def.index()];
        self.generalize_item(heap, v, s, ItemRole::DictValue)
    }

    /// Merges two items (their definitions met): one annotation, flags and readers.
    pub fn merge_items(
        &mut self,
        heap: &Heap,
        a: ItemId,
        b: ItemId,
        role: ItemRole,
    ) -> Result<(), AnnError> {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return Ok(());
        }
        let (sa, sb) = (
            self.items[ra.index()].s_value.clone(),
            self.items[rb.index()].s_value.clone(),
        );
        let (oa, ob) = (self.items[ra.index()].origin, self.items[rb.index()].origin);
        // Link first so that recursive structures terminate.
        self.items[rb.index()].parent = ra.0;
        let new = match self.union(heap, &sa, &sb) {
            Ok(u) => u,
            Err(e) => {
                self.items[rb.index()].parent = rb.0;
                let mut err = AnnError::new(
                    "RPY202",
                    format!(
                        "{} cannot be both {} and {}{}",
                        role.what(),
                        self.describe_type(heap, &sa),
                        self.describe_type(heap, &sb),
                        e.detail_suffix()
                    ),
                );
                if let Some(o) = oa {
                    err = err.label(o, format!("{} here", self.describe_type(heap, &sa)));
                }
                if let Some(o) = ob {
                    err = err.label(o, format!("{} here", self.describe_type(heap, &sb)));
                }
                return Err(err);
            }
        };
        let b_item = self.items[rb.index()].clone();
        let changed_a = !self.eq(heap, &new, &sa);
        let changed_b = !self.eq(heap, &new, &sb);
        let ra = self.find(ra);
        let it = &mut self.items[ra.index()];
        it.mutated |= b_item.mutated;
        it.resized |= b_item.resized;
        if it.range_step != b_item.range_step {
            it.range_step = match (it.range_step, b_item.range_step) {
                (Some(_), Some(_)) => Some(0),
                _ => None,
            };
        }
        if it.origin.is_none() {
            it.origin = b_item.origin;
        }
        if it.prebuilt.is_none() {
            it.prebuilt = b_item.prebuilt;
        }
        it.s_value = new;
        it.read_locations.extend(b_item.read_locations);
        if changed_a || changed_b {
            self.notify(ra);
        }
        Ok(())
    }

    pub fn merge_listdefs(
        &mut self,
        heap: &Heap,
        a: ListDefId,
        b: ListDefId,
    ) -> Result<(), AnnError> {
        let (ia, ib) = (self.listdefs[a.index()], self.listdefs[b.index()]);
        self.merge_items(heap, ia, ib, ItemRole::ListItem)
    }
    pub fn merge_dictdefs(
        &mut self,
        heap: &Heap,
        a: DictDefId,
        b: DictDefId,
    ) -> Result<(), AnnError> {
        let ((ka, va), (kb, vb)) = (self.dictdefs[a.index()], self.dictdefs[b.index()]);
        self.merge_items(heap, ka, kb, ItemRole::DictKey)?;
        self.merge_items(heap, va, vb, ItemRole::DictValue)
    }

    /// `lst1` and `lst2` must hold the same items from now on (`extend`, `==`, slices).
    pub fn agree_lists(&mut self, heap: &Heap, a: ListDefId, b: ListDefId) -> Result<(), AnnError> {
        let sa = self.read_list_item(a);
        let sb = self.read_list_item(b);
        self.generalize_list(heap, a, &sb)?;
        self.generalize_list(heap, b, &sa)?;
        Ok(())
    }

    /// A new list (of the current position) whose items can hold those of the given lists,
    /// which are generalized in turn (`lst[a:b]`, `lst + lst2`, `lst * n`).
    pub fn offspring(&mut self, heap: &Heap, defs: &[ListDefId]) -> Result<SomeValue, AnnError> {
        let values: Vec<SomeValue> = defs.iter().map(|&d| self.read_list_item(d)).collect();
        let s_new = self.newlist(heap, 0, &values, None)?;
        let SomeValue::List { def: newdef, .. } = s_new else {
            unreachable!()
        };
        let s_item = self.read_list_item(newdef);
        for &d in defs {
            self.generalize_list(heap, d, &s_item)?;
        }
        Ok(s_new)
    }

    /// Marks a list as mutated (items written), warning for prebuilt lists.
    pub fn mutate_list(&mut self, heap: &Heap, def: ListDefId, resize: bool) {
        let it = self.list_item(def);
        let span = self.span;
        let item = &mut self.items[it.index()];
        item.mutated = true;
        if resize {
            item.resized = true;
        }
        if item.prebuilt.is_some() {
            let what = if resize { "resizes" } else { "modifies" };
            let msg = format!(
                "this {} a prebuilt list ({}): module-level lists are prebuilt, so the translated program starts from their import-time contents and shares one list between all callers; state is clearer on an instance",
                what,
                self.describe_type(heap, &SomeValue::List { def, konst: None })
            );
            self.warn("RPY212", span, msg, Vec::new());
        }
    }
    pub fn mutate_dict(&mut self, heap: &Heap, def: DictDefId) {
        let (k, _) = self.dict_items(def);
        let span = self.span;
        // os.environ[k] = v sets the variable of the running process (putenv)
        if self.items[k.index()].prebuilt.is_some() && self.os_environ_def != Some(def) {
            let msg = format!(
                "this modifies a prebuilt dict ({}): module-level dicts are prebuilt, so the translated program starts from their import-time contents and shares one dict between all callers; state is clearer on an instance",
                self.describe_type(heap, &SomeValue::Dict { def, konst: None })
            );
            self.warn("RPY212", span, msg, Vec::new());
        }
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
                );
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

    // ----- import-time values → annotations -----

    /// The most precise annotation of a prebuilt value.
    pub fn immutablevalue(&mut self, heap: &Heap, v: Value) -> Result<SomeValue, AnnError> {
        Ok(match v {
            Value::None => SomeValue::None,
            Value::Bool(b) => SomeValue::const_bool(b),
            Value::Int(i) => SomeValue::Integer {
                nonneg: i >= 0,
                kind: IntKind::Signed,
                konst: Some(v),
            },
            Value::Float(_) => SomeValue::Float { konst: Some(v) },
            Value::Obj(id) => return self.immutable_obj(heap, id),
        })
    }

    fn immutable_obj(&mut self, heap: &Heap, id: ObjId) -> Result<SomeValue, AnnError> {
        // Prebuilt containers nested without bound (built by a loop at import time) would
        // make this recursion, and every later one over the annotation, overflow the stack.
        thread_local! {
            static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        }
        let depth = DEPTH.with(|d| d.get());
        if depth >= MAX_PREBUILT_DEPTH {
            return Err(AnnError::new(
                "RPY217",
                format!("a prebuilt constant is nested more than {MAX_PREBUILT_DEPTH} levels deep"),
            ));
        }
        DEPTH.with(|d| d.set(depth + 1));
        let r = self.immutable_obj_inner(heap, id);
        DEPTH.with(|d| d.set(depth));
        r
    }

    fn immutable_obj_inner(&mut self, heap: &Heap, id: ObjId) -> Result<SomeValue, AnnError> {
        let v = Value::Obj(id);
        if let Some(what) = import_time_model_of(heap, id) {
            return Ok(SomeValue::Unknown(Rc::from(what)));
        }
        Ok(match heap.get(id) {
            // a prebuilt bytearray: never a constant (it is mutable)
            Object::ByteArray(_) => SomeValue::ByteArray,
            Object::Str(s) => {
                let no_nul = !s.contains(&0);
                if s.len() == 1 {
                    SomeValue::Char {
                        no_nul,
                        konst: Some(v),
                    }
                } else {
                    SomeValue::Str {
                        can_be_none: false,
                        no_nul,
                        konst: Some(v),
                    }
                }
            }
            Object::Unicode(s) => {
                let no_nul = !s.contains('\0');
                if s.chars().count() == 1 {
                    SomeValue::UnicodeCodePoint {
                        no_nul,
                        konst: Some(v),
                    }
                } else {
                    SomeValue::Unicode {
                        can_be_none: false,
                        no_nul,
                        konst: Some(v),
                    }
                }
            }
            // as a function (the reference's annotator takes an unbound method's im_func)
            Object::UnboundMethod { func, .. } => {
                if matches!(func, Value::Obj(f) if matches!(heap.get(*f), Object::Function(_))) {
                    // (the later stages find the function's description from either object)
                    self.getdesc(heap, id)?;
                }
                return self.immutablevalue(heap, *func);
            }
            Object::Complex(re, im) => {
                return Err(AnnError::new(
                    "RPY217",
                    format!(
                        "complex numbers are not RPython: the constant {} cannot be used at run time (only folded away, as in `print` or `str()` of a constant)",
                        crate::objspace::format::complex_format(*re, *im, true)
                    ),
                ))
            }
            Object::Long(i) => {
                if let Ok(small) = i64::try_from(*i) {
                    SomeValue::Integer {
                        nonneg: small >= 0,
                        kind: IntKind::Signed,
                        konst: Some(Value::Int(small)),
                    }
                } else if (0..=u64::MAX as i128).contains(i) {
                    SomeValue::Integer {
                        nonneg: true,
                        kind: IntKind::ULongLong,
                        konst: None,
                    }
                } else {
                    return Err(AnnError::new(
                        "RPY217",
                        format!(
                            "a prebuilt long integer ({}) does not fit in a machine word",
                            i
                        ),
                    ));
                }
            }
            Object::Unknown {
                instance_of: Some(cls),
                ..
            } => {
                // A prebuilt instance of a class deriving from a built-in type: as the
                // class's own definition, it cannot be annotated.
                let d = self.getdesc(heap, *cls)?;
                self.classdef_of_desc(heap, d)?;
                return Err(AnnError::new(
                    "RPY219",
                    "a prebuilt instance of a class deriving from a built-in type".to_string(),
                ));
            }
            Object::Unknown { name, .. } => SomeValue::Unknown(name.clone()),
            Object::RInt { kind, value } => SomeValue::Integer {
                nonneg: *value >= 0 || is_unsigned(*kind),
                kind: *kind,
                konst: Some(v),
            },
            Object::Tuple(items) => {
                let items = items.clone();
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.immutablevalue(heap, x)?);
                }
                SomeValue::Tuple(out.into())
            }
            Object::List(items) => {
                if let Some(s) = self.immutable_cache.get(&id) {
                    return Ok(s.clone());
                }
                let def = self.new_listdef(SomeValue::Impossible);
                let s = SomeValue::List {
                    def,
                    konst: Some(v),
                };
                self.immutable_cache.insert(id, s.clone());
                let items = items.clone();
                for x in items {
                    let sx = self.immutablevalue(heap, x)?;
                    self.generalize_list(heap, def, &sx)?;
                }
                s
            }
            Object::Dict(d) => {
                if let Some(s) = self.immutable_cache.get(&id) {
                    return Ok(s.clone());
                }
                let def = self.new_dictdef();
                let s = SomeValue::Dict {
                    def,
                    konst: Some(v),
                };
                self.immutable_cache.insert(id, s.clone());
                let entries = d.entries.clone();
                for (ek, ev) in entries {
                    let sk = self.immutablevalue(heap, ek)?;
                    let sv = self.immutablevalue(heap, ev)?;
                    self.generalize_key(heap, def, &sk)?;
                    self.generalize_value(heap, def, &sv)?;
                }
                if self.os_environ == Some(id) {
                    self.os_environ_def = Some(def);
                    self.generalize_key(heap, def, &SomeValue::string0(true))?;
                    self.generalize_value(heap, def, &SomeValue::string0(true))?;
                }
                s
            }
            Object::Set(_) => {
                return Err(AnnError::new(
                    "RPY217",
                    "sets are not RPython: use a dict with None values".to_string(),
                ))
            }
            Object::Function(_) => SomeValue::pbc(vec![self.getdesc(heap, id)?]),
            Object::Builtin {
                id: crate::builtins::BuiltinId::RweakrefDeadRef,
                bound_self: None,
            } => SomeValue::WeakRef { classdef: None },
            // a weak reference made at import time: to its object's class
            Object::Builtin {
                id: crate::builtins::BuiltinId::WeakrefPrebuilt,
                bound_self: Some(x),
            } => {
                let x = *x;
                match self.immutablevalue(heap, x)? {
                    SomeValue::Instance { classdef, .. } => SomeValue::WeakRef {
                        classdef: Some(classdef),
                    },
                    other => {
                        return Err(AnnError::new(
                            "RPY218",
                            format!(
                                "weakref.ref() needs an instance, not {}",
                                self.describe_type(heap, &other)
                            ),
                        ))
                    }
                }
            }
            Object::Builtin {
                id,
                bound_self: None,
            } => SomeValue::Builtin {
                id: *id,
                s_self: None,
            },
            Object::Builtin {
                id,
                bound_self: Some(s),
            } => {
                let (id, s) = (*id, *s);
                let s_self = self.immutablevalue(heap, s)?;
                SomeValue::BuiltinMethod {
                    id,
                    s_self: Rc::new(s_self),
                }
            }
            Object::Class(_) => {
                if Self::is_builtin_type(heap, id) {
                    SomeValue::Type {
                        konst: Some(v),
                        of: None,
                    }
                } else {
                    SomeValue::pbc(vec![self.getdesc(heap, id)?])
                }
            }
            Object::Instance(inst) => {
                let cls = inst.class;
                if self.is_frozen_instance(heap, id) {
                    SomeValue::pbc(vec![self.getdesc(heap, id)?])
                } else if Self::is_builtin_type(heap, cls) {
                    return Err(AnnError::new(
                        "RPY217",
                        format!(
                            "don't know how to represent a prebuilt `{}` object",
                            Self::class_name(heap, cls)
                        ),
                    ));
                } else {
                    if let Some(s) = self.immutable_cache.get(&id) {
                        return Ok(s.clone());
                    }
                    let cd = self.getuniqueclassdef(heap, cls)?;
                    let s = SomeValue::Instance {
                        classdef: cd,
                        can_be_none: false,
                        konst: Some(v),
                    };
                    self.immutable_cache.insert(id, s.clone());
                    self.see_instance(heap, cd, id)?;
                    s
                }
            }
            Object::Module(_) => SomeValue::pbc(vec![self.getdesc(heap, id)?]),
            Object::BoundMethod { func, self_value } => {
                let (func, self_value) = (*func, *self_value);
                let Value::Obj(fid) = func else {
                    return Err(AnnError::new(
                        "RPY217",
                        "unexpected bound method".to_string(),
                    ));
                };
                let fdesc = self.getdesc(heap, fid)?;
                match self_value {
                    Value::Obj(sid)
                        if self.is_frozen_instance(heap, sid)
                            || matches!(heap.get(sid), Object::Module(_)) =>
                    {
                        let frozen = self.getdesc(heap, sid)?;
                        SomeValue::pbc(vec![self.getmethodoffrozen(fdesc, frozen)])
                    }
                    Value::Obj(sid) if matches!(heap.get(sid), Object::Instance(_)) => {
                        let Object::Instance(inst) = heap.get(sid) else {
                            unreachable!()
                        };
                        let cls = inst.class;
                        let name = match heap.get(fid) {
                            Object::Function(f) => f.name.clone(),
                            _ => Rc::from("?"),
                        };
                        // The class where the function is found along the MRO.
                        let origin_cls = heap
                            .class(cls)
                            .and_then(|c| {
                                c.mro.iter().copied().find(|&k| {
                                    heap.class(k)
                                        .is_some_and(|kc| kc.dict.iter().any(|(_, v)| v == func))
                                })
                            })
                            .unwrap_or(cls);
                        let attr = heap
                            .class(origin_cls)
                            .and_then(|c| {
                                c.dict
                                    .iter()
                                    .find(|(_, v)| *v == func)
                                    .map(|(n, _)| n.clone())
                            })
                            .unwrap_or(name);
                        let origin = self.getuniqueclassdef(heap, origin_cls)?;
                        let selfdef = self.getuniqueclassdef(heap, cls)?;
                        self.see_instance(heap, selfdef, sid)?;
                        self.find_attribute(heap, selfdef, &attr)?;
                        let d = self.getmethoddesc(fdesc, origin, Some(selfdef), &attr);
                        SomeValue::pbc(vec![d])
                    }
                    Value::Obj(sid) if heap.class(sid).is_some() => {
                        return Err(AnnError::new(
                            "RPY217",
                            "classmethods are not supported".to_string(),
                        ));
                    }
                    _ => {
                        return Err(AnnError::new(
                            "RPY217",
                            "unexpected bound method".to_string(),
                        ))
                    }
                }
            }
            Object::StaticMethod(f) => return self.immutablevalue(heap, *f),
            Object::ClassMethod(_) => {
                return Err(AnnError::new(
                    "RPY217",
                    "classmethods are not supported".to_string(),
                ))
            }
            Object::Property { .. } => {
                return Err(AnnError::new(
                    "RPY217",
                    "a property object cannot be used as a value".to_string(),
                ))
            }
            Object::Iterator(_) => {
                return Err(AnnError::new(
                    "RPY217",
                    "a prebuilt iterator cannot be used at run time".to_string(),
                ))
            }
            Object::Cell(_)
            | Object::Code(_)
            | Object::Slice(..)
            | Object::Ellipsis
            | Object::NotImplemented => {
                return Err(AnnError::new(
                    "RPY217",
                    "this prebuilt object has no RPython representation".to_string(),
                ))
            }
        })
    }

    /// A prebuilt list or dict used directly as a constant (a module global, a default
    /// argument): modifying it at run time deserves a warning. Lists reached through the
    /// attributes of prebuilt instances are mutable state and are not marked.
    pub fn mark_prebuilt(&mut self, s: &SomeValue) {
        match s {
            SomeValue::List {
                def,
                konst: Some(v),
            } => {
                let it = self.list_item(*def);
                self.items[it.index()].prebuilt.get_or_insert(*v);
            }
            SomeValue::Dict {
                def,
                konst: Some(v),
            } => {
                let (k, _) = self.dict_items(*def);
                self.items[k.index()].prebuilt.get_or_insert(*v);
            }
            SomeValue::BuiltinMethod { s_self, .. } => self.mark_prebuilt(s_self),
            _ => {}
        }
    }

    /// Prebuilt instances whose class defines `_freeze_` are frozen PBCs.
    pub fn is_frozen_instance(&self, heap: &Heap, obj: ObjId) -> bool {
        match heap.get(obj) {
            Object::Instance(inst) => heap.class(inst.class).is_some_and(|c| {
                c.mro.iter().any(|&k| {
                    heap.class(k)
                        .is_some_and(|kc| kc.dict.contains("_freeze_") && kc.builtin.is_none())
                })
            }),
            _ => false,
        }
    }

    /// The annotation of an instance of a class given as a type (`isinstance` narrowing).
    pub fn valueoftype(&mut self, heap: &Heap, cls: ObjId) -> Option<SomeValue> {
        let c = heap.class(cls)?;
        if Self::is_builtin_type(heap, cls) {
            return Some(match c.builtin? {
                BuiltinType::Int => SomeValue::int(),
                BuiltinType::Bool => SomeValue::bool(),
                BuiltinType::Float => SomeValue::float(),
                BuiltinType::Str => SomeValue::string(),
                BuiltinType::Unicode => SomeValue::unicode(false),
                _ => match &*c.name {
                    "r_uint" => SomeValue::int_of_kind(IntKind::Unsigned, true),
                    "r_longlong" => SomeValue::int_of_kind(IntKind::LongLong, false),
                    "r_ulonglong" => SomeValue::int_of_kind(IntKind::ULongLong, true),
                    _ => return None,
                },
            });
        }
        let cd = self.getuniqueclassdef(heap, cls).ok()?;
        Some(SomeValue::instance(cd))
    }

    /// The constant a PBC annotation stands for (a single prebuilt object).
    pub fn pbc_const(&self, s: &SomeValue) -> Option<Value> {
        match s {
            SomeValue::Pbc {
                descs,
                can_be_none: false,
            } if descs.len() == 1 => self.desc_obj(descs[0]).map(Value::Obj),
            _ => s.konst(),
        }
    }

    /// The import-time object a description stands for.
    pub fn desc_obj(&self, d: DescId) -> Option<ObjId> {
        match self.desc(d) {
            Desc::Function(f) => Some(f.func),
            Desc::Class(c) => Some(c.cls),
            Desc::Frozen(f) => Some(f.obj),
            Desc::Method(_) | Desc::MethodOfFrozen { .. } => None,
        }
    }
}

/// Deepest nesting of a prebuilt constant the annotator accepts.
pub const MAX_PREBUILT_DEPTH: usize = 500;

/// Bundled models of libraries that only run at import time (`re`): their objects reach
/// translated code only through the reference's own machinery (rply gives `re` patterns an
/// rsre-based translation), which rpy-lsp does not model, so there they are unknown.
const IMPORT_TIME_MODELS: &[&str] = &["re"];

/// The model an object (module, function, class or instance) belongs to, if it is one of
/// [`IMPORT_TIME_MODELS`].
fn import_time_model_of(heap: &Heap, id: ObjId) -> Option<&'static str> {
    let module = match heap.get(id) {
        Object::Module(_) => Some(id),
        Object::Function(f) => Some(f.globals),
        Object::Class(c) => c.module,
        Object::Instance(i) => heap.class(i.class).and_then(|c| c.module),
        Object::BoundMethod {
            func: Value::Obj(f),
            ..
        } => heap.function(Value::Obj(*f)).map(|f| f.globals),
        _ => None,
    }?;
    match heap.get(module) {
        Object::Module(m) if m.bundled => {
            IMPORT_TIME_MODELS.iter().copied().find(|n| **n == *m.name)
        }
        _ => None,
    }
}
