//! What several test files share.

use placelab::netsim::{parse_fat_tree, LinkParams, Platform, System};
use placelab::place::strategy::Shape;

/// The simulator's machine of a strategy's shape; trees are fat (as many links up as down above
/// the leaves) or, with `thin`, have one link up per switch.
#[allow(dead_code)] // not every test file that includes this module uses it
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
        Shape::Net { .. } => panic!("a network's platform comes with it (net_machine)"),
    };
    Platform::build(&sys, LinkParams::SOURCE).unwrap()
}

/// A network the strategies see through its routes (`{"kind": "torus" | "dragonfly" |
/// "simgrid", ...}`, the placement scenario's `system`): its shape with the route table, and
/// its platform, built as a run builds them.
#[allow(dead_code)] // not every test file that includes this module uses it
pub fn net_machine(system: &str) -> (Shape, Platform) {
    use placelab::place::scenario::{validate_system, SystemSpec};
    let spec: SystemSpec = serde_json::from_str(system).unwrap();
    let sys = validate_system(&spec).unwrap();
    let p = sys
        .platform(LinkParams {
            bandwidth: spec.bandwidth,
            latency: spec.latency,
        })
        .unwrap();
    (sys.shape.with_routes(&p), p)
}

/// Every message of a task graph placed on `hosts`: each edge both ways, one byte per unit of
/// its weight.
#[allow(dead_code)] // not every test file that includes this module uses it
pub fn edge_flows(g: &placelab::graph::Graph, hosts: &[u32]) -> Vec<placelab::netsim::Flow> {
    let mut flows = Vec::new();
    for v in 0..g.n() {
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            flows.push(placelab::netsim::Flow {
                src: hosts[v as usize],
                dst: hosts[u as usize],
                bytes: f64::from(w),
                start: 0.0,
            });
        }
    }
    flows
}

/// A report's JSON array of host indices (`hosts` of a placement run).
#[allow(dead_code)] // not every test file that includes this module uses it
pub fn hosts_of(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .expect("an array of hosts")
        .iter()
        .map(|h| h.as_u64().expect("a host index") as u32)
        .collect()
}
