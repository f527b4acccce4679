//! Build script: links the program at a fixed address on Linux, so that it starts without relocating.
//!
//! A position-independent executable is patched by the loader at every start: one fix-up for each
//! pointer in its data, and the 3D table's engine has hundreds of thousands of them (its type
//! registries, vtables and shader tables). That is milliseconds before `main` and every page of those
//! tables copied, paid by the headless subcommands too. A fixed-address executable has none of it;
//! what it gives up is a random load address for the program itself (its libraries, stack and heap
//! keep theirs).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu" {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
