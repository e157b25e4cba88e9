//! The validation pass after decoding: each hostile input the probe found, and the limits table
//! as docs/reliability.md prints it. Every case here decoded (and then aborted or misled the
//! harness downstream) before `Shader::parse` validated.

mod common;

use dxbc::{DxbcError, Limit, Shader};

/// A container from assembly text (the assembler does not validate: it is how hostile programs
/// are written down).
fn blob(text: &str) -> Vec<u8> {
    dxbc::assemble_container(text)
        .unwrap_or_else(|e| panic!("assembles: {e}\n{text}"))
        .to_bytes()
}

fn parse_err(text: &str) -> DxbcError {
    match Shader::parse(&blob(text)) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

fn assert_limit(text: &str, want: Limit) {
    let e = parse_err(text);
    assert_eq!(e.code(), "dxbc.limit", "{e}\n{text}");
    match &e {
        DxbcError::Limit { limit, .. } => assert_eq!(*limit, want, "{e}"),
        other => panic!("not a limit error: {other}"),
    }
    let msg = e.to_string();
    assert!(msg.starts_with("word "), "{msg}");
    assert!(msg.contains(&format!("{want:?}")), "{msg}");
}

fn assert_undeclared(text: &str) {
    let e = parse_err(text);
    assert_eq!(e.code(), "dxbc.undeclared", "{e}\n{text}");
}

const PS_HEAD: &str = "ps_5_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\n";

#[test]
fn probe_findings_are_limit_errors() {
    assert_limit(
        "ps_5_0\ndcl_output o0.xyzw\ndcl_temps 0xffffffff\nmov o0.xyzw, l(0,0,0,0)\nret\n",
        Limit::TempRegisters,
    );
    assert_limit(
        "ps_5_0\ndcl_output o0.xyzw\ndcl_indexableTemp x0[4294967295], 4\nmov o0.xyzw, l(0,0,0,0)\nret\n",
        Limit::TempRegisters,
    );
    assert_limit(
        "ps_5_0\ndcl_output o0.xyzw\ndcl_indexableTemp x0[100000000], 4\nmov o0.xyzw, l(0,0,0,0)\nret\n",
        Limit::TempRegisters,
    );
    assert_limit(
        "ps_5_0\ndcl_input_ps linear v4000000000.xy\ndcl_output o0.xyzw\nmov o0.xyzw, l(0,0,0,0)\nret\n",
        Limit::InputRegisters,
    );
    assert_limit(
        "vs_5_0\ndcl_output o2147483648.xyzw\nret\n",
        Limit::OutputRegisters,
    );
    assert_limit(
        "ps_5_0\ndcl_output o0.xyzw\ndcl_temps 1\nmov r4294967295.x, l(1)\nmov o0.xyzw, r0.xyzw\nret\n",
        Limit::TempRegisters,
    );
    assert_limit(
        "ps_5_0\ndcl_input_ps linear v65536.xy\ndcl_output o0.xyzw\nret\n",
        Limit::InputRegisters,
    );
    assert_limit(
        "ps_5_0\ndcl_output o33554432.xyzw\nret\n",
        Limit::PixelOutputRegisters,
    );
    // A pixel shader has 8 render targets.
    assert_limit(
        "ps_5_0\ndcl_output o8.xyzw\nret\n",
        Limit::PixelOutputRegisters,
    );
    // The bit flip that declared v32 while the code read v0.
    assert_limit(
        "ps_5_0\ndcl_input_ps linear v32.xy\ndcl_output o0.xyzw\nmov o0.xy, v0.xyxx\nret\n",
        Limit::InputRegisters,
    );
}

#[test]
fn declaration_payloads_are_bounded() {
    let cs = |body: &str| format!("cs_5_0\n{body}\nret\n");
    assert_limit(&cs("dcl_thread_group 1025, 1, 1"), Limit::ThreadGroupX);
    assert_limit(&cs("dcl_thread_group 1, 1, 65"), Limit::ThreadGroupZ);
    assert_limit(
        &cs("dcl_thread_group 64, 32, 1"),
        Limit::ThreadGroupInvocations,
    );
    assert_limit(
        "cs_4_0\ndcl_thread_group 1024, 1, 1\nret\n",
        Limit::Cs4xThreadGroupInvocations,
    );
    assert_limit(
        &cs("dcl_tgsm_raw g0, 32768\ndcl_tgsm_raw g1, 4\ndcl_thread_group 1, 1, 1"),
        Limit::GroupSharedBytes,
    );
    assert_limit(
        &cs("dcl_tgsm_structured g0, 4, 4294967295\ndcl_thread_group 1, 1, 1"),
        Limit::GroupSharedBytes,
    );
    assert_limit(
        &cs("dcl_tgsm_structured g0, 4096, 1\ndcl_thread_group 1, 1, 1"),
        Limit::StructureStrideBytes,
    );
    assert_limit(
        &cs("dcl_constantbuffer cb14[1], immediateIndexed\ndcl_thread_group 1, 1, 1"),
        Limit::ConstantBuffers,
    );
    assert_limit(
        &cs("dcl_constantbuffer cb0[4097], immediateIndexed\ndcl_thread_group 1, 1, 1"),
        Limit::ConstantBufferRows,
    );
    assert_limit(
        &cs("dcl_resource_buffer (float,float,float,float) t128\ndcl_thread_group 1, 1, 1"),
        Limit::ShaderResources,
    );
    assert_limit(
        &cs("dcl_sampler s16, mode_default\ndcl_thread_group 1, 1, 1"),
        Limit::Samplers,
    );
    assert_limit(
        &cs("dcl_uav_raw u64\ndcl_thread_group 1, 1, 1"),
        Limit::UnorderedAccessViews,
    );
    assert_limit("gs_5_0\ndcl_maxout 1025\nret\n", Limit::GsMaxOutputVertices);
    // r# and x# share the 4096.
    assert_limit(
        "ps_5_0\ndcl_output o0.xyzw\ndcl_temps 4000\ndcl_indexableTemp x0[97], 4\nret\n",
        Limit::TempRegisters,
    );
}

#[test]
fn nesting_deeper_than_64_is_a_limit_error() {
    let nest = |n: usize| {
        let mut s = String::from("ps_5_0\ndcl_output o0.xyzw\n");
        s.push_str(&"loop\n".repeat(n));
        s.push_str(&"endloop\n".repeat(n));
        s.push_str("ret\n");
        s
    };
    Shader::parse(&blob(&nest(64))).expect("64 levels are allowed");
    assert_limit(&nest(65), Limit::FlowControlNesting);
    // The probe's 20,000 levels are rejected without building anything per level.
    assert_limit(&nest(20_000), Limit::FlowControlNesting);
}

#[test]
fn registers_must_be_declared() {
    // r# beyond dcl_temps.
    assert_undeclared("ps_5_0\ndcl_output o0.xyzw\ndcl_temps 2\nmov r2.x, l(1)\nret\n");
    // A bit flip that moved the declaration away from the register the code reads.
    assert_undeclared(
        "ps_5_0\ndcl_input_ps linear v5.xy\ndcl_output o0.xyzw\nmov o0.xy, v0.xyxx\nret\n",
    );
    assert_undeclared("ps_5_0\ndcl_output o1.xyzw\nmov o0.xyzw, l(0,0,0,0)\nret\n");
    // x# not declared, or indexed past its length.
    assert_undeclared(&format!("{PS_HEAD}dcl_temps 1\nmov x0[0].x, l(1)\nret\n"));
    assert_undeclared(&format!(
        "{PS_HEAD}dcl_indexableTemp x0[4], 4\nmov x0[4].x, l(1)\nret\n"
    ));
    // cb slot not declared, or an immediate row past its declared size.
    assert_undeclared(&format!("{PS_HEAD}mov o0.xyzw, cb1[0].xyzw\nret\n"));
    assert_undeclared(&format!(
        "{PS_HEAD}dcl_constantbuffer cb0[2], immediateIndexed\nmov o0.xyzw, cb0[2].xyzw\nret\n"
    ));
    // t#, s#, u#, g# not declared.
    assert_undeclared(&format!(
        "{PS_HEAD}dcl_sampler s0, mode_default\ndcl_temps 1\nsample r0.xyzw, v0.xyxx, t0.xyzw, s0\nret\n"
    ));
    assert_undeclared("cs_5_0\ndcl_thread_group 1, 1, 1\nstore_raw u0.x, l(0), l(1)\nret\n");
    assert_undeclared("cs_5_0\ndcl_thread_group 1, 1, 1\nstore_raw g0.x, l(0), l(1)\nret\n");
    // icb[n] beyond the immediate constant buffer.
    assert_undeclared(&format!(
        "{PS_HEAD}dcl_immediateConstantBuffer {{ {{ 1, 2, 3, 4}} }}\nmov o0.xyzw, icb[1].xyzw\nret\n"
    ));
}

/// The declared sets hold each slot the limits allow and any `g#` id: the highest slots of each
/// file, ids past 128, and a constant buffer declared twice (the later size counts).
#[test]
fn declarations_are_found_at_every_slot() {
    let ok = |text: &str| {
        Shader::parse(&blob(text)).unwrap_or_else(|e| panic!("{e}\n{text}"));
    };
    let sample = |t: u32, s: u32| format!("sample r0.xyzw, v0.xyxx, t{t}.xyzw, s{s}\n");
    let decl = |t: u32, s: u32| {
        format!(
            "dcl_resource_texture2d (float,float,float,float) t{t}\ndcl_sampler s{s}, mode_default\n"
        )
    };
    ok(&format!(
        "{PS_HEAD}{}{}dcl_temps 1\n{}{}mov o0.xyzw, r0.xyzw\nret\n",
        decl(127, 15),
        decl(0, 0),
        sample(127, 15),
        sample(0, 0)
    ));
    assert_undeclared(&format!(
        "{PS_HEAD}{}dcl_temps 1\n{}ret\n",
        decl(126, 14),
        sample(127, 14)
    ));
    assert_undeclared(&format!(
        "{PS_HEAD}{}dcl_temps 1\n{}ret\n",
        decl(126, 14),
        sample(126, 15)
    ));
    let cs = |body: &str| format!("cs_5_0\ndcl_thread_group 1, 1, 1\n{body}ret\n");
    ok(&cs("dcl_uav_raw u63\nstore_raw u63.x, l(0), l(1)\n"));
    assert_undeclared(&cs("dcl_uav_raw u62\nstore_raw u63.x, l(0), l(1)\n"));
    ok(&cs(
        "dcl_tgsm_raw g200, 4\ndcl_tgsm_raw g127, 4\nstore_raw g200.x, l(0), l(1)\n\
         store_raw g127.x, l(0), l(1)\n",
    ));
    assert_undeclared(&cs("dcl_tgsm_raw g200, 4\nstore_raw g201.x, l(0), l(1)\n"));
    assert_undeclared(&cs("dcl_tgsm_raw g200, 4\nstore_raw g72.x, l(0), l(1)\n"));
    // v31 and o7 (a pixel program's last output), declared and not.
    ok("ps_5_0\ndcl_input_ps linear v31.xy\ndcl_output o7.xyzw\nmov o7.xy, v31.xyxx\nret\n");
    assert_undeclared(
        "ps_5_0\ndcl_input_ps linear v30.xy\ndcl_output o7.xyzw\nmov o7.xy, v31.xyxx\nret\n",
    );
    let cb = |first: u32, second: u32, row: u32| {
        format!(
            "{PS_HEAD}dcl_constantbuffer cb13[{first}], immediateIndexed\n\
             dcl_constantbuffer cb13[{second}], immediateIndexed\nmov o0.xyzw, cb13[{row}].xyzw\nret\n"
        )
    };
    ok(&cb(2, 8, 5));
    assert_undeclared(&cb(8, 2, 5));
}

#[test]
fn dynamic_indices_and_unsized_buffers_are_not_checked_statically() {
    let ok = |text: &str| {
        Shader::parse(&blob(text)).unwrap_or_else(|e| panic!("{e}\n{text}"));
    };
    // Relative cb rows: D3D reads 0 past the end at run time.
    ok(&format!(
        "{PS_HEAD}dcl_constantbuffer cb0[2], dynamicIndexed\ndcl_temps 1\nftou r0.x, v0.x\n\
         mov o0.xyzw, cb0[r0.x + 5].xyzw\nret\n"
    ));
    // A declared size of 0 states no size.
    ok(&format!(
        "{PS_HEAD}dcl_constantbuffer cb0[0], immediateIndexed\nmov o0.xyzw, cb0[9].xyzw\nret\n"
    ));
    // Relative x# elements.
    ok(&format!(
        "{PS_HEAD}dcl_indexableTemp x0[4], 4\ndcl_temps 1\nftou r0.x, v0.x\n\
         mov x0[r0.x + 7].x, l(1)\nmov o0.xyzw, l(0,0,0,0)\nret\n"
    ));
}

#[test]
fn register_counts_stay_within_the_limits() {
    // A program built in code, never validated, still cannot ask for more than the limits.
    let text = "ps_5_0\ndcl_temps 0xffffffff\ndcl_output o4000000.xyzw\nmov r4294967294.x, v65536.x\nret\n";
    let program = dxbc::assemble(text).expect("assembles").program;
    let counts = program.register_counts();
    assert_eq!(counts.temps, Limit::TempRegisters.value());
    assert_eq!(counts.inputs, Limit::InputRegisters.value());
    assert_eq!(counts.outputs, Limit::PixelOutputRegisters.value());
    assert!(program.validate().is_err());
}

/// Every real program still validates: the shared corpora and the project's examples.
#[test]
fn every_corpus_and_example_program_validates() {
    let mut blobs = common::all_blobs().unwrap_or_default();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for entry in std::fs::read_dir(root.join("examples/cases"))
        .expect("examples/cases")
        .flatten()
    {
        let text = std::fs::read_to_string(entry.path()).expect("readable case");
        let v: serde_json::Value = serde_json::from_str(&text).expect("case json");
        if let Some(hex) = v["dxbc"].as_str() {
            blobs.push((entry.path().display().to_string(), common::unhex(hex)));
        }
    }
    for entry in std::fs::read_dir(root.join("examples/shaders"))
        .expect("examples/shaders")
        .flatten()
    {
        let p = entry.path();
        match p.extension().and_then(|e| e.to_str()) {
            Some("dxbc") => blobs.push((p.display().to_string(), std::fs::read(&p).expect("blob"))),
            Some("asm") => {
                let text = std::fs::read_to_string(&p).expect("text");
                blobs.push((p.display().to_string(), blob(&text)));
            }
            _ => {}
        }
    }
    assert!(blobs.len() >= 3, "found {} programs", blobs.len());
    for (name, bytes) in &blobs {
        Shader::parse(bytes).unwrap_or_else(|e| panic!("{name}: [{}] {e}", e.code()));
    }
    println!("{} programs validate", blobs.len());
}

/// docs/reliability.md's "Limits" section prints the table as `limits::markdown_table` makes it.
#[test]
fn reliability_doc_lists_the_limits_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reliability.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let table = dxbc::limits::markdown_table();
    assert!(
        doc.contains(&table),
        "docs/reliability.md's limits table is missing or stale; it should hold:\n{table}"
    );
}

fn assert_invalid(text: &str, what: &str) {
    let e = parse_err(text);
    assert_eq!(e.code(), "tpf.invalid-field", "{e}\n{text}");
    assert!(e.to_string().contains(what), "{e}\n{text}");
}

/// Found by mutating corpus programs: each decoded and validated, and then reached the
/// translator as an interface it could not build (a `dcl_input` of an output register became
/// an argument copied into a register file too short for it).
#[test]
fn interface_declarations_name_registers_of_their_direction() {
    assert_invalid(
        "vs_5_0\ndcl_input v0.xyzw\ndcl_input o1.xyzw\ndcl_output_siv o0.xyzw, position\n\
         mov o0.xyzw, v0.xyzw\nret\n",
        "input declaration",
    );
    assert_invalid(
        "ps_5_0\ndcl_input_ps linear v0.xy\ndcl_output v1.xy\ndcl_output o0.xyzw\n\
         mov o0.xyzw, v0.xyxx\nret\n",
        "output declaration",
    );
    // Special registers are declared too, each in its direction.
    assert_invalid(
        "ps_5_0\ndcl_input oDepth\ndcl_output o0.xyzw\nmov o0.xyzw, l(0,0,0,0)\nret\n",
        "input declaration",
    );
    assert!(
        Shader::parse(&blob(
            "ps_5_0\ndcl_input vCoverage\ndcl_output oDepth\ndcl_output o0.xyzw\n\
             mov oDepth, l(0)\nmov o0.xyzw, vCoverage.xxxx\nret\n"
        ))
        .is_ok()
    );
}

/// A compute program's inputs are its thread-id registers and it has no outputs: a `v#` or
/// `o#` in one, declared, read, or in a relative index, is refused.
#[test]
fn a_compute_program_has_no_v_or_o_registers() {
    let cs = |body: &str| format!("cs_5_0\ndcl_thread_group 1, 1, 1\n{body}ret\n");
    assert_invalid(&cs("dcl_input v0.x\n"), "compute program");
    assert_invalid(&cs("dcl_temps 1\nmov r0.x, v0.x\n"), "compute program");
    assert_invalid(&cs("dcl_temps 1\nmov o0.x, l(1)\n"), "compute program");
    assert_invalid(
        &cs(
            "dcl_immediateConstantBuffer { { 1, 2, 3, 4} }\ndcl_temps 1\nmov r0.x, icb[o2.y + 0].x\n",
        ),
        "compute program",
    );
    assert!(
        Shader::parse(&blob(&cs(
            "dcl_input vThreadID.x\ndcl_temps 1\nmov r0.x, vThreadID.x\n"
        )))
        .is_ok()
    );
}

/// A structure of no bytes has no elements to index, and `bufinfo` divides by its stride.
#[test]
fn a_structure_stride_of_zero_is_refused() {
    let cs = |body: &str| format!("cs_5_0\ndcl_thread_group 1, 1, 1\n{body}ret\n");
    assert_invalid(&cs("dcl_uav_structured u0, 0\n"), "structure stride of 0");
    assert_invalid(
        &cs("dcl_resource_structured t0, 0\n"),
        "structure stride of 0",
    );
    assert_invalid(
        &cs("dcl_tgsm_structured g0, 0, 4\n"),
        "structure stride of 0",
    );
    assert!(Shader::parse(&blob(&cs("dcl_uav_structured u0, 4\n"))).is_ok());
}

/// A special register carries no index (`oDepth`, `vThreadID`): one with an index, as in a
/// mutant's `cb1[oDepth1.x + 1]`, decodes (the token allows it) and is refused by validation,
/// as a destination, as a declaration and inside a relative index.
#[test]
fn a_special_register_with_an_index_is_refused() {
    let text = "ps_5_0\ndcl_constantbuffer cb0[4], dynamicIndexed\ndcl_output oDepth\ndcl_temps 1\n\
                mov r0.x, cb0[r0.x + 1].x\nmov oDepth, r0.x\nret\n";
    let program = dxbc::assemble(text).expect("assembles").program;
    assert!(program.validate().is_ok());
    let o_depth =
        || dxbc::Operand::reg(dxbc::OperandType::OutputDepth, dxbc::Components::One, &[1]);
    let mutants: [&dyn Fn(&mut dxbc::Program); 3] = [
        &|p| {
            p.instructions[4].operands[0]
                .indices
                .push(dxbc::Index::Imm32(1))
        },
        &|p| {
            p.instructions[1].operands[0]
                .indices
                .push(dxbc::Index::Imm32(1))
        },
        &|p| {
            let row = &mut p.instructions[3].operands[1].indices[1];
            *row = dxbc::Index::Imm32Relative(1, Box::new(o_depth()));
        },
    ];
    for mutate in mutants {
        let mut p = program.clone();
        mutate(&mut p);
        let bytes = dxbc::encode_program(&p).expect("encodes");
        let decoded = dxbc::decode_program(&bytes).expect("the token allows an index");
        let e = decoded.validate().expect_err("an indexed oDepth validates");
        assert_eq!(e.code(), "tpf.invalid-field", "{e}");
        assert!(e.to_string().contains("without an index"), "{e}");
    }
}

/// Output registers are write-only (the SM4/SM5 register tables): one read as a source, or in
/// a relative index, is refused; written, it validates.
#[test]
fn an_output_register_is_never_read() {
    let ps = |body: &str| {
        format!(
            "ps_5_0\ndcl_immediateConstantBuffer {{ {{ 1, 2, 3, 4}} }}\ndcl_output o0.xyzw\n\
             dcl_output oDepth\ndcl_temps 1\n{body}ret\n"
        )
    };
    for body in [
        "mov o0.xyzw, l(1,1,1,1)\nadd r0.x, o0.x, l(1)\n",
        "mov oDepth, l(0)\nmov o0.xyzw, oDepth\n",
        "mov o0.xyzw, l(0,0,0,0)\nmov r0.x, icb[o0.y + 0].x\n",
        "mov o0.xyzw, l(0,0,0,0)\nmov r0.x, -|o0.w|\n",
    ] {
        assert_invalid(&ps(body), "output register read as a source");
    }
    assert!(
        Shader::parse(&blob(&ps(
            "mov r0.x, l(1)\nmov o0.xyzw, r0.xxxx\nmov oDepth, r0.x\n"
        )))
        .is_ok()
    );
}

/// An fxc-style class-linkage program, the shape of the DirectX SDK's DynamicShaderLinkage11
/// pixel shader: function bodies, tables and an interface, a `this` pointer, and a texture and
/// sampler chosen at run time from the instance data (`t[r0.x + 0]`) among the registers the
/// classes use (here t3 and t4 only, none at t0).
const CLASS_LINKAGE: &str = "ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_sampler s2, mode_default
dcl_resource_texture2d (float,float,float,float) t3
dcl_resource_texture2d (float,float,float,float) t4
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][1] = {ft0, ft1}
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 2
fcall fp0[0][0]
ret
label fb0
mov r0.xy, this[0].zwzz
sample r1.xyzw, v0.xyxx, t[r0.x + 0].xyzw, s[r0.y + 0]
mov o0.xyzw, r1.xyzw
ret
label fb1
mov o0.xyzw, l(0,0,0,0)
ret
";

#[test]
fn class_linkage_reaches_its_registers_at_run_time() {
    // Refused by the D3D-limits validation of issue 14 (`t[r] is not declared`); SM5.0 allows a
    // run-time t#/s#/cb# in a program with interfaces.
    let shader = Shader::parse(&blob(CLASS_LINKAGE)).expect("valid class linkage");
    assert_eq!(shader.program.version.major, 5);
    // The same reads without interfaces are not SM5.0.
    let plain = "ps_5_0\ndcl_sampler s2, mode_default\ndcl_resource_texture2d (float,float,float,float) t3\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 2\nftou r0.x, v0.x\nsample r1.xyzw, v0.xyxx, t[r0.x + 0].xyzw, s2\nmov o0.xyzw, r1.xyzw\nret\n";
    let e = parse_err(plain);
    assert_eq!(e.code(), "dxbc.undeclared", "{e}");
    assert!(
        e.to_string().contains("only in a program with interfaces"),
        "{e}"
    );
    // With interfaces but no texture declared at all, there is nothing to reach.
    let none = CLASS_LINKAGE
        .replace("dcl_resource_texture2d (float,float,float,float) t3\n", "")
        .replace("dcl_resource_texture2d (float,float,float,float) t4\n", "");
    assert_eq!(parse_err(&none).code(), "dxbc.undeclared");
    // Decoding alone never refuses a well-formed container: what shows a program reads it so.
    let plain_blob = blob(plain);
    let decoded = Shader::decode(&plain_blob).expect("decodes");
    assert!(decoded.program.validate().is_err());
}
