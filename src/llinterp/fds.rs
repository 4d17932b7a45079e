//! The program's file descriptors as the LLInterpreter keeps them: a table from the
//! numbers the program sees to what each one is (one of the standard streams of the run,
//! or a file of the real file system). The program's descriptors are its own: they are
//! not this process's, so that a run captured by the tests behaves as a run on the
//! terminal, and `dup2(fd, 1)` redirects the program's output without touching ours.
//! New descriptors take the lowest free number, as POSIX hands them out.

use crate::fasthash::HashMap;
use std::fs::File;
use std::io;

/// What a descriptor of the program refers to.
pub(crate) enum Fd {
    /// The run's standard input, output or error (0, 1, 2): where the LLInterpreter's
    /// `Output` sends them.
    Std(u8),
    /// A file, a pipe end or a copy of one (`try_clone` shares the offset, as `dup`).
    File(File),
}

impl Fd {
    fn try_clone(&self) -> io::Result<Fd> {
        Ok(match self {
            Fd::Std(k) => Fd::Std(*k),
            Fd::File(f) => Fd::File(f.try_clone()?),
        })
    }
}

/// The descriptor table: 0, 1 and 2 open on the standard streams at the start.
pub(crate) struct FdTable {
    map: HashMap<i64, Fd>,
}

fn ebadf() -> io::Error {
    io::Error::from_raw_os_error(libc::EBADF)
}

impl FdTable {
    pub(crate) fn new() -> FdTable {
        let mut map = HashMap::default();
        for k in 0..3u8 {
            map.insert(k as i64, Fd::Std(k));
        }
        FdTable { map }
    }

    pub(crate) fn get(&self, fd: i64) -> Option<&Fd> {
        self.map.get(&fd)
    }

    pub(crate) fn get_mut(&mut self, fd: i64) -> Option<&mut Fd> {
        self.map.get_mut(&fd)
    }

    /// Opens `f` on the lowest free descriptor and returns its number.
    pub(crate) fn insert(&mut self, f: Fd) -> i64 {
        let n = (0..).find(|k| !self.map.contains_key(k)).unwrap_or(0);
        self.map.insert(n, f);
        n
    }

    pub(crate) fn close(&mut self, fd: i64) -> io::Result<()> {
        self.map.remove(&fd).map(|_| ()).ok_or_else(ebadf)
    }

    /// `dup(fd)`: a copy on the lowest free descriptor.
    pub(crate) fn dup(&mut self, fd: i64) -> io::Result<i64> {
        let copy = self.map.get(&fd).ok_or_else(ebadf)?.try_clone()?;
        Ok(self.insert(copy))
    }

    /// `dup2(fd, new)`: `new` (closed first if open) becomes a copy of `fd`.
    pub(crate) fn dup2(&mut self, fd: i64, new: i64) -> io::Result<()> {
        if new < 0 || new > i32::MAX as i64 {
            return Err(ebadf());
        }
        let copy = self.map.get(&fd).ok_or_else(ebadf)?.try_clone()?;
        if fd != new {
            self.map.insert(new, copy);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dup_and_dup2_follow_posix_numbering() {
        let mut t = FdTable::new();
        assert_eq!(t.dup(1).unwrap(), 3);
        t.dup2(2, 1).unwrap();
        assert!(matches!(t.get(1), Some(Fd::Std(2))));
        t.dup2(3, 1).unwrap();
        assert!(matches!(t.get(1), Some(Fd::Std(1))));
        t.close(3).unwrap();
        assert_eq!(t.close(3).unwrap_err().raw_os_error(), Some(libc::EBADF));
        t.close(0).unwrap();
        assert_eq!(t.dup(2).unwrap(), 0);
        assert_eq!(t.dup(7).unwrap_err().raw_os_error(), Some(libc::EBADF));
        assert_eq!(t.dup2(9, 1).unwrap_err().raw_os_error(), Some(libc::EBADF));
    }
}
