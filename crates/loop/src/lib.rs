//! Game loop placeholder.
