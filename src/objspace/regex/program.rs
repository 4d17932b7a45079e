//! A parsed pattern as a flat program of integers, for the matcher that translated code
//! runs (the bundled `rpython.rlib.rsre` model, written in RPython): `rsre_re.compile` is
//! a memo function, so the pattern is parsed once, at translation time, as the reference
//! compiles its patterns to `sre` code then; only the matching runs in the program.
//!
//! Every node ends with the index of the node that follows it (its continuation), so a
//! backtracking matcher needs no stack of continuations: alternatives and repetitions
//! try their choices and go on at `next`. The encoding (shared with `rsre_re.py`):
//!
//! | op | operands |
//! |---|---|
//! | `MATCH` | — (the match ends here) |
//! | `CHAR` | code unit, icase, next |
//! | `ANY` | dotall, next |
//! | `CLASS` | negated, flags (1 icase, 2 unicode), item count, items (kind, a, b), next — kind 0: range a..=b; kind 1: category a (0 digit, 1 word, 2 space), negated if b |
//! | `AT` | position kind (see [`At`]), next |
//! | `MARK` | slot (2 g: group g starts, 2 g + 1: it ends), next |
//! | `BRANCH` | count, first node of each alternative |
//! | `REPEAT_ONE` | min, max ([`NO_MAX`]: none), greedy, single-unit node, next |
//! | `REPEAT` | min, max, greedy, body, register, next (the body ends at a `REPEAT_TAIL`) |
//! | `REPEAT_TAIL` | its `REPEAT` |
//! | `BACKREF` | group, icase, next |
//! | `ASSERT` | ahead, negated, width (look-behind), body, next (the body ends at `ASSERT_END`) |
//! | `ASSERT_END` | — |
//!
//! Every word is non-negative, as `sre` codes are: a library hands the reference's
//! `get_code` list to its matcher as a list of non-negative ints (rply's lexer rules), and
//! the annotator may rely on that.

use super::{Cat, ClassItem, Node, Regex, DOTALL, IGNORECASE, MULTILINE, UNICODE};

pub const MATCH: i64 = 1;
pub const CHAR: i64 = 2;
pub const ANY: i64 = 3;
pub const CLASS: i64 = 4;
pub const AT: i64 = 5;
pub const MARK: i64 = 6;
pub const BRANCH: i64 = 7;
pub const REPEAT_ONE: i64 = 8;
pub const REPEAT: i64 = 9;
pub const REPEAT_TAIL: i64 = 10;
pub const BACKREF: i64 = 11;
pub const ASSERT: i64 = 12;
pub const ASSERT_END: i64 = 13;
/// The `max` of a repetition without one (`sre`'s MAXREPEAT).
pub const NO_MAX: i64 = u32::MAX as i64;

/// The position kinds of `AT`.
#[derive(Clone, Copy)]
#[repr(i64)]
enum At {
    Beginning = 0,
    BeginningLine = 1,
    End = 2,
    EndLine = 3,
    TextStart = 4,
    TextEnd = 5,
    Boundary = 6,
    NonBoundary = 7,
    UnicodeBoundary = 8,
    UnicodeNonBoundary = 9,
}

/// A pattern's program: its code, the start node, and how many repeat registers the
/// matcher needs.
pub struct Program {
    pub code: Vec<i64>,
    pub start: i64,
    pub registers: i64,
}

struct Emitter {
    code: Vec<i64>,
    flags: i64,
    registers: i64,
}

fn cat_code(cat: Cat) -> i64 {
    match cat {
        Cat::Digit => 0,
        Cat::Word => 1,
        Cat::Space => 2,
    }
}

impl Emitter {
    fn flag(&self, f: i64) -> bool {
        self.flags & f != 0
    }

    fn push(&mut self, words: &[i64]) -> i64 {
        let pc = self.code.len() as i64;
        self.code.extend_from_slice(words);
        pc
    }

    /// Whether the node matches exactly one code unit (a `REPEAT_ONE` item).
    fn single(n: &Node) -> bool {
        matches!(n, Node::Char(_) | Node::Any | Node::Class { .. })
    }

    /// Emits `n` followed by the node at `next`; gives the index of its first node.
    fn emit(&mut self, n: &Node, next: i64) -> i64 {
        let icase = i64::from(self.flag(IGNORECASE));
        match n {
            Node::Char(c) => self.push(&[CHAR, i64::from(*c), icase, next]),
            Node::Any => self.push(&[ANY, i64::from(self.flag(DOTALL)), next]),
            Node::Class { neg, items } => {
                let flags = icase | if self.flag(UNICODE) { 2 } else { 0 };
                let mut words = vec![CLASS, i64::from(*neg), flags, items.len() as i64];
                for item in items {
                    match *item {
                        ClassItem::Range(lo, hi) => {
                            words.extend([0, i64::from(lo), i64::from(hi)]);
                        }
                        ClassItem::Cat(cat, neg) => {
                            words.extend([1, cat_code(cat), i64::from(neg)]);
                        }
                    }
                }
                words.push(next);
                self.push(&words)
            }
            Node::LineStart => {
                let at = if self.flag(MULTILINE) {
                    At::BeginningLine
                } else {
                    At::Beginning
                };
                self.push(&[AT, at as i64, next])
            }
            Node::LineEnd => {
                let at = if self.flag(MULTILINE) {
                    At::EndLine
                } else {
                    At::End
                };
                self.push(&[AT, at as i64, next])
            }
            Node::TextStart => self.push(&[AT, At::TextStart as i64, next]),
            Node::TextEnd => self.push(&[AT, At::TextEnd as i64, next]),
            Node::WordBoundary(yes) => {
                let at = match (*yes, self.flag(UNICODE)) {
                    (true, false) => At::Boundary,
                    (false, false) => At::NonBoundary,
                    (true, true) => At::UnicodeBoundary,
                    (false, true) => At::UnicodeNonBoundary,
                };
                self.push(&[AT, at as i64, next])
            }
            Node::Group(None, inner) => self.emit(inner, next),
            Node::Group(Some(g), inner) => {
                let g = *g as i64;
                let end = self.push(&[MARK, 2 * g + 1, next]);
                let body = self.emit(inner, end);
                self.push(&[MARK, 2 * g, body])
            }
            Node::Look { ahead, neg, node } => {
                let width = if *ahead {
                    0
                } else {
                    super::width(node).unwrap_or(0) as i64
                };
                let end = self.push(&[ASSERT_END]);
                let body = self.emit(node, end);
                self.push(&[
                    ASSERT,
                    i64::from(*ahead),
                    i64::from(*neg),
                    width,
                    body,
                    next,
                ])
            }
            Node::Backref(g) => self.push(&[BACKREF, *g as i64, icase, next]),
            Node::Concat(items) => {
                let mut pc = next;
                for item in items.iter().rev() {
                    pc = self.emit(item, pc);
                }
                pc
            }
            Node::Alt(alts) => {
                let starts: Vec<i64> = alts.iter().map(|a| self.emit(a, next)).collect();
                let mut words = vec![BRANCH, starts.len() as i64];
                words.extend(starts);
                self.push(&words)
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => {
                let max = max.map_or(NO_MAX, i64::from);
                let greedy = i64::from(*greedy);
                if Self::single(node) {
                    // (a single-unit node's continuation is never read)
                    let item = self.emit(node, 0);
                    return self.push(&[REPEAT_ONE, i64::from(*min), max, greedy, item, next]);
                }
                let reg = self.registers;
                self.registers += 1;
                let rep = self.push(&[REPEAT, i64::from(*min), max, greedy, -1, reg, next]);
                let tail = self.push(&[REPEAT_TAIL, rep]);
                let body = self.emit(node, tail);
                self.code[rep as usize + 4] = body;
                rep
            }
        }
    }
}

impl Regex {
    /// The program of this pattern (see the module documentation).
    pub fn program(&self) -> Program {
        let mut e = Emitter {
            code: Vec::new(),
            flags: self.flags,
            registers: 0,
        };
        let end = e.push(&[MATCH]);
        let start = e.emit(&self.root, end);
        Program {
            code: e.code,
            start,
            registers: e.registers,
        }
    }
}
