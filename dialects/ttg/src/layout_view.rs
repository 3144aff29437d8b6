//! Layouts printed as text, as Triton's `triton-tensor-layout` prints them
//! (`getLayoutStr`): which thread and register hold each element of a
//! tensor, or where each element of a shared buffer lives.
//!
//! Two views of each layout:
//! - the tensor's (the default): the tensor printed as nested rows, each
//!   element listing its holders. A distributed layout's holder is
//!   `T<thread>:<register>` (`B<block>:` before it in a cluster), every
//!   holder padded to the widest one and several joined by `|`; a shared
//!   layout's entries are the elements at successive offsets, `(i:j)`.
//! - the hardware's (`hw`): per warp, one line per register listing each
//!   lane's element, `(i,j)`; or per block, one line per offset
//!   (`Offset: 5 -> (i,j)`).
//!
//! Coordinates are padded to the width of their dimension's largest index.
//! [`print_layout`] and [`print_layout_aliases`] take text, as Triton's
//! tool does; [`tensor_layout_view`] takes a layout encoding and a tensor
//! shape; [`distributed_view`] and [`shared_view`] take a linear layout.

use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, Type};
use melior::Context;
use tt_dialect::types::TensorView;

use crate::layout::{Layout, MemDesc};
use crate::linear_layout::LinearLayout;
use crate::to_linear::{any_shared_to_linear, to_linear_layout, BLOCK, LANE, REGISTER, WARP};
use crate::to_linear_amd::OFFSET;

/// `Print layout attribute: <layout>` and the view of `layout` (attribute
/// text) over `tensor_type` (a ranked tensor or `!ttg.memdesc` type whose
/// encoding, if any, it replaces), as Triton's `triton-tensor-layout -l`.
pub fn print_layout(
    context: &Context,
    layout: &str,
    tensor_type: &str,
    hw: bool,
) -> Result<String, String> {
    let attr = Attribute::parse(context, layout)
        .ok_or_else(|| format!("invalid layout attribute: {layout}"))?;
    Ok(format!(
        "Print layout attribute: {attr}\n{}",
        view_over(attr, tensor_type, context, hw)?
    ))
}

/// The view of each attribute alias (`#name = ...` at the start of a line)
/// of `source` named in `names`, or of every one when `names` is empty,
/// over `tensor_type`: `Print layout attribute: #name = <layout>` and the
/// view, with an empty line after each named one, as Triton's
/// `triton-tensor-layout -i FILE [-alias-names=...]`.
pub fn print_layout_aliases(
    context: &Context,
    source: &str,
    names: &[&str],
    tensor_type: &str,
    hw: bool,
) -> Result<String, String> {
    let definitions: Vec<(&str, &str)> = source
        .lines()
        .filter_map(|line| {
            let (name, _) = line.strip_prefix('#')?.split_once('=')?;
            let name = name.trim_end();
            let identifier = |c: char| c.is_ascii_alphanumeric() || "_$.-".contains(c);
            (!name.is_empty() && name.chars().all(identifier)).then_some((name, line))
        })
        .collect();
    let all: Vec<&str> = definitions.iter().map(|(name, _)| *name).collect();
    let wanted = if names.is_empty() { &all } else { names };
    // Each alias is read back through MLIR's parser, with every definition
    // in scope for aliases that name others.
    let scope: String = definitions
        .iter()
        .map(|(_, line)| format!("{line}\n"))
        .collect();
    let mut text = String::new();
    for name in wanted {
        if !all.contains(name) {
            return Err(format!("can't find the layout attribute: {name}"));
        }
        let probe = format!("{scope}module attributes {{tt.layout = #{name}}} {{}}\n");
        let module = melior::ir::Module::parse(context, &probe)
            .ok_or_else(|| format!("cannot parse the layout attribute #{name}"))?;
        let attr = module
            .as_operation()
            .attribute("tt.layout")
            .map_err(|_| format!("cannot read the layout attribute #{name}"))?;
        let view =
            view_over(attr, tensor_type, context, hw).map_err(|e| format!("#{name}: {e}"))?;
        text += &format!("Print layout attribute: #{name} = {attr}\n{view}");
        if !names.is_empty() {
            text.push('\n');
        }
    }
    Ok(text)
}

/// The most elements a printed tensor may have (each takes a few bytes a
/// holder; larger ones would take gigabytes).
pub const MAX_ELEMENTS: i64 = 1 << 22;

/// The view of `layout` (attribute text) over `tensor_type`, without
/// `print_layout`'s header: Triton's `getLayoutStr`.
pub fn layout_str(
    context: &Context,
    layout: &str,
    tensor_type: &str,
    hw: bool,
) -> Result<String, String> {
    let attr = Attribute::parse(context, layout)
        .ok_or_else(|| format!("invalid layout attribute: {layout}"))?;
    view_over(attr, tensor_type, context, hw)
}

/// The view of `layout` over the shape and element type of `tensor_type`.
fn view_over(
    layout: Attribute,
    tensor_type: &str,
    context: &Context,
    hw: bool,
) -> Result<String, String> {
    let ty = Type::parse(context, tensor_type)
        .ok_or_else(|| format!("cannot parse the tensor type: {tensor_type}"))?;
    let shape = if let Some(tensor) = TensorView::of(ty) {
        tensor.shape.to_vec()
    } else if let Some(desc) = MemDesc::of(ty) {
        desc.shape
    } else {
        return Err(format!(
            "not a ranked tensor or memdesc type: {tensor_type}"
        ));
    };
    if shape.iter().any(|&d| d < 0) {
        return Err(format!(
            "the tensor type needs a static shape: {tensor_type}"
        ));
    }
    let elements = shape.iter().try_fold(1i64, |n, &d| n.checked_mul(d));
    if elements.is_none_or(|n| n > MAX_ELEMENTS) {
        return Err(format!(
            "{tensor_type} is too large to print: at most {MAX_ELEMENTS} elements"
        ));
    }
    let parsed = Layout::read(layout).ok_or_else(|| {
        let text = layout.to_string();
        if text.starts_with("#ttng.tensor_memory") {
            format!("printing tensor memory layouts is not supported yet: {text}")
        } else {
            format!(
                "unsupported tensor layout attribute: {text} (a ttg layout encoding is expected)"
            )
        }
    })?;
    tensor_layout_view(&parsed, &shape, hw)
}

/// The view of `layout` for a tensor or buffer of `shape`.
pub fn tensor_layout_view(layout: &Layout, shape: &[i64], hw: bool) -> Result<String, String> {
    if layout.is_distributed() {
        Ok(distributed_view(&to_linear_layout(layout, shape)?, hw))
    } else {
        Ok(shared_view(&any_shared_to_linear(layout, shape)?, hw))
    }
}

/// The view of a distributed linear layout (inputs `register`, `lane`,
/// `warp`, `block`).
pub fn distributed_view(ll: &LinearLayout, hw: bool) -> String {
    let sizes = out_sizes(ll);
    let (registers, lanes, warps, blocks) = (
        ll.in_dim_size(REGISTER),
        ll.in_dim_size(LANE),
        ll.in_dim_size(WARP),
        ll.in_dim_size(BLOCK),
    );
    let coordinates =
        |b, w, l, r| coordinates_of(ll, &[(REGISTER, r), (LANE, l), (WARP, w), (BLOCK, b)]);
    let mut text = String::new();
    if hw {
        for b in 0..blocks {
            if blocks > 1 {
                text += &format!("Block{b}:\n");
            }
            for w in 0..warps {
                text += &format!("Warp{w}:\n");
                for r in 0..registers {
                    let line: Vec<String> = (0..lanes)
                        .map(|l| point(&coordinates(b, w, l, r), &sizes, ","))
                        .collect();
                    text += &line.join(", ");
                    text.push('\n');
                }
            }
        }
        return text;
    }
    // Each element's holders, in the order block, warp, lane, register
    // (the register fastest).
    let mut holders: Vec<Vec<String>> = vec![Vec::new(); element_count(&sizes)];
    for b in 0..blocks {
        for w in 0..warps {
            for l in 0..lanes {
                for r in 0..registers {
                    let thread = w * lanes + l;
                    let holder = if blocks > 1 {
                        format!("B{b}:T{thread}:{r}")
                    } else {
                        format!("T{thread}:{r}")
                    };
                    holders[row_major(&coordinates(b, w, l, r), &sizes)].push(holder);
                }
            }
        }
    }
    let width = holders.iter().flatten().map(String::len).max().unwrap_or(0);
    let entries: Vec<String> = holders
        .iter()
        .map(|hs| {
            hs.iter()
                .map(|h| format!("{h:>width$}"))
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    nested_rows(&entries, &sizes, ", ")
}

/// The view of a shared linear layout (inputs `offset` and `block`).
pub fn shared_view(ll: &LinearLayout, hw: bool) -> String {
    let sizes = out_sizes(ll);
    let blocks = ll.in_dim_size(BLOCK).max(1);
    // Triton counts the offsets of a block as the buffer's elements over
    // its blocks, which is the `offset` dimension's size unless blocks
    // hold the same elements.
    let offsets = (element_count(&sizes) / blocks as usize) as i32;
    let coordinates = |b, o| coordinates_of(ll, &[(OFFSET, o), (BLOCK, b)]);
    if hw {
        let mut text = String::new();
        for b in 0..blocks {
            text += &format!("Block: {b}:\n");
            for o in 0..offsets {
                text += &format!(
                    "Offset: {o} -> {}\n",
                    point(&coordinates(b, o), &sizes, ",")
                );
            }
        }
        return text;
    }
    let entries: Vec<String> = (0..blocks)
        .flat_map(|b| (0..offsets).map(move |o| (b, o)))
        .map(|(b, o)| point(&coordinates(b, o), &sizes, ":"))
        .collect();
    nested_rows(&entries, &sizes, ",")
}

/// The coordinates `ll` maps the named input indices to (in range by
/// construction here).
fn coordinates_of(ll: &LinearLayout, ins: &[(&str, i32)]) -> Vec<i32> {
    ll.apply(ins)
        .map(|outs| outs.into_iter().map(|(_, c)| c).collect())
        .unwrap_or_default()
}

fn out_sizes(ll: &LinearLayout) -> Vec<i32> {
    ll.outs().iter().map(|(_, s)| *s).collect()
}

fn element_count(sizes: &[i32]) -> usize {
    sizes.iter().map(|&s| s as usize).product()
}

/// The row-major index of `coordinates` (the last dimension fastest).
fn row_major(coordinates: &[i32], sizes: &[i32]) -> usize {
    coordinates
        .iter()
        .zip(sizes)
        .fold(0, |index, (&c, &s)| index * s as usize + c as usize)
}

/// `(c0<sep>c1...)`, each coordinate right-aligned to the width of its
/// dimension's largest index.
fn point(coordinates: &[i32], sizes: &[i32], separator: &str) -> String {
    let parts: Vec<String> = coordinates
        .iter()
        .zip(sizes)
        .map(|(c, s)| {
            let width = (s - 1).max(0).to_string().len();
            format!("{c:>width$}")
        })
        .collect();
    format!("({})", parts.join(separator))
}

/// `entries` (row-major over `sizes`) as nested rows: a row per index of
/// the leading dimensions, opening a bracket for each dimension it starts
/// and closing one for each it ends, indented to the rank.
fn nested_rows(entries: &[String], sizes: &[i32], separator: &str) -> String {
    let rank = sizes.len().max(1);
    let row_length = sizes.last().map_or(1, |&s| s.max(1) as usize);
    let outer = &sizes[..sizes.len().saturating_sub(1)];
    let mut text = String::new();
    for (row, chunk) in entries.chunks(row_length).enumerate() {
        // The row's index along each leading dimension, the last fastest.
        let mut index = vec![0i32; outer.len()];
        let mut rest = row;
        for (i, &s) in outer.iter().enumerate().rev() {
            index[i] = (rest % s as usize) as i32;
            rest /= s as usize;
        }
        let opening = 1 + index.iter().rev().take_while(|&&i| i == 0).count();
        let closing = 1 + index
            .iter()
            .zip(outer)
            .rev()
            .take_while(|(&i, &s)| i == s - 1)
            .count();
        text += &"[".repeat(opening);
        text += &" ".repeat(rank - opening);
        text += &chunk.join(separator);
        text += &"]".repeat(closing);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    //! The expected texts are what Triton 3.6's own `LinearLayout`
    //! (`get_distributed_view`, `get_shared_view` of
    //! `triton._C.libtriton.linear_layout`) prints for the same bases.
    use super::*;

    fn layout(ins: &[(&str, &[&[i32]])], outs: &[&str]) -> LinearLayout {
        LinearLayout::from_bases(
            ins.iter()
                .map(|(name, bases)| (name.to_string(), bases.iter().map(|b| b.to_vec()).collect()))
                .collect(),
            outs,
        )
        .expect("a layout")
    }

    #[test]
    fn distributed_views_list_holders_as_triton_does() {
        // Lanes 0 and 2 (and both warps) hold the same elements.
        let broadcast = layout(
            &[
                (REGISTER, &[&[1]]),
                (LANE, &[&[2], &[0]]),
                (WARP, &[&[0]]),
                (BLOCK, &[]),
            ],
            &["dim0"],
        );
        assert_eq!(
            distributed_view(&broadcast, false),
            "[T0:0|T2:0|T4:0|T6:0, T0:1|T2:1|T4:1|T6:1, T1:0|T3:0|T5:0|T7:0, T1:1|T3:1|T5:1|T7:1]\n"
        );
        assert_eq!(
            distributed_view(&broadcast, true),
            "Warp0:\n(0), (2), (0), (2)\n(1), (3), (1), (3)\nWarp1:\n(0), (2), (0), (2)\n(1), (3), (1), (3)\n"
        );
        let cube = layout(
            &[
                (REGISTER, &[&[0, 0, 1], &[0, 1, 0]]),
                (LANE, &[&[1, 0, 0]]),
                (WARP, &[]),
                (BLOCK, &[]),
            ],
            &["dim0", "dim1", "dim2"],
        );
        assert_eq!(
            distributed_view(&cube, false),
            "[[[T0:0, T0:1]\n[  T0:2, T0:3]]\n[[ T1:0, T1:1]\n[  T1:2, T1:3]]]\n"
        );
        assert_eq!(
            distributed_view(&cube, true),
            "Warp0:\n(0,0,0), (1,0,0)\n(0,0,1), (1,0,1)\n(0,1,0), (1,1,0)\n(0,1,1), (1,1,1)\n"
        );
    }

    #[test]
    fn clusters_name_their_blocks_and_pad_each_holder() {
        let split = layout(
            &[
                (REGISTER, &[&[0, 1]]),
                (LANE, &[&[1, 0]]),
                (WARP, &[]),
                (BLOCK, &[&[2, 0]]),
            ],
            &["dim0", "dim1"],
        );
        assert_eq!(
            distributed_view(&split, false),
            "[[B0:T0:0, B0:T0:1]\n[ B0:T1:0, B0:T1:1]\n[ B1:T0:0, B1:T0:1]\n[ B1:T1:0, B1:T1:1]]\n"
        );
        assert_eq!(
            distributed_view(&split, true),
            "Block0:\nWarp0:\n(0,0), (1,0)\n(0,1), (1,1)\nBlock1:\nWarp0:\n(2,0), (3,0)\n(2,1), (3,1)\n"
        );
        // Holders of different widths are padded one by one.
        let shared_by_blocks = layout(
            &[
                (REGISTER, &[&[0, 1]]),
                (LANE, &[&[0, 2], &[0, 4], &[0, 8]]),
                (WARP, &[&[1, 0]]),
                (BLOCK, &[&[0, 0]]),
            ],
            &["dim0", "dim1"],
        );
        let view = distributed_view(&shared_by_blocks, false);
        assert!(
            view.starts_with("[[ B0:T0:0| B1:T0:0,  B0:T0:1| B1:T0:1,"),
            "{view}"
        );
        assert!(
            view.contains(" B0:T9:1| B1:T9:1, B0:T10:0|B1:T10:0,"),
            "{view}"
        );
        assert!(view.ends_with("B0:T15:1|B1:T15:1]]\n"), "{view}");
    }

    #[test]
    fn shared_views_list_the_elements_at_each_offset() {
        let swizzled = layout(
            &[
                (OFFSET, &[&[0, 1], &[1, 0], &[2, 2], &[0, 2]]),
                (BLOCK, &[]),
            ],
            &["dim0", "dim1"],
        );
        assert_eq!(
            shared_view(&swizzled, false),
            "[[(0:0),(0:1),(1:0),(1:1)]\n[ (2:2),(2:3),(3:2),(3:3)]\n[ (0:2),(0:3),(1:2),(1:3)]\n[ (2:0),(2:1),(3:0),(3:1)]]\n"
        );
        let hw = shared_view(&swizzled, true);
        assert!(
            hw.starts_with("Block: 0:\nOffset: 0 -> (0,0)\nOffset: 1 -> (0,1)\n"),
            "{hw}"
        );
        assert!(hw.ends_with("Offset: 15 -> (3,1)\n"), "{hw}");
        let tall = layout(
            &[
                (OFFSET, &[&[0, 1], &[1, 0], &[2, 0], &[4, 0], &[8, 0]]),
                (BLOCK, &[]),
            ],
            &["dim0", "dim1"],
        );
        assert!(shared_view(&tall, false).starts_with("[[( 0:0),( 0:1)]\n[ ( 1:0),( 1:1)]\n"));
        assert!(shared_view(&tall, true).contains("Offset: 9 -> ( 4,1)\nOffset: 10 -> ( 5,0)\n"));
        // Blocks holding the same elements: a block's offsets are the
        // buffer's elements over its blocks.
        let repeated = layout(
            &[(OFFSET, &[&[0, 1], &[1, 0]]), (BLOCK, &[&[0, 0]])],
            &["dim0", "dim1"],
        );
        assert_eq!(
            shared_view(&repeated, false),
            "[[(0:0),(0:1)]\n[ (0:0),(0:1)]]\n"
        );
        assert_eq!(
            shared_view(&repeated, true),
            "Block: 0:\nOffset: 0 -> (0,0)\nOffset: 1 -> (0,1)\nBlock: 1:\nOffset: 0 -> (0,0)\nOffset: 1 -> (0,1)\n"
        );
    }

    #[test]
    fn encodings_are_viewed_through_their_linear_layouts() {
        let blocked = Layout::blocked(&[1, 4], &[4, 8], &[1, 1], &[1, 0]);
        let view = tensor_layout_view(&blocked, &[4, 32], false).expect("a view");
        assert!(
            view.starts_with("[[ T0:0,  T0:1,  T0:2,  T0:3,  T1:0,"),
            "{view}"
        );
        assert!(view.contains("\n[  T8:0,  T8:1,"), "{view}");
        assert!(view.ends_with("T31:2, T31:3]]\n"), "{view}");
        let nvmma = Layout::NvmmaShared {
            swizzling_byte_width: 128,
            transposed: false,
            element_bit_width: 16,
            fp4_padded: false,
            rank: 2,
            cga: Vec::new(),
        };
        let hw = tensor_layout_view(&nvmma, &[8, 64], true).expect("a view");
        // Row 1's first 16-byte chunk sits in the second chunk of its
        // 128-byte row (offsets 64 + 8..16).
        assert!(hw.contains("Offset: 72 -> (1, 0)\n"), "{hw}");
    }
}
