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

/// `rpython.rlib.rfloat.formatd(x, code, precision, flags)`: `'e'`, `'f'`, `'g'` with a
/// precision, `'r'` the shortest repr (without the `.0` Python's `repr` adds, unless
/// `DTSF_ADD_DOT_0`, flag 2, is given; flag 1 `DTSF_SIGN` adds `+` to positives).
pub fn formatd(x: f64, code: u8, precision: usize, flags: i64) -> String {
    let upper = code.is_ascii_uppercase();
    let mut s = match code.to_ascii_lowercase() {
        b'e' => format_e(x, precision, false, upper),
        b'f' => {
            if let Some(sp) = special_float(x) {
                sp
            } else {
                format!("{:.*}", precision, x)
            }
        }
        b'g' => format_g(x, precision.max(1), false, upper),
        _ => {
            let r = float_repr(x);
            match r.strip_suffix(".0") {
                Some(t) if x.is_finite() => t.to_string(),
                _ => r,
            }
        }
    };
    if flags & 2 != 0 && x.is_finite() && !s.contains(['.', 'e', 'E']) {
        s.push_str(".0");
    }
    if flags & 1 != 0 && !s.starts_with('-') {
        s.insert(0, '+');
    }
    s
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
