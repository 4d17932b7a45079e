//! The arguments of a C function a program declares with `rffi.llexternal`. The bundled
//! model's wrapper converts what the toolchain's wrapper converts (a string or None to a
//! `char *`, a number to a declared number type, anything to a `double`) and passes the
//! rest unchanged to `_c_<name>`, the function standing for the C function, which records
//! the declared types in `_rpy_c_argtypes`. As the toolchain's low-level function pointer
//! call, each argument's low-level type must then be the declared one: a float given for a
//! C `int`, a character for a `long`, or a `char *` for a `const char *` is refused.

use super::annrpython::Annotator;
use super::description::Desc;
use super::llannotation::lltype_of_obj;
use super::model::*;
use super::AnnError;
use crate::interpreter::ConcreteSpace;
use crate::lltypesystem::LlType;
use crate::objspace::object::{Object, Value};

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Checks the arguments `inputs` of a call of `fdesc` when it stands for a C function.
    pub(super) fn check_c_args(
        &mut self,
        fdesc: DescId,
        inputs: &[SomeValue],
    ) -> Result<(), AnnError> {
        let Desc::Function(f) = self.bk.desc(fdesc) else {
            return Ok(());
        };
        let Some(Value::Obj(decl)) = f.c_argtypes else {
            return Ok(());
        };
        let name = f.name.strip_prefix("_c_").unwrap_or(&f.name).to_string();
        let Object::Tuple(types) = self.space.heap().get(decl) else {
            return Ok(());
        };
        let types = types.clone();
        for (i, (t, s)) in types.iter().zip(inputs).enumerate() {
            let Value::Obj(t) = *t else { continue };
            let bk = &mut self.bk;
            let Some(target) =
                lltype_of_obj(self.space.heap(), &mut bk.lltypes, &mut bk.lltype_objs, t)
            else {
                continue;
            };
            // (a string reaches here only where the wrapper already asked for its
            // low-level type, which is reported there)
            let text = matches!(s, SomeValue::Str { .. } | SomeValue::Unicode { .. });
            if s.is_error()
                || text
                || target == LlType::VOID
                || self.ll_value_fits(target, s)
                || (matches!(s, SomeValue::Ptr(_)) && self.is_void_pointer(target))
            {
                continue;
            }
            return Err(AnnError::new(
                "RPY205",
                format!(
                    "argument {} of the C function `{}` is declared {}, but it is given {}: \
                     the llexternal wrapper converts only between number types (and to a \
                     double, and a string or None to a `char *`)",
                    i + 1,
                    name,
                    self.bk.lltypes.name(target),
                    self.bk.describe_type(self.space.heap(), s)
                ),
            ));
        }
        Ok(())
    }

    /// Whether `t` is a `void *` (rffi's `VOIDP`), for which the reference's call of a C
    /// function takes any pointer (a `const char *` too).
    fn is_void_pointer(&self, t: LlType) -> bool {
        use crate::lltypesystem::TypeDef;
        let types = &self.bk.lltypes;
        types
            .pointee(t)
            .is_some_and(|a| matches!(types.def(a), TypeDef::Array { void: true, .. }))
    }
}
