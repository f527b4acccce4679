//! The rule modules on the table: what each adds to the table every module shares.

use foehold_core::rules::Present;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::goals::Goals;

use crate::app::Extra;

/// A rule module as the table plays it.
pub trait Module: Present {
    /// What the module adds to the 3D table: its own windows and clicks.
    const TABLE: Extra;
}

impl Module for Gloomhaven {
    const TABLE: Extra = crate::app::gloomhaven::EXTRA;
}

impl Module for Brimstone {
    // The shared table plays it whole: moves on lit cells and as buttons.
    const TABLE: Extra = Extra::NONE;
}

impl Module for Goals {
    const TABLE: Extra = Extra::NONE;
}

foehold::modules!(Module);
