//! STAT: fxc's instruction statistics (section 3.7).
//!
//! The layout is reverse-engineered and fxc's counting rules are not reproducible, so the chunk is
//! kept as its DWORDs (29 for SM4, 37 for SM5) and re-emitted unchanged; the accessors name the
//! leading fields whose meaning is well attested.

use super::bad;
use crate::byteio::{put_u32, u32_at};
use crate::container::FourCC;
use crate::error::Result;

/// The STAT chunk as raw DWORDs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    pub words: Vec<u32>,
}

impl Stat {
    /// Decodes the chunk data; any whole number of DWORDs is accepted.
    pub fn parse(data: &[u8]) -> Result<Stat> {
        if !data.len().is_multiple_of(4) {
            return Err(bad(FourCC::STAT, data.len(), "size is not a multiple of 4"));
        }
        let words = (0..data.len() / 4)
            .filter_map(|i| u32_at(data, 4 * i))
            .collect();
        Ok(Stat { words })
    }

    /// Encodes the chunk data.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.words.len() * 4);
        self.words.iter().for_each(|&w| put_u32(&mut out, w));
        out
    }

    fn word(&self, i: usize) -> Option<u32> {
        self.words.get(i).copied()
    }

    /// Approximate instruction count (fxc's "instruction slots used").
    pub fn instruction_count(&self) -> Option<u32> {
        self.word(0)
    }
    pub fn temp_register_count(&self) -> Option<u32> {
        self.word(1)
    }
    pub fn def_count(&self) -> Option<u32> {
        self.word(2)
    }
    pub fn dcl_count(&self) -> Option<u32> {
        self.word(3)
    }
    pub fn float_instruction_count(&self) -> Option<u32> {
        self.word(4)
    }
    pub fn int_instruction_count(&self) -> Option<u32> {
        self.word(5)
    }
    pub fn uint_instruction_count(&self) -> Option<u32> {
        self.word(6)
    }
    pub fn static_flow_control_count(&self) -> Option<u32> {
        self.word(7)
    }
    pub fn dynamic_flow_control_count(&self) -> Option<u32> {
        self.word(8)
    }
    pub fn macro_instruction_count(&self) -> Option<u32> {
        self.word(9)
    }
    pub fn temp_array_count(&self) -> Option<u32> {
        self.word(10)
    }
    pub fn array_instruction_count(&self) -> Option<u32> {
        self.word(11)
    }
    pub fn cut_instruction_count(&self) -> Option<u32> {
        self.word(12)
    }
    pub fn emit_instruction_count(&self) -> Option<u32> {
        self.word(13)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let data: Vec<u8> = (0u8..116).collect();
        let s = Stat::parse(&data).expect("116 bytes");
        assert_eq!(s.words.len(), 29);
        assert_eq!(s.encode(), data);
        assert_eq!(s.instruction_count(), Some(0x0302_0100));
        assert!(Stat::parse(&data[..5]).is_err());
        assert_eq!(Stat::parse(&[]).map(|s| s.instruction_count()), Ok(None));
    }
}
