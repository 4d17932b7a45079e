//! The C functions a program declares with `rffi.llexternal`: their declarations (C name
//! and the C spelling of the declared types, as the bundled `rffi` model records them on
//! `_c_<name>`), and the registry of the C library functions `run` executes (the
//! LLInterpreter cannot call C: `llinterp/runtime/cfuncs.rs` implements these with C
//! semantics). One entry per function: its C name and the header declaring it, which GenC
//! includes. A declared function not in the registry is called by `build` (declared from
//! its declared types); `run` stops at its call.

use std::rc::Rc;

macro_rules! libc_fns {
    ($($(#[$m:meta])* $variant:ident = $name:literal, $header:literal;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum LibcFn { $($(#[$m])* $variant),* }

        impl LibcFn {
            pub const ALL: &'static [LibcFn] = &[$(LibcFn::$variant),*];
            /// The C name.
            pub fn name(self) -> &'static str {
                match self { $(LibcFn::$variant => $name),* }
            }
            /// The header declaring it.
            pub fn header(self) -> &'static str {
                match self { $(LibcFn::$variant => $header),* }
            }
        }
    };
}

libc_fns! {
    /// `size_t strlen(const char *)`
    Strlen = "strlen", "string.h";
    /// `int strcmp(const char *, const char *)`, `strncmp(…, size_t)`: the difference of
    /// the first differing bytes (as unsigned chars), as glibc gives it
    Strcmp = "strcmp", "string.h";
    Strncmp = "strncmp", "string.h";
    /// `int memcmp(const void *, const void *, size_t)`
    Memcmp = "memcmp", "string.h";
    /// `void *memchr(const void *, int, size_t)`: a pointer to the first byte equal to
    /// the (unsigned char) value, NULL when none of the `n` is
    Memchr = "memchr", "string.h";
    /// `void *memset(void *, int, size_t)`, `memcpy`/`memmove(void *, const void *,
    /// size_t)`: they return their first argument
    Memset = "memset", "string.h";
    Memcpy = "memcpy", "string.h";
    Memmove = "memmove", "string.h";
    /// `char *strdup(const char *)`: a new raw buffer, `free`d by the program
    Strdup = "strdup", "string.h";
    Free = "free", "stdlib.h";
    Abs = "abs", "stdlib.h";
    Labs = "labs", "stdlib.h";
    Toupper = "toupper", "ctype.h";
    Tolower = "tolower", "ctype.h";
    /// `ssize_t write(int, const void *, size_t)`, `read(int, void *, size_t)`: -1 on an
    /// error (errno is not modelled)
    Write = "write", "unistd.h";
    Read = "read", "unistd.h";
    Getpid = "getpid", "unistd.h";
    /// `time_t time(time_t *)`: the argument must be NULL
    Time = "time", "time.h";
    /// `double cbrt(double)`, `hypot(double, double)` of the math library (`libraries=['m']`)
    Cbrt = "cbrt", "math.h";
    Hypot = "hypot", "math.h";
    /// zlib's `uLong crc32(uLong, const Bytef *, uInt)` and `adler32` (`libraries=['z']`):
    /// `build` links the library the program names, `run` computes the same checksums
    Crc32 = "crc32", "zlib.h";
    Adler32 = "adler32", "zlib.h";
    /// zlib's compression, `int deflateInit2_(z_streamp, int level, int method, int
    /// windowBits, int memLevel, int strategy, const char *version, int stream_size)`,
    /// `int deflate(z_streamp, int flush)`, `int deflateEnd(z_streamp)`: `run` calls the
    /// system's zlib (its output is zlib's own algorithm)
    DeflateInit2 = "deflateInit2_", "zlib.h";
    Deflate = "deflate", "zlib.h";
    DeflateEnd = "deflateEnd", "zlib.h";
}

impl LibcFn {
    pub fn lookup(name: &str) -> Option<LibcFn> {
        LibcFn::ALL.iter().copied().find(|f| f.name() == name)
    }
}

/// A C function declared by the program.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CDecl {
    pub name: Rc<str>,
    /// The C spelling of each declared argument type (`int`, `char *`…).
    pub args: Vec<Rc<str>>,
    pub result: Rc<str>,
    /// The registry's entry for it, if `run` can execute it.
    pub known: Option<LibcFn>,
    /// What `build` compiles and links with for it (`compilation_info=`).
    pub eci: Rc<super::eci::Eci>,
    /// Where the program declares it (`path:line` of `name = rffi.llexternal(...)`), when
    /// found: `run` names it when it cannot call the function.
    pub declared_at: Option<Rc<str>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        let mut seen = crate::fasthash::HashSet::default();
        for f in LibcFn::ALL {
            assert!(seen.insert(f.name()));
            assert_eq!(LibcFn::lookup(f.name()), Some(*f));
        }
        assert_eq!(LibcFn::lookup("system"), None);
    }
}
