//! Generated helpers of lists (`str()`), iterators and classes chosen at
//! run time (`instantiate`, `__init__` through the vtable).

use super::database::field_name;
use super::helpers::Helpers;
use crate::lltypesystem::{LlPtr, LlType, LlValue};
use crate::rtyper::LlFunction;
use std::fmt::Write;

impl Helpers<'_, '_> {
    /// `(length expr, items expr)` of a list or string argument `v` of type `t`.
    fn seq(&self, t: LlType, v: &str) -> Option<(String, String)> {
        let db = self.db();
        if db.is_str(t) || db.is_unicode(t) {
            return Some((
                format!("{}->chars.length", v),
                format!("{}->chars.items", v),
            ));
        }
        let l = db.list_t(t)?;
        Some((format!("{}->length", v), db.items_of(&l, v)))
    }

    /// A function appending `str()` of a value of type `t` to a raw buffer; values that
    /// hold GC pointers are kept on the shadow stack while their items are converted.
    fn str_into_fn(&mut self, t: LlType) -> Option<String> {
        let name = format!("rpy_strinto{}", t.0);
        if !self.mark_done("strinto", t) {
            return Some(name);
        }
        let db = self.db();
        let ct = db.ctype(t);
        let mut b = String::new();
        if db.is_str(t) {
            b.push_str("    rpy_buf_add_str(buf, (void *)v);\n");
        } else if t == LlType::SIGNED || t == LlType::SIGNEDLONGLONG {
            b.push_str("    char tmp[32];\n    int n = snprintf(tmp, sizeof tmp, \"%ld\", (long)v);\n    rpy_buf_add(buf, tmp, n);\n");
        } else if t == LlType::UNSIGNED || t == LlType::UNSIGNEDLONGLONG {
            b.push_str("    char tmp[32];\n    int n = snprintf(tmp, sizeof tmp, \"%lu\", (unsigned long)v);\n    rpy_buf_add(buf, tmp, n);\n");
        } else if t == LlType::BOOL {
            b.push_str("    rpy_buf_add(buf, v ? \"1\" : \"0\", 1);\n");
        } else if t == LlType::CHAR {
            b.push_str("    rpy_buf_add(buf, &v, 1);\n");
        } else if t == LlType::FLOAT {
            b.push_str(
                "    struct rpy_string *s = RPyRT_ll_float_str(v);\n    rpy_buf_add_str(buf, s);\n",
            );
        } else if db.is_tuple(t) {
            let types = db.types();
            let st = types.pointee(t)?;
            let fields: Vec<_> = types.fields(st).to_vec();
            b.push_str("    if (v == NULL) { rpy_buf_add(buf, \"None\", 4); return; }\n    RPY_PUSH_ROOT(v);\n    rpy_buf_add(buf, \"(\", 1);\n");
            for (i, (f, ft)) in fields.iter().enumerate() {
                if i > 0 {
                    b.push_str("    rpy_buf_add(buf, \", \", 2);\n");
                }
                if *ft == LlType::VOID {
                    b.push_str("    rpy_buf_add(buf, \"None\", 4);\n");
                    continue;
                }
                let inner = self.str_into_fn(*ft)?;
                let _ = writeln!(
                    b,
                    "    v = ({})rpy_root_top[-1];\n    {}(buf, v->{});",
                    ct,
                    inner,
                    field_name(f)
                );
            }
            if fields.len() == 1 {
                b.push_str("    rpy_buf_add(buf, \",\", 1);\n");
            }
            b.push_str("    rpy_buf_add(buf, \")\", 1);\n    rpy_root_top--;\n");
        } else if let Some(l) = db.list_t(t) {
            let items = db.items_of(&l, "v");
            b.push_str("    if (v == NULL) { rpy_buf_add(buf, \"None\", 4); return; }\n    RPY_PUSH_ROOT(v);\n    rpy_buf_add(buf, \"[\", 1);\n");
            let inner = if l.item == LlType::VOID {
                None
            } else {
                Some(self.str_into_fn(l.item)?)
            };
            let _ = writeln!(
                b,
                "    for (long i = 0; i < v->length; i++) {{\n        if (i > 0) rpy_buf_add(buf, \", \", 2);\n        {}\n        v = ({})rpy_root_top[-1];\n    }}",
                match &inner {
                    Some(f) => format!("{}(buf, {}[i]);", f, items),
                    None => "rpy_buf_add(buf, \"None\", 4);".to_string(),
                },
                ct
            );
            b.push_str("    rpy_buf_add(buf, \"]\", 1);\n    rpy_root_top--;\n");
        } else if db.types().is_ptr(t) {
            b.push_str("    if (v == NULL) rpy_buf_add(buf, \"None\", 4);\n    else rpy_fatal(\"str() of an object\");\n");
        } else {
            return None;
        }
        self.add_fn(
            format!(
                "static void {}(struct rpy_buf *buf, {})",
                name,
                db.decl(t, "v")
            ),
            b,
        );
        Some(name)
    }

    pub(super) fn list_str(&mut self, t: LlType) -> Option<String> {
        let f = self.str_into_fn(t)?;
        Some(format!(
            "    struct rpy_buf buf = {{ NULL, 0, 0 }};\n    {}(&buf, a0);\n    return (void *)rpy_buf_finish(&buf);\n",
            f
        ))
    }

    /// A new tuple of type `t` (a pointer to a tuple structure) from C expressions; the
    /// expressions must be rooted by the caller if they are GC pointers (they are read
    /// after the allocation).
    fn new_tuple(&self, t: LlType, items: &[&str], out: &mut String) -> Option<()> {
        let db = self.db();
        let types = db.types();
        let st = types.pointee(t)?;
        let _ = writeln!(
            out,
            "    {} = ({})rpy_gc_malloc_fixed({});",
            db.decl(t, "tup"),
            db.ctype(t),
            db.tid(st)
        );
        for ((f, ft), x) in types.fields(st).iter().zip(items) {
            if *ft != LlType::VOID {
                let _ = writeln!(out, "    tup->{} = {};", field_name(f), x);
            }
        }
        Some(())
    }

    pub(super) fn iter_next(&mut self, it: LlType, ret: LlType) -> Option<String> {
        let db = self.db();
        let types = db.types();
        let st = types.pointee(it)?;
        let variant = types.struct_name(st)?.to_string();
        let ct = types.field_type(st, "container")?;
        let zero = if ret == LlType::VOID {
            String::new()
        } else {
            format!(" ({})0", db.ctype(ret))
        };
        let stop = format!("rpy_raise_std(RPY_EXC_StopIteration); return{};", zero);
        let mut b = String::new();
        if db.is_dict(ct) {
            let _ = writeln!(
                b,
                "    long i = a0->index;\n    while (i < a0->container->num_used && !a0->container->entries->items[i].live) i++;\n    if (i >= a0->container->num_used) {{ a0->index = i; {} }}\n    a0->index = i + 1;",
                stop
            );
            let dst = types.pointee(ct)?;
            let ent = types.array_item(types.pointee(types.field_type(dst, "entries")?)?)?;
            let kt = types.field_type(ent, "key")?;
            let vt = types.field_type(ent, "value")?;
            match variant.as_str() {
                "iter_values" => {
                    if vt == LlType::VOID {
                        return None;
                    }
                    b.push_str("    return a0->container->entries->items[i].value;\n")
                }
                "iter_items" => {
                    let _ = writeln!(
                        b,
                        "    {} = a0->container->entries->items[i].key;",
                        db.decl(kt, "k")
                    );
                    let gk = types.is_gc_ptr(kt);
                    let gv = types.is_gc_ptr(vt);
                    if vt != LlType::VOID {
                        let _ = writeln!(
                            b,
                            "    {} = a0->container->entries->items[i].value;",
                            db.decl(vt, "v")
                        );
                    }
                    if gk {
                        b.push_str("    RPY_PUSH_ROOT(k);\n");
                    }
                    if gv {
                        b.push_str("    RPY_PUSH_ROOT(v);\n");
                    }
                    let mut alloc = String::new();
                    self.new_tuple(ret, &["k", "v"], &mut alloc)?;
                    // pop before the stores: the allocation is done
                    let (head, tail) = alloc.split_once('\n')?;
                    b.push_str(head);
                    b.push('\n');
                    if gv {
                        b.push_str("    RPY_POP_ROOT(v);\n");
                    }
                    if gk {
                        b.push_str("    RPY_POP_ROOT(k);\n");
                    }
                    b.push_str(tail);
                    b.push_str("    return tup;\n");
                }
                _ => b.push_str("    return a0->container->entries->items[i].key;\n"),
            }
            return Some(b);
        }
        let (n, items) = self.seq(ct, "a0->container")?;
        let _ = writeln!(
            b,
            "    long i = a0->index;\n    if (i >= {}) {{ {} }}\n    a0->index = i + 1;",
            n, stop
        );
        let at = if variant == "iter_reversed" {
            format!("{} - 1 - i", n)
        } else {
            "i".to_string()
        };
        let item_ty = if db.is_str(ct) {
            LlType::CHAR
        } else if db.is_unicode(ct) {
            LlType::UNICHAR
        } else {
            db.list_t(ct)?.item
        };
        if variant == "iter_enumerate" {
            let gi = types.is_gc_ptr(item_ty);
            if item_ty != LlType::VOID {
                let _ = writeln!(b, "    {} = {}[{}];", db.decl(item_ty, "x"), items, at);
            }
            if gi {
                b.push_str("    RPY_PUSH_ROOT(x);\n");
            }
            let mut alloc = String::new();
            self.new_tuple(ret, &["i", "x"], &mut alloc)?;
            let (head, tail) = alloc.split_once('\n')?;
            b.push_str(head);
            b.push('\n');
            if gi {
                b.push_str("    RPY_POP_ROOT(x);\n");
            }
            b.push_str(tail);
            b.push_str("    return tup;\n");
        } else if ret != LlType::VOID {
            let _ = writeln!(b, "    return {}[{}];", items, at);
        }
        Some(b)
    }

    /// `ll_instantiate(vtable)`: a new instance of the class, with its field defaults.
    pub(super) fn instantiate(&mut self, ret: LlType) -> Option<String> {
        let db = self.db();
        let prog = db.prog;
        let ob = db.struct_name(prog.object);
        let mut classes: Vec<(&LlPtr, &crate::rtyper::ClassInfo)> = prog.classes.iter().collect();
        classes.sort_by_key(|(p, _)| **p);
        let mut b = String::new();
        for (vt, info) in classes {
            let LlPtr::Obj { obj, .. } = vt else { continue };
            let _ = writeln!(
                b,
                "    if ((void *)a0 == (void *)&{}) {{\n        {} *p = rpy_gc_malloc_fixed({});\n        (({} *)p)->typeptr = (void *)a0;",
                super::database::Database::const_name(*obj),
                db.struct_name(info.inst),
                db.tid(info.inst),
                ob
            );
            let paths = db.flat_paths(info.inst);
            for (slot, v) in &info.defaults {
                if let Some((path, ft)) = paths.get(*slot) {
                    if *ft != LlType::VOID && !matches!(v, LlValue::Void) {
                        let _ = writeln!(b, "        p->{} = {};", path, db.value(*v, *ft));
                    }
                }
            }
            let _ = writeln!(b, "        return ({})p;\n    }}", db.ctype(ret));
        }
        b.push_str("    rpy_fatal(\"instantiating a class that has no vtable\");\n");
        Some(b)
    }

    /// `ll_call_init(instance, args…)`: `__init__` of the instance's class.
    pub(super) fn call_init(&mut self, args: &[LlType]) -> Option<String> {
        let db = self.db();
        let prog = db.prog;
        let ob = db.struct_name(prog.object);
        let mut classes: Vec<(&LlPtr, &crate::rtyper::ClassInfo)> = prog.classes.iter().collect();
        classes.sort_by_key(|(p, _)| **p);
        let mut b = format!("    void *vt = (void *)(({} *)a0)->typeptr;\n", ob);
        for (vt, info) in classes {
            let (LlPtr::Obj { obj, .. }, Some(init)) = (vt, info.init) else {
                continue;
            };
            let LlFunction::Graph { graph, .. } = &prog.functions[init as usize] else {
                continue;
            };
            let g = &prog.graphs[*graph as usize];
            let params: Vec<LlType> = g
                .block(g.startblock)
                .inputargs
                .iter()
                .map(|v| g.concretetype[v.0 as usize])
                .collect();
            if params.len() != args.len() {
                continue;
            }
            let call_args: Vec<String> = params
                .iter()
                .enumerate()
                .filter(|(_, t)| **t != LlType::VOID)
                .map(|(i, t)| format!("({})a{}", db.ctype(*t), i))
                .collect();
            // only classes whose __init__ takes these arguments: the ones the call sites
            // instantiate share a normalized signature; another class of the same arity
            // (a float parameter where the call passes a pointer) is never matched at run
            // time and could not even be compiled as a call here
            let types = &prog.types;
            if params.iter().zip(args).any(|(p, a)| {
                (*p == LlType::VOID) != (*a == LlType::VOID)
                    || (p != a && !(types.is_ptr(*p) && types.is_ptr(*a)))
            }) {
                continue;
            }
            let _ = writeln!(
                b,
                "    if (vt == (void *)&{}) {{ {}({}); return; }}",
                super::database::Database::const_name(*obj),
                db.func_names[init as usize],
                call_args.join(", ")
            );
        }
        Some(b)
    }
}
