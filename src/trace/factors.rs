//! Piecewise factors by message size, in the form SMPI's network model takes them
//! (`--cfg=smpi/lat-factor:S0:F0;S1:F1;...` and `smpi/bw-factor`): the latency of a message of
//! `N` bytes is multiplied by its latency factor, the bandwidth by its bandwidth factor, so on a
//! link `T = a0 + a1 N` (`a1` = 1 / bandwidth) the message takes
//!
//! ```text
//! T(N) = latFactor(N) a0 + N a1 / bwFactor(N)
//! ```
//!
//! # The rule (SimGrid 3.32, `NetworkSmpiModel::get_latency_factor`)
//! The factor of a size `N` is `F_i` of the last breakpoint `S_i` strictly below `N`, and 1 when
//! `N <= S_0`: SimGrid walks the sorted list keeping the previous factor (1 at first) and
//! returns it at the first `S_i >= N`. So with `"0:1.5;65536:2"`, an empty message gets 1, one
//! byte to 65,536 bytes 1.5, and 65,537 bytes on 2.
//!
//! ```text
//!  factor
//!   2   |                      o------
//!  1.5  |  o-------------------*
//!   1   *
//!       +--+-------------------+------> N
//!          0                 65536
//! ```
//!
//! Sizes are whole numbers of bytes written in increasing order (SimGrid sorts them; a list out
//! of order is refused here, since it is most likely a typing error); factors are positive
//! finite numbers.
//!
//! # Complexity
//! Parsing `O(k)` for `k` breakpoints; a lookup `O(log k)`.

/// A piecewise factor: `sizes[i]` (increasing) and `values[i]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Factors {
    pub sizes: Vec<f64>,
    pub values: Vec<f64>,
}

/// Most breakpoints of one factor string.
pub const MAX_BREAKPOINTS: usize = 1000;

impl Factors {
    /// Parses SMPI's form `S0:F0;S1:F1;...` (spaces around tokens allowed, a trailing `;`
    /// ignored).
    ///
    /// # Errors
    /// A sentence naming the chunk (from 1): not `SIZE:FACTOR`, a size that is not a whole
    /// number of bytes or not above the previous one, a factor that is not a positive finite
    /// number; an empty string; more than [`MAX_BREAKPOINTS`] chunks.
    pub fn parse(text: &str) -> Result<Factors, String> {
        let mut sizes = Vec::new();
        let mut values = Vec::new();
        let mut chunks: Vec<&str> = text.split(';').map(str::trim).collect();
        // a trailing `;`
        if chunks.len() > 1 && chunks.last() == Some(&"") {
            chunks.pop();
        }
        if text.trim().is_empty() {
            return Err(
                "give SMPI's form SIZE:FACTOR;SIZE:FACTOR;... (e.g. \"0:1;65536:1.5\")".into(),
            );
        }
        if chunks.len() > MAX_BREAKPOINTS {
            return Err(format!(
                "at most {MAX_BREAKPOINTS} breakpoints, got {}",
                chunks.len()
            ));
        }
        for (i, chunk) in chunks.iter().enumerate() {
            let k = i + 1;
            let short = super::model::short(chunk);
            let Some((s, f)) = chunk.split_once(':') else {
                return Err(format!(
                    "chunk {k} ({short:?}) is not SIZE:FACTOR (e.g. \"65536:1.5\")"
                ));
            };
            let (s, f) = (s.trim(), f.trim());
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "chunk {k} ({short:?}): the size must be a whole number of bytes, got {:?}",
                    super::model::short(s)
                ));
            }
            let size: f64 = s.parse().unwrap_or(f64::INFINITY);
            if size > super::limits::MAX_VALUE {
                return Err(format!(
                    "chunk {k} ({short:?}): the size must be at most {}",
                    crate::error::compact_number(super::limits::MAX_VALUE)
                ));
            }
            let value: f64 = match f.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 && v <= 1e6 => v,
                _ => {
                    return Err(format!(
                        "chunk {k} ({short:?}): the factor must be a number above 0 and at most 1e6, got {:?}",
                        super::model::short(f)
                    ))
                }
            };
            if let Some(&prev) = sizes.last() {
                if size <= prev {
                    return Err(format!(
                        "chunk {k} ({short:?}): sizes must increase, {} follows {}",
                        crate::error::compact_number(size),
                        crate::error::compact_number(prev)
                    ));
                }
            }
            sizes.push(size);
            values.push(value);
        }
        Ok(Factors { sizes, values })
    }

    /// The factor of a message of `bytes` bytes (module doc, "The rule").
    pub fn at(&self, bytes: f64) -> f64 {
        // breakpoints strictly below `bytes`
        let below = self.sizes.partition_point(|&s| s < bytes);
        if below == 0 {
            1.0
        } else {
            self.values[below - 1]
        }
    }

    /// SMPI's form of the factors, to paste into `--cfg=smpi/lat-factor:...`.
    pub fn smpi(&self) -> String {
        self.sizes
            .iter()
            .zip(&self.values)
            .map(|(s, v)| format!("{s}:{v}"))
            .collect::<Vec<_>>()
            .join(";")
    }
}

/// The time of a message of `bytes` bytes on a link `a0 + a1 N` under the factors (1 where
/// absent): `latFactor(N) a0 + N a1 / bwFactor(N)`. With no factors it is `a0 + a1 N`,
/// bit for bit.
pub fn message_time(
    a0: f64,
    a1: f64,
    bytes: f64,
    lat: Option<&Factors>,
    bw: Option<&Factors>,
) -> f64 {
    let (l, w) = weights(bytes, lat, bw);
    l * a0 + a1 * w
}

/// `(latFactor(N), N / bwFactor(N))`: what a message of `N` bytes weighs on a link's `a0` and
/// on its `a1`. Without factors `(1, N)`, so `l a0 + a1 w` is `a0 + a1 N` bit for bit.
pub fn weights(bytes: f64, lat: Option<&Factors>, bw: Option<&Factors>) -> (f64, f64) {
    let l = lat.map_or(1.0, |f| f.at(bytes));
    let w = match bw {
        Some(f) => bytes / f.at(bytes),
        None => bytes,
    };
    (l, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_factor_of_the_last_breakpoint_below_the_size_applies() {
        let f = Factors::parse("0:1.5;65536:2").unwrap();
        assert_eq!(f.at(0.0), 1.0);
        assert_eq!(f.at(1.0), 1.5);
        assert_eq!(f.at(65536.0), 1.5);
        assert_eq!(f.at(65537.0), 2.0);
        assert_eq!(f.smpi(), "0:1.5;65536:2");
        let g = Factors::parse(" 100 : 0.5 ; ").unwrap();
        assert_eq!((g.at(100.0), g.at(101.0)), (1.0, 0.5));
    }

    #[test]
    fn bad_factor_strings_name_their_chunk() {
        for (text, want) in [
            ("", "SIZE:FACTOR"),
            ("0:1;10", "chunk 2"),
            ("10:1;5:2", "sizes must increase"),
            ("0:x", "the factor must be"),
            ("0:0", "the factor must be"),
            ("-1:1", "whole number"),
            ("1.5:1", "whole number"),
            ("0:inf", "the factor must be"),
        ] {
            let e = Factors::parse(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn no_factors_give_the_linear_model_bit_for_bit() {
        for (a0, a1, n) in [
            (1e-4, 1e-8, 1000.0),
            (3.3e-5, 7.1e-9, 65537.0),
            (0.0, 0.0, 0.0),
        ] {
            assert_eq!(
                message_time(a0, a1, n, None, None).to_bits(),
                (a0 + a1 * n).to_bits()
            );
        }
    }
}
