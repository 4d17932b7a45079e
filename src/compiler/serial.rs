//! A compact binary form of compiled modules, for the bundled models compiled at build time
//! (`build.rs` writes it with [`write_module`], `objspace::precompiled` reads it back with
//! [`read_module`]): parsing and compiling the models on every run was an eighth of a
//! `check`. Reading gives the very code object compiling would give, its spans in the file
//! the reader names (a module's code only ever points into its own file).
//!
//! Layout of one module: a table of the strings its code objects name (each once), then
//! the module's code object; integers are LEB128 varints, signed ones zigzagged. The format
//! has no version of its own: it is written and read by the same build of the crate.

use super::bytecode::{BinOp, CmpOp, CodeObject, Const, Instr, UnOp};
use crate::syntax::{FileId, Span};
use std::rc::Rc;

/// Why a code object cannot be written (the caller then leaves the module to be compiled at
/// run time).
#[derive(Debug)]
pub struct Unwritable(pub String);

/// Writes module code `code` compiled as file `file`, appending to `out`.
pub fn write_module(code: &CodeObject, file: FileId, out: &mut Vec<u8>) -> Result<(), Unwritable> {
    let mut w = Writer {
        file,
        strings: Vec::new(),
        index: Default::default(),
        body: Vec::new(),
    };
    w.code(code)?;
    put_uint(out, w.strings.len() as u64);
    for s in &w.strings {
        put_uint(out, s.len() as u64);
        out.extend_from_slice(s.as_bytes());
    }
    out.extend_from_slice(&w.body);
    Ok(())
}

/// Reads a module written by [`write_module`] from the start of `bytes`, its spans in
/// `file`; `None` when the bytes are not such a module.
pub fn read_module(bytes: &[u8], file: FileId) -> Option<Rc<CodeObject>> {
    let mut r = Reader {
        bytes,
        pos: 0,
        file,
        strings: Vec::new(),
    };
    let n = r.uint()?;
    let mut strings = Vec::with_capacity(n.min(1 << 16) as usize);
    for _ in 0..n {
        let len = r.uint()? as usize;
        let s = std::str::from_utf8(r.take(len)?).ok()?;
        strings.push(Rc::from(s));
    }
    r.strings = strings;
    r.code()
}

fn put_uint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

struct Writer {
    file: FileId,
    strings: Vec<Rc<str>>,
    index: crate::fasthash::HashMap<Rc<str>, u32>,
    body: Vec<u8>,
}

impl Writer {
    fn uint(&mut self, v: u64) {
        put_uint(&mut self.body, v);
    }

    fn int(&mut self, v: i128) {
        // zigzag, in two words
        let z = ((v << 1) ^ (v >> 127)) as u128;
        self.uint(z as u64);
        self.uint((z >> 64) as u64);
    }

    fn bytes(&mut self, b: &[u8]) {
        self.uint(b.len() as u64);
        self.body.extend_from_slice(b);
    }

    fn string(&mut self, s: &Rc<str>) {
        let i = match self.index.get(s) {
            Some(&i) => i,
            None => {
                let i = self.strings.len() as u32;
                self.strings.push(s.clone());
                self.index.insert(s.clone(), i);
                i
            }
        };
        self.uint(i.into());
    }

    fn strings(&mut self, v: &[Rc<str>]) {
        self.uint(v.len() as u64);
        v.iter().for_each(|s| self.string(s));
    }

    fn span(&mut self, s: Span) -> Result<(), Unwritable> {
        if s.file != self.file {
            return Err(Unwritable(format!("a span in file {:?}", s.file)));
        }
        self.uint(s.start.into());
        // most spans are short: their length is smaller than their end
        self.uint(s.end.wrapping_sub(s.start).into());
        Ok(())
    }

    fn code(&mut self, c: &CodeObject) -> Result<(), Unwritable> {
        self.string(&c.co_name);
        self.string(&c.co_filename);
        self.uint(c.co_firstlineno.into());
        self.uint(c.co_argcount.into());
        self.uint(c.co_flags.into());
        self.uint(c.co_code.len() as u64);
        for i in &c.co_code {
            put_instr(self, i);
        }
        self.uint(c.co_consts.len() as u64);
        for k in &c.co_consts {
            self.constant(k)?;
        }
        self.strings(&c.co_names);
        self.strings(&c.co_varnames);
        self.strings(&c.co_cellvars);
        self.strings(&c.co_freevars);
        if c.co_spans.len() != c.co_code.len() {
            return Err(Unwritable("a position table of another length".into()));
        }
        for s in &c.co_spans {
            self.span(*s)?;
        }
        self.span(c.span)?;
        self.span(c.name_span)?;
        match &c.docstring {
            None => self.uint(0),
            Some(d) => {
                self.uint(1);
                self.string(d);
            }
        }
        Ok(())
    }

    fn constant(&mut self, k: &Const) -> Result<(), Unwritable> {
        match k {
            Const::None => self.uint(0),
            Const::Bool(b) => self.uint(1 + u64::from(*b)),
            Const::Int(i) => {
                self.uint(3);
                self.int((*i).into());
            }
            Const::Long(i) => {
                self.uint(4);
                self.int(*i);
            }
            Const::Float(f) => {
                self.uint(5);
                self.body.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Const::Complex(re, im) => {
                self.uint(6);
                self.body.extend_from_slice(&re.to_bits().to_le_bytes());
                self.body.extend_from_slice(&im.to_bits().to_le_bytes());
            }
            Const::Str(s) => {
                self.uint(7);
                self.bytes(s);
            }
            Const::Unicode(s) => {
                self.uint(8);
                self.uint(s.len() as u64);
                s.codes().iter().for_each(|&c| self.uint(c.into()));
            }
            Const::Tuple(items) => {
                self.uint(9);
                self.uint(items.len() as u64);
                for i in items.iter() {
                    self.constant(i)?;
                }
            }
            Const::Code(c) => {
                self.uint(10);
                self.code(c)?;
            }
            Const::Ellipsis => self.uint(11),
            Const::BigLong(i) => {
                self.uint(12);
                self.bytes(i.to_string().as_bytes());
            }
        }
        Ok(())
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    file: FileId,
    strings: Vec<Rc<str>>,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let bytes = self.bytes;
        let end = self.pos.checked_add(n)?;
        let b = bytes.get(self.pos..end)?;
        self.pos = end;
        Some(b)
    }

    fn uint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.pos)?;
            self.pos += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn u32(&mut self) -> Option<u32> {
        self.uint()?.try_into().ok()
    }

    fn int(&mut self) -> Option<i128> {
        let z = u128::from(self.uint()?) | (u128::from(self.uint()?) << 64);
        Some(((z >> 1) as i128) ^ -((z & 1) as i128))
    }

    fn f64(&mut self) -> Option<f64> {
        let b: [u8; 8] = self.take(8)?.try_into().ok()?;
        Some(f64::from_bits(u64::from_le_bytes(b)))
    }

    fn string(&mut self) -> Option<Rc<str>> {
        let i = self.uint()? as usize;
        self.strings.get(i).cloned()
    }

    fn strings(&mut self) -> Option<Vec<Rc<str>>> {
        let n = self.uint()? as usize;
        (0..n).map(|_| self.string()).collect()
    }

    fn span(&mut self) -> Option<Span> {
        let start = self.u32()?;
        let len = self.u32()?;
        Some(Span::new(self.file, start, start.wrapping_add(len)))
    }

    fn code(&mut self) -> Option<Rc<CodeObject>> {
        let co_name = self.string()?;
        let co_filename = self.string()?;
        let co_firstlineno = self.u32()?;
        let co_argcount = self.u32()?;
        let co_flags = self.u32()?;
        let n = self.uint()? as usize;
        let co_code = (0..n)
            .map(|_| get_instr(self))
            .collect::<Option<Vec<_>>>()?;
        let nconsts = self.uint()? as usize;
        let co_consts = (0..nconsts)
            .map(|_| self.constant())
            .collect::<Option<Vec<_>>>()?;
        let co_names = self.strings()?;
        let co_varnames = self.strings()?;
        let co_cellvars = self.strings()?;
        let co_freevars = self.strings()?;
        let co_spans = (0..n).map(|_| self.span()).collect::<Option<Vec<_>>>()?;
        let span = self.span()?;
        let name_span = self.span()?;
        let docstring = match self.uint()? {
            0 => None,
            1 => Some(self.string()?),
            _ => return None,
        };
        Some(Rc::new(CodeObject {
            co_name,
            co_filename,
            co_firstlineno,
            co_argcount,
            co_flags,
            co_code,
            co_consts,
            co_names,
            co_varnames,
            co_cellvars,
            co_freevars,
            co_spans,
            span,
            name_span,
            docstring,
        }))
    }

    fn constant(&mut self) -> Option<Const> {
        Some(match self.uint()? {
            0 => Const::None,
            1 => Const::Bool(false),
            2 => Const::Bool(true),
            3 => Const::Int(self.int()?.try_into().ok()?),
            4 => Const::Long(self.int()?),
            5 => Const::Float(self.f64()?),
            6 => Const::Complex(self.f64()?, self.f64()?),
            7 => {
                let n = self.uint()? as usize;
                Const::Str(Rc::from(self.take(n)?))
            }
            8 => {
                let n = self.uint()? as usize;
                let codes = (0..n).map(|_| self.u32()).collect::<Option<Vec<u32>>>()?;
                Const::Unicode(crate::compiler::UStr::from_codes(codes))
            }
            9 => {
                let n = self.uint()? as usize;
                let items = (0..n)
                    .map(|_| self.constant())
                    .collect::<Option<Vec<_>>>()?;
                Const::Tuple(Rc::from(items))
            }
            10 => Const::Code(self.code()?),
            11 => Const::Ellipsis,
            12 => {
                let n = self.uint()? as usize;
                let digits = std::str::from_utf8(self.take(n)?).ok()?;
                Const::BigLong(Rc::new(digits.parse().ok()?))
            }
            _ => return None,
        })
    }
}

/// An instruction operand, written as one varint.
trait Operand: Sized {
    fn to_code(self) -> u64;
    fn from_code(v: u64) -> Option<Self>;
}

impl Operand for u32 {
    fn to_code(self) -> u64 {
        self.into()
    }
    fn from_code(v: u64) -> Option<u32> {
        v.try_into().ok()
    }
}

impl Operand for bool {
    fn to_code(self) -> u64 {
        self.into()
    }
    fn from_code(v: u64) -> Option<bool> {
        match v {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

/// Operand codes of the operator enums: each variant's position in the list.
macro_rules! operand_enum {
    ($ty:ident: $($variant:ident),* $(,)?) => {
        impl Operand for $ty {
            fn to_code(self) -> u64 {
                let all = [$($ty::$variant),*];
                all.iter().position(|v| *v == self).unwrap_or(all.len()) as u64
            }
            fn from_code(v: u64) -> Option<$ty> {
                [$($ty::$variant),*].get(usize::try_from(v).ok()?).copied()
            }
        }
    };
}

operand_enum!(UnOp: Neg, Pos, Invert);
operand_enum!(BinOp: Add, Sub, Mul, Div, TrueDiv, FloorDiv, Mod, Pow, LShift, RShift, And, Or, Xor);
operand_enum!(CmpOp: Lt, Le, Eq, Ne, Gt, Ge, In, NotIn, Is, IsNot, ExcMatch);

/// The writer and the reader of instructions, from one list: a tag per variant, then its
/// operands in order.
macro_rules! instr_codec {
    ($($tag:literal $name:ident $(($a:ident))? $({ $($f:ident),+ })?;)*) => {
        fn put_instr(w: &mut Writer, i: &Instr) {
            match *i {
                $(Instr::$name $(($a))? $({ $($f),+ })? => {
                    w.uint($tag);
                    $(w.uint(Operand::to_code($a));)?
                    $($(w.uint(Operand::to_code($f));)+)?
                })*
            }
        }

        fn get_instr(r: &mut Reader) -> Option<Instr> {
            Some(match r.uint()? {
                $($tag => Instr::$name $((Operand::from_code({
                    let $a = r.uint()?;
                    $a
                })?))? $({ $($f: Operand::from_code(r.uint()?)?),+ })?,)*
                _ => return None,
            })
        }
    };
}

instr_codec! {
    0 Nop;
    1 PopTop;
    2 RotTwo;
    3 RotThree;
    4 DupTop;
    5 DupTopTwo;
    6 LoadConst(a);
    7 LoadFast(a);
    8 StoreFast(a);
    9 DeleteFast(a);
    10 LoadName(a);
    11 StoreName(a);
    12 DeleteName(a);
    13 LoadGlobal(a);
    14 StoreGlobal(a);
    15 DeleteGlobal(a);
    16 LoadDeref(a);
    17 StoreDeref(a);
    18 LoadClosure(a);
    19 LoadAttr(a);
    20 StoreAttr(a);
    21 DeleteAttr(a);
    22 Unary(a);
    23 Binary(a);
    24 Inplace(a);
    25 Compare(a);
    26 Subscr;
    27 StoreSubscr;
    28 DeleteSubscr;
    29 Slice { lower, upper };
    30 StoreSlice { lower, upper };
    31 DeleteSlice { lower, upper };
    32 BuildSlice(a);
    33 BuildTuple(a);
    34 BuildList(a);
    35 BuildSet(a);
    36 BuildMap(a);
    37 ListAppend(a);
    38 MapAdd(a);
    39 StoreMap;
    40 WithExitException;
    41 SetAdd(a);
    42 UnpackSequence(a);
    43 Call { npos, nkw, star, starstar };
    44 MakeFunction { ndefaults, closure };
    45 BuildClass;
    46 LoadLocals;
    47 ReturnValue;
    48 YieldValue;
    49 Jump(a);
    50 PopJumpIfFalse(a);
    51 PopJumpIfTrue(a);
    52 JumpIfFalseOrPop(a);
    53 JumpIfTrueOrPop(a);
    54 GetIter;
    55 ForIter(a);
    56 SetupExcept(a);
    57 PopBlock;
    58 Reraise;
    59 Raise(a);
    60 ImportName(a);
    61 ImportFrom(a);
    62 ImportStar;
    63 PrintItem { to };
    64 PrintNewline { to };
    65 Exec(a);
    66 ReraiseCaught;
    67 UnpackCheck(a);
    68 UnpackMismatch;
}

/// Appends to the set of compiled modules `out` the module at `path` compiled from `text`
/// (as written by [`write_module`]).
pub fn write_entry(out: &mut Vec<u8>, path: &str, text: &str, module: &[u8]) {
    put_uint(out, path.len() as u64);
    out.extend_from_slice(path.as_bytes());
    out.extend_from_slice(&text_hash(text).to_le_bytes());
    put_uint(out, module.len() as u64);
    out.extend_from_slice(module);
}

/// One module of a set written by [`write_entry`].
pub struct Entry<'a> {
    pub path: &'a str,
    /// [`text_hash`] of the text it was compiled from.
    pub text_hash: u64,
    /// The module, for [`read_module`].
    pub module: &'a [u8],
}

/// The modules of a set written by [`write_entry`]; `None` if `bytes` is not such a set.
pub fn entries(bytes: &[u8]) -> Option<Vec<Entry<'_>>> {
    let mut r = Reader {
        bytes,
        pos: 0,
        file: FileId::default(),
        strings: Vec::new(),
    };
    let mut out = Vec::new();
    while r.pos < bytes.len() {
        let n = r.uint()? as usize;
        let path = std::str::from_utf8(r.take(n)?).ok()?;
        let text_hash = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
        let n = r.uint()? as usize;
        let module = r.take(n)?;
        out.push(Entry {
            path,
            text_hash,
            module,
        });
    }
    Some(out)
}

/// A hash of a module's text, the same on every platform (FxHash's multiply-rotate over
/// little-endian words, then the length): a compiled module is used only for the very text
/// it was compiled from.
pub fn text_hash(text: &str) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = 0u64;
    let mut chunks = text.as_bytes().chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap_or_default());
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
    }
    (h.rotate_left(5) ^ text.len() as u64).wrapping_mul(K)
}
