//! Whole lines out of a byte stream fed in chunks of any size, for the readers that stream files
//! ([`super::swf::SwfReader`], [`crate::trace::ti::TiStream`]): each chunk's complete lines are
//! handed on at once, the unfinished last line is carried to the next chunk, and a line longer
//! than the reader's limit is refused before it can fill memory. Where the chunks are cut never
//! changes the lines.

/// The unfinished line carried between chunks.
#[derive(Debug, Default)]
pub struct Carry {
    partial: Vec<u8>,
}

impl Carry {
    /// Hands `whole` the bytes of the complete lines `chunk` finishes (the carried start
    /// included; they end with `\n`), if any, and carries the rest.
    ///
    /// # Errors
    /// `whole`'s error; `Err(None)` when the carried line passes `max` bytes.
    pub fn push<E>(
        &mut self,
        chunk: &[u8],
        max: usize,
        mut whole: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), Option<E>> {
        let rest = match chunk.iter().rposition(|&b| b == b'\n') {
            None => chunk,
            Some(last) => {
                let (done, rest) = chunk.split_at(last + 1);
                if self.partial.is_empty() {
                    whole(done).map_err(Some)?;
                } else {
                    let mut joined = std::mem::take(&mut self.partial);
                    joined.extend_from_slice(done);
                    whole(&joined).map_err(Some)?;
                    joined.clear();
                    self.partial = joined;
                }
                rest
            }
        };
        if self.partial.len() + rest.len() > max {
            return Err(None);
        }
        self.partial.extend_from_slice(rest);
        Ok(())
    }

    /// Bytes carried now.
    pub fn carried(&self) -> usize {
        self.partial.len()
    }

    /// The last line, when the stream did not end with `\n`.
    pub fn finish(self) -> Vec<u8> {
        self.partial
    }
}
