//! The `math` functions as RPython's external functions compute them: the C library's
//! result, then the error checks of the reference's `ll_math` — a NaN from a number is a
//! domain error (ValueError), an infinity from a finite argument an overflow
//! (OverflowError) for the functions that can overflow and a domain error for the others.
//! GenC's runtime (`genc/runtime/math.c`) applies the same rules to the same C functions,
//! so `run` and `build` agree with each other and with the reference's binaries.

/// Which exception a math function raises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MathError {
    Value,
    Overflow,
}

use MathError::{Overflow, Value};

type UnaryFn = fn(f64) -> f64;

/// The single-argument functions checked generically (the reference's
/// `unary_math_functions`), and whether an infinite result is an overflow.
fn generic_unary(name: &str) -> Option<(UnaryFn, bool)> {
    Some(match name {
        "acos" => (f64::acos, false),
        "asin" => (f64::asin, false),
        "atan" => (f64::atan, false),
        "ceil" => (f64::ceil, false),
        "cosh" => (f64::cosh, true),
        "exp" => (f64::exp, true),
        "fabs" => (f64::abs, false),
        "sinh" => (f64::sinh, true),
        "tan" => (f64::tan, false),
        "tanh" => (f64::tanh, false),
        "acosh" => (crate::libm::acosh, false),
        "asinh" => (crate::libm::asinh, false),
        "atanh" => (crate::libm::atanh, false),
        "expm1" => (f64::exp_m1, true),
        _ => return None,
    })
}

/// An error of range is ignored when the result is small (an underflow), as CPython does.
fn range_error(r: f64) -> Result<f64, MathError> {
    if r.abs() < 1.0 {
        Ok(r)
    } else {
        Err(Overflow)
    }
}

/// `x * 2**e` rounded once, as C's `ldexp`: the scaling is split so that no intermediate
/// product leaves the normal range before the last step.
fn ldexp_exact(mut x: f64, mut e: i64) -> f64 {
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
        if x.is_infinite() {
            return x;
        }
    }
    while e < -1000 {
        // stop one step early so that a subnormal result is rounded only once
        if e >= -2000 && x.abs() < 2f64.powi(-1000) {
            break;
        }
        x *= 2f64.powi(-1000);
        e += 1000;
        if x == 0.0 {
            return x;
        }
    }
    if e < -1022 {
        // two steps, the last of which may round into the subnormals
        let half = e / 2;
        return x * 2f64.powi(half as i32) * 2f64.powi((e - half) as i32);
    }
    x * 2f64.powi(e as i32)
}

/// `x ** y` for floats (`math.pow` and the `**` operator of translated code).
pub fn pow(x: f64, y: f64) -> Result<f64, MathError> {
    if y.is_nan() {
        return Ok(if x == 1.0 { 1.0 } else { y });
    }
    if x.is_nan() {
        return Ok(if y == 0.0 { 1.0 } else { x });
    }
    if x.is_infinite() {
        let odd_y = !y.is_infinite() && (y.abs() % 2.0) == 1.0;
        return Ok(if y > 0.0 {
            if odd_y {
                x
            } else {
                x.abs()
            }
        } else if y == 0.0 {
            1.0
        } else if odd_y {
            0f64.copysign(x)
        } else {
            0.0
        });
    }
    if y.is_infinite() {
        return if x.abs() == 1.0 {
            Ok(1.0)
        } else if y > 0.0 && x.abs() > 1.0 {
            Ok(y)
        } else if y < 0.0 && x.abs() < 1.0 {
            if x == 0.0 {
                Err(Value)
            } else {
                Ok(-y)
            }
        } else {
            Ok(0.0)
        };
    }
    let r = x.powf(y);
    if r.is_nan() {
        return Err(Value);
    }
    if r.is_infinite() {
        return if x == 0.0 { Err(Value) } else { range_error(r) };
    }
    Ok(r)
}

/// `math.<name>(x[, y])` other than the tuple-valued `modf`/`frexp` and the predicates.
/// `None` for a name the runtime does not know.
pub fn call(name: &str, x: f64, y: f64) -> Option<Result<f64, MathError>> {
    if let Some((f, can_overflow)) = generic_unary(name) {
        let r = f(x);
        let res = if r.is_nan() && !x.is_nan() {
            Err(Value)
        } else if r.is_infinite() && x.is_finite() {
            if can_overflow {
                range_error(r)
            } else {
                Err(Value)
            }
        } else {
            Ok(r)
        };
        return Some(res);
    }
    Some(match name {
        "sqrt" if x < 0.0 => Err(Value),
        "sqrt" => Ok(x.sqrt()),
        "log" | "log10" | "log_2" if x <= 0.0 => Err(Value),
        "log" => Ok(x.ln()),
        "log_2" => Ok(x.ln() / y.ln()),
        "log10" => Ok(x.log10()),
        "log1p" if x == 0.0 => Ok(x),
        "log1p" if x == -1.0 => Err(Overflow),
        "log1p" if x < -1.0 => Err(Value),
        "log1p" => Ok(x.ln_1p()),
        "sin" | "cos" if x.is_infinite() => Err(Value),
        "sin" => Ok(x.sin()),
        "cos" => Ok(x.cos()),
        "atan2" => Ok(x.atan2(y)),
        "floor" => Ok(x.floor()),
        "trunc" => Ok(x.trunc()),
        "copysign" => Ok(x.copysign(y)),
        "pow" => pow(x, y),
        "fmod" if y.is_infinite() && x.is_finite() => Ok(x),
        "fmod" => {
            let r = x % y;
            if r.is_nan() && !x.is_nan() && !y.is_nan() {
                Err(Value)
            } else {
                Ok(r)
            }
        }
        "hypot" if x.is_infinite() => Ok(x.abs()),
        "hypot" if y.is_infinite() => Ok(y.abs()),
        "hypot" => {
            let r = x.hypot(y);
            if r.is_nan() && !x.is_nan() && !y.is_nan() {
                Err(Value)
            } else if r.is_infinite() && x.is_finite() && y.is_finite() {
                range_error(r)
            } else {
                Ok(r)
            }
        }
        "ldexp" => {
            // the exponent arrives as a float; C's int range bounds it
            let e = if y.is_nan() { 0 } else { y as i64 };
            if x == 0.0 || !x.is_finite() {
                Ok(x)
            } else if e > i32::MAX as i64 {
                range_error(f64::INFINITY.copysign(x))
            } else if e < i32::MIN as i64 {
                Ok(0f64.copysign(x))
            } else {
                let r = ldexp_exact(x, e);
                if r.is_infinite() {
                    range_error(r)
                } else {
                    Ok(r)
                }
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_and_range_errors_follow_the_reference_rules() {
        assert_eq!(call("acos", 2.0, 0.0), Some(Err(Value)));
        assert_eq!(call("atanh", 1.0, 0.0), Some(Err(Value)));
        assert_eq!(call("cosh", 1000.0, 0.0), Some(Err(Overflow)));
        assert_eq!(call("exp", -1000.0, 0.0), Some(Ok(0.0)));
        assert_eq!(call("tan", f64::INFINITY, 0.0), Some(Err(Value)));
        assert_eq!(call("sin", f64::INFINITY, 0.0), Some(Err(Value)));
        assert!(call("sin", f64::NAN, 0.0).unwrap().unwrap().is_nan());
        assert_eq!(call("log1p", -1.0, 0.0), Some(Err(Overflow)));
        assert_eq!(call("fmod", 1.0, 0.0), Some(Err(Value)));
        assert_eq!(call("fmod", 1.5, f64::INFINITY), Some(Ok(1.5)));
        assert_eq!(call("hypot", 1.5e308, 1.5e308), Some(Err(Overflow)));
        assert_eq!(pow(0.0, -1.0), Err(Value));
        assert_eq!(pow(-8.0, 1.0 / 3.0), Err(Value));
        assert_eq!(pow(2.0, 10000.0), Err(Overflow));
        assert_eq!(pow(f64::NAN, 0.0), Ok(1.0));
        assert_eq!(call("ldexp", 1.0, 2000.0), Some(Err(Overflow)));
        assert_eq!(call("ldexp", 3.0, 5.0), Some(Ok(96.0)));
        assert_eq!(call("ldexp", 1.0, -1074.0), Some(Ok(f64::from_bits(1))));
        assert_eq!(call("ldexp", 1.0, -1075.0), Some(Ok(0.0)));
        assert_eq!(call("nosuch", 1.0, 0.0), None);
    }
}
