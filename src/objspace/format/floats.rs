//! Python 2's float formatting: the shortest round-trip `repr`, `str`'s 12 significant
//! digits, the `e`/`f`/`g` conversions of `%` and `format`, and `rfloat.formatd`.

/// Shortest round-trip digits of a finite non-zero float: (digits, decimal exponent) with the
/// value = 0.d1d2d3… × 10^exp.
fn shortest_digits(f: f64) -> (Vec<u8>, i32) {
    let s = format!("{:e}", f.abs());
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: Vec<u8> = mant.bytes().filter(|b| b.is_ascii_digit()).collect();
    // Of two shortest candidates equally near (a tie), Rust's shortest formatting takes
    // the upper one; Python's repr takes the correctly rounded one (half to even), which
    // `{:.Ne}` gives: use it when it reads back as the same float.
    let exact = format!("{:.*e}", digits.len().saturating_sub(1), f.abs());
    if exact.parse::<f64>() == Ok(f.abs()) {
        let (mant, exp) = exact.split_once('e').unwrap_or((&exact, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let digits: Vec<u8> = mant.bytes().filter(|b| b.is_ascii_digit()).collect();
        return (digits, exp + 1);
    }
    (digits, exp + 1)
}

/// Largest precision of a numeric conversion the import-time model formats (Rust's formatter
/// refuses more than 65,535; Python refuses absurd ones too).
pub const MAX_PRECISION: usize = 10_000;

/// Digits rounded to `prec` significant digits: (digits, decimal exponent as above).
fn rounded_digits(f: f64, prec: usize) -> (Vec<u8>, i32) {
    let prec = prec.clamp(1, MAX_PRECISION);
    let s = format!("{:.*e}", prec - 1, f.abs());
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: Vec<u8> = mant.bytes().filter(|b| b.is_ascii_digit()).collect();
    (digits, exp + 1)
}

#[cfg(test)]
#[test]
fn repr_ties_round_half_even_as_python() {
    assert_eq!(float_repr(2f64.powi(-25)), "2.9802322387695312e-08");
    // 2**50 + 0.25: exactly representable
    assert_eq!(float_repr(2f64.powi(50) + 0.25), "1125899906842624.2");
    assert_eq!(float_repr(0.1), "0.1");
    assert_eq!(float_repr(1e16), "1e+16");
}

fn special_float(f: f64) -> Option<String> {
    if f.is_nan() {
        Some("nan".into())
    } else if f.is_infinite() {
        Some(if f > 0.0 { "inf".into() } else { "-inf".into() })
    } else {
        None
    }
}

/// Places digits with a decimal exponent in fixed or exponent notation (`%g`-like).
fn place_digits(
    neg: bool,
    digits: &[u8],
    decpt: i32,
    use_exp: bool,
    min_frac_point: bool,
) -> String {
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if use_exp {
        out.push(digits[0] as char);
        if digits.len() > 1 {
            out.push('.');
            for &d in &digits[1..] {
                out.push(d as char);
            }
        }
        let e = decpt - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", e.abs()));
    } else if decpt <= 0 {
        out.push_str("0.");
        for _ in 0..(-decpt) {
            out.push('0');
        }
        for &d in digits {
            out.push(d as char);
        }
    } else {
        let decpt = decpt as usize;
        for i in 0..decpt.max(digits.len()) {
            if i == decpt {
                out.push('.');
            }
            out.push(if i < digits.len() {
                digits[i] as char
            } else {
                '0'
            });
        }
        if decpt >= digits.len() && min_frac_point {
            out.push_str(".0");
        }
    }
    out
}

/// Python 2.7 `repr(float)`.
pub fn float_repr(f: f64) -> String {
    if let Some(s) = special_float(f) {
        return s;
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let (digits, decpt) = shortest_digits(f);
    let use_exp = !(-4 < decpt && decpt <= 16);
    place_digits(f < 0.0, &digits, decpt, use_exp, true)
}

/// Python 2.7 `str(float)`: 12 significant digits as `%.12g`, except that the exponent
/// form starts one digit earlier (CPython asks for `.0` on integers, and its `g` then
/// keeps room for it): `str(123456789012.0)` is `1.23456789012e+11`.
pub fn float_str(f: f64) -> String {
    const PREC: usize = 12;
    if let Some(s) = special_float(f) {
        return s;
    }
    let mut s = if f == 0.0 {
        format_g(f, PREC, false, false)
    } else {
        let (mut digits, decpt) = rounded_digits(f, PREC);
        while digits.len() > 1 && digits.last() == Some(&b'0') {
            digits.pop();
        }
        let use_exp = decpt <= -4 || decpt > PREC as i32 - 1;
        place_digits(f < 0.0, &digits, decpt, use_exp, false)
    };
    if !s.contains(['.', 'e']) {
        s.push_str(".0");
    }
    s
}

/// `%.<prec>g`.
pub fn format_g(f: f64, prec: usize, alt: bool, upper: bool) -> String {
    if let Some(s) = special_float(f) {
        return if upper { s.to_uppercase() } else { s };
    }
    let prec = prec.clamp(1, MAX_PRECISION);
    if f == 0.0 {
        let mut s = String::from(if f.is_sign_negative() { "-0" } else { "0" });
        if alt {
            s.push('.');
            for _ in 1..prec {
                s.push('0');
            }
        }
        return s;
    }
    let (mut digits, decpt) = rounded_digits(f, prec);
    let exp = decpt - 1;
    let use_exp = exp < -4 || exp >= prec as i32;
    if !alt {
        while digits.len() > 1 && *digits.last().unwrap_or(&b'1') == b'0' {
            digits.pop();
        }
    }
    let mut s = place_digits(f < 0.0, &digits, decpt, use_exp, false);
    if alt && !s.contains('.') {
        if let Some(p) = s.find('e') {
            s.insert(p, '.');
        } else {
            s.push('.');
        }
    }
    if upper {
        s = s.to_uppercase();
    }
    s
}

/// `%.<prec>e`.
pub fn format_e(f: f64, prec: usize, alt: bool, upper: bool) -> String {
    if let Some(s) = special_float(f) {
        return if upper { s.to_uppercase() } else { s };
    }
    let prec = prec.min(MAX_PRECISION);
    let s = format!("{:.*e}", prec, f);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let mut out = mant.to_string();
    if alt && prec == 0 {
        out.push('.');
    }
    out.push(if upper { 'E' } else { 'e' });
    out.push(if e < 0 { '-' } else { '+' });
    out.push_str(&format!("{:02}", e.abs()));
    out
}

/// `%.<prec>f`.
pub fn format_f(f: f64, prec: usize, alt: bool) -> String {
    if let Some(s) = special_float(f) {
        return s;
    }
    let prec = prec.min(MAX_PRECISION);
    let mut s = format!("{:.*}", prec, f);
    if alt && prec == 0 {
        s.push('.');
    }
    s
}

/// `rfloat.formatd`'s flags.
const DTSF_SIGN: i64 = 0x1;
const DTSF_ADD_DOT_0: i64 = 0x2;
const DTSF_ALT: i64 = 0x4;
const DTSF_CUT_EXP_0: i64 = 0x8;

/// The digits dtoa gives for a finite `x` (no trailing zeros; `0` for zero) and the
/// position of the decimal point: mode 0 (shortest) for `'r'`, `n` significant digits for
/// `'e'`/`'g'`, `n` digits after the point for `'f'` (none at all when it rounds to zero).
fn dtoa_digits(x: f64, code: u8, n: usize) -> (Vec<u8>, i32) {
    let a = x.abs();
    if a == 0.0 {
        return (b"0".to_vec(), 1);
    }
    let (mut digits, mut decpt) = match code {
        b'r' => shortest_digits(a),
        b'f' => {
            let s = format!("{:.*}", n.min(MAX_PRECISION), a);
            let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
            let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
            let mut decpt = int.len() as i32;
            let lead = digits.iter().take_while(|&&d| d == b'0').count();
            digits.drain(..lead);
            decpt -= lead as i32;
            if digits.is_empty() {
                decpt = -(n as i32);
            }
            (digits, decpt)
        }
        _ => rounded_digits(a, n),
    };
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.is_empty() && code != b'f' {
        digits.push(b'0');
        decpt = 1;
    }
    (digits, decpt)
}

/// `rpython.rlib.rfloat.formatd(x, code, precision, flags)` as the reference's dtoa
/// formats it: `'e'`, `'f'`, `'g'` (and upper case) with a precision, `'r'` the shortest
/// repr without the `.0`; flags `DTSF_SIGN` (a `+`), `DTSF_ADD_DOT_0` (`.0` on an integral
/// value, which `'g'` at exactly `precision` digits writes with an exponent instead),
/// `DTSF_ALT` (`'g'` keeps its trailing zeros, every code its decimal point) and
/// `DTSF_CUT_EXP_0` (no leading zero in a one-digit exponent).
pub fn formatd(x: f64, code: u8, precision: usize, flags: i64) -> String {
    let upper = matches!(code, b'E' | b'F' | b'G');
    let code = code.to_ascii_lowercase();
    if x.is_nan() {
        return if upper { "NAN" } else { "nan" }.into();
    }
    if x.is_infinite() {
        let s = if x < 0.0 {
            "-inf"
        } else if flags & DTSF_SIGN != 0 {
            "+inf"
        } else {
            "inf"
        };
        return if upper { s.to_uppercase() } else { s.into() };
    }
    let precision = precision.min(MAX_PRECISION) as i32;
    let (code, n) = match code {
        b'e' => (b'e', precision + 1),
        b'f' => (b'f', precision),
        b'g' => (b'g', precision.max(1)),
        _ => (b'r', 0),
    };
    let (digits, mut decpt) = dtoa_digits(x, code, n as usize);
    let buflen = digits.len() as i32;
    let mut use_exp = false;
    let mut vend = buflen;
    match code {
        b'e' => {
            use_exp = true;
            vend = n;
        }
        b'f' => vend = decpt + n,
        b'g' => {
            use_exp = decpt <= -4 || decpt > n || (flags & DTSF_ADD_DOT_0 != 0 && decpt == n);
            if flags & DTSF_ALT != 0 {
                vend = n;
            }
        }
        _ => use_exp = decpt <= -4 || decpt > 16,
    }
    let exp = decpt - 1;
    if use_exp {
        decpt = 1;
    }
    let vstart = if decpt <= 0 { decpt - 1 } else { 0 };
    if vend <= decpt {
        vend = if !use_exp && flags & DTSF_ADD_DOT_0 != 0 {
            decpt + 1
        } else {
            decpt
        };
    }
    let zeros = |out: &mut String, k: i32| out.extend(std::iter::repeat_n('0', k.max(0) as usize));
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    } else if flags & DTSF_SIGN != 0 {
        out.push('+');
    }
    let body = out.len();
    if decpt <= 0 {
        zeros(&mut out, decpt - vstart);
        out.push('.');
        zeros(&mut out, -decpt);
    } else {
        zeros(&mut out, -vstart);
    }
    if 0 < decpt && decpt <= buflen {
        out.extend(digits[..decpt as usize].iter().map(|&d| d as char));
        out.push('.');
        out.extend(digits[decpt as usize..].iter().map(|&d| d as char));
    } else {
        out.extend(digits.iter().map(|&d| d as char));
    }
    if buflen < decpt {
        zeros(&mut out, decpt - buflen);
        out.push('.');
        zeros(&mut out, vend - decpt);
    } else {
        zeros(&mut out, vend - buflen);
    }
    if flags & DTSF_ALT == 0 && out.len() > body && out.ends_with('.') {
        out.pop();
    }
    if use_exp {
        out.push(if upper { 'E' } else { 'e' });
        out.push(if exp < 0 { '-' } else { '+' });
        if exp.abs() < 10 && flags & DTSF_CUT_EXP_0 == 0 {
            out.push('0');
        }
        out.push_str(&exp.abs().to_string());
    }
    out
}

#[cfg(test)]
#[test]
fn formatd_flags_as_the_reference() {
    // values the reference binary printed (float_formatd_flags_blind7a)
    assert_eq!(formatd(0.0, b'g', 3, DTSF_ALT), "0.00");
    assert_eq!(formatd(-1.5, b'g', 3, DTSF_ALT), "-1.50");
    assert_eq!(formatd(1e-300, b'g', 3, DTSF_ALT), "1.00e-300");
    assert_eq!(formatd(f64::NAN, b'g', 6, DTSF_SIGN), "nan");
    assert_eq!(formatd(f64::INFINITY, b'g', 6, DTSF_SIGN), "+inf");
    assert_eq!(formatd(-0.0, b'g', 0, 0), "-0");
    assert_eq!(formatd(1e16, b'f', 1, DTSF_SIGN), "+10000000000000000.0");
    assert_eq!(formatd(2.0 / 3.0, b'g', 17, 0), "0.66666666666666663");
    assert_eq!(formatd(1.0, b'r', 0, DTSF_ADD_DOT_0), "1.0");
    assert_eq!(formatd(0.000123456, b'f', 2, 0), "0.00");
    assert_eq!(formatd(0.1, b'f', 0, 0), "0");
    assert_eq!(formatd(1.0, b'e', 0, 0), "1e+00");
}

/// One part of a complex number as Python 2.7 writes it: `repr` (shortest digits) or
/// `str` (`%.12g`) style, with no `.0` added to integral values, and a `+` when `sign`.
fn complex_part(f: f64, repr: bool, sign: bool) -> String {
    let s = if let Some(s) = special_float(f) {
        s
    } else if repr {
        if f == 0.0 {
            (if f.is_sign_negative() { "-0" } else { "0" }).to_string()
        } else {
            let (digits, decpt) = shortest_digits(f);
            let use_exp = !(-4 < decpt && decpt <= 16);
            place_digits(f < 0.0, &digits, decpt, use_exp, false)
        }
    } else {
        format_g(f, 12, false, false)
    };
    if sign && !s.starts_with('-') {
        format!("+{s}")
    } else {
        s
    }
}

/// Python 2.7 `repr(complex)` (`repr` true) or `str(complex)`: `1j`, `(2+3j)`, `(-0-1j)`.
pub fn complex_format(re: f64, im: f64, repr: bool) -> String {
    if re == 0.0 && re.is_sign_positive() {
        format!("{}j", complex_part(im, repr, false))
    } else {
        format!(
            "({}{}j)",
            complex_part(re, repr, false),
            complex_part(im, repr, true)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_formats_like_python() {
        assert_eq!(float_repr(0.1), "0.1");
        assert_eq!(float_repr(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(float_repr(1e16), "1e+16");
        assert_eq!(float_repr(1e15), "1000000000000000.0");
        assert_eq!(float_repr(1.5e-5), "1.5e-05");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(-2.0), "-2.0");
        assert_eq!(float_str(1.0 / 3.0), "0.333333333333");
        assert_eq!(float_str(1e16), "1e+16");
        assert_eq!(float_str(123456789012345.0), "1.23456789012e+14");
        assert_eq!(float_str(2.5), "2.5");
        assert_eq!(float_str(100.0), "100.0");
        // checked against CPython 2.7.18's str()
        assert_eq!(float_str(123456789012.0), "1.23456789012e+11");
        assert_eq!(float_str(1e11), "1e+11");
        assert_eq!(float_str(100000000000.5), "1e+11");
        assert_eq!(float_str(12345678901.0), "12345678901.0");
        assert_eq!(float_str(99999999999.0), "99999999999.0");
        assert_eq!(float_str(999999999999.0), "9.99999999999e+11");
        assert_eq!(float_str(-0.0), "-0.0");
        assert_eq!(float_str(0.0001), "0.0001");
        assert_eq!(float_str(0.00001), "1e-05");
        assert_eq!(format_g(0.00001234, 6, false, false), "1.234e-05");
        assert_eq!(format_e(12345.678, 2, false, false), "1.23e+04");
        assert_eq!(format_f(2.675, 2, false), "2.67");
    }

    #[test]
    fn complex_as_python_2_7_writes_it() {
        // expected strings from CPython 2.7.18
        assert_eq!(complex_format(0.0, 1.0, true), "1j");
        assert_eq!(complex_format(-3.0, 2.0, true), "(-3+2j)");
        assert_eq!(complex_format(0.0, 1e20, true), "1e+20j");
        assert_eq!(
            complex_format(1.0 / 3.0, 1e-5, false),
            "(0.333333333333+1e-05j)"
        );
        assert_eq!(
            complex_format(1.0 / 3.0, 0.1, true),
            "(0.3333333333333333+0.1j)"
        );
        assert_eq!(complex_format(-0.0, -0.0, false), "(-0-0j)");
    }
}
