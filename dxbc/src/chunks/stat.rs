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
    /// The chunk's DWORDs in order (29 for SM4, 37 for SM5).
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
    /// Word 1: number of temporary registers.
    pub fn temp_register_count(&self) -> Option<u32> {
        self.word(1)
    }
    /// Word 2: fxc's `def` count (constant definitions).
    pub fn def_count(&self) -> Option<u32> {
        self.word(2)
    }
    /// Word 3: number of declarations.
    pub fn dcl_count(&self) -> Option<u32> {
        self.word(3)
    }
    /// Word 4: number of float arithmetic instructions.
    pub fn float_instruction_count(&self) -> Option<u32> {
        self.word(4)
    }
    /// Word 5: number of signed integer instructions.
    pub fn int_instruction_count(&self) -> Option<u32> {
        self.word(5)
    }
    /// Word 6: number of unsigned integer instructions.
    pub fn uint_instruction_count(&self) -> Option<u32> {
        self.word(6)
    }
    /// Word 7: number of static flow-control instructions.
    pub fn static_flow_control_count(&self) -> Option<u32> {
        self.word(7)
    }
    /// Word 8: number of dynamic flow-control instructions.
    pub fn dynamic_flow_control_count(&self) -> Option<u32> {
        self.word(8)
    }
    /// Word 9: number of macro instructions.
    pub fn macro_instruction_count(&self) -> Option<u32> {
        self.word(9)
    }
    /// Word 10: fxc's temp-array count (indexable temporaries).
    pub fn temp_array_count(&self) -> Option<u32> {
        self.word(10)
    }
    /// Word 11: number of instructions that index arrays.
    pub fn array_instruction_count(&self) -> Option<u32> {
        self.word(11)
    }
    /// Word 12: number of geometry shader `cut` instructions.
    pub fn cut_instruction_count(&self) -> Option<u32> {
        self.word(12)
    }
    /// Word 13: number of geometry shader `emit` instructions.
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
