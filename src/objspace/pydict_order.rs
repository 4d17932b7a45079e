//! The order in which CPython 2.7 iterates over a dict or a set. Import-time code runs
//! under CPython in the reference, so what it sees when it iterates over a dict (`for k
//! in d`, `keys()`, `items()`, `popitem()`, `repr(d)`…) and what the RTyper converts a
//! prebuilt dict from (`dictobj.items()`) follow CPython's hash table, not insertion
//! order. Each heap dict and set keeps a [`PyTable`] beside its entries: CPython 2.7's
//! open-addressing table, driven by the same operations (`dictobject.c`, `setobject.c`:
//! insertion with its probe sequence and its resizing at two thirds full, deleted slots
//! left as dummies and reused, `popitem`'s search hint, the presizing of literals and
//! merges), so that the slots give the order. Keys hash as CPython 2.7 hashes them on a
//! 64-bit build (no hash randomization, 30-bit long digits, UCS-4 unicode).
//!
//! Keys hashed by address (instances, classes, functions) have no reproducible order: the
//! reference's order depends on where CPython happened to allocate them, which depends on
//! everything the toolchain did before. A dict holding one is "unknown order"
//! ([`PyTable::Unknown`]) and iterates in insertion order; so does an `OrderedDict`.
//! `None` is a static object of the interpreter, a position-independent executable: only
//! the low 8 bits of its hash (its address within its page) are the same from run to
//! run, so a dict holding `None` has a known order as long as `None`'s probes need no
//! other bits (a table of at most 256 slots and at most one collision on its way).

use super::object::HashKey;

/// CPython 2.7's `hash()` of a dict key, when it does not depend on an address.
pub fn py_hash(key: &HashKey) -> Option<i64> {
    Some(match key {
        HashKey::None | HashKey::Identity(_) => return None,
        HashKey::Hashed(h, _) => *h,
        HashKey::Int(i) => match i64::try_from(*i) {
            Ok(i) => fix(i),
            Err(_) => long_hash(*i),
        },
        HashKey::Float(bits) => float_hash(f64::from_bits(*bits)),
        HashKey::Str(s) => str_hash(s.iter().map(|&c| c as u64), s.len()),
        HashKey::Unicode(u) => str_hash(u.codes().iter().map(|&c| c as u64), u.codes().len()),
        HashKey::Tuple(items) => {
            let mut x: i64 = 0x345678;
            let mut mult: i64 = 1000003;
            let mut len = items.len() as i64;
            for it in items {
                len -= 1;
                let y = py_hash(it)?;
                x = (x ^ y).wrapping_mul(mult);
                mult = mult.wrapping_add(82520 + len + len);
            }
            fix(x.wrapping_add(97531))
        }
    })
}

/// -1 is the error return of C hash functions, so a hash of -1 becomes -2.
fn fix(h: i64) -> i64 {
    if h == -1 {
        -2
    } else {
        h
    }
}

/// CPython 2.7's string hash (with `_Py_HashSecret` zero, its default).
fn str_hash(chars: impl Iterator<Item = u64>, len: usize) -> i64 {
    if len == 0 {
        return 0;
    }
    let mut chars = chars.peekable();
    let first = *chars.peek().unwrap_or(&0) as i64;
    let mut x: i64 = first << 7;
    for c in chars {
        x = 1000003i64.wrapping_mul(x) ^ c as i64;
    }
    fix(x ^ len as i64)
}

/// CPython 2.7's `long_hash` (30-bit digits) of a long outside the range of an int.
fn long_hash(v: i128) -> i64 {
    let mut a = v.unsigned_abs();
    let mut digits = Vec::new();
    while a > 0 {
        digits.push((a & 0x3fff_ffff) as u64);
        a >>= 30;
    }
    digits_hash(&digits, v < 0)
}

/// `long_hash` of the long whose 30-bit digits are `digits` (least significant first).
fn digits_hash(digits: &[u64], negative: bool) -> i64 {
    let mut x: u64 = 0;
    for &d in digits.iter().rev() {
        x = x.rotate_left(30).wrapping_add(d);
        if x < d {
            x = x.wrapping_add(1);
        }
    }
    let x = if negative { x.wrapping_neg() } else { x };
    fix(x as i64)
}

/// CPython 2.7's `_Py_HashDouble`.
fn float_hash(v: f64) -> i64 {
    if v.is_nan() {
        return 0;
    }
    if v.is_infinite() {
        return if v > 0.0 { 314159 } else { -271828 };
    }
    if v.fract() == 0.0 {
        // an integral float hashes as the int or long of its value
        if v.abs() < 9.2e18 {
            return fix(v as i64);
        }
        // |v| = mantissa << shift, in 30-bit digits
        let bits = v.abs().to_bits();
        let mantissa = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
        let shift = ((bits >> 52) & 0x7ff) as usize - 1075;
        let wide = (mantissa as u128) << (shift % 30);
        let mut digits = vec![0u64; shift / 30];
        let mut w = wide;
        while w > 0 {
            digits.push((w & 0x3fff_ffff) as u64);
            w >>= 30;
        }
        return digits_hash(&digits, v < 0.0);
    }
    let (mut m, expo) = crate::libm::frexp(v);
    m *= 2147483648.0;
    let hipart = m as i64;
    m = (m - hipart as f64) * 2147483648.0;
    fix(hipart
        .wrapping_add(m as i64)
        .wrapping_add((expo as i64) << 15))
}

/// The low bits of `hash(None)` under the reference's Python 2.7.18 (its address rotated
/// by 4 bits: the bits from within its page), and how many they are.
const NONE_HASH_LOW: i64 = 0xde;
const NONE_HASH_BITS: u32 = 8;

/// The hash the table keeps for a key: CPython's, or for `None` the bits of it that are
/// known; with how many low bits of it are known (`u32::MAX`: all).
fn table_hash(key: &HashKey) -> Option<(i64, u32)> {
    match key {
        HashKey::None => Some((NONE_HASH_LOW, NONE_HASH_BITS)),
        k => py_hash(k).map(|h| (h, u32::MAX)),
    }
}

/// CPython 2.7's open-addressing step: `i = 5i + 1 + perturb`, then `perturb >>= 5` (each
/// step reads five more bits of the hash).
fn next_probe(i: &mut usize, perturb: &mut u64) {
    *i = (*i << 2)
        .wrapping_add(*i)
        .wrapping_add(*perturb as usize)
        .wrapping_add(1);
    *perturb >>= 5;
}

/// Whether a probe that reads the hash's bits from `from` on, `size_bits` of them, reads
/// known bits only.
fn knows(from: u32, size_bits: u32, known: u32) -> bool {
    known == u32::MAX || from + size_bits <= known
}

/// One slot of the table: its key (when active) and `me_hash`, which a deleted slot
/// keeps and `popitem` overwrites in slot 0 with where to search next.
#[derive(Clone, Debug, PartialEq)]
pub enum Slot {
    Empty(i64),
    Dummy(i64),
    Active(i64, HashKey),
}

/// CPython 2.7's table of a dict or set, or `Unknown` when its order is not reproducible.
#[derive(Clone, Debug, PartialEq)]
pub enum PyTable {
    Known {
        /// Empty until the first insertion (then 8 slots, `PyDict_MINSIZE`).
        slots: Vec<Slot>,
        /// Active and dummy slots (`ma_fill`).
        fill: usize,
        /// Active slots (`ma_used`).
        used: usize,
    },
    Unknown,
}

impl Default for PyTable {
    fn default() -> Self {
        PyTable::Known {
            slots: Vec::new(),
            fill: 0,
            used: 0,
        }
    }
}

const MINSIZE: usize = 8;

impl PyTable {
    /// Whether the order is known.
    pub fn is_known(&self) -> bool {
        matches!(self, PyTable::Known { .. })
    }

    /// Gives up the order (an `OrderedDict`, a key hashed by address).
    pub fn forget(&mut self) {
        *self = PyTable::Unknown;
    }

    /// `ma_used`, `ma_fill` and the table's size.
    pub fn counts(&self) -> Option<(usize, usize, usize)> {
        match self {
            PyTable::Known { slots, fill, used } => Some((*used, *fill, slots.len().max(MINSIZE))),
            PyTable::Unknown => None,
        }
    }

    /// Whether the table holds `key` (false when the order is unknown).
    pub fn holds(&self, key: &HashKey) -> bool {
        let (PyTable::Known { slots, .. }, Some((h, known))) = (self, table_hash(key)) else {
            return false;
        };
        !slots.is_empty()
            && lookup(slots, h, key, known).is_some_and(|i| matches!(slots[i], Slot::Active(..)))
    }

    /// `PyDict_Copy`: a new table presized for the keys (`PyDict_Merge` into an empty
    /// dict), then the keys of `self` inserted in its slot order without resizing.
    pub fn copy(&self) -> PyTable {
        let Some(keys) = self.order() else {
            return PyTable::Unknown;
        };
        let mut t = PyTable::default();
        if keys.len() * 3 >= MINSIZE * 2 {
            t.resize(keys.len() * 2);
        }
        for k in keys {
            t.insert(k);
        }
        t
    }

    /// `PyDict_SetItem` / `set_add_key` of a key the table does not hold: inserted, then
    /// the table grows when it is two thirds full.
    pub fn add(&mut self, key: &HashKey) {
        match table_hash(key) {
            Some((h, known)) => self.add_hashed(h, known, key),
            None => self.forget(),
        }
    }

    /// `add` of a key whose hash is `h` (its `known` low bits), whatever its own: an
    /// `r_dict`'s key, hashed by the program's function, that the dict holding it tells
    /// apart from every other by `key` (a stand-in: its entry's number).
    pub fn add_with_hash(&mut self, h: i64, key: &HashKey) {
        self.add_hashed(h, u32::MAX, key);
    }

    fn add_hashed(&mut self, h: i64, known: u32, key: &HashKey) {
        self.insert_hashed(h, known, key);
        if let PyTable::Known { slots, fill, used } = self {
            if *fill * 3 >= slots.len() * 2 {
                let minused = if *used > 50000 { 2 * *used } else { 4 * *used };
                self.resize(minused);
            }
        }
    }

    /// `insertdict` of a new key without the resize check (what merges do after
    /// presizing).
    pub fn insert(&mut self, key: &HashKey) {
        match table_hash(key) {
            Some((h, known)) => self.insert_hashed(h, known, key),
            None => self.forget(),
        }
    }

    fn insert_hashed(&mut self, h: i64, known: u32, key: &HashKey) {
        let PyTable::Known { slots, fill, used } = self else {
            return;
        };
        if slots.is_empty() {
            *slots = vec![Slot::Empty(0); MINSIZE];
        }
        let Some(i) = lookup(slots, h, key, known) else {
            self.forget();
            return;
        };
        if matches!(slots[i], Slot::Empty(_)) {
            *fill += 1;
        }
        if !matches!(slots[i], Slot::Active(..)) {
            slots[i] = Slot::Active(h, key.clone());
            *used += 1;
        }
    }

    /// Deletes a key (its slot becomes a dummy).
    pub fn delete(&mut self, key: &HashKey) {
        match table_hash(key) {
            Some((h, known)) => self.delete_hashed(h, known, key),
            None => self.forget(),
        }
    }

    /// `delete` of a key added with `add_with_hash`.
    pub fn delete_with_hash(&mut self, h: i64, key: &HashKey) {
        self.delete_hashed(h, u32::MAX, key);
    }

    fn delete_hashed(&mut self, h: i64, known: u32, key: &HashKey) {
        if let PyTable::Known { slots, used, .. } = self {
            if slots.is_empty() {
                return;
            }
            let Some(i) = lookup(slots, h, key, known) else {
                self.forget();
                return;
            };
            if matches!(slots[i], Slot::Active(..)) {
                // the hash a deleted `None` leaves is its real one, larger than any
                // table (what `popitem` reads as its hint)
                slots[i] = Slot::Dummy(if known == u32::MAX { h } else { i64::MAX });
                *used -= 1;
            }
        }
    }

    /// `PyDict_Clear`: back to an empty small table.
    pub fn clear(&mut self) {
        if self.is_known() {
            *self = PyTable::default();
        }
    }

    /// `dictresize` / `set_table_resize`: a table of the smallest power of two above
    /// `minused` (at least 8), the active keys reinserted in slot order.
    pub fn resize(&mut self, minused: usize) {
        let PyTable::Known { slots, fill, used } = self else {
            return;
        };
        let mut size = MINSIZE;
        while size <= minused {
            size <<= 1;
        }
        let old = std::mem::replace(slots, vec![Slot::Empty(0); size]);
        *fill = 0;
        *used = 0;
        for s in old {
            if let Slot::Active(h, k) = s {
                let known = table_hash(&k).map_or(u32::MAX, |(_, b)| b);
                let Some(i) = first_free(slots, h, known) else {
                    self.forget();
                    return;
                };
                slots[i] = Slot::Active(h, k);
                *fill += 1;
                *used += 1;
            }
        }
    }

    /// The keys in slot order (`None` when the order is unknown).
    pub fn order(&self) -> Option<Vec<&HashKey>> {
        match self {
            PyTable::Known { slots, .. } => Some(
                slots
                    .iter()
                    .filter_map(|s| match s {
                        Slot::Active(_, k) => Some(k),
                        _ => None,
                    })
                    .collect(),
            ),
            PyTable::Unknown => None,
        }
    }

    /// `dict.popitem()` / `set.pop()`: removes and gives the key of slot 0 if it is
    /// active, else of the first active slot from the hint slot 0 keeps, and leaves the
    /// next hint in slot 0. `None` when the table is empty or its order unknown.
    pub fn pop(&mut self) -> Option<HashKey> {
        let PyTable::Known { slots, used, .. } = self else {
            return None;
        };
        if *used == 0 {
            return None;
        }
        let mask = slots.len() - 1;
        let mut i = 0usize;
        if !matches!(slots[0], Slot::Active(..)) {
            let hint = match &slots[0] {
                Slot::Empty(h) | Slot::Dummy(h) | Slot::Active(h, _) => *h,
            };
            i = if hint < 1 || hint as u64 > mask as u64 {
                1
            } else {
                hint as usize
            };
            while !matches!(slots[i], Slot::Active(..)) {
                i += 1;
                if i > mask {
                    i = 1;
                }
            }
        }
        let Slot::Active(h, k) = std::mem::replace(&mut slots[i], Slot::Empty(0)) else {
            unreachable!("an active slot was found")
        };
        slots[i] = Slot::Dummy(h);
        *used -= 1;
        let next = (i + 1) as i64;
        slots[0] = match &slots[0] {
            Slot::Empty(_) => Slot::Empty(next),
            Slot::Dummy(_) => Slot::Dummy(next),
            Slot::Active(..) => unreachable!("slot 0 is not active after popitem"),
        };
        Some(k)
    }
}

/// `lookdict`'s walk for a key whose equality runs user code, one slot at a time: the
/// caller compares the key with each candidate (calling `__eq__`, or an r_dict's
/// equality) between the steps, as CPython does while it probes.
#[derive(Clone, Debug)]
pub struct LookWalk {
    h: i64,
    i: usize,
    perturb: u64,
    started: bool,
    steps: usize,
}

/// What `lookdict` meets next on its walk.
#[derive(Clone, Debug, PartialEq)]
pub enum LookStep {
    /// The very key (`me_key == key`: no comparison).
    Same(HashKey),
    /// An active slot whose hash equals the key's: CPython compares the two keys.
    Compare(HashKey),
    /// An empty slot: the table holds no equal key.
    End,
}

impl LookWalk {
    /// A walk for a key of hash `h` (all its bits known).
    pub fn new(h: i64) -> LookWalk {
        LookWalk {
            h,
            i: 0,
            perturb: h as u64,
            started: false,
            steps: 0,
        }
    }

    /// The next slot where the walk stops for `key`; `None` when the table's order is
    /// unknown (then so is the walk). The table may have changed since the last step (a
    /// comparison that ran user code): the walk goes on in the table as it is now.
    pub fn step(&mut self, table: &PyTable, key: &HashKey) -> Option<LookStep> {
        let PyTable::Known { slots, .. } = table else {
            return None;
        };
        if slots.is_empty() {
            return Some(LookStep::End);
        }
        let mask = slots.len() - 1;
        loop {
            if self.started {
                next_probe(&mut self.i, &mut self.perturb);
            } else {
                self.i = self.h as u64 as usize & mask;
                self.started = true;
            }
            // once `perturb` is zero the walk visits every slot, and the table always
            // has an empty one; the bound only guards against a table changed under it
            self.steps += 1;
            if self.steps > 2 * slots.len() + 64 {
                return Some(LookStep::End);
            }
            match &slots[self.i & mask] {
                Slot::Empty(_) => return Some(LookStep::End),
                Slot::Active(_, k) if k == key => return Some(LookStep::Same(k.clone())),
                Slot::Active(sh, k) if *sh == self.h => return Some(LookStep::Compare(k.clone())),
                _ => {}
            }
        }
    }
}

/// Walks CPython's probe sequence for hash `h` until `visit` answers with a slot; `None`
/// when the next step needs bits of the hash that are not known (only `known` low bits
/// are).
fn probe(
    slots: &[Slot],
    h: i64,
    known: u32,
    mut visit: impl FnMut(usize, &Slot) -> Option<usize>,
) -> Option<usize> {
    let mask = slots.len() - 1;
    let size_bits = slots.len().trailing_zeros();
    if !knows(0, size_bits, known) {
        return None;
    }
    let mut i = h as u64 as usize & mask;
    let mut perturb = h as u64;
    let mut shift = 0;
    loop {
        if let Some(found) = visit(i & mask, &slots[i & mask]) {
            return Some(found);
        }
        if !knows(shift, size_bits, known) {
            return None;
        }
        next_probe(&mut i, &mut perturb);
        shift += 5;
    }
}

/// `lookdict`: the slot holding `key`, else the first dummy on its probe sequence, else
/// the empty slot that ends it; `None` when the probes need unknown bits of the hash.
fn lookup(slots: &[Slot], h: i64, key: &HashKey, known: u32) -> Option<usize> {
    let mut freeslot = None;
    probe(slots, h, known, |j, slot| match slot {
        Slot::Empty(_) => Some(freeslot.unwrap_or(j)),
        Slot::Active(sh, k) if *sh == h && k == key => Some(j),
        Slot::Dummy(_) => {
            freeslot.get_or_insert(j);
            None
        }
        Slot::Active(..) => None,
    })
}

/// `insertdict_clean`'s probe: the first empty slot (the table has no dummies); `None`
/// when the probes need unknown bits of the hash.
fn first_free(slots: &[Slot], h: i64, known: u32) -> Option<usize> {
    probe(slots, h, known, |j, slot| {
        matches!(slot, Slot::Empty(_)).then_some(j)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn s(t: &str) -> HashKey {
        HashKey::Str(Rc::from(t.as_bytes()))
    }

    fn names(t: &PyTable) -> Vec<String> {
        t.order()
            .unwrap()
            .into_iter()
            .map(|k| match k {
                HashKey::Str(b) => String::from_utf8_lossy(b).into_owned(),
                HashKey::Int(i) => i.to_string(),
                HashKey::None => "None".to_string(),
                k => format!("{k:?}"),
            })
            .collect()
    }

    /// Hashes CPython 2.7 gives (`hash(x)` under the reference's interpreter).
    #[test]
    fn hashes_match_cpython_2_7() {
        assert_eq!(py_hash(&s("a")), Some(12416037344));
        assert_eq!(float_hash(1.5), 1610645504);
        assert_eq!(float_hash(0.1), 2576882278);
        assert_eq!(float_hash(-1.0), -2);
        assert_eq!(float_hash(1e20), 7766279631452241925);
        assert_eq!(float_hash(1e100), -5970202163673034167);
        assert_eq!(float_hash(2.0f64.powi(64)), 1);
        assert_eq!(float_hash(1e19), -8446744073709551616);
        assert_eq!(float_hash(-1.5e300), 5734771021582775296);
        assert_eq!(
            py_hash(&HashKey::Int(10i128.pow(20))),
            Some(7766279631452241925)
        );
        assert_eq!(
            py_hash(&HashKey::Int(-(10i128.pow(20)))),
            Some(-7766279631452241925)
        );
        assert_eq!(py_hash(&HashKey::Int((1i128 << 64) - 1)), Some(-2));
        assert_eq!(py_hash(&HashKey::Int(1i128 << 63)), Some(i64::MIN));
        assert_eq!(py_hash(&HashKey::Int(-(1i128 << 63))), Some(i64::MIN));
        let t = HashKey::Tuple(vec![HashKey::Int(1), s("a")]);
        assert_eq!(py_hash(&t), Some(3703129313087942906));
        let u = crate::compiler::UStr::from_codes(vec![0xe9, 0x74, 0x1f600]);
        assert_eq!(py_hash(&HashKey::Unicode(u)), Some(-4116773383342228498));
        assert_eq!(py_hash(&HashKey::None), None);
    }

    /// Orders CPython 2.7 gives (`d.keys()` after the same operations).
    /// `PyDict_Copy` (what `type` makes of a class body) and keys inserted under hashes of
    /// their own (an r_dict's), against CPython 2.7.18: `dict(d).keys()`, and a dict of
    /// objects whose `__hash__` returns the given values (-1 is -2 there).
    #[test]
    fn copies_and_given_hashes_match_cpython_2_7() {
        let words = [
            "op_push", "op_pop", "op_add", "op_sub", "op_mul", "op_div", "op_jump", "op_call",
            "op_ret", "op_halt", "op_nop", "limit",
        ];
        let mut t = PyTable::default();
        for w in words {
            t.add(&s(w));
        }
        assert_eq!(
            names(&t),
            [
                "op_ret", "op_pop", "op_div", "op_halt", "op_add", "op_nop", "op_push", "op_mul",
                "op_sub", "limit", "op_jump", "op_call"
            ]
        );
        assert_eq!(
            names(&t.copy()),
            [
                "op_ret", "op_div", "op_halt", "op_add", "op_nop", "op_call", "op_pop", "op_mul",
                "op_sub", "limit", "op_jump", "op_push"
            ]
        );
        let hashes = [3, 10, 17, 24, 5, 12, 0, 7, -2, 1 << 40];
        let mut t = PyTable::default();
        for (n, &h) in hashes.iter().enumerate() {
            t.add_with_hash(h, &HashKey::Int(n as i128));
        }
        let order = |t: &PyTable| -> Vec<i128> {
            (t.order().unwrap().into_iter())
                .map(|k| match k {
                    HashKey::Int(n) => *n,
                    k => panic!("{k:?}"),
                })
                .collect()
        };
        assert_eq!(order(&t), [6, 9, 0, 4, 7, 1, 5, 2, 3, 8]);
        t.delete_with_hash(10, &HashKey::Int(1));
        t.delete_with_hash(0, &HashKey::Int(6));
        t.add_with_hash(10, &HashKey::Int(10));
        assert_eq!(order(&t), [9, 0, 4, 7, 10, 5, 2, 3, 8]);
    }

    /// `lookdict`'s stops for a key of hash 3 among keys of hashes 3 and 11 (CPython 2.7
    /// compares the entry of slot 3 twice: its probe `5 * 3 + 1 + 3` comes back to slot 3
    /// of the 8-slot table, which is what an r_dict's count of equality calls shows).
    #[test]
    fn lookup_walk_stops_as_cpython_2_7() {
        let mut t = PyTable::default();
        t.add_with_hash(3, &HashKey::Int(0));
        t.add_with_hash(11, &HashKey::Int(1));
        let probe = HashKey::Int(-1);
        let mut walk = LookWalk::new(3);
        let mut stops = Vec::new();
        while let Some(step) = walk.step(&t, &probe) {
            stops.push(step.clone());
            if step == LookStep::End {
                break;
            }
        }
        assert_eq!(
            stops,
            [
                LookStep::Compare(HashKey::Int(0)),
                LookStep::Compare(HashKey::Int(0)),
                LookStep::End
            ]
        );
        // the very key is met without a comparison; a deleted slot is walked over
        let mut walk = LookWalk::new(11);
        assert_eq!(
            walk.step(&t, &HashKey::Int(1)),
            Some(LookStep::Same(HashKey::Int(1)))
        );
        t.delete_with_hash(3, &HashKey::Int(0));
        let mut walk = LookWalk::new(3);
        assert_eq!(walk.step(&t, &probe), Some(LookStep::End));
        assert_eq!(LookWalk::new(3).step(&PyTable::Unknown, &probe), None);
    }

    #[test]
    fn orders_match_cpython_2_7() {
        let mut t = PyTable::default();
        for w in ["west", "down", "north", "up", "east", "south", "in", "out"] {
            t.add(&s(w));
        }
        assert_eq!(
            names(&t),
            ["north", "west", "up", "down", "in", "east", "south", "out"]
        );
        t.delete(&s("north"));
        t.delete(&s("up"));
        t.add(&s("up"));
        t.add(&s("ne"));
        assert_eq!(
            names(&t),
            ["west", "up", "ne", "down", "in", "east", "south", "out"]
        );
        let mut popped = Vec::new();
        while t.counts().unwrap().0 > 3 {
            match t.pop().unwrap() {
                HashKey::Str(b) => popped.push(String::from_utf8_lossy(&b).into_owned()),
                k => panic!("{k:?}"),
            }
        }
        assert_eq!(popped, ["west", "up", "ne", "down", "in"]);
        t.add(&s("zz"));
        assert_eq!(names(&t), ["zz", "east", "south", "out"]);
        let mut ints = PyTable::default();
        for i in [9, 1, 17, 3] {
            ints.add(&HashKey::Int(i));
        }
        assert_eq!(names(&ints), ["9", "3", "17", "1"]);
        // None's hash is known in its low 8 bits: enough for its first probes; CPython
        // gives [None, 14, 6] every time, and for 6, 14, 0, None a different order from
        // run to run
        let mut n = PyTable::default();
        for k in [HashKey::Int(6), HashKey::Int(14), HashKey::None] {
            n.add(&k);
        }
        assert_eq!(names(&n), ["None", "14", "6"]);
        let mut n = PyTable::default();
        for k in [
            HashKey::Int(6),
            HashKey::Int(14),
            HashKey::Int(0),
            HashKey::None,
        ] {
            n.add(&k);
        }
        assert!(n.order().is_none());
        let mut u = PyTable::default();
        u.add(&s("a"));
        u.add(&HashKey::Identity(crate::objspace::object::ObjId(3)));
        assert!(u.order().is_none());
    }
}
