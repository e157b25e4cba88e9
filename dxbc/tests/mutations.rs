//! The no-panic guarantee, checked by a deterministic mutation fuzzer over the corpus.
//!
//! Every corpus blob is mutated many ways (bit flips, byte overwrites, truncation, corrupted
//! length/offset/count fields, inserted and deleted runs, and mutations aimed inside the code,
//! signature and RDEF chunks, some of them rebuilt into a well-formed container so that the token
//! decoder is exercised deeply). Each input goes through `Container::parse`, the chunk parsers,
//! `decode_program` on the code chunk and `Shader::parse`; whatever decodes is listed both ways and
//! the exact listing must reassemble to the same program. A second test throws mutated listings at
//! the assembler.
//!
//! Every case has its own PRNG stream derived from (seed, case index), so a failure report names
//! the case and the mutated input, and `DXBC_MUTATION_SEED` / `DXBC_MUTATION_CASES` /
//! `DXBC_MUTATION_TEXT_CASES` reproduce or extend a run.

mod common;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::time::Instant;

use dxbc::chunks::{rdef::Rdef, sfi0::Sfi0, signature::Signature, stat::Stat};
use dxbc::{Container, FourCC, Shader, Syntax};

const DEFAULT_SEED: u64 = 0xD1B5_C0DE_2024_0001;
const DEFAULT_BLOB_CASES: u64 = 110_000;
const DEFAULT_TEXT_CASES: u64 = 24_000;
/// Distinct failures to describe in full before the test gives up listing them.
const MAX_REPORTED: usize = 8;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| {
            let v = v.trim();
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => v.parse().ok(),
            }
        })
        .unwrap_or(default)
}

// ---------------------------------------------------------------------------------------------
// PRNG: splitmix64, one independent stream per case.

struct Rng(u64);

impl Rng {
    fn for_case(seed: u64, case: u64) -> Rng {
        let mut r = Rng(seed ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        r.next();
        r
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    /// Uniform in `0..n`; `n` must be non-zero.
    fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 11) % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Panic capture: a hook that, on threads running cases, records the message, location and a short
// backtrace instead of printing them.

thread_local! {
    static CAPTURING: RefCell<bool> = const { RefCell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAPTURING.with(|c| *c.borrow()) {
                default(info);
                return;
            }
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(non-string panic payload)".into());
            let location = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                .unwrap_or_default();
            let bt = std::backtrace::Backtrace::force_capture().to_string();
            // Keep the frames inside this crate: they say where the fault is.
            let frames: Vec<&str> = bt
                .lines()
                .filter(|l| l.contains("dxbc/src/") || l.contains("dxbc::"))
                .take(12)
                .collect();
            LAST_PANIC.with(|p| {
                *p.borrow_mut() = Some(format!(
                    "panicked at {location}: {payload}\n    backtrace (dxbc frames):\n      {}",
                    frames.join("\n      ")
                ));
            });
        }));
    });
}

/// Runs `f` with panics captured. `Err` holds either the panic description or `f`'s own
/// assertion failure.
fn run_case(f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    CAPTURING.with(|c| *c.borrow_mut() = true);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CAPTURING.with(|c| *c.borrow_mut() = false);
    match result {
        Ok(r) => r,
        Err(_) => Err(LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "panicked (no message captured)".into())),
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Failures, grouped by their first line (the panic location or assertion), with the smallest
/// input kept per group.
#[derive(Default)]
struct Failures {
    groups: BTreeMap<String, (usize, String)>,
    total: usize,
}

impl Failures {
    fn add(&mut self, what: &str, input_len: usize, report: impl FnOnce() -> String) {
        self.total += 1;
        // Group panics by location (their message may quote the input).
        let first = what.lines().next().unwrap_or("");
        let key = match first.strip_prefix("panicked at ") {
            Some(rest) => rest.split(": ").next().unwrap_or(rest).to_string(),
            None => first.to_string(),
        };
        let keep = match self.groups.get(&key) {
            Some((len, _)) => input_len < *len,
            None => self.groups.len() < MAX_REPORTED * 4,
        };
        if keep {
            self.groups.insert(key, (input_len, report()));
        }
    }

    fn merge(&mut self, o: Failures) {
        self.total += o.total;
        for (key, (len, report)) in o.groups {
            let keep = match self.groups.get(&key) {
                Some((l, _)) => len < *l,
                None => self.groups.len() < MAX_REPORTED * 4,
            };
            if keep {
                self.groups.insert(key, (len, report));
            }
        }
    }

    fn finish(&self, label: &str) {
        if self.total == 0 {
            return;
        }
        let mut msg = format!(
            "{label}: {} failing cases in {} distinct places\n",
            self.total,
            self.groups.len()
        );
        for (_, report) in self.groups.values().take(MAX_REPORTED) {
            msg.push_str(report);
            msg.push('\n');
        }
        panic!("{msg}");
    }
}

// ---------------------------------------------------------------------------------------------
// Corpus samples and what the mutators need to know about them.

struct Sample {
    name: String,
    bytes: Vec<u8>,
    container: Container,
    /// (tag, byte offset of the chunk data in `bytes`, data length), from the offset table.
    spans: Vec<(FourCC, usize, usize)>,
    /// Index into `container.chunks` of the code chunk.
    code: Option<usize>,
    /// Word offsets of the instructions in the code chunk.
    inst_starts: Vec<usize>,
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn spans(bytes: &[u8]) -> Vec<(FourCC, usize, usize)> {
    let count = u32_at(bytes, 28).unwrap_or(0) as usize;
    (0..count)
        .filter_map(|i| {
            let off = u32_at(bytes, 32 + 4 * i)? as usize;
            let tag = bytes.get(off..off + 4)?;
            let size = u32_at(bytes, off + 4)? as usize;
            Some((FourCC(tag.try_into().ok()?), off + 8, size))
        })
        .collect()
}

fn words_of(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Instruction start offsets in a token stream (best effort: stops at anything malformed).
fn instruction_starts(words: &[u32]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut pos = 2;
    while pos < words.len() {
        out.push(pos);
        let tok = words[pos];
        let mut len = if tok & 0x7FF == 53 {
            words.get(pos + 1).copied().unwrap_or(0)
        } else {
            (tok >> 24) & 0x7F
        };
        if len == 0 {
            len = words.get(pos + 1).copied().unwrap_or(0);
        }
        if len == 0 {
            break;
        }
        pos = pos.saturating_add(len as usize);
    }
    out
}

fn load_samples() -> Vec<Sample> {
    common::blobs()
        .into_iter()
        .filter_map(|(name, bytes)| {
            let container = Container::parse(&bytes).ok()?;
            let code = container
                .chunks
                .iter()
                .position(|c| c.tag == FourCC::SHEX || c.tag == FourCC::SHDR);
            let inst_starts = code
                .map(|i| instruction_starts(&words_of(&container.chunks[i].data)))
                .unwrap_or_default();
            Some(Sample {
                name,
                spans: spans(&bytes),
                bytes,
                container,
                code,
                inst_starts,
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Mutators.

const EDGE_U32: [u32; 10] = [
    0,
    1,
    2,
    4,
    0x7f,
    0x80,
    0xff,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
];

/// An edge value for a 32-bit field in a buffer of `len` bytes.
fn edge_value(rng: &mut Rng, len: usize) -> u32 {
    let len = len as u32;
    match rng.below(6) {
        0 | 1 => *rng.pick(&EDGE_U32),
        2 => len,
        3 => len.wrapping_add(1),
        4 => len.wrapping_sub(1),
        _ => match rng.below(3) {
            0 => rng.u32(),
            1 => rng.u32() & 0xFF,
            _ => rng.u32() & 0xFFFF,
        },
    }
}

fn flip_bits(rng: &mut Rng, buf: &mut [u8], lo: usize, hi: usize) {
    if lo >= hi {
        return;
    }
    for _ in 0..rng.range(1, 4) {
        let at = rng.range(lo, hi - 1);
        buf[at] ^= 1 << rng.below(8);
    }
}

fn overwrite_bytes(rng: &mut Rng, buf: &mut [u8], lo: usize, hi: usize) {
    if lo >= hi {
        return;
    }
    for _ in 0..rng.range(1, 4) {
        let at = rng.range(lo, hi - 1);
        buf[at] = match rng.below(4) {
            0 => 0,
            1 => 0xFF,
            2 => 0x7F,
            _ => rng.u32() as u8,
        };
    }
}

/// Overwrite an aligned u32 in `lo..hi` (offsets relative to the buffer, `lo` aligned).
fn poke_u32(rng: &mut Rng, buf: &mut [u8], lo: usize, hi: usize, value_len: usize) {
    if hi < lo + 4 {
        return;
    }
    let at = lo + 4 * rng.below((hi - lo) / 4);
    let v = edge_value(rng, value_len);
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn insert_run(rng: &mut Rng, buf: &mut Vec<u8>) {
    let at = rng.range(0, buf.len());
    let n = *rng.pick(&[1usize, 2, 3, 4, 4, 8, 12, 16, 64]);
    let fill: Vec<u8> = match rng.below(3) {
        0 => vec![0; n],
        1 => (0..n).map(|_| rng.u32() as u8).collect(),
        _ => {
            // Duplicate an existing run.
            let from = rng.below(buf.len().max(1));
            buf.get(from..(from + n).min(buf.len()))
                .unwrap_or(&[])
                .to_vec()
        }
    };
    buf.splice(at..at, fill);
}

fn delete_run(rng: &mut Rng, buf: &mut Vec<u8>) {
    if buf.is_empty() {
        return;
    }
    let at = rng.below(buf.len());
    let n = (*rng.pick(&[1usize, 2, 3, 4, 4, 8, 16, 64])).min(buf.len() - at);
    buf.drain(at..at + n);
}

/// Mutations applied to the raw blob: the container header and offset table are fair game.
fn mutate_raw(rng: &mut Rng, s: &Sample, out: &mut Vec<u8>) -> &'static str {
    let len = out.len();
    match rng.below(8) {
        0 => {
            flip_bits(rng, out, 0, len);
            "raw:bit-flip"
        }
        1 => {
            overwrite_bytes(rng, out, 0, len);
            "raw:byte-overwrite"
        }
        2 => {
            out.truncate(rng.below(len.max(1)));
            "raw:truncate"
        }
        3 | 4 => {
            // Length/offset/count fields: mostly the header and offset table.
            let table_end = (32 + 4 * s.spans.len()).min(len);
            let hi = if rng.chance(60) { table_end } else { len & !3 };
            poke_u32(rng, out, 0, hi, len);
            "raw:u32-field"
        }
        5 => {
            // A chunk header's tag or size.
            if let Some(&(_, data, _)) = s.spans.get(rng.below(s.spans.len().max(1))) {
                let at = data - 8 + 4 * rng.below(2);
                let v = edge_value(rng, len);
                // A stacked mutation may see a blob that an earlier one shortened.
                if let Some(field) = out.get_mut(at..at + 4) {
                    field.copy_from_slice(&v.to_le_bytes());
                }
            }
            "raw:chunk-header"
        }
        6 => {
            insert_run(rng, out);
            "raw:insert"
        }
        _ => {
            delete_run(rng, out);
            "raw:delete"
        }
    }
}

/// Mutations inside one chunk's bytes in the original blob: same size, header untouched, so the
/// container still parses (the checksum is only recorded) and the chunk's parser sees the damage.
fn mutate_in_place(rng: &mut Rng, s: &Sample, out: &mut [u8]) -> &'static str {
    let want_code = s.code.is_some() && rng.chance(70);
    let pick = if want_code {
        s.spans
            .iter()
            .position(|(t, _, _)| *t == FourCC::SHEX || *t == FourCC::SHDR)
    } else if s.spans.is_empty() {
        None
    } else {
        Some(rng.below(s.spans.len()))
    };
    let Some(&(tag, lo, size)) = pick.and_then(|i| s.spans.get(i)) else {
        flip_bits(rng, out, 0, out.len());
        return "in-place:no-chunk";
    };
    let hi = (lo + size).min(out.len());
    if tag == FourCC::SHEX || tag == FourCC::SHDR {
        let words = (hi - lo) / 4;
        if words < 3 {
            flip_bits(rng, out, lo, hi);
            return "code:bit-flip";
        }
        // An instruction's opcode token, or any token.
        let word = if !s.inst_starts.is_empty() && rng.chance(60) {
            let start = *rng.pick(&s.inst_starts);
            if rng.chance(60) {
                start
            } else {
                (start + rng.range(1, 4)).min(words - 1)
            }
        } else {
            rng.below(words)
        };
        let at = lo + 4 * word;
        let mut tok = u32::from_le_bytes([out[at], out[at + 1], out[at + 2], out[at + 3]]);
        let kind = match rng.below(6) {
            0 | 1 => {
                for _ in 0..rng.range(1, 3) {
                    tok ^= 1 << rng.below(32);
                }
                "code:token-bit-flip"
            }
            2 => {
                // Instruction length (bits 24..30) and the extended bit.
                tok = match rng.below(4) {
                    0 => tok & !(0x7F << 24),
                    1 => (tok & !(0x7F << 24)) | ((rng.u32() & 0x7F) << 24),
                    2 => {
                        let l = (tok >> 24) & 0x7F;
                        let l = if rng.chance(50) {
                            l.wrapping_add(1)
                        } else {
                            l.wrapping_sub(1)
                        };
                        (tok & !(0x7F << 24)) | ((l & 0x7F) << 24)
                    }
                    _ => tok ^ 0x8000_0000,
                };
                "code:instruction-length"
            }
            3 => {
                // The opcode number.
                tok = (tok & !0x7FF) | (rng.u32() & if rng.chance(70) { 0xFF } else { 0x7FF });
                "code:opcode-number"
            }
            4 => {
                tok = edge_value(rng, words);
                "code:token-edge"
            }
            _ => {
                // Operand token fields: component count/selection, type, index dimension and
                // representation, extended bit.
                let field = *rng.pick(&[
                    (0, 2),
                    (2, 2),
                    (4, 8),
                    (12, 8),
                    (20, 2),
                    (22, 3),
                    (25, 3),
                    (28, 3),
                    (31, 1),
                ]);
                let mask = ((1u32 << field.1) - 1) << field.0;
                tok = (tok & !mask) | ((rng.u32() << field.0) & mask);
                "code:operand-field"
            }
        };
        out[at..at + 4].copy_from_slice(&tok.to_le_bytes());
        kind
    } else {
        match rng.below(3) {
            0 => {
                flip_bits(rng, out, lo, hi);
                "meta:bit-flip"
            }
            1 => {
                overwrite_bytes(rng, out, lo, hi);
                "meta:byte-overwrite"
            }
            _ => {
                poke_u32(rng, out, lo, lo + ((hi - lo) & !3), size);
                "meta:u32-field"
            }
        }
    }
}

/// Mutations of one chunk's data that may change its size; the container is then rebuilt (packed,
/// fresh checksum) so parsing reaches the chunk. For the code chunk the program length token is
/// usually fixed up as well so that the decoder walks the instructions.
fn mutate_rebuilt(rng: &mut Rng, s: &Sample, samples: &[Sample]) -> (Vec<u8>, &'static str) {
    let mut chunks = s.container.chunks.clone();
    let idx = match s.code {
        Some(c) if rng.chance(75) || chunks.len() == 1 => c,
        _ if chunks.is_empty() => return (s.bytes.clone(), "rebuilt:empty"),
        _ => rng.below(chunks.len()),
    };
    let is_code = Some(idx) == s.code;
    let data = &mut chunks[idx].data;
    let kind = if is_code {
        let mut words = words_of(data);
        let starts = instruction_starts(&words);
        let inst_range = |i: usize| -> (usize, usize) {
            let a = starts[i];
            let b = starts
                .get(i + 1)
                .copied()
                .unwrap_or(words.len())
                .min(words.len());
            (a, b.max(a))
        };
        let kind = match rng.below(9) {
            0 if !starts.is_empty() => {
                let (a, b) = inst_range(rng.below(starts.len()));
                words.drain(a..b);
                "rebuilt:code-delete-instruction"
            }
            1 if !starts.is_empty() => {
                let (a, b) = inst_range(rng.below(starts.len()));
                let copy = words[a..b].to_vec();
                let at = *rng.pick(&starts);
                words.splice(at..at, copy);
                "rebuilt:code-duplicate-instruction"
            }
            2 if starts.len() >= 2 => {
                let i = rng.below(starts.len() - 1);
                let (a, b) = inst_range(i);
                let (_, c) = inst_range(i + 1);
                words[a..c].rotate_left(b - a);
                "rebuilt:code-swap-instructions"
            }
            3 => {
                // Splice an instruction from another program.
                let other = &samples[rng.below(samples.len())];
                if let Some(oc) = other.code {
                    let ow = words_of(&other.container.chunks[oc].data);
                    if !other.inst_starts.is_empty() {
                        let i = rng.below(other.inst_starts.len());
                        let a = other.inst_starts[i];
                        let b = other
                            .inst_starts
                            .get(i + 1)
                            .copied()
                            .unwrap_or(ow.len())
                            .min(ow.len());
                        let at = if starts.is_empty() {
                            words.len().min(2)
                        } else {
                            *rng.pick(&starts)
                        };
                        words.splice(at..at, ow[a..b.max(a)].iter().copied());
                    }
                }
                "rebuilt:code-splice-foreign"
            }
            4 if words.len() > 2 => {
                let at = rng.range(2, words.len() - 1);
                let n = rng.range(1, 4).min(words.len() - at);
                words.drain(at..at + n);
                "rebuilt:code-delete-words"
            }
            5 => {
                let at = rng.range(2.min(words.len()), words.len());
                let n = rng.range(1, 4);
                for _ in 0..n {
                    let v = edge_value(rng, words.len());
                    words.insert(at, v);
                }
                "rebuilt:code-insert-words"
            }
            6 => {
                let n = rng.below(words.len() + 1);
                words.truncate(n);
                "rebuilt:code-truncate"
            }
            _ if words.len() > 2 => {
                // Token flips with the length kept consistent (the deep-decoder workhorse).
                for _ in 0..rng.range(1, 3) {
                    let at = rng.range(2, words.len() - 1);
                    if rng.chance(50) {
                        words[at] ^= 1 << rng.below(32);
                    } else {
                        words[at] = edge_value(rng, words.len());
                    }
                }
                "rebuilt:code-token"
            }
            _ => "rebuilt:code-tiny",
        };
        if words.len() >= 2 && rng.chance(90) {
            words[1] = words.len() as u32;
        }
        *data = bytes_of(&words);
        if rng.chance(3) {
            // Odd sizes, too.
            data.push(rng.u32() as u8);
        }
        kind
    } else {
        let len = data.len();
        match rng.below(5) {
            0 => {
                flip_bits(rng, data, 0, len);
                "rebuilt:meta-bit-flip"
            }
            1 => {
                poke_u32(rng, data, 0, len & !3, len);
                "rebuilt:meta-u32-field"
            }
            2 => {
                data.truncate(rng.below(len.max(1)));
                "rebuilt:meta-truncate"
            }
            3 => {
                insert_run(rng, data);
                "rebuilt:meta-insert"
            }
            _ => {
                delete_run(rng, data);
                "rebuilt:meta-delete"
            }
        }
    };
    (Container::new(chunks).to_bytes(), kind)
}

fn mutate(rng: &mut Rng, s: &Sample, samples: &[Sample]) -> (Vec<u8>, String) {
    let (mut bytes, first) = match rng.below(10) {
        0..=2 => {
            let mut b = s.bytes.clone();
            let k = mutate_raw(rng, s, &mut b);
            (b, k)
        }
        3..=5 => {
            let mut b = s.bytes.clone();
            let k = mutate_in_place(rng, s, &mut b);
            (b, k)
        }
        _ => mutate_rebuilt(rng, s, samples),
    };
    let mut kind = first.to_string();
    // Sometimes stack a second, raw mutation on top.
    if rng.chance(8) {
        let k = mutate_raw(rng, s, &mut bytes);
        kind.push('+');
        kind.push_str(k);
    }
    (bytes, kind)
}

// ---------------------------------------------------------------------------------------------
// The properties checked for one input.

#[derive(Default)]
struct Stats {
    cases: u64,
    by_kind: BTreeMap<String, u64>,
    shader: BTreeMap<&'static str, u64>,
    container_ok: u64,
    code_decoded: u64,
    code_errors: BTreeMap<&'static str, u64>,
    reencode_differs: u64,
    reassembled: u64,
    chunk_parses: u64,
}

impl Stats {
    fn merge(&mut self, o: Stats) {
        self.cases += o.cases;
        self.container_ok += o.container_ok;
        self.code_decoded += o.code_decoded;
        self.reencode_differs += o.reencode_differs;
        self.reassembled += o.reassembled;
        self.chunk_parses += o.chunk_parses;
        for (k, v) in o.by_kind {
            *self.by_kind.entry(k).or_default() += v;
        }
        for (k, v) in o.shader {
            *self.shader.entry(k).or_default() += v;
        }
        for (k, v) in o.code_errors {
            *self.code_errors.entry(k).or_default() += v;
        }
    }
}

fn bump<K: Ord>(m: &mut BTreeMap<K, u64>, k: K) {
    *m.entry(k).or_default() += 1;
}

/// Decode-side checks for one input. Returns an assertion failure as `Err`.
fn check_blob(input: &[u8], stats: &mut Stats) -> Result<(), String> {
    if let Ok(container) = Container::parse(input) {
        stats.container_ok += 1;
        let _ = container.to_bytes_exact();
        for chunk in &container.chunks {
            let parsed = if Signature::is_signature_tag(chunk.tag) {
                Signature::parse(chunk.tag, &chunk.data).map(|s| {
                    let _ = s.encode();
                    let _ = s.to_fxc_comment();
                })
            } else if chunk.tag == FourCC::RDEF {
                Rdef::parse(&chunk.data).map(|r| {
                    let _ = r.encode();
                    let _ = r.encode_canonical();
                })
            } else if chunk.tag == FourCC::STAT {
                Stat::parse(&chunk.data).map(|s| {
                    let _ = s.encode();
                })
            } else if chunk.tag == FourCC::SFI0 {
                Sfi0::parse(&chunk.data).map(|s| {
                    let _ = s.encode();
                    let _ = s.names();
                })
            } else {
                continue;
            };
            if parsed.is_ok() {
                stats.chunk_parses += 1;
            }
        }
        if let Some(code) = container.code_chunk() {
            match dxbc::decode_program(&code.data) {
                Ok(program) => {
                    stats.code_decoded += 1;
                    match dxbc::encode_program(&program) {
                        Ok(bytes) if bytes == code.data => {}
                        Ok(_) => {
                            stats.reencode_differs += 1;
                            return Err("decoded program re-encodes to different bytes".into());
                        }
                        Err(e) => {
                            stats.reencode_differs += 1;
                            return Err(format!("decoded program does not re-encode: {e}"));
                        }
                    }
                    let exact = dxbc::disassemble(&program, Syntax::Exact);
                    let _ = dxbc::disassemble(&program, Syntax::Fxc);
                    match dxbc::assemble(&exact) {
                        Ok(a) if a.program == program => stats.reassembled += 1,
                        Ok(_) => {
                            return Err(format!(
                                "exact listing reassembles to a different program:\n{exact}"
                            ));
                        }
                        Err(e) => {
                            return Err(format!("exact listing does not reassemble: {e}\n{exact}"));
                        }
                    }
                }
                Err(e) => bump(&mut stats.code_errors, e.code()),
            }
        }
    }
    match Shader::parse(input) {
        Ok(shader) => {
            bump(&mut stats.shader, "ok");
            let exact = shader.listing(Syntax::Exact);
            let _ = shader.listing(Syntax::Fxc);
            match dxbc::assemble(&exact) {
                Ok(a) if a.program == shader.program => {}
                Ok(_) => {
                    return Err(format!(
                        "shader listing reassembles to a different program:\n{exact}"
                    ));
                }
                Err(e) => return Err(format!("shader listing does not reassemble: {e}\n{exact}")),
            }
            let _ = dxbc::assemble_container(&exact);
        }
        Err(e) => bump(&mut stats.shader, e.code()),
    }
    Ok(())
}

fn blob_case(seed: u64, case: u64, samples: &[Sample], stats: &mut Stats, failures: &mut Failures) {
    let mut rng = Rng::for_case(seed, case);
    let s = &samples[rng.below(samples.len())];
    let (input, kind) = mutate(&mut rng, s, samples);
    stats.cases += 1;
    bump(
        &mut stats.by_kind,
        kind.split('+').next().unwrap_or("").to_string(),
    );
    if let Err(what) = run_case(|| check_blob(&input, stats)) {
        failures.add(&what, input.len(), || {
            format!(
                "case {case} (DXBC_MUTATION_SEED={seed:#x}), blob {}, mutation {kind}: {what}\n    input ({} bytes): {}",
                s.name,
                input.len(),
                hex(&input)
            )
        });
    }
}

#[test]
fn mutated_blobs_never_panic() {
    let samples = load_samples();
    if samples.is_empty() {
        eprintln!("skipped: no corpus blobs");
        return;
    }
    install_hook();
    let seed = env_u64("DXBC_MUTATION_SEED", DEFAULT_SEED);
    let cases = env_u64("DXBC_MUTATION_CASES", DEFAULT_BLOB_CASES);
    let started = Instant::now();
    let mut stats = Stats::default();
    let mut failures = Failures::default();

    // The unmutated corpus first: every blob must pass the same checks.
    for s in &samples {
        if let Err(what) = run_case(|| check_blob(&s.bytes, &mut Stats::default())) {
            failures.add(&what, s.bytes.len(), || {
                format!("unmutated blob {}: {what}", s.name)
            });
        }
    }

    // Cases are independent (each has its own PRNG stream), so they are dealt out round-robin to
    // one worker per core; the counts do not depend on the number of workers.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(8)) as u64;
    let results: Vec<(Stats, Failures)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let samples = &samples;
                scope.spawn(move || {
                    let mut stats = Stats::default();
                    let mut failures = Failures::default();
                    for case in (w..cases).step_by(workers as usize) {
                        blob_case(seed, case, samples, &mut stats, &mut failures);
                    }
                    (stats, failures)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker threads catch their cases' panics"))
            .collect()
    });
    for (st, f) in results {
        stats.merge(st);
        failures.merge(f);
    }

    eprintln!(
        "mutated blobs: {} cases from {} corpus blobs in {:.1} s (seed {seed:#x})",
        stats.cases,
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    eprintln!("  mutations: {:?}", stats.by_kind);
    eprintln!(
        "  Container::parse ok {}; chunk parsers ok {}; code chunk decoded {} (errors {:?})",
        stats.container_ok, stats.chunk_parses, stats.code_decoded, stats.code_errors
    );
    eprintln!(
        "  decoded programs: {} reassembled from their exact listing, {} re-encode to different bytes",
        stats.reassembled, stats.reencode_differs
    );
    eprintln!("  Shader::parse: {:?}", stats.shader);
    failures.finish("mutated blobs");
    // Keep the fuzzer honest: a good share of the inputs must get through to the token decoder.
    if cases >= 10_000 {
        assert!(
            stats.code_decoded * 5 > stats.cases,
            "too few mutated programs decode"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Text fuzzing of the assembler.

const NASTY_TOKENS: &[&str] = &[
    "r4294967295",
    "r4294967296",
    "cb0[4294967295]",
    "cb4294967295[0]",
    "x0[99999999999999999999]",
    "icb[r0.x + 4294967295]",
    "l(1e39)",
    "l(-0)",
    "l(nan)",
    "l(1.#INF00)",
    "l(0xffffffffffff)",
    "l(",
    "l()",
    "-",
    "|",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ",",
    ".",
    ".xyzwxyzw",
    "._",
    "//",
    ".raw",
    ".raw 0xffffffff",
    ".raw 0x00000000 0x00000000",
    "_sat",
    "_uint",
    "_opc",
    "dcl_immediateConstantBuffer { {",
    "dcl_temps 4294967295",
    "dcl_indexableTemp x0[0], 0",
    "customdata",
    "vForkInstanceID",
    "this[0]",
    "fb0[0]",
    "-2147483648",
    "18446744073709551616",
    "ps_5_0",
    "cs_5_1",
    "\u{0}",
    "\u{feff}",
    "é",
    "𝔁",
];

fn base_texts(samples: &[Sample]) -> Vec<String> {
    let mut out = Vec::new();
    for s in samples {
        if let Ok(shader) = Shader::parse(&s.bytes) {
            out.push(shader.listing(Syntax::Exact));
            out.push(shader.listing(Syntax::Fxc));
        }
        if let Some(listing) = common::listing_for(std::path::Path::new(&s.name)) {
            out.push(listing);
        }
    }
    out
}

fn char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn mutate_text(rng: &mut Rng, base: &str) -> (String, &'static str) {
    // Most cases use a window: the header and version line plus a few instruction lines, so that
    // each case is cheap and the damage is not drowned in hundreds of valid lines.
    let lines: Vec<&str> = base.lines().collect();
    let version_line = lines
        .iter()
        .position(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with("//")
        })
        .unwrap_or(0);
    let mut text = if rng.chance(80) && lines.len() > version_line + 1 {
        let body = &lines[version_line + 1..];
        let a = rng.below(body.len());
        let b = (a + rng.range(1, 24)).min(body.len());
        let keep_header = rng.chance(50);
        let mut t = String::new();
        let header = if keep_header {
            &lines[..=version_line]
        } else {
            &lines[version_line..=version_line]
        };
        for l in header.iter().chain(&body[a..b]) {
            t.push_str(l);
            t.push('\n');
        }
        t
    } else {
        base.to_string()
    };
    let rounds = rng.range(1, 3);
    let mut kind = "";
    for _ in 0..rounds {
        kind = match rng.below(10) {
            0 => {
                let a = char_boundary(&text, rng.below(text.len() + 1));
                let b = char_boundary(&text, a + rng.range(1, 8));
                text.replace_range(a..b, "");
                "delete-chars"
            }
            1 => {
                let a = char_boundary(&text, rng.below(text.len() + 1));
                let b = char_boundary(&text, a + rng.range(1, 12));
                let dup = text[a..b].to_string();
                text.insert_str(a, &dup);
                "duplicate-chars"
            }
            2 | 3 => {
                // Swap two tokens (split on whitespace and commas, keeping separators).
                let mut toks: Vec<String> = Vec::new();
                let mut cur = String::new();
                for ch in text.chars() {
                    if ch.is_whitespace() || ch == ',' {
                        if !cur.is_empty() {
                            toks.push(std::mem::take(&mut cur));
                        }
                        toks.push(ch.to_string());
                    } else {
                        cur.push(ch);
                    }
                }
                if !cur.is_empty() {
                    toks.push(cur);
                }
                let words: Vec<usize> = (0..toks.len())
                    .filter(|&i| !toks[i].trim().is_empty() && toks[i] != ",")
                    .collect();
                if words.len() >= 2 {
                    let i = *rng.pick(&words);
                    let j = *rng.pick(&words);
                    if rng.chance(50) {
                        toks.swap(i, j);
                    } else {
                        toks[i] = (*rng.pick(NASTY_TOKENS)).to_string();
                    }
                }
                text = toks.concat();
                "swap-tokens"
            }
            4 => {
                let at = char_boundary(&text, rng.below(text.len() + 1));
                let n = rng.range(1, 8);
                let raw: Vec<u8> = (0..n).map(|_| rng.u32() as u8).collect();
                text.insert_str(at, &String::from_utf8_lossy(&raw));
                "random-bytes"
            }
            5 => {
                let at = char_boundary(&text, rng.below(text.len() + 1));
                let nasty: &&str = rng.pick(NASTY_TOKENS);
                text.insert_str(at, nasty);
                "insert-nasty"
            }
            6 => {
                let at = char_boundary(&text, rng.below(text.len() + 1));
                text.truncate(at);
                "truncate"
            }
            7 => {
                // Replace a digit run with an extreme number.
                let digits: Vec<usize> = text
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_digit())
                    .map(|(i, _)| i)
                    .collect();
                if !digits.is_empty() {
                    let a = *rng.pick(&digits);
                    let b = text[a..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(text.len(), |n| a + n);
                    let v = *rng.pick(&[
                        "0",
                        "4294967295",
                        "4294967296",
                        "18446744073709551616",
                        "99999999999999999999999",
                        "2147483648",
                    ]);
                    text.replace_range(a..b, v);
                }
                "extreme-number"
            }
            8 => {
                // Duplicate, drop or swap whole lines.
                let mut ls: Vec<String> = text.lines().map(str::to_string).collect();
                if !ls.is_empty() {
                    let i = rng.below(ls.len());
                    let j = rng.below(ls.len());
                    match rng.below(3) {
                        0 => {
                            let l = ls[i].clone();
                            ls.insert(j, l);
                        }
                        1 => {
                            ls.remove(i);
                        }
                        _ => ls.swap(i, j),
                    }
                }
                text = ls.join("\n");
                "lines"
            }
            _ => {
                let at = char_boundary(&text, rng.below(text.len() + 1));
                let c = char::from_u32(rng.u32() % 0x11_0000).unwrap_or('\u{fffd}');
                text.insert(
                    at,
                    if rng.chance(50) {
                        c
                    } else {
                        char::from(rng.u32() as u8 & 0x7F)
                    },
                );
                "random-char"
            }
        };
    }
    (text, kind)
}

#[test]
fn mutated_listings_never_panic() {
    let samples = load_samples();
    let texts = base_texts(&samples);
    if texts.is_empty() {
        eprintln!("skipped: no corpus listings");
        return;
    }
    install_hook();
    let seed = env_u64("DXBC_MUTATION_SEED", DEFAULT_SEED) ^ 0x7E47;
    let cases = env_u64("DXBC_MUTATION_TEXT_CASES", DEFAULT_TEXT_CASES);
    let started = Instant::now();
    let mut failures = Failures::default();
    let mut results: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut by_kind: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut containers_ok = 0u64;
    let mut encoded = 0u64;
    for case in 0..cases {
        let mut rng = Rng::for_case(seed, case);
        let base = &texts[rng.below(texts.len())];
        let (text, kind) = mutate_text(&mut rng, base);
        bump(&mut by_kind, kind);
        let outcome = run_case(|| {
            match dxbc::assemble(&text) {
                Ok(a) => {
                    bump(&mut results, "ok");
                    if let Ok(bytes) = dxbc::encode_program(&a.program) {
                        encoded += 1;
                        let _ = dxbc::decode_program(&bytes);
                    }
                }
                Err(e) => bump(&mut results, e.code()),
            }
            if dxbc::assemble_container(&text).is_ok() {
                containers_ok += 1;
            }
            Ok(())
        });
        if let Err(what) = outcome {
            failures.add(&what, text.len(), || {
                format!(
                    "text case {case} (DXBC_MUTATION_SEED={:#x}), mutation {kind}: {what}\n    input ({} bytes, hex): {}\n    input (debug): {text:?}",
                    seed ^ 0x7E47,
                    text.len(),
                    hex(text.as_bytes())
                )
            });
        }
    }
    eprintln!(
        "mutated listings: {cases} cases from {} listings in {:.1} s",
        texts.len(),
        started.elapsed().as_secs_f64()
    );
    eprintln!("  mutations: {by_kind:?}");
    eprintln!("  assemble: {results:?}; encoded {encoded}; assemble_container ok {containers_ok}");
    failures.finish("mutated listings");
}

/// The two panics/mismatches this fuzzer found, as fixed inputs.
#[test]
fn found_by_fuzzing() {
    // asm.rs `strip_line_prefix` sliced `head[..2]` inside a multi-byte character.
    for text in [
        "/\u{10c9af}/ x\nps_5_0\nret\n",
        "\u{feff} Input signature:\nps_5_0\n",
    ] {
        let _ = dxbc::assemble(text);
        let _ = dxbc::assemble_container(text);
    }
    // A signature name holding a line break put the rest of its table row into the listing's code.
    let mut data = Vec::new();
    for w in [1u32, 8, 32, 0, 0, 3, 0, 0x0F0F] {
        data.extend_from_slice(&w.to_le_bytes());
    }
    data.extend_from_slice(b"A\nps_5_0 {\0\0");
    let sig = Signature::parse(FourCC::ISGN, &data).expect("handmade ISGN");
    let table = sig.to_fxc_comment();
    assert!(table.lines().all(|l| l.starts_with("//")), "{table}");
    assert!(table.contains("A\\x0aps_5_0"), "{table}");
}
