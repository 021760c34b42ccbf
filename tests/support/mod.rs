//! What several test files share.

use placelab::netsim::{parse_fat_tree, LinkParams, Platform, System};
use placelab::place::strategy::Shape;

/// The simulator's machine of a strategy's shape; trees are fat (as many links up as down above
/// the leaves) or, with `thin`, have one link up per switch.
pub fn net_of(shape: &Shape, thin: bool) -> Platform {
    let sys = match shape {
        Shape::Grid { dims, wrap } => match (dims[2], wrap) {
            (1, true) => System::Torus2d {
                x: dims[0],
                y: dims[1],
            },
            (1, false) => System::Mesh2d {
                x: dims[0],
                y: dims[1],
            },
            (z, true) => System::Torus3d {
                x: dims[0],
                y: dims[1],
                z,
            },
            (z, false) => System::Mesh3d {
                x: dims[0],
                y: dims[1],
                z,
            },
        },
        Shape::Tree { down } => {
            let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let mut up = vec![1];
            up.extend(
                down[..down.len() - 1]
                    .iter()
                    .map(|&d| if thin { 1 } else { d }),
            );
            let text = format!(
                "{};{};{};{}",
                down.len(),
                list(down),
                list(&up),
                list(&vec![1; down.len()])
            );
            System::FatTree(parse_fat_tree(&text).unwrap())
        }
    };
    Platform::build(&sys, LinkParams::SOURCE).unwrap()
}
