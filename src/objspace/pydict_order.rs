//! The order in which CPython 2.7 iterates over a dict: what the reference's RTyper sees
//! when it converts a prebuilt dict (`dictobj.items()` under the CPython that ran the
//! program's import-time code), so the translated program's prebuilt dict starts in that
//! order, not in insertion order. The dict's open-addressing table is simulated: the keys
//! are inserted in insertion order with CPython 2.7's hashes (no hash randomization),
//! probe sequence and resizing, and the order is that of the table's slots. Keys whose
//! hash is an address (instances, functions, None…) have no reproducible order: `None`.
//! Deleted keys are not known here, so a dict that lost keys is simulated as if built
//! from the keys it still has.

use super::object::{Heap, Object, Value};

/// CPython 2.7's `hash()` of a key, when it does not depend on an address.
fn py_hash(heap: &Heap, v: Value, depth: usize) -> Option<i64> {
    let fix = |h: i64| if h == -1 { -2 } else { h };
    Some(match v {
        Value::Bool(b) => b as i64,
        Value::Int(i) => fix(i),
        Value::Float(f) => float_hash(f),
        Value::None => return None,
        Value::Obj(id) => match heap.get(id) {
            Object::Str(s) => str_hash(s.iter().map(|&c| c as u64), s.len()),
            Object::Unicode(u) => {
                // a narrow (UCS-2) and a wide build agree below U+10000
                if u.codes().iter().any(|&c| c > 0xffff) {
                    return None;
                }
                str_hash(u.codes().iter().map(|&c| c as u64), u.codes().len())
            }
            Object::Long(i) => fix(i64::try_from(*i).ok()?),
            Object::Tuple(items) if depth < 100 => {
                let mut x: i64 = 0x345678;
                let mut mult: i64 = 1000003;
                let mut len = items.len() as i64;
                for &it in items.iter() {
                    len -= 1;
                    let y = py_hash(heap, it, depth + 1)?;
                    x = (x ^ y).wrapping_mul(mult);
                    mult = mult.wrapping_add(82520 + len + len);
                }
                fix(x.wrapping_add(97531))
            }
            _ => return None,
        },
    })
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
    x ^= len as i64;
    if x == -1 {
        -2
    } else {
        x
    }
}

/// CPython 2.7's `_Py_HashDouble`.
fn float_hash(v: f64) -> i64 {
    if v.is_nan() {
        return 0;
    }
    if v.is_infinite() {
        return if v > 0.0 { 314159 } else { -271828 };
    }
    if v.fract() == 0.0 && v.abs() < 9.2e18 {
        let i = v as i64;
        return if i == -1 { -2 } else { i };
    }
    let (mut m, expo) = crate::libm::frexp(v);
    m *= 2147483648.0;
    let hipart = m as i64;
    m = (m - hipart as f64) * 2147483648.0;
    let x = hipart
        .wrapping_add(m as i64)
        .wrapping_add((expo as i64) << 15);
    if x == -1 {
        -2
    } else {
        x
    }
}

/// The positions (in `keys`) in the order CPython 2.7 iterates over a dict into which
/// `keys` were inserted in this order; `None` when a key's hash is not reproducible.
pub fn cpython_order(heap: &Heap, keys: &[Value]) -> Option<Vec<usize>> {
    let hashes = keys
        .iter()
        .map(|&k| py_hash(heap, k, 0))
        .collect::<Option<Vec<i64>>>()?;
    Some(order_of_hashes(&hashes))
}

/// The positions in the order CPython 2.7 iterates over a dict into which keys of these
/// `hashes` were inserted in this order (an `r_dict`'s keys hash with its own function).
pub fn order_of_hashes(hashes: &[i64]) -> Vec<usize> {
    // slots: the position of the key each holds
    let mut table: Vec<Option<usize>> = vec![None; 8];
    let mut used = 0usize;
    for k in 0..hashes.len() {
        insert_clean(&mut table, hashes, k);
        used += 1;
        // a new key filled a slot: CPython resizes at two thirds full (fill is `used`,
        // there being no deleted slots here)
        if used * 3 >= table.len() * 2 {
            let minused = if used > 50000 { 2 * used } else { 4 * used };
            let mut size = 8;
            while size <= minused {
                size <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; size]);
            for k in old.into_iter().flatten() {
                insert_clean(&mut table, hashes, k);
            }
        }
    }
    table.into_iter().flatten().collect()
}

/// CPython's probe sequence, to the first free slot.
fn insert_clean(table: &mut [Option<usize>], hashes: &[i64], k: usize) {
    let mask = table.len() - 1;
    let h = hashes[k] as u64;
    let mut i = h as usize & mask;
    let mut perturb = h;
    while table[i & mask].is_some() {
        i = (i << 2)
            .wrapping_add(i)
            .wrapping_add(perturb as usize)
            .wrapping_add(1);
        perturb >>= 5;
    }
    table[i & mask] = Some(k);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hashes and orders CPython 2.7 gives (`hash('a')`, `d.keys()` after inserting the
    /// keys in order), recorded with its interpreter.
    #[test]
    fn matches_cpython_2_7() {
        let mut heap = Heap::default();
        let s = |heap: &mut Heap, t: &str| Value::Obj(heap.alloc(Object::Str(t.as_bytes().into())));
        let words = [s(&mut heap, "west"), s(&mut heap, "down")];
        let ks: Vec<Value> = (0..40).map(|i| s(&mut heap, &format!("k{i}"))).collect();
        let tuple = |heap: &mut Heap, i: i64, t: &str| {
            let st = s(heap, t);
            Value::Obj(heap.alloc(Object::Tuple(vec![Value::Int(i), st])))
        };
        let t1 = tuple(&mut heap, 1, "a");
        let t2 = tuple(&mut heap, 2, "b");
        let t0 = tuple(&mut heap, 0, "z");
        assert_eq!(str_hash("a".bytes().map(|c| c as u64), 1), 12416037344);
        assert_eq!(float_hash(1.5), 1610645504);
        assert_eq!(py_hash(&heap, t1, 0), Some(3703129313087942906));
        assert_eq!(cpython_order(&heap, &words), Some(vec![1, 0]));
        let ints: Vec<Value> = [9, 1, 17, 3].iter().map(|&i| Value::Int(i)).collect();
        assert_eq!(cpython_order(&heap, &ints), Some(vec![0, 3, 2, 1]));
        let order = cpython_order(&heap, &ks).unwrap();
        assert_eq!(
            order[..12],
            [13, 12, 11, 10, 17, 16, 15, 14, 19, 18, 39, 38]
        );
        let mixed = [t1, t2, t0, Value::Float(2.5), Value::Float(-1.25)];
        assert_eq!(cpython_order(&heap, &mixed), Some(vec![3, 4, 0, 1, 2]));
        assert_eq!(cpython_order(&heap, &[Value::None]), None);
    }
}
