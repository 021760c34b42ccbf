//! A trace shared by the trace admission tests and the bounds benchmark.

/// The text trace of a chain of `ranks` ranks, `2 (ranks - 1)` events: rank `i` sends 1,000
/// bytes to rank `i + 1`.
pub fn chain_text(ranks: u32) -> String {
    let mut text = format!("ranks {ranks}\n");
    for i in 0..ranks - 1 {
        text.push_str(&format!(
            "{i} send {} 1000\n{} recv {i} 1000\n",
            i + 1,
            i + 1
        ));
    }
    text
}
