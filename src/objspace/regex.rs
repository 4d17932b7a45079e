//! Regular expressions as Python 2's `re` (its `sre` engine) evaluates them, for programs
//! that use `re` at import time (building a decoder from encoding strings with `re.sub`
//! and `re.split`, scanning a table with `re.match`). Takes a pattern, flags and a text
//! (as code units: bytes of a `str`, characters of a `unicode`) and gives the spans of a
//! match and of its groups. The rest of `re` (sub, split, findall, match objects) is
//! written in Python in the bundled `re.py` over [`Regex::search`].
//!
//! A backtracking matcher over the parsed pattern, as `sre` is, so that alternation and
//! greedy/lazy repetition pick the same match. Work is bounded: a pattern that needs
//! more than [`STEP_BUDGET`] steps or nests deeper than [`DEPTH_LIMIT`] gives
//! [`Outcome::TooComplex`] (its result is then unknown), never a hang.

use std::cell::Cell;

pub mod program;

pub const IGNORECASE: i64 = 2;
pub const LOCALE: i64 = 4;
pub const MULTILINE: i64 = 8;
pub const DOTALL: i64 = 16;
pub const UNICODE: i64 = 32;
pub const VERBOSE: i64 = 64;

const STEP_BUDGET: u64 = 2_000_000;
const DEPTH_LIMIT: usize = 4_000;

/// A pattern's syntax error, as `re.error` reports it.
#[derive(Debug)]
pub struct PatternError(pub String);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cat {
    Digit,
    Word,
    Space,
}

#[derive(Clone, Debug)]
enum ClassItem {
    Range(u32, u32),
    Cat(Cat, bool),
}

#[derive(Debug)]
enum Node {
    Char(u32),
    Any,
    Class {
        neg: bool,
        items: Vec<ClassItem>,
    },
    LineStart,
    LineEnd,
    TextStart,
    TextEnd,
    WordBoundary(bool),
    Group(Option<usize>, Box<Node>),
    Look {
        ahead: bool,
        neg: bool,
        node: Box<Node>,
    },
    Backref(usize),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
}

/// A parsed pattern.
#[derive(Debug)]
pub struct Regex {
    root: Node,
    flags: i64,
    /// Number of capturing groups.
    pub groups: usize,
    /// `(?P<name>...)` groups: name and index.
    pub names: Vec<(String, usize)>,
}

/// The result of a search.
pub enum Outcome {
    /// Spans of the whole match (index 0) and of each group (None: did not take part).
    Match(Vec<Option<(usize, usize)>>),
    NoMatch,
    TooComplex,
}

struct Parser<'a> {
    p: &'a [u32],
    i: usize,
    flags: i64,
    groups: usize,
    names: Vec<(String, usize)>,
}

fn err<T>(msg: &str) -> Result<T, PatternError> {
    Err(PatternError(msg.to_string()))
}

impl Parser<'_> {
    fn peek(&self) -> Option<u32> {
        self.p.get(self.i).copied()
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c as u32) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn skip_verbose(&mut self) {
        if self.flags & VERBOSE == 0 {
            return;
        }
        while let Some(c) = self.peek() {
            if matches!(c, 0x20 | 0x09 | 0x0a | 0x0d | 0x0b | 0x0c) {
                self.i += 1;
            } else if c == '#' as u32 {
                while let Some(c) = self.peek() {
                    self.i += 1;
                    if c == '\n' as u32 {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    fn alternation(&mut self) -> Result<Node, PatternError> {
        let mut alts = vec![self.sequence()?];
        while self.eat('|') {
            alts.push(self.sequence()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().expect("one")
        } else {
            Node::Alt(alts)
        })
    }

    fn sequence(&mut self) -> Result<Node, PatternError> {
        let mut items = Vec::new();
        loop {
            self.skip_verbose();
            match self.peek() {
                None => break,
                Some(c) if c == '|' as u32 || c == ')' as u32 => break,
                _ => {}
            }
            let atom = self.atom()?;
            let atom = self.quantified(atom)?;
            if let Some(a) = atom {
                items.push(a);
            }
        }
        Ok(if items.len() == 1 {
            items.pop().expect("one")
        } else {
            Node::Concat(items)
        })
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        let mut n: u32 = 0;
        while let Some(c) = self
            .peek()
            .filter(|c| (b'0' as u32..=b'9' as u32).contains(c))
        {
            n = n.saturating_mul(10).saturating_add(c - b'0' as u32);
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    fn quantified(&mut self, atom: Option<Node>) -> Result<Option<Node>, PatternError> {
        let Some(mut node) = atom else {
            return Ok(None);
        };
        loop {
            self.skip_verbose();
            let (min, max) = match self.peek().and_then(char::from_u32) {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => {
                    let save = self.i;
                    self.i += 1;
                    let lo = self.number();
                    let (lo, hi) = if self.eat(',') {
                        (lo.unwrap_or(0), self.number())
                    } else if let Some(lo) = lo {
                        (lo, Some(lo))
                    } else {
                        self.i = save;
                        return Ok(Some(node));
                    };
                    if !self.eat('}') {
                        // not a repetition: `{` is a literal
                        self.i = save;
                        return Ok(Some(node));
                    }
                    if hi.is_some_and(|h| h < lo) {
                        return err("bad repeat interval");
                    }
                    self.i -= 1;
                    (lo, hi)
                }
                _ => return Ok(Some(node)),
            };
            self.i += 1;
            if matches!(
                node,
                Node::Repeat { .. }
                    | Node::LineStart
                    | Node::LineEnd
                    | Node::TextStart
                    | Node::TextEnd
                    | Node::WordBoundary(_)
            ) {
                return err("multiple repeat");
            }
            let greedy = !self.eat('?');
            node = Node::Repeat {
                node: Box::new(node),
                min,
                max,
                greedy,
            };
        }
    }

    fn atom(&mut self) -> Result<Option<Node>, PatternError> {
        let c = self.peek().expect("not at end");
        self.i += 1;
        Ok(Some(match char::from_u32(c) {
            Some('.') => Node::Any,
            Some('^') => Node::LineStart,
            Some('$') => Node::LineEnd,
            Some('[') => self.class()?,
            Some('(') => return self.group(),
            Some('\\') => self.escape()?,
            Some('*' | '+' | '?') => return err("nothing to repeat"),
            _ => Node::Char(c),
        }))
    }

    fn group(&mut self) -> Result<Option<Node>, PatternError> {
        if self.eat('?') {
            let c = self.peek().and_then(char::from_u32);
            self.i += 1;
            match c {
                Some(':') => {
                    let inner = self.alternation()?;
                    self.close()?;
                    return Ok(Some(Node::Group(None, Box::new(inner))));
                }
                Some('P') => {
                    if self.eat('<') {
                        let name = self.name('>')?;
                        self.groups += 1;
                        let idx = self.groups;
                        if self.names.iter().any(|(n, _)| *n == name) {
                            return err("redefinition of group name");
                        }
                        self.names.push((name, idx));
                        let inner = self.alternation()?;
                        self.close()?;
                        return Ok(Some(Node::Group(Some(idx), Box::new(inner))));
                    }
                    if self.eat('=') {
                        let name = self.name(')')?;
                        return match self.names.iter().find(|(n, _)| *n == name) {
                            Some(&(_, idx)) => Ok(Some(Node::Backref(idx))),
                            None => err("unknown group name"),
                        };
                    }
                    return err("unexpected end of pattern");
                }
                Some('=' | '!') => {
                    let inner = self.alternation()?;
                    self.close()?;
                    return Ok(Some(Node::Look {
                        ahead: true,
                        neg: c == Some('!'),
                        node: Box::new(inner),
                    }));
                }
                Some('<') => {
                    let neg = if self.eat('!') {
                        true
                    } else if self.eat('=') {
                        false
                    } else {
                        return err("syntax error");
                    };
                    let inner = self.alternation()?;
                    self.close()?;
                    if width(&inner).is_none() {
                        return err("look-behind requires fixed-width pattern");
                    }
                    return Ok(Some(Node::Look {
                        ahead: false,
                        neg,
                        node: Box::new(inner),
                    }));
                }
                Some('#') => {
                    while let Some(c) = self.peek() {
                        self.i += 1;
                        if c == ')' as u32 {
                            return Ok(None);
                        }
                    }
                    return err("unbalanced parenthesis");
                }
                _ => {
                    // inline flags: (?iLmsux)
                    self.i -= 1;
                    loop {
                        let f = match self.peek().and_then(char::from_u32) {
                            Some('i') => IGNORECASE,
                            Some('L') => LOCALE,
                            Some('m') => MULTILINE,
                            Some('s') => DOTALL,
                            Some('u') => UNICODE,
                            Some('x') => VERBOSE,
                            Some(')') => {
                                self.i += 1;
                                return Ok(None);
                            }
                            _ => return err("unexpected end of pattern"),
                        };
                        self.flags |= f;
                        self.i += 1;
                    }
                }
            }
        }
        self.groups += 1;
        let idx = self.groups;
        let inner = self.alternation()?;
        self.close()?;
        Ok(Some(Node::Group(Some(idx), Box::new(inner))))
    }

    fn close(&mut self) -> Result<(), PatternError> {
        if self.eat(')') {
            Ok(())
        } else {
            err("unbalanced parenthesis")
        }
    }

    fn name(&mut self, end: char) -> Result<String, PatternError> {
        let mut s = String::new();
        loop {
            match self.peek() {
                None => return err("unterminated name"),
                Some(c) if c == end as u32 => {
                    self.i += 1;
                    break;
                }
                Some(c) => {
                    s.push(char::from_u32(c).unwrap_or('?'));
                    self.i += 1;
                }
            }
        }
        let ok = s
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ok {
            Ok(s)
        } else {
            err("bad character in group name")
        }
    }

    /// An escape outside a class.
    fn escape(&mut self) -> Result<Node, PatternError> {
        let Some(c) = self.peek() else {
            return err("bogus escape (end of line)");
        };
        self.i += 1;
        Ok(match char::from_u32(c) {
            Some('A') => Node::TextStart,
            Some('Z') => Node::TextEnd,
            Some('b') => Node::WordBoundary(true),
            Some('B') => Node::WordBoundary(false),
            Some('d') => cat_class(Cat::Digit, false),
            Some('D') => cat_class(Cat::Digit, true),
            Some('w') => cat_class(Cat::Word, false),
            Some('W') => cat_class(Cat::Word, true),
            Some('s') => cat_class(Cat::Space, false),
            Some('S') => cat_class(Cat::Space, true),
            Some('1'..='9') => {
                self.i -= 1;
                let start = self.i;
                let n = self.number().unwrap_or(0);
                if n as usize > self.groups || n > 99 {
                    self.i = start;
                    let code = self.octal_or_literal()?;
                    return Ok(Node::Char(code));
                }
                Node::Backref(n as usize)
            }
            _ => {
                self.i -= 1;
                Node::Char(self.char_escape()?)
            }
        })
    }

    fn octal_or_literal(&mut self) -> Result<u32, PatternError> {
        let mut v = 0u32;
        let mut n = 0;
        while n < 3 {
            match self.peek() {
                Some(c) if (b'0' as u32..=b'7' as u32).contains(&c) => {
                    v = v * 8 + (c - b'0' as u32);
                    self.i += 1;
                    n += 1;
                }
                _ => break,
            }
        }
        if n == 0 {
            return err("invalid group reference");
        }
        Ok(v)
    }

    /// A single-character escape (after the backslash): `\n`, `\x41`, `\0`, `\.`…
    fn char_escape(&mut self) -> Result<u32, PatternError> {
        let c = self.peek().expect("escape");
        self.i += 1;
        Ok(match char::from_u32(c) {
            Some('n') => 10,
            Some('t') => 9,
            Some('r') => 13,
            Some('f') => 12,
            Some('v') => 11,
            Some('a') => 7,
            Some('0') => {
                self.i -= 1;
                self.octal_or_literal()?
            }
            Some('x') => {
                let mut v = 0;
                for _ in 0..2 {
                    match self
                        .peek()
                        .and_then(char::from_u32)
                        .and_then(|c| c.to_digit(16))
                    {
                        Some(d) => {
                            v = v * 16 + d;
                            self.i += 1;
                        }
                        None => return err("bogus escape"),
                    }
                }
                v
            }
            _ => c,
        })
    }

    fn class(&mut self) -> Result<Node, PatternError> {
        let neg = self.eat('^');
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return err("unexpected end of regular expression");
            };
            if c == ']' as u32 && !first {
                self.i += 1;
                break;
            }
            first = false;
            self.i += 1;
            let lo = if c == '\\' as u32 {
                let Some(e) = self.peek() else {
                    return err("bogus escape (end of line)");
                };
                let cat = match char::from_u32(e) {
                    Some('d') => Some((Cat::Digit, false)),
                    Some('D') => Some((Cat::Digit, true)),
                    Some('w') => Some((Cat::Word, false)),
                    Some('W') => Some((Cat::Word, true)),
                    Some('s') => Some((Cat::Space, false)),
                    Some('S') => Some((Cat::Space, true)),
                    _ => None,
                };
                if let Some((cat, n)) = cat {
                    self.i += 1;
                    items.push(ClassItem::Cat(cat, n));
                    continue;
                }
                if e == 'b' as u32 {
                    self.i += 1;
                    8
                } else if (b'1' as u32..=b'7' as u32).contains(&e) {
                    self.octal_or_literal()?
                } else {
                    self.char_escape()?
                }
            } else {
                c
            };
            let is_range = self.peek() == Some('-' as u32)
                && self.p.get(self.i + 1).is_some_and(|&n| n != ']' as u32);
            if is_range {
                self.i += 1;
                let h = self.peek().expect("checked");
                self.i += 1;
                let hi = if h == '\\' as u32 {
                    self.char_escape()?
                } else {
                    h
                };
                if hi < lo {
                    return err("bad character range");
                }
                items.push(ClassItem::Range(lo, hi));
            } else {
                items.push(ClassItem::Range(lo, lo));
            }
        }
        Ok(Node::Class { neg, items })
    }
}

fn cat_class(cat: Cat, neg: bool) -> Node {
    Node::Class {
        neg: false,
        items: vec![ClassItem::Cat(cat, neg)],
    }
}

/// The fixed width of a node, if it has one (look-behind needs it).
fn width(n: &Node) -> Option<usize> {
    Some(match n {
        Node::Char(_) | Node::Any | Node::Class { .. } => 1,
        Node::LineStart
        | Node::LineEnd
        | Node::TextStart
        | Node::TextEnd
        | Node::WordBoundary(_)
        | Node::Look { .. } => 0,
        Node::Group(_, inner) => width(inner)?,
        Node::Backref(_) => return None,
        Node::Concat(items) => items.iter().map(width).sum::<Option<usize>>()?,
        Node::Alt(alts) => {
            let w = width(&alts[0])?;
            if alts.iter().all(|a| width(a) == Some(w)) {
                w
            } else {
                return None;
            }
        }
        Node::Repeat { node, min, max, .. } => {
            if Some(*min) != *max {
                return None;
            }
            width(node)? * *min as usize
        }
    })
}

impl Regex {
    pub fn new(pattern: &[u32], flags: i64) -> Result<Regex, PatternError> {
        // Inline flags apply to the whole pattern, wherever they are: parse once to find
        // them, then again with them set.
        let mut flags = flags;
        for _ in 0..2 {
            let mut p = Parser {
                p: pattern,
                i: 0,
                flags,
                groups: 0,
                names: Vec::new(),
            };
            let root = p.alternation()?;
            if p.i < pattern.len() {
                return err("unbalanced parenthesis");
            }
            if p.flags == flags {
                return Ok(Regex {
                    root,
                    flags,
                    groups: p.groups,
                    names: p.names,
                });
            }
            flags = p.flags;
        }
        err("inconsistent flags")
    }

    /// The first match starting at `pos` or later (only at `pos` when `anchored`).
    pub fn search(&self, text: &[u32], pos: usize, anchored: bool) -> Outcome {
        let m = Matcher {
            re: self,
            text,
            steps: Cell::new(0),
            depth: Cell::new(0),
            aborted: Cell::new(false),
        };
        let last = if anchored { pos } else { text.len() };
        let mut start = pos;
        while start <= last {
            let mut caps = vec![None; self.groups + 1];
            let mut end = None;
            let found = m.node(&self.root, start, &mut caps, &mut |j, _| {
                end = Some(j);
                true
            });
            if m.aborted.get() {
                return Outcome::TooComplex;
            }
            if found {
                caps[0] = end.map(|e| (start, e));
                return Outcome::Match(caps);
            }
            start += 1;
        }
        Outcome::NoMatch
    }
}

type Caps = Vec<Option<(usize, usize)>>;
type Cont<'k> = dyn FnMut(usize, &mut Caps) -> bool + 'k;

struct Matcher<'a> {
    re: &'a Regex,
    text: &'a [u32],
    steps: Cell<u64>,
    depth: Cell<usize>,
    aborted: Cell<bool>,
}

fn lower(c: u32) -> u32 {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_uppercase() => c + 32,
        Some(ch) if c > 127 => ch.to_lowercase().next().map_or(c, |l| l as u32),
        _ => c,
    }
}

impl Matcher<'_> {
    fn flag(&self, f: i64) -> bool {
        self.re.flags & f != 0
    }

    fn is_cat(&self, cat: Cat, c: u32) -> bool {
        let wide = self.flag(UNICODE);
        match cat {
            Cat::Digit => {
                (b'0' as u32..=b'9' as u32).contains(&c)
                    || (wide && c > 127 && char::from_u32(c).is_some_and(|ch| ch.is_numeric()))
            }
            Cat::Word => {
                c == '_' as u32
                    || char::from_u32(c).is_some_and(|ch| {
                        ch.is_ascii_alphanumeric() || (wide && c > 127 && ch.is_alphanumeric())
                    })
            }
            Cat::Space => {
                matches!(c, 0x20 | 0x09..=0x0d)
                    || (wide && c > 127 && char::from_u32(c).is_some_and(char::is_whitespace))
            }
        }
    }

    fn in_class(&self, neg: bool, items: &[ClassItem], c: u32) -> bool {
        let test = |c: u32| {
            items.iter().any(|it| match *it {
                ClassItem::Range(lo, hi) => (lo..=hi).contains(&c),
                ClassItem::Cat(cat, n) => self.is_cat(cat, c) != n,
            })
        };
        let mut hit = test(c);
        if !hit && self.flag(IGNORECASE) {
            let l = lower(c);
            let u = char::from_u32(c)
                .map(|ch| ch.to_ascii_uppercase() as u32)
                .unwrap_or(c);
            hit = test(l) || test(u);
        }
        hit != neg
    }

    fn is_word_at(&self, i: usize) -> bool {
        self.text.get(i).is_some_and(|&c| self.is_cat(Cat::Word, c))
    }

    /// Matches `n` at `i`, then calls `k` with the end; true when `k` accepted.
    fn node(&self, n: &Node, i: usize, caps: &mut Caps, k: &mut Cont) -> bool {
        if self.aborted.get() {
            return false;
        }
        let steps = self.steps.get() + 1;
        self.steps.set(steps);
        if steps > STEP_BUDGET || self.depth.get() > DEPTH_LIMIT {
            self.aborted.set(true);
            return false;
        }
        self.depth.set(self.depth.get() + 1);
        let r = self.node_inner(n, i, caps, k);
        self.depth.set(self.depth.get() - 1);
        r
    }

    fn node_inner(&self, n: &Node, i: usize, caps: &mut Caps, k: &mut Cont) -> bool {
        let t = self.text;
        let len = t.len();
        match n {
            Node::Char(c) => {
                let ok = t
                    .get(i)
                    .is_some_and(|&x| x == *c || (self.flag(IGNORECASE) && lower(x) == lower(*c)));
                ok && k(i + 1, caps)
            }
            Node::Any => {
                let ok = t
                    .get(i)
                    .is_some_and(|&x| x != '\n' as u32 || self.flag(DOTALL));
                ok && k(i + 1, caps)
            }
            Node::Class { neg, items } => {
                let ok = t.get(i).is_some_and(|&x| self.in_class(*neg, items, x));
                ok && k(i + 1, caps)
            }
            Node::LineStart => {
                let ok = i == 0 || (self.flag(MULTILINE) && t[i - 1] == '\n' as u32);
                ok && k(i, caps)
            }
            Node::LineEnd => {
                let ok =
                    i == len || (t[i] == '\n' as u32 && (i + 1 == len || self.flag(MULTILINE)));
                ok && k(i, caps)
            }
            Node::TextStart => i == 0 && k(i, caps),
            Node::TextEnd => i == len && k(i, caps),
            Node::WordBoundary(at) => {
                let before = i > 0 && self.is_word_at(i - 1);
                let after = self.is_word_at(i);
                ((before != after) == *at) && k(i, caps)
            }
            Node::Group(None, inner) => self.node(inner, i, caps, k),
            Node::Group(Some(g), inner) => {
                let g = *g;
                self.node(inner, i, caps, &mut |j, caps: &mut Caps| {
                    let prev = caps[g];
                    caps[g] = Some((i, j));
                    if k(j, caps) {
                        true
                    } else {
                        caps[g] = prev;
                        false
                    }
                })
            }
            Node::Look { ahead, neg, node } => {
                let mut inner_caps = caps.clone();
                let found = if *ahead {
                    self.node(node, i, &mut inner_caps, &mut |_, _| true)
                } else {
                    let w = width(node).unwrap_or(0);
                    i >= w && self.node(node, i - w, &mut inner_caps, &mut |j, _| j == i)
                };
                if found == *neg {
                    return false;
                }
                if found {
                    let saved = std::mem::replace(caps, inner_caps);
                    if k(i, caps) {
                        return true;
                    }
                    *caps = saved;
                    false
                } else {
                    k(i, caps)
                }
            }
            Node::Backref(g) => {
                let Some((s, e)) = caps.get(*g).copied().flatten() else {
                    return false;
                };
                let n = e - s;
                if i + n > len {
                    return false;
                }
                let same = (0..n).all(|d| {
                    let (a, b) = (t[s + d], t[i + d]);
                    a == b || (self.flag(IGNORECASE) && lower(a) == lower(b))
                });
                same && k(i + n, caps)
            }
            Node::Concat(items) => self.seq(items, i, caps, k),
            Node::Alt(alts) => {
                for a in alts {
                    let saved = caps.clone();
                    if self.node(a, i, caps, k) {
                        return true;
                    }
                    *caps = saved;
                    if self.aborted.get() {
                        return false;
                    }
                }
                false
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => self.repeat(node, *min, *max, *greedy, 0, i, caps, k),
        }
    }

    fn seq(&self, items: &[Node], i: usize, caps: &mut Caps, k: &mut Cont) -> bool {
        match items.split_first() {
            None => k(i, caps),
            Some((first, rest)) => self.node(first, i, caps, &mut |j, caps: &mut Caps| {
                self.seq(rest, j, caps, k)
            }),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn repeat(
        &self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        count: u32,
        i: usize,
        caps: &mut Caps,
        k: &mut Cont,
    ) -> bool {
        let can_more = max.is_none_or(|m| count < m);
        let more = |caps: &mut Caps, k: &mut Cont| -> bool {
            can_more
                && self.node(node, i, caps, &mut |j, caps: &mut Caps| {
                    // an iteration that matched nothing ends the loop (as sre does)
                    if j == i && count >= min {
                        return false;
                    }
                    self.repeat(node, min, max, greedy, count + 1, j, caps, k)
                })
        };
        if greedy {
            let saved = caps.clone();
            if more(caps, k) {
                return true;
            }
            *caps = saved;
            count >= min && !self.aborted.get() && k(i, caps)
        } else {
            if count >= min && k(i, caps) {
                return true;
            }
            !self.aborted.get() && more(caps, k)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u32> {
        s.bytes().map(u32::from).collect()
    }

    fn find(p: &str, s: &str) -> Option<Vec<Option<(usize, usize)>>> {
        let re = Regex::new(&units(p), 0).expect("pattern");
        match re.search(&units(s), 0, false) {
            Outcome::Match(c) => Some(c),
            _ => None,
        }
    }

    #[test]
    fn spans_follow_sre_leftmost_first() {
        assert_eq!(find("a|ab", "ab").unwrap()[0], Some((0, 1)));
        assert_eq!(find("(x*)", "abxx").unwrap()[0], Some((0, 0)));
        assert_eq!(
            find("b(x+)", "abxx").unwrap(),
            vec![Some((1, 4)), Some((2, 4))]
        );
        assert_eq!(find("a.*?c", "abcbc").unwrap()[0], Some((0, 3)));
        assert_eq!(
            find("(a)|(b)", "b").unwrap(),
            vec![Some((0, 1)), None, Some((0, 1))]
        );
        assert_eq!(find(r"(\w+)-\1", "ab-ab").unwrap()[0], Some((0, 5)));
        assert_eq!(find(r"[^01x]", "01x1 0").unwrap()[0], Some((4, 5)));
        assert_eq!(find(r"\d{2,3}", "a12345").unwrap()[0], Some((1, 4)));
        assert_eq!(find(r"(?<=a)b", "cbab").unwrap()[0], Some((3, 4)));
        assert_eq!(find(r"x$", "x\n").unwrap()[0], Some((0, 1)));
        assert!(find(r"^b", "ab").is_none());
    }

    #[test]
    fn bad_patterns_are_errors() {
        for p in ["(", "a**", "[a", "*a", "(?<=a+)b"] {
            assert!(Regex::new(&units(p), 0).is_err(), "{p}");
        }
    }

    #[test]
    fn runaway_backtracking_is_bounded() {
        let re = Regex::new(&units("(a*)*b"), 0).expect("pattern");
        let text = units(&"a".repeat(40));
        assert!(matches!(
            re.search(&text, 0, false),
            Outcome::TooComplex | Outcome::NoMatch
        ));
    }
}
