//! Cheap static metrics of a traffic pattern on a platform, no simulation: hop-bytes, dilation
//! and congestion (definitions in `docs/format.md`, "Network simulator").

use super::{check_flow, Flow, Platform};

/// Static metrics of a set of flows (start times ignored).
#[derive(Debug, Clone, PartialEq)]
pub struct StaticMetrics {
    /// Number of flows counted.
    pub flows: u32,
    /// `sum_f bytes_f * hops_f`.
    pub hop_bytes: f64,
    /// Dilation: the largest route length of a flow (hops).
    pub max_hops: u32,
    /// Mean route length over the flows (0 without flows).
    pub mean_hops: f64,
    /// Congestion: the most payload bytes on one directed link.
    pub congestion: f64,
    /// The directed link carrying `congestion` (the lowest id among ties), `None` without
    /// traffic on links.
    pub congested_link: Option<u32>,
    /// Payload bytes on every directed link.
    pub link_bytes: Vec<f64>,
}

/// Hop-bytes, dilation and congestion of `flows` on `p`.
///
/// # Errors
/// A host out of range or bad bytes (named `flows[i]`).
///
/// # Complexity
/// `O(links + total route length)`.
pub fn static_metrics(p: &Platform, flows: &[Flow]) -> Result<StaticMetrics, String> {
    let mut link_bytes = vec![0.0; p.links() as usize];
    let mut route = Vec::new();
    let mut hop_bytes = 0.0;
    let mut max_hops = 0;
    let mut sum_hops = 0u64;
    for (i, f) in flows.iter().enumerate() {
        check_flow(p, f.src, f.dst, f.bytes).map_err(|e| format!("flows[{i}]: {e}"))?;
        route.clear();
        p.route(f.src, f.dst, &mut route);
        let h = route.len() as u32;
        for &l in &route {
            link_bytes[l as usize] += f.bytes;
        }
        hop_bytes += f.bytes * f64::from(h);
        max_hops = max_hops.max(h);
        sum_hops += u64::from(h);
    }
    let mut congestion = 0.0;
    let mut congested_link = None;
    for (l, &b) in link_bytes.iter().enumerate() {
        if b > congestion {
            congestion = b;
            congested_link = Some(l as u32);
        }
    }
    Ok(StaticMetrics {
        flows: flows.len() as u32,
        hop_bytes,
        max_hops,
        mean_hops: if flows.is_empty() {
            0.0
        } else {
            sum_hops as f64 / flows.len() as f64
        },
        congestion,
        congested_link,
        link_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::netsim::{LinkParams, System};

    #[test]
    fn ring_neighbours_have_dilation_one_and_no_congestion() {
        let p = Platform::build(&System::Torus2d { x: 8, y: 1 }, LinkParams::SOURCE).unwrap();
        let flows: Vec<Flow> = (0..8)
            .map(|i| Flow {
                src: i,
                dst: (i + 1) % 8,
                bytes: 10.0,
                start: 0.0,
            })
            .collect();
        let m = static_metrics(&p, &flows).unwrap();
        assert_eq!(
            (m.max_hops, m.mean_hops, m.hop_bytes, m.congestion),
            (1, 1.0, 80.0, 10.0)
        );
    }

    #[test]
    fn star_congests_the_hub_links() {
        let p = Platform::build(&System::Mesh2d { x: 5, y: 1 }, LinkParams::SOURCE).unwrap();
        let flows: Vec<Flow> = (1..5)
            .map(|i| Flow {
                src: i,
                dst: 0,
                bytes: 1.0,
                start: 0.0,
            })
            .collect();
        let m = static_metrics(&p, &flows).unwrap();
        assert_eq!(m.max_hops, 4);
        assert_eq!(m.mean_hops, 2.5);
        assert_eq!(m.hop_bytes, 10.0);
        assert_eq!(m.congestion, 4.0);
        let l = m.congested_link.unwrap();
        assert_eq!((p.link_info(l).from, p.link_info(l).to), (1, 0));
    }
}
