//! Simple: the first `n` free nodes in node-number order (the source's baseline). `O(N)`.

/// The first `n` hosts `h` with `!busy[h]`, in increasing order.
pub fn simple(busy: &[bool], n: u32) -> Vec<u32> {
    (0..busy.len() as u32)
        .filter(|&h| !busy[h as usize])
        .take(n as usize)
        .collect()
}
