//! Generated dicts: the RTyper's ordered layout (`dict {num_live, num_used, entries,
//! indexes}`, entries `{key, value, live}` in insertion order) with an open-addressing
//! hash index (`indexes`: entry numbers, -1 for a free slot; a slot whose entry is dead
//! is a tombstone). A prebuilt dict has no index: the first lookup builds it.

use super::helpers::{roots, Helpers};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::LlType;
use std::fmt::Write;

/// What a dict type is made of.
struct DictT {
    /// the dict structure's C pointer type
    cty: String,
    entries_tid: u32,
    index_tid: u32,
    key: LlType,
    value: LlType,
    /// an r_dict: the key's equality and hash are the program's functions (`fneq`,
    /// `fnhash` fields); looked up by a scan of the entries
    custom: bool,
}

impl Helpers<'_, '_> {
    fn dict_t(&self, t: LlType) -> Option<DictT> {
        let db = self.db();
        let types = db.types();
        let st = types.pointee(t)?;
        let entries = types.pointee(types.field_type(st, "entries")?)?;
        let index = types.pointee(types.field_type(st, "indexes")?)?;
        let entry = types.array_item(entries)?;
        Some(DictT {
            cty: db.ctype(t),
            entries_tid: db.tid(entries),
            index_tid: db.tid(index),
            key: types.field_type(entry, "key")?,
            value: types.field_type(entry, "value")?,
            custom: types.field_type(st, "fneq").is_some(),
        })
    }

    /// The per-type core: lookup, index rebuild, insert, delete. Returns the suffix of
    /// their names.
    fn dict_core(&mut self, t: LlType) -> Option<String> {
        let d = self.dict_t(t)?;
        let sfx = format!("{}", t.0);
        if !self.mark_done("dictcore", t) {
            return Some(sfx);
        }
        let db = self.db();
        if d.custom {
            return self.dict_core_custom(t, &d, sfx);
        }
        let eq = self.eq_fn(d.key)?;
        let hash = self.hash_fn(d.key)?;
        let kdecl = db.decl(d.key, "k");
        let kgc = db.types().is_gc_ptr(d.key);
        let vgc = db.types().is_gc_ptr(d.value);
        let has_v = d.value != LlType::VOID;
        let dt = &d.cty;
        // rebuild the index (and compact the entries when many are dead); may collect
        let mut b = String::new();
        let _ = writeln!(
            b,
            "    long live = d->num_live, size = 8;\n    while (size * 2 <= (live + 1) * 3) size *= 2;\n    if (d->num_used > live) {{\n        /* compact in place, keeping the order */\n        long j = 0;\n        for (long i = 0; i < d->num_used; i++) if (d->entries->items[i].live) {{ if (i != j) d->entries->items[j] = d->entries->items[i]; j++; }}\n        for (long i = j; i < d->num_used; i++) memset(&d->entries->items[i], 0, sizeof(d->entries->items[i]));\n        d->num_used = j;\n    }}\n    RPY_PUSH_ROOT(d);\n    struct rpy_array *ix = rpy_gc_malloc_varsize({}, size);\n    RPY_POP_ROOT(d);\n    long *slots = (long *)ix->items;\n    for (long i = 0; i < size; i++) slots[i] = -1;\n    for (long i = 0; i < d->num_used; i++) {{\n        unsigned long h = (unsigned long){}(d->entries->items[i].key), p = h;\n        long s = (long)(h & (unsigned long)(size - 1));\n        while (slots[s] != -1) {{ s = (long)((unsigned long)(s * 5 + 1 + p) & (unsigned long)(size - 1)); p >>= 5; }}\n        slots[s] = i;\n    }}\n    RPY_WB(d);\n    d->indexes = (void *)ix;",
            d.index_tid, hash
        );
        self.add_fn(format!("static void rpy_dict_reindex{}({} d)", sfx, dt), b);
        // lookup: the entry number of key k, or -1; may collect (a missing index)
        let mut b = String::new();
        let _ = writeln!(
            b,
            "    if (d->indexes == NULL) {{\n        /* a prebuilt dict before main() indexed it, or a new one: a scan (no\n           allocation here: the callers of a lookup do not expect a collection) */\n        for (long i = 0; i < d->num_used; i++)\n            if (d->entries->items[i].live && {}(d->entries->items[i].key, k)) return i;\n        return -1;\n    }}\n    long size = d->indexes->length;\n    long *slots = d->indexes->items;\n    unsigned long h = (unsigned long){}(k), p = h;\n    long s = (long)(h & (unsigned long)(size - 1));\n    for (;;) {{\n        long e = slots[s];\n        if (e == -1) return -1;\n        if (d->entries->items[e].live && {}(d->entries->items[e].key, k)) return e;\n        s = (long)((unsigned long)(s * 5 + 1 + p) & (unsigned long)(size - 1));\n        p >>= 5;\n    }}",
            eq,
            hash,
            eq
        );
        self.add_fn(
            format!("static long rpy_dict_lookup{}({} d, {})", sfx, dt, kdecl),
            b,
        );
        // insert a key known to be absent; may collect
        let vdecl = if has_v {
            format!(", {}", db.decl(d.value, "v"))
        } else {
            String::new()
        };
        let (push, pop) = roots(&[("d", true), ("k", kgc), ("v", vgc)]);
        let mut b = String::new();
        let _ = writeln!(
            b,
            "    if (d->num_used >= d->entries->length) {{\n        if (d->num_live * 2 <= d->num_used && d->num_used > 0) {{\n            {}\n            rpy_dict_reindex{}(d);\n            {}\n        }}\n        if (d->num_used >= d->entries->length) {{\n            long cap = d->entries->length * 2 + 8;\n            {}\n            struct rpy_array *ne = rpy_gc_malloc_varsize({}, cap);\n            {}\n            memcpy(ne->items, d->entries->items, (size_t)d->num_used * sizeof(d->entries->items[0]));\n            RPY_WB(ne);\n            RPY_WB(d);\n            d->entries = (void *)ne;\n        }}\n    }}\n    if (d->indexes == NULL || (d->num_used + 1) * 3 >= d->indexes->length * 2) {{\n        {}\n        rpy_dict_reindex{}(d);\n        {}\n    }}",
            push, sfx, pop, push, d.entries_tid, pop, push, sfx, pop
        );
        let _ = writeln!(
            b,
            "    long e = d->num_used, size = d->indexes->length;\n    long *slots = d->indexes->items;\n    unsigned long h = (unsigned long){}(k), p = h;\n    long s = (long)(h & (unsigned long)(size - 1));\n    while (slots[s] != -1) {{ s = (long)((unsigned long)(s * 5 + 1 + p) & (unsigned long)(size - 1)); p >>= 5; }}\n    slots[s] = e;\n    {}d->entries->items[e].key = k;\n{}    d->entries->items[e].live = 1;\n    d->num_used = e + 1;\n    d->num_live += 1;",
            hash,
            if kgc || vgc { "RPY_WB(d->entries);\n    " } else { "" },
            if has_v {
                "    d->entries->items[e].value = v;\n"
            } else {
                ""
            }
        );
        self.add_fn(
            format!(
                "static void rpy_dict_insert{}({} d, {}{})",
                sfx, dt, kdecl, vdecl
            ),
            b,
        );
        self.dict_del_and_new(t, &d, &sfx)?;
        Some(sfx)
    }

    /// The core of an r_dict: a scan of the entries with the program's equality (which
    /// may collect: the dict and the key stay on the shadow stack), no hash index.
    fn dict_core_custom(&mut self, t: LlType, d: &DictT, sfx: String) -> Option<String> {
        let db = self.db();
        let dt = &d.cty;
        let kdecl = db.decl(d.key, "k");
        let kt = db.ctype(d.key);
        let b = format!(
            "    RPY_PUSH_ROOT(d); RPY_PUSH_ROOT(k);\n    for (long i = 0; ; i++) {{\n        d = ({dt})rpy_root_top[-2];\n        k = ({kt})rpy_root_top[-1];\n        if (i >= d->num_used) break;\n        if (!d->entries->items[i].live) continue;\n        if (d->fneq(d->entries->items[i].key, k)) {{ rpy_root_top -= 2; return i; }}\n    }}\n    rpy_root_top -= 2;\n    return -1;\n"
        );
        self.add_fn(
            format!("static long rpy_dict_lookup{}({} d, {})", sfx, dt, kdecl),
            b,
        );
        let has_v = d.value != LlType::VOID;
        let vdecl = if has_v {
            format!(", {}", db.decl(d.value, "v"))
        } else {
            String::new()
        };
        let kgc = db.types().is_gc_ptr(d.key);
        let vgc = db.types().is_gc_ptr(d.value);
        let (push, pop) = roots(&[("d", true), ("k", kgc), ("v", vgc)]);
        let b = format!(
            "    if (d->num_used >= d->entries->length) {{\n        long cap = d->entries->length * 2 + 8;\n        {}\n        struct rpy_array *ne = rpy_gc_malloc_varsize({}, cap);\n        {}\n        memcpy(ne->items, d->entries->items, (size_t)d->num_used * sizeof(d->entries->items[0]));\n        RPY_WB(ne);\n        RPY_WB(d);\n        d->entries = (void *)ne;\n    }}\n    long e = d->num_used;\n    RPY_WB(d->entries);\n    d->entries->items[e].key = k;\n{}    d->entries->items[e].live = 1;\n    d->num_used = e + 1;\n    d->num_live += 1;\n",
            push,
            d.entries_tid,
            pop,
            if has_v { "    d->entries->items[e].value = v;\n" } else { "" }
        );
        self.add_fn(
            format!(
                "static void rpy_dict_insert{}({} d, {}{})",
                sfx, dt, kdecl, vdecl
            ),
            b,
        );
        self.dict_del_and_new(t, d, &sfx)?;
        Some(sfx)
    }

    /// The deletion of entry `e` (its key and value zeroed, for the GC) and a new empty
    /// dict, shared by both kinds of dicts.
    fn dict_del_and_new(&mut self, t: LlType, d: &DictT, sfx: &str) -> Option<()> {
        let db = self.db();
        let dt = &d.cty;
        let mut b = "    d->entries->items[e].live = 0;\n    memset(&d->entries->items[e].key, 0, sizeof(d->entries->items[e].key));\n    d->num_live -= 1;\n".to_string();
        if d.value != LlType::VOID {
            b.push_str(
                "    memset(&d->entries->items[e].value, 0, sizeof(d->entries->items[e].value));\n",
            );
        }
        self.add_fn(
            format!("static void rpy_dict_del{}({} d, long e)", sfx, dt),
            b,
        );
        let st = db.types().pointee(t)?;
        let b = format!(
            "    {} d = rpy_gc_malloc_fixed({});\n    RPY_PUSH_ROOT(d);\n    struct rpy_array *e = rpy_gc_malloc_varsize({}, 8);\n    RPY_POP_ROOT(d);\n    RPY_WB(d);\n    d->entries = (void *)e;\n    return d;\n",
            dt,
            db.tid(st),
            d.entries_tid
        );
        self.add_fn(format!("static {} rpy_dict_new{}(void)", dt, sfx), b);
        Some(())
    }

    /// For a prebuilt dict of structure type `st`: the suffix of its type's
    /// `rpy_dict_reindex`, if the program looks dicts of that type up through an index.
    pub fn indexed_dict(&self, st: LlType) -> Option<String> {
        let db = self.db();
        let types = db.types();
        if types.struct_name(st).is_none_or(|n| &**n != "dict") {
            return None;
        }
        self.done_types("dictcore")
            .into_iter()
            .find(|t| types.pointee(*t) == Some(st))
            .filter(|t| self.dict_t(*t).is_some_and(|d| !d.custom))
            .map(|t| t.0.to_string())
    }

    pub(super) fn dict_helper(
        &mut self,
        rf: RuntimeFn,
        args: &[LlType],
        ret: LlType,
    ) -> Option<String> {
        use RuntimeFn::*;
        let dty = if rf == DictNew { ret } else { args[0] };
        let d = self.dict_t(dty)?;
        let sfx = self.dict_core(dty)?;
        let db = self.db();
        let kgc = db.types().is_gc_ptr(d.key);
        let vgc = db.types().is_gc_ptr(d.value);
        let has_v = d.value != LlType::VOID;
        let zero = if ret == LlType::VOID {
            String::new()
        } else {
            format!(" ({})0", db.ctype(ret))
        };
        let keyerr = format!("{{ rpy_raise_std(RPY_EXC_KeyError); return{}; }}", zero);
        // the lookup of a1 in a0, with both kept on the shadow stack (an r_dict's
        // equality is a function of the program, which may collect)
        let (push, pop) = roots(&[("a0", true), ("a1", kgc)]);
        let lookup = format!(
            "{}\n    long e = rpy_dict_lookup{}(a0, a1);\n    {}",
            push, sfx, pop
        );
        let mut b = String::new();
        let vcomma = if has_v { ", a2" } else { "" };
        match rf {
            DictNew => {
                let _ = writeln!(b, "    return rpy_dict_new{}();", sfx);
            }
            DictContains => {
                let _ = writeln!(b, "    {}\n    return e >= 0;", lookup);
            }
            DictGetItem => {
                let _ = writeln!(
                    b,
                    "    {}\n    if (e < 0) {}\n    return{};",
                    lookup,
                    keyerr,
                    if has_v {
                        " a0->entries->items[e].value"
                    } else {
                        ""
                    }
                );
            }
            DictGet => {
                let _ = writeln!(
                    b,
                    "    {}\n    if (e < 0) return{};\n    return{};",
                    lookup,
                    if has_v { " a2" } else { "" },
                    if has_v {
                        " a0->entries->items[e].value"
                    } else {
                        ""
                    }
                );
            }
            DictSetItem | DictSetDefault => {
                let (push, pop) = roots(&[("a0", true), ("a1", kgc), ("a2", vgc)]);
                let _ = writeln!(
                    b,
                    "    {}\n    long e = rpy_dict_lookup{}(a0, a1);\n    {}",
                    push, sfx, pop
                );
                if rf == DictSetItem {
                    let _ = writeln!(
                        b,
                        "    if (e >= 0) {{{}{} return; }}\n    rpy_dict_insert{}(a0, a1{});",
                        if vgc { " RPY_WB(a0->entries);" } else { "" },
                        if has_v {
                            " a0->entries->items[e].value = a2;"
                        } else {
                            ""
                        },
                        sfx,
                        vcomma
                    );
                } else {
                    let _ = writeln!(
                        b,
                        "    if (e >= 0) return{};\n    {}\n    rpy_dict_insert{}(a0, a1{});\n    {}\n    return{};",
                        if has_v { " a0->entries->items[e].value" } else { "" },
                        if vgc { "RPY_PUSH_ROOT(a2);" } else { "" },
                        sfx,
                        vcomma,
                        if vgc { "RPY_POP_ROOT(a2);" } else { "" },
                        if has_v { " a2" } else { "" }
                    );
                }
            }
            DictDelItem => {
                let _ = writeln!(
                    b,
                    "    {}\n    if (e < 0) {}\n    rpy_dict_del{}(a0, e);",
                    lookup, keyerr, sfx
                );
            }
            DictPop | DictPopDefault => {
                let _ = writeln!(b, "    {}", lookup);
                if rf == DictPop {
                    let _ = writeln!(b, "    if (e < 0) {}", keyerr);
                } else {
                    let _ = writeln!(
                        b,
                        "    if (e < 0) return{};",
                        if has_v { " a2" } else { "" }
                    );
                }
                if has_v {
                    let _ = writeln!(
                        b,
                        "    {} = a0->entries->items[e].value;\n    rpy_dict_del{}(a0, e);\n    return r;",
                        db.decl(d.value, "r"),
                        sfx
                    );
                } else {
                    let _ = writeln!(b, "    rpy_dict_del{}(a0, e);", sfx);
                }
            }
            DictClear => {
                let _ = writeln!(
                    b,
                    "    RPY_PUSH_ROOT(a0);\n    struct rpy_array *e = rpy_gc_malloc_varsize({}, 8);\n    RPY_POP_ROOT(a0);\n    RPY_WB(a0);\n    a0->entries = (void *)e;\n    a0->indexes = NULL;\n    a0->num_live = 0;\n    a0->num_used = 0;",
                    d.entries_tid
                );
            }
            DictCopy | DictUpdate => {
                let (kv_push, kv_pop) = roots(&[("k", kgc), ("v", vgc)]);
                // copy: a new dict of the result type, then an update of it from a0
                let (dst, src) = if rf == DictCopy {
                    ("r", "a0")
                } else {
                    ("a0", "a1")
                };
                if rf == DictCopy {
                    let _ = writeln!(
                        b,
                        "    RPY_PUSH_ROOT(a0);\n    {} r = rpy_dict_new{}();\n    RPY_POP_ROOT(a0);",
                        d.cty, sfx
                    );
                    if d.custom {
                        b.push_str("    r->fneq = a0->fneq;\n    r->fnhash = a0->fnhash;\n");
                    }
                } else if args[1] != args[0] {
                    return None;
                }
                let dt = &d.cty;
                let _ = writeln!(
                    b,
                    "    RPY_PUSH_ROOT({src}); RPY_PUSH_ROOT({dst});\n    for (long i = 0; ; i++) {{\n        {src} = ({dt})rpy_root_top[-2];\n        {dst} = ({dt})rpy_root_top[-1];\n        if (i >= {src}->num_used) break;\n        if (!{src}->entries->items[i].live) continue;\n        {kd} = {src}->entries->items[i].key;"
                    , kd = db.decl(d.key, "k")
                );
                if has_v {
                    let _ = writeln!(
                        b,
                        "        {} = {}->entries->items[i].value;",
                        db.decl(d.value, "v"),
                        src
                    );
                }
                let _ = writeln!(
                    b,
                    "        {}\n        long e = rpy_dict_lookup{}({}, k);\n        {}\n        {dst} = ({dt})rpy_root_top[-1];",
                    kv_push,
                    sfx,
                    dst,
                    kv_pop,
                );
                let _ = writeln!(
                    b,
                    "        if (e >= 0) {{ {}{} }}\n        else rpy_dict_insert{}({dst}, k{});\n    }}\n    rpy_root_top -= 2;",
                    if vgc { format!("RPY_WB({}->entries);", dst) } else { String::new() },
                    if has_v { format!(" {}->entries->items[e].value = v;", dst) } else { String::new() },
                    sfx,
                    if has_v { ", v" } else { "" },
                );
                if rf == DictCopy {
                    b.push_str("    return r;\n");
                }
            }
            DictKeys | DictValues | DictItems => {
                let l = db.list_t(ret)?;
                let ld = self.listdesc(ret);
                let items = db.items_of(&l, "r");
                let _ = writeln!(
                    b,
                    "    RPY_PUSH_ROOT(a0);\n    {} = ({})rpy_list_new(&{}, a0->num_live);\n    RPY_POP_ROOT(a0);\n    long j = 0;",
                    db.decl(ret, "r"),
                    db.ctype(ret),
                    ld
                );
                match rf {
                    DictKeys | DictValues => {
                        let f = if rf == DictKeys { "key" } else { "value" };
                        if rf == DictValues && !has_v {
                            return None;
                        }
                        let _ = writeln!(
                            b,
                            "    for (long i = 0; i < a0->num_used; i++) if (a0->entries->items[i].live) {}[j++] = a0->entries->items[i].{};",
                            items, f
                        );
                        if db.types().is_gc_ptr(l.item) {
                            let _ = writeln!(
                                b,
                                "    RPY_WB({});",
                                if l.fixed { "r" } else { "r->items" }
                            );
                        }
                    }
                    _ => {
                        let tt = l.item;
                        let st = db.types().pointee(tt)?;
                        let fields = db.types().fields(st).to_vec();
                        let _ = writeln!(
                            b,
                            "    RPY_PUSH_ROOT(a0); RPY_PUSH_ROOT(r);\n    for (long i = 0; i < a0->num_used; i++) {{\n        if (!a0->entries->items[i].live) continue;\n        {} t = rpy_gc_malloc_fixed({});\n        r = ({})rpy_root_top[-1];\n        a0 = ({})rpy_root_top[-2];",
                            db.ctype(tt),
                            db.tid(st),
                            db.ctype(ret),
                            d.cty
                        );
                        for ((f, ft), src) in fields.iter().zip(["key", "value"]) {
                            if *ft != LlType::VOID {
                                let _ = writeln!(
                                    b,
                                    "        t->{} = a0->entries->items[i].{};",
                                    super::database::field_name(f),
                                    src
                                );
                            }
                        }
                        let _ = writeln!(
                            b,
                            "        RPY_WB({});\n        {}[j++] = t;\n    }}\n    rpy_root_top -= 2;",
                            if l.fixed { "r" } else { "r->items" },
                            items
                        );
                    }
                }
                b.push_str("    return r;\n");
            }
            DictPopItem => {
                let tt = ret;
                let st = db.types().pointee(tt)?;
                let fields = db.types().fields(st).to_vec();
                let _ = writeln!(
                    b,
                    "    long e = a0->num_used - 1;\n    while (e >= 0 && !a0->entries->items[e].live) e--;\n    if (e < 0) {}\n    RPY_PUSH_ROOT(a0);\n    {} t = rpy_gc_malloc_fixed({});\n    RPY_POP_ROOT(a0);",
                    keyerr,
                    db.ctype(tt),
                    db.tid(st)
                );
                for ((f, ft), src) in fields.iter().zip(["key", "value"]) {
                    if *ft != LlType::VOID {
                        let _ = writeln!(
                            b,
                            "    t->{} = a0->entries->items[e].{};",
                            super::database::field_name(f),
                            src
                        );
                    }
                }
                let _ = writeln!(b, "    rpy_dict_del{}(a0, e);\n    return t;", sfx);
            }
            _ => return None,
        }
        Some(b)
    }
}
