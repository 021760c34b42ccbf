//! A transfer between two hosts, and the checks of its fields.

use super::platform::Platform;

/// One transfer of `bytes` from host `src` to host `dst`, starting at time `start` (s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flow {
    pub src: u32,
    pub dst: u32,
    pub bytes: f64,
    pub start: f64,
}

/// Checks a flow's fields.
pub(crate) fn check_flow(p: &Platform, src: u32, dst: u32, bytes: f64) -> Result<(), String> {
    let n = p.hosts();
    if src >= n || dst >= n {
        return Err(format!(
            "flow {src} -> {dst}: hosts are 0 to {}",
            n.saturating_sub(1)
        ));
    }
    if !(bytes.is_finite() && bytes >= 0.0) {
        return Err(format!(
            "flow {src} -> {dst}: bytes must be a finite number >= 0, got {bytes}"
        ));
    }
    Ok(())
}
