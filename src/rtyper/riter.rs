//! `next()` of the iterators of lists, strings, dicts and `range()` (not of generators, see
//! rgenerator.rs): a call of the low-level helper of `__rpy_ll__/ll_iter.py` chosen by the
//! container's layout and the iterator's variant, which raises StopIteration at the end.
//! Takes the `next` operation's hop; gives the item.

use super::hop::{ctype, Hop, LlOps};
use super::rmodel::{IterVariantKey, Repr, ReprId};
use super::{RTyper, TyperError};
use crate::flowspace::Hlvalue;

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    pub(super) fn rtype_next(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        let it = hop.args_v[0];
        let (helper, tuple) = match self.repr(hop.args_r[0]).clone() {
            Repr::RangeIter => ("ll_rangeiter_next", false),
            Repr::Iter { container, variant } => {
                let layout = match self.repr(container) {
                    Repr::List { fixed: false, .. } => "list",
                    Repr::List { fixed: true, .. } => "array",
                    Repr::Str | Repr::Unicode => "str",
                    Repr::Dict { .. } => "dict",
                    _ => return Err(self.unsupported_iter()),
                };
                use IterVariantKey as V;
                match (layout, variant) {
                    ("list", V::Plain) => ("ll_listiter_next", false),
                    ("list", V::Reversed) => ("ll_listiter_next_reversed", false),
                    ("list", V::Enumerate) => ("ll_listiter_next_enumerate", true),
                    ("array", V::Plain) => ("ll_arrayiter_next", false),
                    ("array", V::Reversed) => ("ll_arrayiter_next_reversed", false),
                    ("array", V::Enumerate) => ("ll_arrayiter_next_enumerate", true),
                    ("str", V::Plain) => ("ll_striter_next", false),
                    ("str", V::Reversed) => ("ll_striter_next_reversed", false),
                    ("str", V::Enumerate) => ("ll_striter_next_enumerate", true),
                    ("dict", V::Plain | V::Keys) => ("ll_dictiter_next_keys", false),
                    ("dict", V::Values) => ("ll_dictiter_next_values", false),
                    ("dict", V::Items) => ("ll_dictiter_next_items", true),
                    _ => return Err(self.unsupported_iter()),
                }
            }
            _ => return Err(self.unsupported_iter()),
        };
        let mut args = vec![it];
        if tuple {
            args.insert(0, ctype(tr));
        }
        if self.has_implicit_exception(hop, "StopIteration") {
            hop.exception_is_here(llops);
        }
        Ok((self.gendirectcall(llops, helper, args, tr)?, rr))
    }

    fn unsupported_iter(&self) -> TyperError {
        TyperError::new("iterating over this value is not supported by `run` yet")
    }
}
