//! The shipped list of modules, as every crate that does not expand it in its own tests sees it.

#[test]
fn the_shipped_list_has_three_modules_and_not_the_toy() {
    assert_eq!(
        foehold_core::kit::played(),
        ["Gloomhaven", "Brimstone", "Goals"]
    );
    let formats: Vec<&str> = foehold_core::kit::formats()
        .iter()
        .map(|f| f.module)
        .collect();
    assert_eq!(formats, ["gloomhaven", "brimstone", "goals"]);
    let e = foehold_core::kit::solve(
        "t.ron",
        "ToyTurn(width: 2, height: 1, hero: (0, 0), foe: (1, 0))",
    )
    .unwrap_err();
    assert!(e.message.contains("unknown case kind `ToyTurn`"), "{e}");
}
