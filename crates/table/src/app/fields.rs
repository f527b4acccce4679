//! The side panel's fields, as the lab and the workshop show them: numbers typed or stepped
//! within their bounds, switches, choices and text, each changed value handed back to be tried.

use bevy_egui::egui;
use foehold_core::lab::{Field, Value};

use super::tag::Tagged;

/// Draws `fields` in a grid of two columns, tagged `{prefix}:field:{id}`, and gives back the
/// field a player changed this frame with its new value. `typing` holds the text of number fields
/// not yet entered; `refused` says why a typed number is no number.
pub fn field_grid<'f>(
    ui: &mut egui::Ui,
    prefix: &str,
    fields: &'f [Field],
    typing: &mut Vec<(String, String)>,
    refused: &mut Option<String>,
) -> Option<(&'f Field, Value)> {
    let mut changed = None;
    egui::Grid::new(format!("{prefix}-fields"))
        .num_columns(2)
        .show(ui, |ui| {
            for f in fields {
                ui.label(&f.label);
                let tag = format!("{prefix}:field:{}", f.id);
                let mut wanted: Option<Value> = None;
                match &f.value {
                    Value::Number(n) => {
                        // Typed as text so that a number out of bounds is refused with the reason
                        // next to it, not silently clamped.
                        let mut text = typing
                            .iter()
                            .find(|(id, _)| *id == f.id)
                            .map_or_else(|| n.to_string(), |(_, t)| t.clone());
                        let (lo, hi) = f.bounds;
                        let mut stepped = None;
                        let r = ui
                            .horizontal(|ui| {
                                let r = ui
                                    .add(egui::TextEdit::singleline(&mut text).desired_width(60.0))
                                    .tagged(tag.clone());
                                // Steppers within the bounds: a button at a bound is disabled.
                                let less = ui
                                    .add_enabled(*n > lo, egui::Button::new("−").small())
                                    .on_hover_text(format!("One less (the least is {lo})"))
                                    .tagged(format!("{tag}:less"));
                                let more = ui
                                    .add_enabled(*n < hi, egui::Button::new("+").small())
                                    .on_hover_text(format!("One more (the most is {hi})"))
                                    .tagged(format!("{tag}:more"));
                                if less.clicked() {
                                    stepped = Some(n.saturating_sub(1).clamp(lo, hi));
                                }
                                if more.clicked() {
                                    stepped = Some(n.saturating_add(1).clamp(lo, hi));
                                }
                                r
                            })
                            .inner;
                        if let Some(v) = stepped {
                            typing.retain(|(id, _)| *id != f.id);
                            wanted = Some(Value::Number(v));
                        } else if r.changed() {
                            typing.retain(|(id, _)| *id != f.id);
                            typing.push((f.id.clone(), text.clone()));
                        }
                        if r.lost_focus() && stepped.is_none() {
                            typing.retain(|(id, _)| *id != f.id);
                            // Typed and entered within one frame (a fast typist, a slow frame)
                            // counts as well: the text is compared, not only what was held.
                            if text.trim() != n.to_string() {
                                match text.trim().parse::<i64>() {
                                    Ok(v) => wanted = Some(Value::Number(v)),
                                    Err(_) => {
                                        *refused = Some(format!(
                                            "{}: `{text}` is not a whole number",
                                            f.label
                                        ));
                                    }
                                }
                            }
                        }
                    }
                    Value::Flag(b) => {
                        let mut v = *b;
                        if ui.checkbox(&mut v, "").tagged(tag).changed() {
                            wanted = Some(Value::Flag(v));
                        }
                    }
                    Value::Choice(c) => {
                        let mut v = c.clone();
                        egui::ComboBox::from_id_salt(&f.id)
                            .selected_text(&v)
                            .show_ui(ui, |ui| {
                                for choice in &f.choices {
                                    ui.selectable_value(&mut v, choice.clone(), choice)
                                        .tagged(format!("{tag}:{choice}"));
                                }
                            })
                            .response
                            .tagged(tag);
                        if v != *c {
                            wanted = Some(Value::Choice(v));
                        }
                    }
                    Value::Text(s) => {
                        // What is typed is kept between frames until the field is left: the
                        // field shows the value again each frame, which would drop it.
                        let mut v = typing
                            .iter()
                            .find(|(id, _)| *id == f.id)
                            .map_or_else(|| s.clone(), |(_, t)| t.clone());
                        let r = ui.text_edit_singleline(&mut v).tagged(tag);
                        if r.changed() {
                            typing.retain(|(id, _)| *id != f.id);
                            typing.push((f.id.clone(), v.clone()));
                        }
                        if r.lost_focus() {
                            typing.retain(|(id, _)| *id != f.id);
                            if v != *s {
                                wanted = Some(Value::Text(v));
                            }
                        }
                    }
                }
                ui.end_row();
                if let Some(v) = wanted {
                    changed = Some((f, v));
                }
            }
        });
    changed
}
