//! Unit tests of the Brimstone fight rules beyond the public cases.
