//! `dxdiff info FILE`: what a container holds. A wrong stored checksum is reported, not
//! rejected; a chunk that does not parse is reported with its error and the rest still prints.

use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use dxbc::chunks::rdef::Rdef;
use dxbc::chunks::sfi0::Sfi0;
use dxbc::chunks::signature::Signature;
use dxbc::chunks::stat::Stat;
use dxbc::{Container, FourCC, Syntax};

use super::{CliResult, dxbc_err, read_blob, write_output};

/// The arguments of `dxdiff info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// A DXBC container or a dxdiff-case/1 file.
    file: PathBuf,
}

/// Describe the container: size, checksum, chunks, shader model, declarations.
pub fn run(a: &InfoArgs) -> CliResult {
    let blob = read_blob(&a.file)?;
    let container = Container::parse(&blob).map_err(dxbc_err(&a.file))?;
    let mut s = String::new();
    let fresh = dxbc::dxbc_checksum(&blob);
    let words = |c: [u32; 4]| c.map(|w| format!("{w:08x}")).join(" ");
    let _ = writeln!(
        s,
        "size: {} bytes, {} chunks",
        blob.len(),
        container.chunks.len()
    );
    if let Some(stored) = container.stored_checksum {
        let verdict = if dxbc::checksum_matches(&blob) {
            "valid"
        } else {
            "WRONG"
        };
        let _ = writeln!(
            s,
            "checksum: {} ({verdict}; computed {})",
            words(stored),
            words(fresh)
        );
    }
    for c in &container.chunks {
        let _ = writeln!(s, "  chunk {} {} bytes", c.tag, c.data.len());
    }
    // The token stream is required; everything else is described when present.
    let shader = super::decode_to_show(&a.file, &blob)?;
    let p = &shader.program;
    let _ = writeln!(s, "shader model: {}", p.version);
    let decls = p
        .instructions
        .iter()
        .filter(|i| i.info().is_declaration())
        .count();
    let _ = writeln!(
        s,
        "instructions: {} ({} declarations)",
        p.instructions.len(),
        decls
    );
    for c in &container.chunks {
        describe_chunk(&mut s, c.tag, &c.data);
    }
    let _ = writeln!(s, "declarations:");
    let listing = dxbc::disassemble(p, Syntax::Fxc);
    for line in listing.lines().skip(1) {
        if line.starts_with("dcl_") || line.starts_with("  ") && line.trim_start().starts_with('{')
        {
            let _ = writeln!(s, "  {line}");
        }
    }
    write_output(None, s.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn describe_chunk(s: &mut String, tag: FourCC, data: &[u8]) {
    if Signature::is_signature_tag(tag) {
        match Signature::parse(tag, data) {
            Ok(sig) => s.push_str(&sig.to_fxc_comment()),
            Err(e) => {
                let _ = writeln!(s, "{tag}: does not parse: {e}");
            }
        }
        return;
    }
    match tag {
        FourCC::RDEF => match Rdef::parse(data) {
            Ok(r) => {
                let _ = writeln!(
                    s,
                    "RDEF: target {}.{}, creator {:?}, {} constant buffers, {} bindings",
                    r.target_major,
                    r.target_minor,
                    r.creator,
                    r.constant_buffers.len(),
                    r.bindings.len()
                );
            }
            Err(e) => {
                let _ = writeln!(s, "RDEF: does not parse: {e}");
            }
        },
        FourCC::STAT => match Stat::parse(data) {
            Ok(st) => {
                let _ = writeln!(s, "STAT: {} words", st.words.len());
            }
            Err(e) => {
                let _ = writeln!(s, "STAT: does not parse: {e}");
            }
        },
        FourCC::SFI0 => match Sfi0::parse(data) {
            Ok(f) => {
                let _ = writeln!(s, "SFI0: {:#x} {}", f.flags, f.names().join(" | "));
            }
            Err(e) => {
                let _ = writeln!(s, "SFI0: does not parse: {e}");
            }
        },
        _ => {}
    }
}
