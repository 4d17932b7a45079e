//! Offset map from rewritten (Python 3) text back to the original text; applied to every
//! token before parsing, so the parser builds nodes with original ranges.

use rustpython_parser::text_size::{TextRange, TextSize};

/// One replaced region: `new_start..new_end` in the rewritten text stands for
/// `old_start..old_end` in the original text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Anchor {
    pub new_start: u32,
    pub new_end: u32,
    pub old_start: u32,
    pub old_end: u32,
}

/// Sorted, non-overlapping anchors; text between anchors is unchanged (shifted).
#[derive(Clone, Debug, Default)]
pub(crate) struct OffsetMap {
    anchors: Vec<Anchor>,
}

impl OffsetMap {
    /// `anchors` must be sorted by `new_start` (and by `old_start`) and non-overlapping.
    pub fn new(anchors: Vec<Anchor>) -> OffsetMap {
        OffsetMap { anchors }
    }

    pub fn is_identity(&self) -> bool {
        self.anchors.is_empty()
    }

    /// Map the start of a range: a position inside a replaced region maps to the start
    /// of the original region.
    pub fn map_start(&self, x: u32) -> u32 {
        let idx = self.anchors.partition_point(|a| a.new_start <= x);
        if idx == 0 {
            return x;
        }
        let a = &self.anchors[idx - 1];
        if x < a.new_end {
            a.old_start
        } else {
            a.old_end + (x - a.new_end)
        }
    }

    /// Map the end of a range: a position inside (or at the end of) a replaced region maps
    /// to the end of the original region.
    #[cfg(test)]
    pub fn map_end(&self, x: u32) -> u32 {
        let idx = self.anchors.partition_point(|a| a.new_start < x);
        if idx == 0 {
            return x;
        }
        let a = &self.anchors[idx - 1];
        if x <= a.new_end {
            a.old_end
        } else {
            a.old_end + (x - a.new_end)
        }
    }

    /// Rewritten-text offset of an original offset that is not strictly inside a replaced
    /// region (e.g. the start of a statement); `None` if it is.
    pub fn new_offset(&self, old: u32) -> Option<u32> {
        let idx = self.anchors.partition_point(|a| a.old_start < old);
        if idx == 0 {
            return Some(old);
        }
        let a = &self.anchors[idx - 1];
        (a.old_end <= old).then(|| a.new_end + (old - a.old_end))
    }
}

/// Maps a stream of (mostly increasing) positions with an amortised O(1) cursor.
pub(crate) struct MapCursor<'a> {
    map: &'a OffsetMap,
    /// Number of anchors with `new_start <= last start position`.
    start_idx: usize,
    /// Number of anchors with `new_start < last end position`.
    end_idx: usize,
}

impl<'a> MapCursor<'a> {
    pub fn new(map: &'a OffsetMap) -> MapCursor<'a> {
        MapCursor {
            map,
            start_idx: 0,
            end_idx: 0,
        }
    }

    fn advance(&self, mut idx: usize, x: u32, inclusive: bool) -> usize {
        let a = &self.map.anchors;
        if idx > 0
            && (if inclusive {
                a[idx - 1].new_start > x
            } else {
                a[idx - 1].new_start >= x
            })
        {
            // Went backwards: fall back to a binary search.
            return if inclusive {
                a.partition_point(|a| a.new_start <= x)
            } else {
                a.partition_point(|a| a.new_start < x)
            };
        }
        while idx < a.len()
            && (if inclusive {
                a[idx].new_start <= x
            } else {
                a[idx].new_start < x
            })
        {
            idx += 1;
        }
        idx
    }

    /// Map a token range; the result never has `start > end`.
    pub fn map_range(&mut self, r: TextRange) -> TextRange {
        let (x, y) = (r.start().to_u32(), r.end().to_u32());
        self.start_idx = self.advance(self.start_idx, x, true);
        let s = match self.start_idx {
            0 => x,
            i => {
                let a = &self.map.anchors[i - 1];
                if x < a.new_end {
                    a.old_start
                } else {
                    a.old_end + (x - a.new_end)
                }
            }
        };
        self.end_idx = self.advance(self.end_idx, y, false);
        let e = match self.end_idx {
            0 => y,
            i => {
                let a = &self.map.anchors[i - 1];
                if y <= a.new_end {
                    a.old_end
                } else {
                    a.old_end + (y - a.new_end)
                }
            }
        };
        TextRange::new(TextSize::new(s), TextSize::new(e.max(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_end_bias() {
        // old "print a"  -> new "__rpy_print__(None, True, a)"
        let m = OffsetMap::new(vec![
            Anchor {
                new_start: 0,
                new_end: 13,
                old_start: 0,
                old_end: 5,
            },
            Anchor {
                new_start: 13,
                new_end: 25,
                old_start: 5,
                old_end: 5,
            },
            Anchor {
                new_start: 27,
                new_end: 28,
                old_start: 7,
                old_end: 7,
            },
        ]);
        // `__rpy_print__` -> `print`
        assert_eq!((m.map_start(0), m.map_end(13)), (0, 5));
        // `None` inside the insertion -> empty range at 5
        assert_eq!((m.map_start(14), m.map_end(18)), (5, 5));
        // `a`
        assert_eq!((m.map_start(26), m.map_end(27)), (6, 7));
        // the whole call
        assert_eq!((m.map_start(0), m.map_end(28)), (0, 7));
        assert_eq!(m.map_start(28), 7);
        assert_eq!(m.new_offset(0), Some(0));
        assert_eq!(m.new_offset(3), None);
        assert_eq!(m.new_offset(6), Some(26));
        assert_eq!(m.new_offset(7), Some(27));
        let mut c = MapCursor::new(&m);
        let r = |a: u32, b: u32| TextRange::new(TextSize::new(a), TextSize::new(b));
        assert_eq!(c.map_range(r(0, 13)), r(0, 5));
        assert_eq!(c.map_range(r(14, 18)), r(5, 5));
        assert_eq!(c.map_range(r(26, 27)), r(6, 7));
        assert_eq!(c.map_range(r(27, 28)), r(7, 7));
        // backwards falls back to binary search
        assert_eq!(c.map_range(r(0, 28)), r(0, 7));
    }
}
