//! The C runtime of text, numbers and the OS (src/genc/runtime/text.c), checked against
//! its specification, the LLInterpreter's implementation: tests/text_rt/test_text.c holds
//! hand-checked cases and a stand-in GC that moves and frees objects at every allocation;
//! this test adds generated cases (float repr and formatting, float parsing) computed by
//! the Rust code the LLInterpreter uses, compiles the program with the system `cc` and
//! runs it (also under AddressSanitizer and UBSan when the compiler supports them).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use rpy_lsp::llinterp::harness::{interpret, Outcome};
use rpy_lsp::lltypesystem::LlValue;
use rpy_lsp::objspace::format::{float_repr, formatd};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn have_cc() -> bool {
    Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A small deterministic generator (xorshift64*): the cases are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The floats to format: every power of two and its neighbours (where the shortest
/// repr is hardest), random bit patterns (subnormals, NaNs, infinities included), short
/// decimals and integers.
fn floats(rng: &mut Rng) -> Vec<f64> {
    let mut v = Vec::new();
    for k in -1074..=1023 {
        // 2^k exactly: a normal number's exponent field, or a subnormal's one bit
        let b: u64 = if k >= -1022 {
            ((k + 1023) as u64) << 52
        } else {
            1u64 << (k + 1074)
        };
        v.extend([
            f64::from_bits(b),
            f64::from_bits(b + 1),
            f64::from_bits(b - 1),
        ]);
    }
    for _ in 0..4000 {
        v.push(f64::from_bits(rng.next()));
    }
    for _ in 0..3000 {
        let digits = 1 + rng.below(17) as u32;
        let m = rng.below(10u64.pow(digits)) as f64;
        let e = rng.below(40) as i32 - 20;
        let x = m * 10f64.powi(e);
        v.push(if rng.below(2) == 0 { x } else { -x });
    }
    for i in -1000..1000 {
        v.push(i as f64);
        v.push(i as f64 / 8.0);
    }
    v.extend([
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MAX,
        f64::MIN,
    ]);
    v.extend([
        f64::MIN_POSITIVE,
        5e-324,
        1e16,
        1e15,
        f64::from_bits(1e16f64.to_bits() - 1),
        0.0001,
        1e-5,
    ]);
    v
}

/// The LLInterpreter's float(str) (src/llinterp/runtime/mod.rs, StrToFloat).
fn str_to_float(s: &[u8]) -> Option<f64> {
    let t = String::from_utf8_lossy(s).trim_matches(' ').to_string();
    let numeric = !t.is_empty()
        && t.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c))
        && t.chars().any(|c| c.is_ascii_digit());
    match t.parse::<f64>() {
        Ok(v) if numeric => Some(v),
        _ => None,
    }
}

/// Whether the shortest digits of x end exactly halfway between two candidates (x's exact
/// decimal expansion has one digit more, a 5). Rust's `{:e}`, which the LLInterpreter's
/// float_repr uses, then rounds up, while Python's repr (and the C runtime) rounds to even:
/// repr(2**-25) is '2.9802322387695312e-08' in Python 2.7, '...313e-08' in float_repr.
/// Those cases are checked by hand in test_text.c instead.
fn repr_is_a_tie(x: f64) -> bool {
    if !x.is_finite() || x == 0.0 {
        return false;
    }
    let short = format!("{:e}", x.abs());
    let n = short
        .split('e')
        .next()
        .unwrap()
        .bytes()
        .filter(|b| b.is_ascii_digit())
        .count();
    let exact = format!("{:.1100e}", x.abs());
    let mant = exact.split('e').next().unwrap().trim_end_matches('0');
    let digits: Vec<u8> = mant.bytes().filter(|b| b.is_ascii_digit()).collect();
    digits.len() == n + 1 && digits[n] == b'5'
}

fn expectations(path: &Path) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = String::new();
    let xs = floats(&mut rng);
    let ties = xs.iter().filter(|&&x| repr_is_a_tie(x)).count();
    assert!(ties < 100, "{} ties", ties);
    for &x in xs.iter().filter(|&&x| !repr_is_a_tie(x)) {
        writeln!(out, "R {:016x} {}", x.to_bits(), float_repr(x)).unwrap();
    }
    let codes = b"efgEFGr";
    for (i, &x) in xs.iter().enumerate() {
        if i % 3 != 0 {
            continue;
        }
        let mut code = codes[rng.below(codes.len() as u64) as usize];
        if code == b'r' && repr_is_a_tie(x) {
            code = b'g';
        }
        let prec: i64 = match rng.below(10) {
            0 => rng.below(500) as i64 - 50,
            _ => rng.below(20) as i64,
        };
        let flags = rng.below(4) as i64;
        // FloatFormat clamps the precision before formatd (mod.rs)
        let s = formatd(x, code, prec.clamp(0, 400) as usize, flags);
        writeln!(
            out,
            "F {:016x} {} {} {} {}",
            x.to_bits(),
            code,
            prec,
            flags,
            s
        )
        .unwrap();
    }
    let alphabet = b"0123456789+-.eE  xn";
    for _ in 0..6000 {
        let n = rng.below(10) as usize;
        let s: Vec<u8> = (0..n)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect();
        let hex: String = if s.is_empty() {
            "-".into()
        } else {
            s.iter().map(|b| format!("{:02x}", b)).collect()
        };
        match str_to_float(&s) {
            Some(v) => writeln!(out, "P {} 1 {:016x}", hex, v.to_bits()).unwrap(),
            None => writeln!(out, "P {} 0 0", hex).unwrap(),
        }
    }
    std::fs::write(path, out).unwrap();
}

fn build_and_run(exe: &Path, extra: &[&str], cases: &Path) -> Result<String, String> {
    let rt = root().join("src/genc/runtime");
    let mut cc = Command::new("cc");
    cc.args(["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O1"])
        .args(extra)
        .arg("-I")
        .arg(&rt)
        .arg(rt.join("text.c"))
        .arg(rt.join("math.c"))
        .arg(root().join("tests/text_rt/test_text.c"))
        .arg("-o")
        .arg(exe)
        .arg("-lm");
    let o = cc.output().map_err(|e| e.to_string())?;
    if !o.status.success() {
        return Err(format!(
            "cc failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let o = Command::new(exe)
        .arg(cases)
        .env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
        .env("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
        .output()
        .map_err(|e| e.to_string())?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    if o.status.success() {
        Ok(text)
    } else {
        Err(text)
    }
}

/// Whether `cc` can build and run a program with these sanitizers.
fn sanitizers_work(dir: &Path) -> bool {
    let src = dir.join("probe.c");
    let exe = dir.join("probe");
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    Command::new("cc")
        .args(["-fsanitize=address,undefined"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new(&exe)
            .output()
            .is_ok_and(|o| o.status.success())
}

#[test]
fn c_text_runtime_matches_the_llinterpreter() {
    if !have_cc() {
        eprintln!("skipped: no C compiler (`cc`) on this machine");
        return;
    }
    let dir = std::env::temp_dir().join(format!("rpy-text-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = dir.join("cases.txt");
    expectations(&cases);
    match build_and_run(&dir.join("test_text"), &[], &cases) {
        Ok(out) => eprintln!("{}", out),
        Err(e) => panic!("{}", e),
    }
    if sanitizers_work(&dir) {
        match build_and_run(
            &dir.join("test_text_san"),
            &[
                "-g",
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
            ],
            &cases,
        ) {
            Ok(out) => eprintln!("sanitized: {}", out),
            Err(e) => panic!("under -fsanitize=address,undefined: {}", e),
        }
    } else {
        eprintln!("the sanitized build is skipped: cc cannot build with -fsanitize");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// compute_hash of a str and of a unicode string is RPython's string hash (ll_strhash of
/// ll_str.py, cached in the string; "" hashes to -1).
#[test]
fn string_hashes_are_the_references() {
    let src = "
from rpython.rlib.objectmodel import compute_hash
def h(n):
    return compute_hash(['', 'a', 'abc', 'hello world'][n])
def hu(n):
    return compute_hash([u'abc', u'\\xe9\\u20ac'][n])
";
    let want = [
        -1i64,
        12416037344,
        1453079729188098211,
        -2324238377118044897,
    ];
    for (i, w) in want.iter().enumerate() {
        match interpret(src, "h", &[i as i64]) {
            Ok((Outcome::Value(LlValue::Int(x)), _)) => assert_eq!(x, *w, "hash #{}", i),
            other => panic!("h({}): {:?}", i, other),
        }
    }
    let want_u = [1453079729188098211i64, 29824178921260245];
    for (i, w) in want_u.iter().enumerate() {
        match interpret(src, "hu", &[i as i64]) {
            Ok((Outcome::Value(LlValue::Int(x)), _)) => assert_eq!(x, *w, "unicode hash #{}", i),
            other => panic!("hu({}): {:?}", i, other),
        }
    }
}
