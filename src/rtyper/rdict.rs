//! Dicts through their low-level helpers (`__rpy_ll__/ll_dict.py`, called with
//! `gendirectcall`): takes a dict value and its Repr, gives the helper calls with the
//! constants the helpers are specialized on (whether the dict is an r_dict with its own
//! key functions, and otherwise the key equality, as `rlist` gives the item equality).

use super::annlowlevel::EqSpec;
use super::hop::{ctype, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::flowspace::Hlvalue;
use crate::lltypesystem::LlType;

impl RTyper<'_> {
    /// A call of the dict helper `name` on `args` (the dict first) of a dict of Repr `r`,
    /// with the dict's key constants appended (`custom`, `eq`: see ll_dict.py).
    pub(super) fn dict_call(
        &mut self,
        llops: &mut LlOps,
        name: &str,
        r: ReprId,
        mut args: Vec<Hlvalue>,
        result: LlType,
    ) -> Result<Hlvalue, TyperError> {
        let Repr::Dict { key, custom, .. } = self.repr(r).clone() else {
            return Err(TyperError::new("a dict operation on a non-dict"));
        };
        let (custom, eq) = match custom {
            // the r_dict's functions are in the dict: the key equality is not used
            Some(_) => (LlType::BOOL, EqSpec::Prim),
            None => (LlType::VOID, self.item_eq(key)?),
        };
        args.push(ctype(custom));
        self.gendirectcall_eq(llops, name, args, eq, result)
    }

    /// A new empty dict of Repr `r` (its r_dict functions not yet set).
    pub(super) fn new_dict(&mut self, llops: &mut LlOps, r: ReprId) -> Result<Hlvalue, TyperError> {
        let t = self.lltype(r);
        self.gendirectcall(llops, "ll_newdict", vec![ctype(t)], t)
    }
}
