//! Seeded whole-fight playouts and targeted checks of the Brimstone game module.
