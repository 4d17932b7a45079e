//! List and dict definitions (the reference's `listdef` and `dictdef`): the items every
//! list or dict annotation points to, unified when two definitions meet, generalized when
//! a write widens them, with the positions that read them re-flowed when they change.
//! Takes element annotations and definition ids; gives the shared item annotations.

use super::bookkeeper::{Bookkeeper, Item, ItemRole};
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::objspace::object::Heap;

impl Bookkeeper {
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
                )
                .stage_of(&e);
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
                )
                .stage_of(&e);
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
        // The reference refuses to merge a never-resized list with a resized one; the
        // mark is dropped here rather than reported.
        it.must_not_resize = (it.must_not_resize || b_item.must_not_resize)
            && !(it.resized_outside_fill || b_item.resized_outside_fill);
        if it.no_resize_field.is_none() {
            it.no_resize_field = b_item.no_resize_field.clone();
            it.no_resize_at = b_item.no_resize_at;
        }
        it.resized |= b_item.resized;
        it.resized_outside_fill |= b_item.resized_outside_fill;
        it.resized_at = it.resized_at.or(b_item.resized_at);
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

    /// Marks a list as mutated (items written), warning for prebuilt lists; resizing a list
    /// given to `make_sure_not_resized()` is an error.
    pub fn mutate_list(
        &mut self,
        heap: &Heap,
        def: ListDefId,
        resize: bool,
    ) -> Result<(), AnnError> {
        let it = self.list_item(def);
        let span = self.span;
        let item = &mut self.items[it.index()];
        item.mutated = true;
        if resize && !item.resized_outside_fill {
            if item.must_not_resize {
                let msg = match &item.no_resize_field {
                    Some(f) => format!(
                        "this resizes a list that is also `{f}`, declared with immutable items (`[*]` in `_immutable_fields_`): such a list must keep its length"
                    ),
                    None => "this resizes a list given to make_sure_not_resized(): such a list must keep its length".into(),
                };
                let mut e = AnnError::new("RPY205", msg);
                // where the field met the list: the reference reports there instead when
                // it annotated the resize first
                if let (Some(f), Some(at)) = (&item.no_resize_field, item.no_resize_at) {
                    e = e.label(at, format!("the list is stored in or read from `{f}` here"));
                }
                return Err(e);
            }
            item.resized = true;
            item.resized_outside_fill = true;
            item.resized_at = Some(span);
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
        Ok(())
    }

    /// The `append` of a loop filling a new list (`fill_loops`): a resize the
    /// reference's annotator does not see on the list leaving the loop.
    pub fn fill_list(&mut self, def: ListDefId) {
        let it = self.list_item(def);
        let item = &mut self.items[it.index()];
        item.mutated = true;
        item.resized = true;
    }

    /// `make_sure_not_resized(lst)`: the list must not be resized from now on; a list
    /// resized already is an error (one filled by a loop is a fresh copy after it).
    pub fn never_resize(&mut self, def: ListDefId) -> Result<(), AnnError> {
        let it = self.list_item(def);
        let item = &mut self.items[it.index()];
        if item.resized_outside_fill {
            let mut e = AnnError::new(
                "RPY205",
                "make_sure_not_resized() of a list that is resized (appended to, extended, popped…): the list must keep the length it was made with".into(),
            );
            if let Some(at) = item.resized_at {
                e = e.label(at, "the list is resized here");
            }
            return Err(e);
        }
        item.must_not_resize = true;
        Ok(())
    }

    /// A list stored in or read from field `field` (`Class.field`) declared with immutable
    /// items (`field[*]` in `_immutable_fields_`): as `never_resize`, which the reference
    /// applies to such a list.
    pub fn never_resize_field(&mut self, def: ListDefId, field: &str) -> Result<(), AnnError> {
        let it = self.list_item(def);
        let item = &mut self.items[it.index()];
        let first = !item.must_not_resize;
        if first {
            item.must_not_resize = true;
            item.no_resize_field = Some(std::rc::Rc::from(field));
            item.no_resize_at = Some(self.span);
        }
        // reported once per list (at the first field that meets it resized)
        if item.resized_outside_fill && first {
            let mut e = AnnError::new(
                "RPY205",
                format!("`{field}` is declared with immutable items (`[*]` in `_immutable_fields_`), but this list is resized (appended to, extended, popped…): such a list must keep the length it was made with"),
            );
            if let Some(at) = item.resized_at {
                e = e.label(at, "the list is resized here");
            }
            return Err(e);
        }
        Ok(())
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
}
