//! What a program tells the C compiler and linker about the C functions it declares: the
//! lists of an `ExternalCompilationInfo` (`rpython.translator.tool.cbuild`, bundled model)
//! passed to `rffi.llexternal(..., compilation_info=eci)`, which the model records on the
//! C function as (name, items) pairs. One field per list the toolchain passes on; `build`
//! merges those of every C function the program calls (`merge`, each item once as the
//! toolchain does, the extra flags in order) and gives them to the C compiler.

use std::rc::Rc;

/// The compile and link information of C functions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Eci {
    /// C text before every `#include` of the generated sources
    pub pre_include_bits: Vec<Rc<str>>,
    /// headers, `#include <...>`d
    pub includes: Vec<Rc<str>>,
    /// C text after the headers
    pub post_include_bits: Vec<Rc<str>>,
    /// `-I` directories
    pub include_dirs: Vec<Rc<str>>,
    /// `-l` libraries
    pub libraries: Vec<Rc<str>>,
    /// `-L` directories
    pub library_dirs: Vec<Rc<str>>,
    /// C sources compiled beside the program, each after the header bits
    pub separate_module_sources: Vec<Rc<str>>,
    /// C files compiled beside the program
    pub separate_module_files: Vec<Rc<str>>,
    /// extra compiler arguments (duplicates kept)
    pub compile_extra: Vec<Rc<str>>,
    /// extra linker arguments (duplicates kept)
    pub link_extra: Vec<Rc<str>>,
    /// object files and archives linked in
    pub link_files: Vec<Rc<str>>,
    /// C++ code is linked in (the C++ runtime library is needed)
    pub use_cpp_linker: bool,
    /// Commands whose `--cflags` and `--libs` give more flags (`pkg-config NAME`, a
    /// config tool: `from_pkg_config`, `from_config_tool`), split on spaces
    pub config_tools: Vec<Rc<str>>,
}

impl Eci {
    /// The list called `name` in the model, None for one `build` does not pass on
    /// (`frameworks`: macOS only; `testonly_libraries`: the toolchain's own tests).
    fn list_mut(&mut self, name: &str) -> Option<&mut Vec<Rc<str>>> {
        Some(match name {
            "pre_include_bits" => &mut self.pre_include_bits,
            "includes" => &mut self.includes,
            "post_include_bits" => &mut self.post_include_bits,
            "include_dirs" => &mut self.include_dirs,
            "libraries" => &mut self.libraries,
            "library_dirs" => &mut self.library_dirs,
            "separate_module_sources" => &mut self.separate_module_sources,
            "separate_module_files" => &mut self.separate_module_files,
            "compile_extra" => &mut self.compile_extra,
            "link_extra" => &mut self.link_extra,
            "link_files" => &mut self.link_files,
            "config_tools" => &mut self.config_tools,
            _ => return None,
        })
    }

    /// Sets list `name` (as the model names it) to `items`; `use_cpp_linker` is a flag.
    pub fn set(&mut self, name: &str, items: Vec<Rc<str>>) {
        if name == "use_cpp_linker" {
            self.use_cpp_linker = true;
        } else if let Some(list) = self.list_mut(name) {
            *list = items;
        }
    }

    /// Adds `other`'s items: each once, except the extra flags, which are appended.
    pub fn merge(&mut self, other: &Eci) {
        fn union(into: &mut Vec<Rc<str>>, from: &[Rc<str>]) {
            for item in from {
                if !into.contains(item) {
                    into.push(item.clone());
                }
            }
        }
        union(&mut self.pre_include_bits, &other.pre_include_bits);
        union(&mut self.includes, &other.includes);
        union(&mut self.post_include_bits, &other.post_include_bits);
        union(&mut self.include_dirs, &other.include_dirs);
        union(&mut self.libraries, &other.libraries);
        union(&mut self.library_dirs, &other.library_dirs);
        union(
            &mut self.separate_module_sources,
            &other.separate_module_sources,
        );
        union(
            &mut self.separate_module_files,
            &other.separate_module_files,
        );
        union(&mut self.link_files, &other.link_files);
        union(&mut self.config_tools, &other.config_tools);
        self.compile_extra
            .extend(other.compile_extra.iter().cloned());
        self.link_extra.extend(other.link_extra.iter().cloned());
        self.use_cpp_linker |= other.use_cpp_linker;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(xs: &[&str]) -> Vec<Rc<str>> {
        xs.iter().map(|x| Rc::from(*x)).collect()
    }

    #[test]
    fn merge_keeps_each_item_once_but_every_extra_flag() {
        let mut a = Eci::default();
        a.set("libraries", items(&["m", "z"]));
        a.set("link_extra", items(&["-pthread"]));
        let mut b = Eci::default();
        b.set("libraries", items(&["z", "readline"]));
        b.set("link_extra", items(&["-pthread"]));
        b.set("use_cpp_linker", vec![]);
        b.set("frameworks", items(&["Cocoa"]));
        a.merge(&b);
        assert_eq!(a.libraries, items(&["m", "z", "readline"]));
        assert_eq!(a.link_extra, items(&["-pthread", "-pthread"]));
        assert!(a.use_cpp_linker);
    }
}
