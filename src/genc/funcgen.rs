//! C source for one low-level graph (seed 001, "The C Back-End"): a C function whose
//! blocks are labels, whose Variables are locals (Void ones vanish) and whose links are
//! assignments to the target block's input variables followed by a `goto`.
//!
//! Two transforms happen here, as the graph is written out:
//! - exceptions (seed 001, "Making Exception Handling Explicit"): an operation that can
//!   raise is followed by a test of the global exception state; an uncaught exception
//!   returns at once (the caller tests in turn), a `last_exception` switch becomes
//!   comparisons of the raised class's id range with each handler's;
//! - GC roots (seed 001, "Memory Management Details"): around every operation that may
//!   collect, the GC pointers still needed after it are stored on the shadow stack and
//!   read back, since a collection may move them.

use super::database::{field_name, Database};
use crate::fasthash::HashSet;
use crate::flowspace::{
    BlockId, ExitCase, ExitSwitch, FunctionGraph, Hlvalue, LinkId, SpaceOperation, VarId,
};
use crate::interpreter::Op;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue, TypeDef};
use crate::rtyper::LlFunction;
use crate::syntax::SourceMap;
use std::collections::BTreeSet;
use std::fmt::Write;

pub struct FuncGen<'a, 'p> {
    db: &'a Database<'p>,
    effects: &'a super::effects::Effects,
    g: &'p FunctionGraph,
    /// Variables read somewhere (others are not declared, and writes to them vanish).
    read: HashSet<VarId>,
    /// The function is in a cycle of the call graph: it checks the stack depth.
    recursive: bool,
    /// Blocks some link jumps to (the others need no label).
    targets: HashSet<BlockId>,
    out: String,
    /// Source file text, for the line comments of `--emit-c` (None: no comments).
    lines: Option<&'a SourceMap>,
}

impl<'a, 'p> FuncGen<'a, 'p> {
    pub fn new(
        db: &'a Database<'p>,
        effects: &'a super::effects::Effects,
        g: &'p FunctionGraph,
        lines: Option<&'a SourceMap>,
        recursive: bool,
    ) -> Self {
        FuncGen {
            db,
            effects,
            recursive,
            g,
            read: HashSet::default(),
            targets: HashSet::default(),
            out: String::new(),
            lines,
        }
    }

    fn ty(&self, v: Hlvalue) -> LlType {
        self.g.concretetype_of(v).unwrap_or(LlType::VOID)
    }
    fn vty(&self, v: VarId) -> LlType {
        self.g
            .concretetype
            .get(v.0 as usize)
            .copied()
            .unwrap_or(LlType::VOID)
    }

    /// The C expression of an argument.
    fn arg(&self, v: Hlvalue) -> String {
        match v {
            Hlvalue::Var(v) => format!("v{}", v.0),
            Hlvalue::Ll(c) => self.db.code_value(c.value, c.ty),
            Hlvalue::Const(_) => "0".into(),
        }
    }

    fn reachable_blocks(&self) -> Vec<BlockId> {
        let g = self.g;
        let mut seen = vec![false; g.blocks.len()];
        let mut order = Vec::new();
        let mut stack = vec![g.startblock];
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b.0 as usize], true) {
                continue;
            }
            order.push(b);
            for &l in g.block(b).exits.iter().rev() {
                stack.push(g.link(l).target);
            }
        }
        order
    }

    /// The prototype of the function (`static RET name(T p0, …)`).
    pub fn prototype(db: &Database, g: &FunctionGraph, name: &str) -> String {
        let start = g.block(g.startblock);
        let params: Vec<String> = start
            .inputargs
            .iter()
            .enumerate()
            .filter(|(_, v)| g.concretetype[v.0 as usize] != LlType::VOID)
            .map(|(i, v)| db.decl(g.concretetype[v.0 as usize], &format!("p{}", i)))
            .collect();
        let ret = g
            .block(g.returnblock)
            .inputargs
            .first()
            .map(|v| g.concretetype[v.0 as usize]);
        format!(
            "static RPY_UNUSED {} {}({})",
            db.ctype(ret.unwrap_or(LlType::VOID)),
            name,
            if params.is_empty() {
                "void".into()
            } else {
                params.join(", ")
            }
        )
    }

    pub fn generate(mut self, name: &str) -> String {
        let g = self.g;
        let blocks = self.reachable_blocks();
        // which variables are read
        for &b in &blocks {
            let blk = g.block(b);
            for op in &blk.operations {
                for a in &op.args {
                    if let Hlvalue::Var(v) = a {
                        self.read.insert(*v);
                    }
                }
            }
            if let ExitSwitch::Value(Hlvalue::Var(v)) = blk.exitswitch {
                self.read.insert(v);
            }
            for &l in &blk.exits {
                self.targets.insert(g.link(l).target);
                for a in &g.link(l).args {
                    if let Hlvalue::Var(v) = a {
                        self.read.insert(*v);
                    }
                }
            }
        }
        let _ = writeln!(self.out, "{} {{", Self::prototype(self.db, g, name));
        // locals
        let mut declared = BTreeSet::new();
        for &b in &blocks {
            let blk = g.block(b);
            let defs = blk
                .inputargs
                .iter()
                .copied()
                .chain(blk.operations.iter().map(|o| o.result))
                .chain(blk.exits.iter().flat_map(|&l| {
                    let l = g.link(l);
                    l.last_exception.into_iter().chain(l.last_exc_value)
                }));
            for v in defs {
                if self.read.contains(&v) && self.vty(v) != LlType::VOID {
                    declared.insert(v);
                }
            }
        }
        for v in &declared {
            let _ = writeln!(
                self.out,
                "    {};",
                self.db.decl(self.vty(*v), &format!("v{}", v.0))
            );
        }
        let ret_ty = g
            .block(g.returnblock)
            .inputargs
            .first()
            .map(|v| self.vty(*v))
            .unwrap_or(LlType::VOID);
        // parameters into the start block's variables
        for (i, v) in g.block(g.startblock).inputargs.iter().enumerate() {
            if declared.contains(v) {
                let _ = writeln!(self.out, "    v{} = p{};", v.0, i);
            }
        }
        let mut needs_propagate = false;
        if self.recursive {
            self.out.push_str(
                "    if (RPY_STACK_TOO_DEEP()) { rpy_raise_std(RPY_EXC_StackOverflow); goto propagate; }\n",
            );
            needs_propagate = true;
        }
        for &b in &blocks {
            if b == g.returnblock || b == g.exceptblock {
                continue;
            }
            needs_propagate |= self.block(b);
        }
        if needs_propagate || blocks.contains(&g.exceptblock) {
            let _ = writeln!(
                self.out,
                "  propagate:\n    return{};",
                if ret_ty == LlType::VOID {
                    String::new()
                } else {
                    format!(" ({})0", self.db.ctype(ret_ty))
                }
            );
        }
        self.out.push_str("}\n\n");
        self.out
    }

    /// Emits one block; returns whether it jumps to `propagate`.
    fn block(&mut self, b: BlockId) -> bool {
        let g = self.g;
        let blk = g.block(b);
        if self.targets.contains(&b) {
            let _ = writeln!(self.out, "  block{}:", b.0);
        }
        if let (Some(lines), Some(op)) = (self.lines, blk.operations.first()) {
            let file = lines.get(op.span.file);
            let line = file.line_col(op.span.start).line + 1;
            let name = file.path.display().to_string().replace("*/", "* /");
            let _ = writeln!(self.out, "    /* {}:{} */", name, line);
        }
        let n = blk.operations.len();
        let catching = blk.exitswitch == ExitSwitch::LastException;
        let live_after = self.g.live_after_ops(b);
        let mut propagates = false;
        for (i, op) in blk.operations.iter().enumerate() {
            let roots: Vec<VarId> = if self.may_collect(op) {
                live_after[i]
                    .iter()
                    .copied()
                    .filter(|v| *v != op.result && self.db.types().is_gc_ptr(self.vty(*v)))
                    .collect()
            } else {
                Vec::new()
            };
            if !roots.is_empty() {
                for (k, v) in roots.iter().enumerate() {
                    let _ = writeln!(self.out, "    rpy_root_top[{}] = v{};", k, v.0);
                }
                let _ = writeln!(self.out, "    rpy_root_top += {};", roots.len());
            }
            self.op(op);
            if !roots.is_empty() {
                let _ = writeln!(self.out, "    rpy_root_top -= {};", roots.len());
                for (k, v) in roots.iter().enumerate() {
                    let _ = writeln!(
                        self.out,
                        "    v{} = ({})rpy_root_top[{}];",
                        v.0,
                        self.db.ctype(self.vty(*v)),
                        k
                    );
                }
            }
            if self.can_raise(op) && !(catching && i + 1 == n) {
                self.out
                    .push_str("    if (RPY_EXC_OCCURRED()) goto propagate;\n");
                propagates = true;
            }
        }
        match blk.exitswitch {
            ExitSwitch::None => {
                if let Some(&l) = blk.exits.first() {
                    propagates |= self.link(l, "    ");
                }
            }
            ExitSwitch::Value(v) => {
                let x = self.arg(v);
                let mut default = None;
                for &l in &blk.exits {
                    match g.link(l).exitcase {
                        ExitCase::Ll(LlValue::Bool(true)) => {
                            let _ = writeln!(self.out, "    if ({}) {{", x);
                            propagates |= self.link(l, "        ");
                            self.out.push_str("    }\n");
                        }
                        ExitCase::Ll(LlValue::Bool(false)) => {
                            let _ = writeln!(self.out, "    if (!{}) {{", x);
                            propagates |= self.link(l, "        ");
                            self.out.push_str("    }\n");
                        }
                        ExitCase::Ll(c) => {
                            let _ = writeln!(
                                self.out,
                                "    if ({} == {}) {{",
                                x,
                                self.db.value(c, self.ty(v))
                            );
                            propagates |= self.link(l, "        ");
                            self.out.push_str("    }\n");
                        }
                        _ => default = Some(l),
                    }
                }
                match default {
                    Some(l) => propagates |= self.link(l, "    "),
                    None => self
                        .out
                        .push_str("    rpy_fatal(\"no exit for a switch value\");\n"),
                }
            }
            ExitSwitch::LastException => {
                self.out.push_str("    if (!RPY_EXC_OCCURRED()) {\n");
                self.link(blk.exits[0], "        ");
                self.out.push_str("    }\n");
                let vt = self.db.struct_name(self.db.prog.object_vtable);
                for &l in &blk.exits[1..] {
                    let link = g.link(l);
                    let ExitCase::Ll(LlValue::Ptr(case)) = link.exitcase else {
                        continue;
                    };
                    let cond = match case {
                        LlPtr::Null => "1".to_string(),
                        p => {
                            let heap = &self.db.prog.heap;
                            let get = |f: &str| {
                                heap.getfield(self.db.types(), p, self.db.prog.object_vtable, f)
                                    .map(|v| v.as_int())
                                    .unwrap_or(-1)
                            };
                            format!(
                                "RPY_EXC_MATCHES({}, {}L, {}L)",
                                vt,
                                get("subclassrange_min"),
                                get("subclassrange_max")
                            )
                        }
                    };
                    let _ = writeln!(self.out, "    if ({}) {{", cond);
                    if let Some(t) = link.last_exception.filter(|v| self.read.contains(v)) {
                        let _ = writeln!(
                            self.out,
                            "        v{} = ({})rpy_exc_type;",
                            t.0,
                            self.db.ctype(self.vty(t))
                        );
                    }
                    if let Some(t) = link.last_exc_value.filter(|v| self.read.contains(v)) {
                        let _ = writeln!(
                            self.out,
                            "        v{} = ({})rpy_exc_value;",
                            t.0,
                            self.db.ctype(self.vty(t))
                        );
                    }
                    self.out
                        .push_str("        rpy_exc_type = NULL;\n        rpy_exc_value = NULL;\n");
                    self.link(l, "        ");
                    self.out.push_str("    }\n");
                }
                self.out.push_str("    goto propagate;\n");
                propagates = true;
            }
        }
        propagates
    }

    fn ll_op(op: &SpaceOperation) -> Option<LlOp> {
        match op.opname {
            Op::Ll(o) => Some(o),
            _ => None,
        }
    }

    fn may_collect(&self, op: &SpaceOperation) -> bool {
        self.effects.op_may_collect(self.db, op)
    }

    fn can_raise(&self, op: &SpaceOperation) -> bool {
        self.effects.op_can_raise(op)
    }

    /// The assignments of a link's arguments to its target's input variables (in
    /// parallel: through temporaries when a target variable is also a source), then the
    /// jump. Returns whether it jumps to `propagate`.
    fn link(&mut self, l: LinkId, ind: &str) -> bool {
        let g = self.g;
        let link = g.link(l);
        if link.target == g.returnblock {
            match link.args.first() {
                Some(a) if self.ty(*a) != LlType::VOID => {
                    let _ = writeln!(self.out, "{}return {};", ind, self.arg(*a));
                }
                _ => {
                    let _ = writeln!(self.out, "{}return;", ind);
                }
            }
            return false;
        }
        if link.target == g.exceptblock {
            let _ = writeln!(
                self.out,
                "{}rpy_exc_type = (void *){};\n{}rpy_exc_value = (void *){};\n{}goto propagate;",
                ind,
                self.arg(link.args[0]),
                ind,
                self.arg(link.args[1]),
                ind
            );
            return true;
        }
        let target = g.block(link.target);
        let pairs: Vec<(VarId, Hlvalue)> = target
            .inputargs
            .iter()
            .copied()
            .zip(link.args.iter().copied())
            .filter(|(t, a)| {
                self.read.contains(t) && self.vty(*t) != LlType::VOID && *a != Hlvalue::Var(*t)
            })
            .collect();
        let targets: HashSet<VarId> = pairs.iter().map(|(t, _)| *t).collect();
        let conflict = pairs
            .iter()
            .any(|(_, a)| matches!(a, Hlvalue::Var(v) if targets.contains(v)));
        if conflict && pairs.len() > 1 {
            let _ = writeln!(self.out, "{}{{", ind);
            for (k, (t, a)) in pairs.iter().enumerate() {
                let _ = writeln!(
                    self.out,
                    "{}    {} = {};",
                    ind,
                    self.db.decl(self.vty(*t), &format!("t{}", k)),
                    self.arg(*a)
                );
            }
            for (k, (t, _)) in pairs.iter().enumerate() {
                let _ = writeln!(self.out, "{}    v{} = t{};", ind, t.0, k);
            }
            let _ = writeln!(self.out, "{}}}", ind);
        } else {
            for (t, a) in &pairs {
                let _ = writeln!(self.out, "{}v{} = {};", ind, t.0, self.arg(*a));
            }
        }
        let _ = writeln!(self.out, "{}goto block{};", ind, link.target.0);
        false
    }

    /// The C path of an interior access: `->chars.items[i]`.
    fn interior(&self, base: Hlvalue, path: &[Hlvalue]) -> (String, LlType) {
        let types = self.db.types();
        let mut cur = types.pointee(self.ty(base)).unwrap_or(LlType::VOID);
        let mut s = format!("{}->", self.arg(base));
        let mut first = true;
        for p in path {
            if !first {
                s.push('.');
            }
            first = false;
            match (p, types.def(cur)) {
                (Hlvalue::Ll(c), TypeDef::Struct { .. }) if matches!(c.value, LlValue::Name(_)) => {
                    let LlValue::Name(n) = c.value else {
                        unreachable!()
                    };
                    s.push_str(&field_name(n.as_str()));
                    cur = types.field_type(cur, n.as_str()).unwrap_or(LlType::VOID);
                }
                (idx, TypeDef::Array { item, .. }) => {
                    let _ = write!(s, "items[{}]", self.arg(*idx));
                    cur = *item;
                }
                _ => {}
            }
        }
        (s, cur)
    }

    /// An item access on a raw array of numbers, chars or bools (which may be a view of raw
    /// `char` memory at any address, `rffi.ptradd`): the item's address, computed from the
    /// array's start, and the suffix of the `rpy_raw_*` accessor for items wider than a
    /// byte; `None` for other accesses. `p->items[i]` would be a member access through a
    /// pointer that a move by an odd count leaves misaligned for the array's structure (its
    /// length word comes first), undefined in C even where the machine allows it.
    fn raw_item(&self, op: &SpaceOperation) -> Option<(Option<&'static str>, String)> {
        let types = self.db.types();
        let arr = types.pointee(self.ty(op.args[0]))?;
        if types.is_gc(arr) {
            return None;
        }
        let name = match types.array_item(arr)? {
            LlType::SIGNED => Some("long"),
            LlType::UNSIGNED => Some("ulong"),
            LlType::SIGNEDLONGLONG => Some("llong"),
            LlType::UNSIGNEDLONGLONG => Some("ullong"),
            LlType::FLOAT => Some("double"),
            LlType::SINGLEFLOAT => Some("float"),
            LlType::UNICHAR => Some("u32"),
            LlType::INT => Some("int"),
            LlType::UINT => Some("uint"),
            LlType::SHORT => Some("short"),
            LlType::USHORT => Some("ushort"),
            // bytes: no alignment to keep, a plain access through a `char *` address (the
            // array may start at any byte of raw memory: `rffi.ptradd`, raw storage)
            LlType::CHAR | LlType::BOOL | LlType::SIGNEDCHAR | LlType::UCHAR => None,
            _ => return None,
        };
        let p = self.arg(op.args[0]);
        let addr = format!(
            "((char *){p} + offsetof({st}, items) + ({i}) * (long)sizeof({p}->items[0]))",
            st = self.db.struct_name(arr),
            i = self.arg(op.args[1])
        );
        Some((name, addr))
    }

    /// Writes the barrier a store of `value` into the object `base` points to needs.
    fn barrier(&mut self, base: Hlvalue, value: Hlvalue) {
        let types = self.db.types();
        let pointee = types.pointee(self.ty(base)).unwrap_or(LlType::VOID);
        if types.is_gc(pointee) && types.is_gc_ptr(self.ty(value)) {
            let _ = writeln!(self.out, "    RPY_WB({});", self.arg(base));
        }
    }

    /// `arraycopy(src, dst, i, j, n)`: a `memmove` of the items, after the write barrier of
    /// `dst` when they hold GC pointers (the GC must rescan `dst`, which may now point to
    /// young objects).
    fn arraycopy(&mut self, op: &SpaceOperation) {
        let types = self.db.types();
        let items = |v: Hlvalue| -> (String, LlType) {
            let t = types.pointee(self.ty(v)).unwrap_or(LlType::VOID);
            let arr = types.varsize_array(t).unwrap_or(LlType::VOID);
            let item = types.array_item(arr).unwrap_or(LlType::VOID);
            let path = match types.def(t) {
                TypeDef::Struct { fields, .. } => match fields.last() {
                    Some((name, _)) => format!("{}->{}.items", self.arg(v), field_name(name)),
                    None => String::new(),
                },
                _ => format!("{}->items", self.arg(v)),
            };
            (path, item)
        };
        let (src, item) = items(op.args[0]);
        let (dst, _) = items(op.args[1]);
        if self.db.is_void(item) {
            return;
        }
        let gc_items = types.is_gc_ptr(item)
            || (matches!(types.def(item), TypeDef::Struct { .. })
                && types
                    .flat_fields(item)
                    .iter()
                    .any(|(_, ft)| types.is_gc_ptr(*ft)));
        let (i, j, n) = (
            self.arg(op.args[2]),
            self.arg(op.args[3]),
            self.arg(op.args[4]),
        );
        if gc_items {
            let _ = writeln!(self.out, "    RPY_WB({});", self.arg(op.args[1]));
        }
        let _ = writeln!(
            self.out,
            "    if ({n} > 0) memmove(&{dst}[{j}], &{src}[{i}], (size_t)({n}) * sizeof({dst}[0]));"
        );
    }

    /// `cast_pointer` of `src` (C expression `e`) to `to` (C type `cty`). A raw array is
    /// held by a pointer to its length header, and its C memory (what a C function is
    /// given) starts at `items`: a cast between it and a pointer to anything else (a
    /// configured C structure read from a `char *` buffer, or viewed as one) moves by the
    /// header, as the reference's arrays without length have none.
    fn cast_pointer(&self, src: Hlvalue, to: LlType, e: &str, cty: &str) -> String {
        let types = self.db.types();
        let raw_array = |p: LlType| {
            types
                .pointee(p)
                .filter(|&t| !types.is_gc(t) && matches!(types.def(t), TypeDef::Array { .. }))
        };
        match (raw_array(self.ty(src)), raw_array(to)) {
            // by address, not `->items`: the array may start at any byte of raw memory
            (Some(arr), None) if types.pointee(to).is_some() => {
                let sn = self.db.struct_name(arr);
                format!("({e} == NULL ? NULL : ({cty})((char *)({e}) + offsetof({sn}, items)))")
            }
            (None, Some(arr)) if types.pointee(self.ty(src)).is_some() => {
                let sn = self.db.struct_name(arr);
                format!("({e} == NULL ? NULL : ({cty})((char *)({e}) - offsetof({sn}, items)))")
            }
            _ => format!("(({cty}){e})"),
        }
    }

    fn op(&mut self, op: &SpaceOperation) {
        let Some(o) = Self::ll_op(op) else {
            let _ = writeln!(self.out, "    rpy_fatal(\"high-level operation\");");
            return;
        };
        let rt = self.vty(op.result);
        let has_result = rt != LlType::VOID && self.read.contains(&op.result);
        let r = format!("v{}", op.result.0);
        let av: Vec<String> = op.args.iter().map(|x| self.arg(*x)).collect();
        let a = |i: usize| av[i].clone();
        let cty = self.db.ctype(rt);
        use LlOp::*;
        let expr: Option<String> = match o {
            SameAs => Some(a(0)),
            IntIsTrue | UintIsTrue | LlongIsTrue | LllongIsTrue | UllongIsTrue | FloatIsTrue => {
                Some(format!("({} != 0)", a(0)))
            }
            IntNeg | LlongNeg | LllongNeg | FloatNeg => Some(format!("(-{})", a(0))),
            IntAbs | LlongAbs | LllongAbs => Some(format!("RPY_ABS({})", a(0))),
            FloatAbs => Some(format!("fabs({})", a(0))),
            IntInvert | LlongInvert | LllongInvert | UintInvert | UllongInvert => {
                Some(format!("(~{})", a(0)))
            }
            IntAdd | LlongAdd | LllongAdd | UintAdd | UllongAdd | FloatAdd => bin(&a, "+"),
            IntSub | LlongSub | LllongSub | UintSub | UllongSub | FloatSub => bin(&a, "-"),
            IntMul | LlongMul | LllongMul | UintMul | UllongMul | FloatMul => bin(&a, "*"),
            FloatTrueDiv => bin(&a, "/"),
            IntFloorDiv | UintFloorDiv | UllongFloorDiv => bin(&a, "/"),
            IntMod | UintMod | UllongMod => bin(&a, "%"),
            IntPyDiv | LlongPyDiv => Some(format!("rpy_int_floordiv({}, {})", a(0), a(1))),
            IntPyMod | LlongPyMod => Some(format!("rpy_int_floormod({}, {})", a(0), a(1))),
            IntPyDivZer | LlongPyDivZer => {
                Some(format!("rpy_int_floordiv_zer({}, {})", a(0), a(1)))
            }
            IntPyModZer | LlongPyModZer => {
                Some(format!("rpy_int_floormod_zer({}, {})", a(0), a(1)))
            }
            IntPyDivOvfZer => Some(format!("rpy_int_floordiv_ovf_zer({}, {})", a(0), a(1))),
            IntPyModOvfZer => Some(format!("rpy_int_floormod_ovf_zer({}, {})", a(0), a(1))),
            UintFloorDivZer | UllongFloorDivZer => {
                Some(format!("rpy_uint_floordiv_zer({}, {})", a(0), a(1)))
            }
            UintModZer | UllongModZer => Some(format!("rpy_uint_mod_zer({}, {})", a(0), a(1))),
            IntLt | LlongLt | LllongLt | UintLt | UllongLt | FloatLt | CharLt | UnicharLt => {
                bin(&a, "<")
            }
            IntLe | LlongLe | LllongLe | UintLe | UllongLe | FloatLe | CharLe | UnicharLe => {
                bin(&a, "<=")
            }
            IntEq | LlongEq | LllongEq | UintEq | UllongEq | FloatEq | CharEq | UnicharEq => {
                bin(&a, "==")
            }
            IntNe | LlongNe | LllongNe | UintNe | UllongNe | FloatNe | CharNe | UnicharNe => {
                bin(&a, "!=")
            }
            IntGt | LlongGt | LllongGt | UintGt | UllongGt | FloatGt | CharGt | UnicharGt => {
                bin(&a, ">")
            }
            IntGe | LlongGe | LllongGe | UintGe | UllongGe | FloatGe | CharGe | UnicharGe => {
                bin(&a, ">=")
            }
            IntAnd | LlongAnd | LllongAnd | UintAnd | UllongAnd => bin(&a, "&"),
            IntOr | LlongOr | LllongOr | UintOr | UllongOr => bin(&a, "|"),
            IntXor | LlongXor | LllongXor | UintXor | UllongXor => bin(&a, "^"),
            IntLshift | LlongLshift => Some(format!("rpy_int_lshift({}, {})", a(0), a(1))),
            IntRshift | LlongRshift => Some(format!("rpy_int_rshift({}, {})", a(0), a(1))),
            LllongPyDiv => Some(format!("rpy_lllong_floordiv({}, {})", a(0), a(1))),
            LllongPyMod => Some(format!("rpy_lllong_floormod({}, {})", a(0), a(1))),
            LllongPyDivZer => Some(format!("rpy_lllong_floordiv_zer({}, {})", a(0), a(1))),
            LllongPyModZer => Some(format!("rpy_lllong_floormod_zer({}, {})", a(0), a(1))),
            LllongLshift => Some(format!("rpy_lllong_lshift({}, {})", a(0), a(1))),
            LllongRshift => Some(format!("rpy_lllong_rshift({}, {})", a(0), a(1))),
            UintLshift | UllongLshift => Some(format!("rpy_uint_lshift({}, {})", a(0), a(1))),
            UintRshift | UllongRshift => Some(format!("rpy_uint_rshift({}, {})", a(0), a(1))),
            IntAddOvf => Some(format!("rpy_int_add_ovf({}, {})", a(0), a(1))),
            IntSubOvf => Some(format!("rpy_int_sub_ovf({}, {})", a(0), a(1))),
            IntMulOvf => Some(format!("rpy_int_mul_ovf({}, {})", a(0), a(1))),
            IntNegOvf => Some(format!("rpy_int_sub_ovf(0, {})", a(0))),
            IntAbsOvf => Some(format!("rpy_int_abs_ovf({})", a(0))),
            IntLshiftOvf => Some(format!("rpy_int_lshift_ovf({}, {})", a(0), a(1))),
            IntBetween => Some(format!("({} <= {} && {} < {})", a(0), a(1), a(1), a(2))),
            ConvertFloatBytesToLonglong => Some(format!("rpy_float_bits({})", a(0))),
            ConvertLonglongBytesToFloat => Some(format!("rpy_float_from_bits({})", a(0))),
            CastPointer => Some(self.cast_pointer(op.args[0], rt, &a(0), &cty)),
            CastBoolToInt | CastCharToInt | CastUnicharToInt | CastIntToChar | CastIntToUnichar
            | CastIntToFloat | CastBoolToFloat | CastFloatToInt | CastPrimitive | CastPtrToInt
            | CastIntToPtr => Some(format!("(({}){})", cty, a(0))),
            PtrEq => Some(format!("((void *){} == (void *){})", a(0), a(1))),
            PtrNe => Some(format!("((void *){} != (void *){})", a(0), a(1))),
            PtrIsZero => Some(format!("({} == NULL)", a(0))),
            PtrNonZero => Some(format!("({} != NULL)", a(0))),
            GcIdentityHash => Some(format!(
                "({} == NULL ? 0 : rpy_gc_identityhash((void *){}))",
                a(0),
                a(0)
            )),
            WeakrefCreate => {
                let t = self.db.prog.weakref.unwrap_or(LlType::VOID);
                Some(format!(
                    "(({})rpy_weakref_create({}, (void *){}))",
                    cty,
                    self.db.tid(t),
                    a(0)
                ))
            }
            WeakrefDeref => Some(format!(
                "({w} == NULL ? NULL : ({})((struct rpy_weakref *){w})->referent)",
                cty,
                w = a(0)
            )),
            GcCollect => {
                self.out.push_str("    rpy_gc_collect();\n");
                None
            }
            Malloc | MallocVarsize => {
                let t = match op.args[0] {
                    Hlvalue::Ll(c) => match c.value {
                        LlValue::Type(t) => t,
                        _ => LlType::VOID,
                    },
                    _ => LlType::VOID,
                };
                let types = self.db.types();
                let sn = self.db.struct_name(t);
                Some(if !types.is_gc(t) {
                    // raw memory: outside the GC's heap
                    match types.def(t) {
                        crate::lltypesystem::TypeDef::Array { .. } => format!(
                            "(({})rpy_raw_malloc_array(offsetof({sn}, items), sizeof((({sn} *)0)->items[0]), {}))",
                            cty,
                            if o == Malloc { "0".to_string() } else { a(1) },
                            sn = sn
                        ),
                        _ => format!("(({})rpy_raw_malloc(sizeof({})))", cty, sn),
                    }
                } else if o == Malloc {
                    format!(
                        "(({})rpy_gc_malloc_fixed_inline({}, RPY_YOUNG_SIZE(sizeof({}))))",
                        cty,
                        self.db.tid(t),
                        sn
                    )
                } else {
                    format!(
                        "(({})rpy_gc_malloc_varsize({}, {}))",
                        cty,
                        self.db.tid(t),
                        a(1)
                    )
                })
            }
            GetField => {
                if rt == LlType::VOID {
                    None
                } else {
                    Some(format!("{}->{}", a(0), field_name(&name_of(op.args[1]))))
                }
            }
            SetField => {
                if self.ty(op.args[2]) != LlType::VOID {
                    self.barrier(op.args[0], op.args[2]);
                    let _ = writeln!(
                        self.out,
                        "    {}->{} = {};",
                        a(0),
                        field_name(&name_of(op.args[1])),
                        a(2)
                    );
                }
                None
            }
            GetSubstruct => Some(format!(
                "(({})&{}->{})",
                cty,
                a(0),
                field_name(&name_of(op.args[1]))
            )),
            GetArrayItem => {
                if rt == LlType::VOID {
                    None
                } else if let Some((name, addr)) = self.raw_item(op) {
                    Some(match name {
                        Some(name) => format!("rpy_raw_get_{}({})", name, addr),
                        None => format!("(*({cty} *){addr})"),
                    })
                } else {
                    Some(format!("{}->items[{}]", a(0), a(1)))
                }
            }
            SetArrayItem => {
                if let Some((name, addr)) = self.raw_item(op) {
                    let _ = match name {
                        Some(name) => {
                            writeln!(self.out, "    rpy_raw_set_{}({}, {});", name, addr, a(2))
                        }
                        None => {
                            let item = self.db.ctype(self.ty(op.args[2]));
                            writeln!(self.out, "    *({item} *){addr} = {};", a(2))
                        }
                    };
                } else if self.ty(op.args[2]) != LlType::VOID {
                    self.barrier(op.args[0], op.args[2]);
                    let _ = writeln!(self.out, "    {}->items[{}] = {};", a(0), a(1), a(2));
                }
                None
            }
            ArrayCopy => {
                self.arraycopy(op);
                None
            }
            GetArraySize => Some(format!("{}->length", a(0))),
            // the structure moves with its items: `items[0]` of the result is `items[n]`
            DirectPtradd => Some(format!(
                "(({cty})((char *){p} + ({n}) * (long)sizeof({p}->items[0])))",
                p = a(0),
                n = a(1)
            )),
            GetInteriorField => {
                if rt == LlType::VOID {
                    None
                } else {
                    Some(self.interior(op.args[0], &op.args[1..]).0)
                }
            }
            GetInteriorArraySize => Some(if op.args.len() > 1 {
                format!("{}.length", self.interior(op.args[0], &op.args[1..]).0)
            } else {
                format!("{}->length", a(0))
            }),
            SetInteriorField => {
                let n = op.args.len() - 1;
                if self.ty(op.args[n]) != LlType::VOID {
                    self.barrier(op.args[0], op.args[n]);
                    let (p, _) = self.interior(op.args[0], &op.args[1..n]);
                    let _ = writeln!(self.out, "    {} = {};", p, a(n));
                }
                None
            }
            DirectCall | IndirectCall => {
                let (f, args) = if o == DirectCall {
                    let name = match op.args[0] {
                        Hlvalue::Ll(crate::flowspace::LlConstant {
                            value: LlValue::Ptr(LlPtr::Func(f)),
                            ty,
                        }) => match &self.db.prog.functions[f as usize] {
                            LlFunction::Runtime(RuntimeFn::MathFn) => {
                                match name_of(op.args[1]).as_str() {
                                    // inline (ops.h): the hot one of numeric code
                                    "sqrt" => "rpy_math_sqrt".to_string(),
                                    n => format!("RPyRT_ll_math__{}", n),
                                }
                            }
                            LlFunction::Runtime(rf) => super::helpers::helper_name(
                                *rf,
                                self.db.types().pointee(ty).unwrap_or(LlType::VOID),
                            ),
                            LlFunction::C(_) => super::cfuncs::wrapper_name(
                                self.db,
                                f,
                                self.db.types().pointee(ty).unwrap_or(LlType::VOID),
                            ),
                            _ => self.db.func_names[f as usize].clone(),
                        },
                        other => self.arg(other),
                    };
                    (name, &op.args[1..])
                } else {
                    (a(0), &op.args[1..])
                };
                let args: Vec<String> = args
                    .iter()
                    .filter(|x| self.ty(**x) != LlType::VOID)
                    .map(|x| self.arg(*x))
                    .collect();
                let mut args = args;
                if f.starts_with("RPyRT_ll_math__") && self.db.types().is_ptr(rt) {
                    // a math function giving a tuple: the tuple's type id
                    let st = self.db.types().pointee(rt).unwrap_or(LlType::VOID);
                    args.push(self.db.tid(st).to_string());
                }
                let call = if f.starts_with("RPyRT_") && self.db.types().is_ptr(rt) {
                    format!("({}){}({})", cty, f, args.join(", "))
                } else {
                    format!("{}({})", f, args.join(", "))
                };
                if has_result {
                    Some(call)
                } else {
                    let _ = writeln!(self.out, "    {};", call);
                    None
                }
            }
            FuncsetCheck => {
                // the reference's dispatcher switch of a small function set: abort()
                let _ = writeln!(self.out, "    if (!{}) abort();", a(0));
                None
            }
            DebugAssert => {
                let _ = writeln!(
                    self.out,
                    "    if (!{}) rpy_fatal(\"AssertionError\");",
                    a(0)
                );
                None
            }
            DebugFatalError => {
                self.out.push_str("    rpy_fatal(\"fatal error\");\n");
                None
            }
            DebugUndefined => {
                // undefined from here on: a compiled program stops rather than go on
                let msg = match op.args.first() {
                    Some(Hlvalue::Ll(c)) => match c.value {
                        LlValue::Name(n) => n.as_str(),
                        _ => "",
                    },
                    _ => "",
                };
                let text: String = msg
                    .chars()
                    .filter(|c| c.is_ascii_graphic() && !matches!(c, '"' | '\\' | '%') || *c == ' ')
                    .collect();
                // the message's `{}` are the values of the operation's other arguments
                let values: Vec<String> = op.args.iter().skip(1).map(|&v| self.arg(v)).collect();
                let holes = text.matches("{}").count();
                if holes > 0 && holes == values.len() {
                    let casts: Vec<String> =
                        values.iter().map(|v| format!(", (long)({})", v)).collect();
                    let _ = writeln!(
                        self.out,
                        "    {{ char rpy_ub[256]; snprintf(rpy_ub, sizeof rpy_ub, \"undefined behaviour: {}\"{}); rpy_fatal(rpy_ub); }}",
                        text.replace("{}", "%ld"),
                        casts.concat()
                    );
                } else {
                    let _ = writeln!(
                        self.out,
                        "    rpy_fatal(\"undefined behaviour: {}\");",
                        text
                    );
                }
                None
            }
        };
        if let Some(e) = expr {
            if has_result {
                let _ = writeln!(self.out, "    {} = {};", r, e);
            } else if o.canraise() != crate::lltypesystem::lloperation::CanRaise::Nothing {
                let _ = writeln!(self.out, "    (void){};", e);
            }
        }
    }
}

fn bin(a: &dyn Fn(usize) -> String, op: &str) -> Option<String> {
    Some(format!("({} {} {})", a(0), op, a(1)))
}

fn name_of(v: Hlvalue) -> String {
    match v {
        Hlvalue::Ll(c) => match c.value {
            LlValue::Name(n) => n.as_str().to_string(),
            _ => String::new(),
        },
        _ => String::new(),
    }
}
