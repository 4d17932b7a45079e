//! C library functions that Rust's std does not offer as such. `f64::acosh`, `asinh` and
//! `atanh` are std's own formulas, which differ from glibc's in the last bit for many
//! arguments, and std has no `frexp`; the reference's binaries (and CPython, which
//! evaluates import-time code) call the C library, so both the object space and the
//! LLInterpreter call it too.

mod sys {
    extern "C" {
        pub fn acosh(x: f64) -> f64;
        pub fn asinh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
        pub fn frexp(x: f64, exp: *mut std::ffi::c_int) -> f64;
        pub fn cbrt(x: f64) -> f64;
        pub fn hypot(x: f64, y: f64) -> f64;
    }
}

/// The C library's `acosh(x)`.
pub fn acosh(x: f64) -> f64 {
    // SAFETY: a pure function of a double, from the C math library std links
    unsafe { sys::acosh(x) }
}

/// The C library's `asinh(x)`.
pub fn asinh(x: f64) -> f64 {
    // SAFETY: as above
    unsafe { sys::asinh(x) }
}

/// The C library's `cbrt(x)`.
pub fn cbrt(x: f64) -> f64 {
    // SAFETY: as above
    unsafe { sys::cbrt(x) }
}

/// The C library's `hypot(x, y)`.
pub fn hypot(x: f64, y: f64) -> f64 {
    // SAFETY: as above
    unsafe { sys::hypot(x, y) }
}

/// The C library's `atanh(x)`.
pub fn atanh(x: f64) -> f64 {
    // SAFETY: as above
    unsafe { sys::atanh(x) }
}

/// The C library's `frexp(x)`: `(m, e)` with `x == m * 2**e` and `0.5 <= |m| < 1`
/// (subnormals included); zeros, infinities and nan are returned with exponent 0.
pub fn frexp(x: f64) -> (f64, i32) {
    let mut e: std::ffi::c_int = 0;
    // SAFETY: `e` is a valid place for the exponent for the duration of the call
    let m = unsafe { sys::frexp(x, &mut e) };
    (m, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_glibc_where_std_formulas_differ() {
        // expected values from CPython 2.7's math module (glibc); std's formulas give a
        // different last bit for each of these arguments
        assert_eq!(acosh(1.0373).to_bits(), 0.2722880735248018f64.to_bits());
        assert_ne!(1.0373f64.acosh().to_bits(), 0.2722880735248018f64.to_bits());
        assert_eq!(
            asinh(-6.958069999999999).to_bits(),
            (-2.638173491333932f64).to_bits()
        );
        assert_eq!(atanh(-0.999).to_bits(), (-3.8002011672501994f64).to_bits());
    }

    #[test]
    fn frexp_of_subnormals_and_extremes() {
        assert_eq!(frexp(5e-324), (0.5, -1073));
        assert_eq!(frexp(-1e-310), (-0.5752618031559393, -1029));
        assert_eq!(frexp(f64::MAX), (0.9999999999999999, 1024));
        assert_eq!(frexp(48.0), (0.75, 6));
        assert_eq!(frexp(0.0), (0.0, 0));
    }
}
