//! Printing flow graphs: text close to the seeds' notation (`v3 = add(v1, v2)`), and
//! Graphviz DOT.

use super::model::*;
use crate::objspace::object::{Heap, Object, Value};
use crate::syntax::SourceMap;
use std::fmt::Write;

/// A short, stable description of a constant.
pub fn describe_const(heap: &Heap, v: Value) -> String {
    match v {
        Value::None => "None".into(),
        Value::Bool(b) => {
            if b {
                "True".into()
            } else {
                "False".into()
            }
        }
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{:?}", f),
        Value::Obj(id) => match heap.get(id) {
            Object::Str(s) => {
                format!("{:?}", String::from_utf8_lossy(s))
                    .replacen('"', "'", 1)
                    .trim_end_matches('"')
                    .to_string()
                    + "'"
            }
            Object::Unicode(s) => format!("u{:?}", s),
            Object::ByteArray(b) => format!("bytearray({:?})", String::from_utf8_lossy(b)),
            Object::Long(i) => format!("{}L", i),
            Object::Complex(re, im) => crate::objspace::format::complex_format(*re, *im, true),
            Object::Unknown { name, .. } => format!("<unknown {}>", name),
            Object::RInt { kind, value } => format!("{:?}({})", kind, value),
            Object::Tuple(items) => {
                let inner: Vec<String> = items.iter().map(|&x| describe_const(heap, x)).collect();
                if inner.len() == 1 {
                    format!("({},)", inner[0])
                } else {
                    format!("({})", inner.join(", "))
                }
            }
            Object::List(items) => format!("<prebuilt list of {}>", items.len()),
            Object::Dict(d) => format!("<prebuilt dict of {}>", d.entries.len()),
            Object::Set(_) => "<prebuilt set>".into(),
            Object::Function(f) => format!("<function {}>", f.name),
            Object::Builtin { id, .. } => format!("<builtin {}>", id.name()),
            Object::Class(c) => format!("<class {}>", c.name),
            Object::Instance(i) => match heap.class(i.class) {
                Some(c) => format!("<{} instance>", c.name),
                None => "<instance>".into(),
            },
            Object::Module(m) => format!("<module {}>", m.name),
            Object::BoundMethod { func, .. } => format!("<bound {}>", describe_const(heap, *func)),
            Object::UnboundMethod { func, .. } => describe_const(heap, *func),
            Object::StaticMethod(f) => format!("<staticmethod {}>", describe_const(heap, *f)),
            Object::ClassMethod(f) => format!("<classmethod {}>", describe_const(heap, *f)),
            Object::Property { .. } => "<property>".into(),
            Object::Cell(_) => "<cell>".into(),
            Object::Code(c) => format!("<code {}>", c.co_name),
            Object::Iterator(_) => "<iterator>".into(),
            Object::Slice(..) => "<slice>".into(),
            Object::Ellipsis => "Ellipsis".into(),
            Object::NotImplemented => "NotImplemented".into(),
        },
    }
}

fn value(graph: &FunctionGraph, heap: &Heap, v: Hlvalue) -> String {
    match v {
        Hlvalue::Var(v) => graph.var_name(v),
        Hlvalue::Const(c) => describe_const(heap, c),
        Hlvalue::Ll(c) => c.value.to_string(),
    }
}

fn exitcase(heap: &Heap, c: ExitCase) -> Option<String> {
    match c {
        ExitCase::None => None,
        ExitCase::Value(v) => Some(describe_const(heap, v)),
        ExitCase::Exception(cls) => Some(describe_const(heap, Value::Obj(cls))),
        ExitCase::Ll(v) => Some(v.to_string()),
    }
}

/// Text rendering; `annotate` may add a suffix to each variable (its annotation).
pub fn render_text(
    graph: &FunctionGraph,
    heap: &Heap,
    sources: &SourceMap,
    annotate: &dyn Fn(VarId) -> Option<String>,
) -> String {
    let blocks = graph.iterblocks();
    // Block → its position (a map: graphs of one long expression have many blocks).
    let positions: crate::fasthash::HashMap<BlockId, usize> =
        blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let index = |b: BlockId| positions.get(&b).copied().unwrap_or(b.0 as usize);
    let mut out = String::new();
    let startargs: Vec<String> = graph
        .block(graph.startblock)
        .inputargs
        .iter()
        .map(|&v| graph.var_name(v))
        .collect();
    let line = |span: crate::syntax::Span| -> u32 {
        if (span.file.0 as usize) < sources.len() {
            sources.get(span.file).line_of(span.start) + 1
        } else {
            0
        }
    };
    writeln!(
        out,
        "graph {}({})  # line {}",
        graph.name,
        startargs.join(", "),
        line(graph.span)
    )
    .ok();
    let var = |v: VarId| -> String {
        match annotate(v) {
            Some(a) => format!("{}: {}", graph.var_name(v), a),
            None => graph.var_name(v),
        }
    };
    for &b in &blocks {
        let block = graph.block(b);
        let label = if b == graph.returnblock {
            "returnblock".to_string()
        } else if b == graph.exceptblock {
            "exceptblock".to_string()
        } else {
            format!("block{}", index(b))
        };
        let args: Vec<String> = block.inputargs.iter().map(|&v| var(v)).collect();
        writeln!(out, "  {}({}):", label, args.join(", ")).ok();
        for op in &block.operations {
            let args: Vec<String> = op.args.iter().map(|&a| value(graph, heap, a)).collect();
            writeln!(
                out,
                "    {} = {}({})  # line {}",
                var(op.result),
                op.opname.name(),
                args.join(", "),
                line(op.span)
            )
            .ok();
        }
        match block.exitswitch {
            ExitSwitch::None => {}
            ExitSwitch::Value(v) => {
                writeln!(out, "    exitswitch: {}", value(graph, heap, v)).ok();
            }
            ExitSwitch::LastException => {
                writeln!(out, "    exitswitch: last_exception").ok();
            }
        }
        for &l in &block.exits {
            let link = graph.link(l);
            let target = if link.target == graph.returnblock {
                "returnblock".to_string()
            } else if link.target == graph.exceptblock {
                "exceptblock".to_string()
            } else {
                format!("block{}", index(link.target))
            };
            let args: Vec<String> = link.args.iter().map(|&a| value(graph, heap, a)).collect();
            let case = exitcase(heap, link.exitcase)
                .map(|c| format!("  [{}]", c))
                .unwrap_or_default();
            writeln!(out, "    --> {}({}){}", target, args.join(", "), case).ok();
        }
    }
    out
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('<', "\\<")
        .replace('>', "\\>")
        .replace('{', "\\{")
        .replace('}', "\\}")
        .replace('|', "\\|")
}

/// Graphviz DOT rendering of one graph (a `subgraph` so several can share one file).
pub fn render_dot(graph: &FunctionGraph, heap: &Heap, gid: usize) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "  subgraph cluster_{} {{\n    label=\"{}\";",
        gid,
        dot_escape(&graph.name)
    )
    .ok();
    for b in graph.iterblocks() {
        let block = graph.block(b);
        let args: Vec<String> = block.inputargs.iter().map(|&v| graph.var_name(v)).collect();
        let mut lines = vec![format!("({})", args.join(", "))];
        for op in &block.operations {
            let a: Vec<String> = op.args.iter().map(|&x| value(graph, heap, x)).collect();
            lines.push(format!(
                "{} = {}({})",
                graph.var_name(op.result),
                op.opname.name(),
                a.join(", ")
            ));
        }
        match block.exitswitch {
            ExitSwitch::Value(v) => lines.push(format!("switch: {}", value(graph, heap, v))),
            ExitSwitch::LastException => lines.push("switch: last_exception".into()),
            ExitSwitch::None => {}
        }
        let title = if b == graph.returnblock {
            "return".to_string()
        } else if b == graph.exceptblock {
            "except".to_string()
        } else {
            format!("block{}", b.0)
        };
        let body: Vec<String> = lines.iter().map(|l| dot_escape(l)).collect();
        writeln!(
            out,
            "    g{}b{} [shape=record, fontname=\"monospace\", label=\"{{{}|{}\\l}}\"];",
            gid,
            b.0,
            title,
            body.join("\\l")
        )
        .ok();
        for &l in &block.exits {
            let link = graph.link(l);
            let a: Vec<String> = link.args.iter().map(|&x| value(graph, heap, x)).collect();
            let mut label = a.join(", ");
            if let Some(c) = exitcase(heap, link.exitcase) {
                label = format!("{}: {}", c, label);
            }
            writeln!(
                out,
                "    g{}b{} -> g{}b{} [label=\"{}\"];",
                gid,
                b.0,
                gid,
                link.target.0,
                dot_escape(&label)
            )
            .ok();
        }
    }
    writeln!(out, "  }}").ok();
    out
}
