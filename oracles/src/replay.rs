//! Running case files on the interpreter and checking their expectations: the `--executor
//! interp` side of `dxdiff replay`.

use dxbc::Program;

use crate::case::register_of;
use crate::case::{BufferDesc, CaseFile, Expect, Input, Run, words};
use crate::interp::{
    self, Address, Buffer, Format, InterpError, Resources, Sampler, Srv, TexelFormat, Texture2d,
    TextureShape, UavTexture,
};
use crate::verdict::{Inconclusive, Judge, Skip, SkipKind};

/// The verdict on one run. It speaks [`crate::verdict`]'s words where they fit, so that an
/// inconclusive run is never mistaken for a failure: the reason is an [`Inconclusive`], a skip
/// carries its [`SkipKind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunOutcome {
    /// Every expectation held.
    Passed,
    /// Passed because every difference falls under these catalog entries: the interpreter
    /// recorded an event of their domains in the run, and the translation relied on them.
    Adapted(Vec<String>),
    /// An expectation did not hold, or the case, its inputs or the program were bad; the reason.
    Failed(String),
    /// Not judged: the interpreter or the executor could not finish the run.
    Inconclusive(Inconclusive),
    /// Not run, with the reason.
    Skipped(RunSkip),
}

impl RunOutcome {
    /// True for [`RunOutcome::Failed`] only: inconclusive and skipped runs are no failures.
    pub fn is_failure(&self) -> bool {
        matches!(self, RunOutcome::Failed(_))
    }
}

/// Why a run did not run: its [`SkipKind`] where one names the reason (a run-level reason such
/// as [`crate::case::RunFlag::RequiresDouble`] or inputs the executor cannot bind has none),
/// and the detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSkip {
    /// The verdict's reason, or `None` for a run-level reason.
    pub kind: Option<SkipKind>,
    /// The reason in words.
    pub detail: String,
}

impl RunSkip {
    /// A skip no [`SkipKind`] names.
    pub fn unkinded(detail: impl Into<String>) -> RunSkip {
        RunSkip {
            kind: None,
            detail: detail.into(),
        }
    }
}

impl From<Skip> for RunSkip {
    fn from(s: Skip) -> RunSkip {
        RunSkip {
            kind: Some(s.kind),
            detail: s.detail,
        }
    }
}

impl std::fmt::Display for RunSkip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            Some(k) => write!(f, "{k}: {}", self.detail),
            None => f.write_str(&self.detail),
        }
    }
}

/// What the interpreter produced for one run, in the shape `expect` addresses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observed {
    /// `o#` of the invocation `expect` addresses (the first unless the run names one).
    pub outputs: Vec<[u32; 4]>,
    /// That invocation executed `discard`.
    pub discarded: bool,
    /// Final UAV contents by slot.
    pub uavs: std::collections::BTreeMap<u32, Vec<u32>>,
    /// Domain events of all invocations, OR-ed together.
    pub events: crate::domain::Events,
    /// Per `o#` of that invocation: which words are NaNs whose payload D3D leaves free.
    pub free_outputs: Vec<[bool; 4]>,
    /// The same per UAV word, by slot.
    pub free_uavs: std::collections::BTreeMap<u32, Vec<bool>>,
    /// What the program relies on that D3D leaves undefined.
    pub findings: Vec<interp::Finding>,
}

/// The `v#` registers of each invocation.
pub type InvocationInputs = Vec<Vec<[u32; 4]>>;

/// Bind a run's inputs. `v#` registers come back separately, per invocation.
pub fn resources(run: &Run) -> Result<(Resources, InvocationInputs), String> {
    let mut res = Resources::default();
    let mut single: Vec<[u32; 4]> = Vec::new();
    for (key, input) in &run.inputs {
        if let Some(n) = register_of(key, "cb") {
            let Input::Words(w) = input else {
                return Err(format!("`{key}` must be a list of words"));
            };
            res.cbs.insert(n, words(w));
        } else if let Some(n) = register_of(key, "v") {
            let Input::Words(w) = input else {
                return Err(format!("`{key}` must be a list of words"));
            };
            set_register(&mut single, n, &words(w));
        } else if let Some(n) = register_of(key, "u") {
            if let Input::Buffer(BufferDesc {
                counter: Some(c), ..
            }) = input
            {
                res.counters.insert(n, c.0);
            }
            let uav = match input {
                Input::Buffer(b) => buffer(b.size_bytes, &words(&b.words), b.format.as_deref())?,
                Input::Texture { texture2d } => uav_texture(texture2d)?,
                Input::Words(_) | Input::Sampler(_) => {
                    return Err(format!("`{key}` must be a buffer or a texture"));
                }
            };
            res.uavs.insert(n, uav);
        } else if let Some(n) = register_of(key, "t") {
            let srv = match input {
                Input::Buffer(b) => {
                    Srv::Buffer(buffer(b.size_bytes, &words(&b.words), b.format.as_deref())?)
                }
                Input::Texture { texture2d } => Srv::Texture2d(texture(texture2d)?),
                Input::Words(_) | Input::Sampler(_) => {
                    return Err(format!("`{key}` is not a buffer or texture"));
                }
            };
            res.srvs.insert(n, srv);
        } else if let Some(n) = register_of(key, "s") {
            let Input::Sampler(s) = input else {
                return Err(format!("`{key}` must be a sampler"));
            };
            res.samplers.insert(n, sampler(s)?);
        } else {
            return Err(format!("unknown input `{key}`"));
        }
    }
    let invocations = match &run.invocations {
        None => vec![single],
        Some(list) => list
            .iter()
            .map(|regs| {
                let mut v = Vec::new();
                for (key, w) in regs {
                    let n = register_of(key, "v")
                        .ok_or_else(|| format!("invocation input `{key}` is not v#"))?;
                    set_register(&mut v, n, &words(w));
                }
                Ok(v)
            })
            .collect::<Result<_, String>>()?,
    };
    Ok((res, invocations))
}

fn set_register(regs: &mut Vec<[u32; 4]>, n: u32, w: &[u32]) {
    let n = n as usize;
    if regs.len() <= n {
        regs.resize(n + 1, [0; 4]);
    }
    for (c, v) in w.iter().take(4).enumerate() {
        regs[n][c] = *v;
    }
}

/// A buffer of `size_bytes` whose first words are given and the rest zero.
fn buffer(size_bytes: u32, w: &[u32], format: Option<&str>) -> Result<Buffer, String> {
    let format = match format {
        Some(f) => {
            Some(Format::parse(f).ok_or_else(|| format!("buffer format {f} is not supported"))?)
        }
        None => None,
    };
    let mut words = w.to_vec();
    words.resize((size_bytes as usize).div_ceil(4).max(words.len()), 0);
    Ok(Buffer {
        words,
        size_bytes,
        format,
        texture: None,
    })
}

/// A typed UAV texture input: a texture of one level (a UAV views one), not a cube, in a
/// format the reference can store to; its texels become the UAV's words.
fn uav_texture(t: &crate::case::TextureDesc) -> Result<Buffer, String> {
    let tex = texture(t)?;
    if tex.mips.len() != 1 || tex.cube() {
        return Err(format!(
            "a UAV texture has exactly one level and is no cube; this one has {} levels{}",
            tex.mips.len(),
            if tex.cube() { " and is a cube" } else { "" }
        ));
    }
    if tex.format.encode([0; 4], &mut 0).is_none() {
        return Err(format!("a {} UAV cannot be stored to", t.format));
    }
    let shape = UavTexture {
        width: tex.width,
        height: tex.height,
        layers: tex.layer_count(),
        view: tex.view,
        format: tex.format,
    };
    let words = tex.mips.into_iter().next().unwrap_or_default();
    Ok(Buffer {
        size_bytes: u32::try_from(words.len() * 4).map_err(|_| "a UAV texture too large")?,
        words,
        format: None,
        texture: Some(shape),
    })
}

/// A texture input as the interpreter keeps it: its words in its DXGI format, checked for
/// shape.
fn texture(t: &crate::case::TextureDesc) -> Result<Texture2d, String> {
    let format = TexelFormat::parse(&t.format)
        .ok_or_else(|| format!("texture format {} is not supported", t.format))?;
    // Every level holds exactly its texels, so that the interpreter and a device read the same
    // texture; a chain longer than the full one is no texture a device can make.
    if t.cube && t.width != t.height {
        return Err(format!(
            "a cube's faces are square; not {}×{}",
            t.width, t.height
        ));
    }
    if let Some(n) = t.samples
        && (!(2..=32).contains(&n) || t.cube || t.layers.is_some() || t.depth.is_some())
    {
        return Err(format!(
            "a multisampled texture has 2 to 32 `samples` and no `cube`, `layers` or `depth`; \
             not {n} samples"
        ));
    }
    let view = match (t.cube, t.layers, t.depth, t.texture1d) {
        _ if t.samples.is_some() => TextureShape::Multisampled,
        (true, None, None, false) => TextureShape::Cube,
        // `layers` of a cube counts cubes: a `TextureCubeArray`.
        (true, Some(n), None, false) if (1..=341).contains(&n) => TextureShape::CubeArray,
        (false, Some(_), None, false) => TextureShape::Array,
        (false, None, Some(d), false) if (1..=2048).contains(&d) => TextureShape::Volume,
        (false, None, None, false) => TextureShape::Plain,
        (false, None, None, true) if t.height == 1 => TextureShape::Line,
        (false, Some(_), None, true) if t.height == 1 => TextureShape::LineArray,
        _ => {
            return Err(
                "a texture is one of: plain, `layers` (an array), `cube` (with `layers`, an \
                 array of 1 to 341 cubes, D3D11's 2,048 faces), `depth` (a 3D texture of 1 to \
                 2,048 slices, D3D11's limit), or `texture1d` (height 1, with or without \
                 `layers`)"
                    .into(),
            );
        }
    };
    let layers = match view {
        TextureShape::Multisampled => t.samples.unwrap_or(1),
        TextureShape::Cube => 6,
        TextureShape::CubeArray => 6 * t.layers.unwrap_or(1),
        TextureShape::Volume => t.depth.unwrap_or(1),
        _ => t.layers.unwrap_or(1).max(1),
    };
    // A 3D texture's chain halves its depth too, so the deepest axis may lengthen it.
    let deepest = if view == TextureShape::Volume {
        layers
    } else {
        1
    };
    let full_chain = if view == TextureShape::Multisampled {
        1
    } else {
        32 - t.width.max(t.height).max(deepest).max(1).leading_zeros()
    };
    if t.mips.is_empty() || t.mips.len() > full_chain as usize {
        return Err(format!(
            "a {}×{} texture has 1 to {full_chain} mip levels, not {}",
            t.width,
            t.height,
            t.mips.len()
        ));
    }
    let mut mips = Vec::with_capacity(t.mips.len());
    for (m, level) in t.mips.iter().enumerate() {
        let slices = if view == TextureShape::Volume {
            (layers >> m).max(1)
        } else {
            layers
        };
        let texels = u64::from((t.width >> m).max(1))
            * u64::from((t.height >> m).max(1))
            * u64::from(slices);
        let need = texels * format.words() as u64;
        if level.len() as u64 != need {
            return Err(format!(
                "mip {m} has {} words; its {texels} texels of {} take {need}",
                level.len(),
                t.format
            ));
        }
        mips.push(words(level));
    }
    Ok(Texture2d {
        width: t.width,
        height: t.height,
        layers,
        view,
        mips,
        format,
    })
}

fn sampler(s: &crate::case::SamplerDesc) -> Result<Sampler, String> {
    let linear = match s.filter.as_str() {
        "point" => false,
        "linear" | "anisotropic" => true,
        other => return Err(format!("sampler filter `{other}` is not supported")),
    };
    // D3D11_REQ_MAXANISOTROPY: 16; an anisotropic filter takes at least 2 (default 16).
    let max_anisotropy = match (s.filter.as_str(), s.max_anisotropy) {
        ("anisotropic", None) => 16,
        ("anisotropic", Some(n @ 2..=16)) => n,
        (_, None) => 1,
        (f, Some(n)) => {
            return Err(format!(
                "max_anisotropy {n} with filter `{f}`: an anisotropic filter takes 2 to 16"
            ));
        }
    };
    let mut address = [Address::Clamp; 3];
    for (i, a) in s.address.iter().take(3).enumerate() {
        address[i] =
            Address::from_name(a).ok_or_else(|| format!("address mode `{a}` is not supported"))?;
    }
    let mut border = [0u32; 4];
    for (i, w) in s.border.iter().take(4).enumerate() {
        border[i] = w.0;
    }
    let min_lod = s.min_lod.unwrap_or(Sampler::NO_LOD_CLAMP.0);
    let max_lod = s.max_lod.unwrap_or(Sampler::NO_LOD_CLAMP.1);
    if min_lod.is_nan() || max_lod.is_nan() || max_lod < min_lod {
        return Err(format!(
            "a sampler's LOD range {min_lod}..={max_lod} is empty or not a number"
        ));
    }
    let compare = match &s.compare {
        Some(name) => Some(
            crate::interp::Compare::from_name(name)
                .ok_or_else(|| format!("comparison function `{name}` is not supported"))?,
        ),
        None => None,
    };
    Ok(Sampler {
        linear,
        address,
        border,
        lod_clamp: (min_lod, max_lod),
        compare,
        max_anisotropy,
    })
}

/// Run one case run on the interpreter.
pub fn observe(program: &Program, run: &Run, budget: u64) -> Result<Observed, RunError> {
    let (mut res, invocations) = resources(run).map_err(RunError::Input)?;
    let mut obs = Observed::default();
    match program.version.stage {
        dxbc::Stage::Compute => {
            let groups = run.dispatch.unwrap_or([1, 1, 1]);
            let r = interp::run_dispatch(program, &mut res, groups, budget)
                .map_err(RunError::Interp)?;
            obs.events = r.events;
            obs.findings = r.findings;
            obs.free_uavs = r.free_nan;
        }
        _ => {
            let r = interp::run_invocations(program, &mut res, &invocations, budget)
                .map_err(RunError::Interp)?;
            if r.inconclusive.iter().any(|i| *i) {
                return Err(RunError::Interp(InterpError::BudgetExceeded {
                    executed: budget,
                }));
            }
            // `expect` addresses one invocation: the first, or the one the run names.
            let i = run.expect_invocation.unwrap_or(0);
            let n = r.outputs_per_lane;
            obs.outputs = r.outputs_of(i).to_vec();
            obs.discarded = r.discarded.get(i).copied().unwrap_or(false);
            obs.events = r.events.iter().fold(0, |a, e| a | e);
            obs.free_outputs = r.free_nan.get(i * n..(i + 1) * n).unwrap_or(&[]).to_vec();
            obs.findings = r.findings;
        }
    }
    obs.uavs = res.uavs.into_iter().map(|(k, b)| (k, b.words)).collect();
    Ok(obs)
}

/// Why a case's run could not be observed on the interpreter. Codes: `case.inputs` (the run's
/// inputs cannot be bound), or the interpreter's own (`interp.*`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The run's inputs cannot be bound (a resource that does not fit its declaration).
    #[error("bad inputs: {0}")]
    Input(String),
    /// The interpreter stopped (out of budget, or an unsupported instruction).
    #[error(transparent)]
    Interp(InterpError),
}

impl RunError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            RunError::Input(_) => "case.inputs",
            RunError::Interp(e) => e.code(),
        }
    }
}

/// Check a run's expectations against what was observed.
pub fn check(run: &Run, obs: &Observed) -> RunOutcome {
    check_with(run, obs, false)
}

/// Whether a run that [`check`] fails differs only in the sign of zeros that the interpreter
/// flagged free (`interp::zero_sign`): then the run is in the `signed-zero` domain, which
/// [`attribute`] adapts where an entry of it applies ([`with_free_signs`]).
pub fn only_free_signs(run: &Run, obs: &Observed) -> bool {
    check_with(run, obs, true) == RunOutcome::Passed
}

/// `events`, with `signed-zero` added where `outcome` failed only on zeros of free sign.
pub fn with_free_signs(
    outcome: &RunOutcome,
    run: &Run,
    obs: &Observed,
    events: crate::domain::Events,
) -> crate::domain::Events {
    if outcome.is_failure() && only_free_signs(run, obs) {
        events | crate::domain::Domain::SignedZero.bit()
    } else {
        events
    }
}

fn check_with(run: &Run, obs: &Observed, free_signs: bool) -> RunOutcome {
    let Some(expect) = &run.expect else {
        return RunOutcome::Passed;
    };
    for (key, e) in expect {
        let verdict = match e {
            Expect::Discarded(want) if key == "discarded" => (obs.discarded == *want)
                .then_some(())
                .ok_or(format!("discarded is {}, expected {want}", obs.discarded)),
            Expect::Words(w) => {
                let (mut actual, free): (Vec<u32>, Vec<bool>) =
                    if let Some(n) = register_of(key, "o") {
                        (
                            obs.outputs
                                .get(n as usize)
                                .map(|o| o.to_vec())
                                .unwrap_or_default(),
                            obs.free_outputs
                                .get(n as usize)
                                .map(|f| f.to_vec())
                                .unwrap_or_default(),
                        )
                    } else if let Some(n) = register_of(key, "u") {
                        (
                            obs.uavs.get(&n).cloned().unwrap_or_default(),
                            obs.free_uavs.get(&n).cloned().unwrap_or_default(),
                        )
                    } else {
                        return RunOutcome::Failed(format!("unknown expectation `{key}`"));
                    };
                // A NaN whose payload D3D leaves free matches any expected NaN (and, asked, a
                // zero of free sign the other zero).
                let zero = |x: u32| x & 0x7fff_ffff == 0;
                for ((a, f), want) in actual.iter_mut().zip(&free).zip(words(&w.words)) {
                    if crate::verdict::nan_payload_free(*a, want, *f)
                        || (free_signs && *f && zero(*a) && zero(want))
                    {
                        *a = want;
                    }
                }
                w.check(&actual).map_err(|(i, want, got)| {
                    format!(
                        "{key}[{i}] is 0x{got:08x}, expected 0x{want:08x} ({:?})",
                        w.compare
                    )
                })
            }
            Expect::Discarded(_) => Err(format!("`{key}` cannot be a boolean")),
        };
        if let Err(why) = verdict {
            return RunOutcome::Failed(why);
        }
    }
    RunOutcome::Passed
}

/// A failed run is adapted when the interpreter, on the same run, entered the domain of an
/// entry that applies (`dxdiff/d3d-undefined` included: a real driver's answer where D3D leaves
/// the result undefined is as right as the interpreter's); any other outcome stands.
pub fn attribute(outcome: RunOutcome, events: crate::domain::Events, judge: &Judge) -> RunOutcome {
    match outcome {
        RunOutcome::Failed(why) => match judge.attribute(events) {
            crate::verdict::Verdict::Adapted(ids) => RunOutcome::Adapted(ids),
            _ => RunOutcome::Failed(why),
        },
        other => other,
    }
}

/// Replay every run of a case file on the interpreter.
pub fn replay_interp(case: &CaseFile, budget: u64) -> Vec<(String, RunOutcome)> {
    replay_interp_with_findings(case, budget).0
}

/// [`replay_interp`], and what the program relies on that D3D leaves undefined (over all runs).
/// A failed run is adapted as [`attribute`] says.
pub fn replay_interp_with_findings(
    case: &CaseFile,
    budget: u64,
) -> (Vec<(String, RunOutcome)>, Vec<interp::Finding>) {
    let mut findings = Vec::new();
    // Built at the first failed run, once per case.
    let mut judge: Option<Judge> = None;
    let shader = case
        .blob()
        .map_err(|e| format!("bad dxbc: {e}"))
        .and_then(|b| dxbc::Shader::parse(&b).map_err(|e| format!("[{}] {e}", e.code())));
    let program = shader.as_ref().map(|s| &s.program);
    let outcomes = case
        .runs
        .iter()
        .map(|run| {
            let outcome = match program {
                Err(e) => RunOutcome::Failed(e.clone()),
                Ok(p) => match observe(p, run, budget) {
                    Ok(obs) => {
                        let outcome = match check(run, &obs) {
                            failed @ RunOutcome::Failed(_) => {
                                // The claims of the translation that found the case, if
                                // it names them: the same difference is adapted here.
                                let judge = judge.get_or_insert_with(|| {
                                    Judge::new(p, &case.claims, "interpreter")
                                });
                                let events = with_free_signs(&failed, run, &obs, obs.events);
                                attribute(failed, events, judge)
                            }
                            other => other,
                        };
                        interp::findings::merge(&mut findings, obs.findings);
                        outcome
                    }
                    Err(RunError::Input(e)) => RunOutcome::Failed(format!("bad inputs: {e}")),
                    Err(RunError::Interp(InterpError::BudgetExceeded { .. })) => {
                        RunOutcome::Inconclusive(Inconclusive::Budget)
                    }
                    Err(RunError::Interp(e)) => RunOutcome::Failed(format!("[{}] {e}", e.code())),
                },
            };
            (run.id.clone(), outcome)
        })
        .collect();
    (outcomes, findings)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::case::TextureDesc;
    use crate::fixtures::counting_case;

    /// A case whose expected word is the other zero of a free-sign zero (`frc` of 0, which the
    /// H100 gave as −0) is adapted where the translation claims `dxdiff/signed-zero`, and fails
    /// where it does not, or where another word differs too.
    #[test]
    fn a_zero_of_free_sign_is_adapted_only_under_its_entry() {
        let program =
            "ps_5_0\ndcl_output o0.xyzw\nfrc o0.x, l(0)\nmov o0.yzw, l(0, 0, 0, 0)\nret\n";
        let blob = dxbc::assemble_container(program)
            .expect("assembles")
            .to_bytes();
        let hex: String = blob.iter().map(|b| format!("{b:02x}")).collect();
        let case = |claims: &str, y: &str| {
            let text = format!(
                r#"{{"format": "dxdiff-case/1", "name": "frc", "dxbc": "{hex}", "claims": [{claims}],
                   "runs": [{{"id": "r", "inputs": {{}},
                              "expect": {{"o0": {{"words": ["0x80000000", "{y}", "0x0", "0x0"], "compare": "bits"}}}}}}]}}"#
            );
            CaseFile::parse(&text).expect("parses")
        };
        let claimed = replay_interp(&case(r#""dxdiff/signed-zero""#, "0x0"), 1 << 12);
        assert_eq!(
            claimed[0].1,
            RunOutcome::Adapted(vec!["dxdiff/signed-zero".into()])
        );
        let plain = replay_interp(&case("", "0x0"), 1 << 12);
        assert!(plain[0].1.is_failure(), "{plain:?}");
        let other = replay_interp(&case(r#""dxdiff/signed-zero""#, "0x1"), 1 << 12);
        assert!(other[0].1.is_failure(), "{other:?}");
    }

    #[test]
    fn a_run_past_the_budget_is_inconclusive_not_failed() {
        let case = counting_case(
            r#"{"id": "short", "inputs": {"cb0": ["0x3", "0x0", "0x0", "0x0"]},
                "expect": {"o0": {"words": ["0x3"], "compare": "bits"}}},
               {"id": "wrong", "inputs": {"cb0": ["0x3", "0x0", "0x0", "0x0"]},
                "expect": {"o0": {"words": ["0x4"], "compare": "bits"}}},
               {"id": "long", "inputs": {"cb0": ["0x100000", "0x0", "0x0", "0x0"]},
                "expect": {"o0": {"words": ["0x100000"], "compare": "bits"}}}"#,
        );
        let outcomes = replay_interp(&case, 1 << 12);
        assert_eq!(outcomes[0].1, RunOutcome::Passed);
        assert!(outcomes[1].1.is_failure(), "{:?}", outcomes[1]);
        assert_eq!(
            outcomes[2].1,
            RunOutcome::Inconclusive(Inconclusive::Budget)
        );
        assert!(!outcomes[2].1.is_failure());
    }

    fn desc(width: u32, height: u32, layers: Option<u32>, mips: &[usize]) -> TextureDesc {
        TextureDesc {
            width,
            height,
            format: "R32_FLOAT".into(),
            mips: mips
                .iter()
                .map(|n| vec![crate::case::Word(0x3f80_0000); *n])
                .collect(),
            layers,
            cube: false,
            depth: None,
            texture1d: false,
            samples: None,
        }
    }

    #[test]
    fn a_texture_holds_exactly_its_texels() {
        // 3×2 with two layers: 12, then 2 (1×1 per layer) texels; two levels of a chain of two.
        let t = texture(&desc(3, 2, Some(2), &[12, 2])).expect("exact");
        assert_eq!((t.layer_count(), t.array(), t.mips[1].len()), (2, true, 2));
        assert_eq!(t.texel(1, 1, 0, 0).map(|c| c[3]), Some(0x3f80_0000));
        let short = texture(&desc(3, 2, Some(2), &[11, 2])).expect_err("one word short");
        assert!(short.contains("mip 0 has 11 words"), "{short}");
        let long = texture(&desc(3, 2, None, &[6, 1, 1])).expect_err("three levels of 3×2");
        assert!(long.contains("1 to 2 mip levels"), "{long}");
        assert!(texture(&desc(3, 2, None, &[])).is_err());
    }

    #[test]
    fn cubes_and_3d_textures_hold_their_faces_and_halving_slices() {
        // A 2×2 cube: six faces of 4, then 1, texels.
        let cube = TextureDesc {
            cube: true,
            ..desc(2, 2, None, &[24, 6])
        };
        let t = texture(&cube).expect("a cube");
        assert!(t.cube() && t.layer_count() == 6);
        let oblong = TextureDesc {
            cube: true,
            ..desc(2, 1, None, &[12])
        };
        assert!(texture(&oblong).is_err(), "faces are square");
        // 2×2×4: 16 texels, then 1×1×2, then 1×1×1; the depth lengthens the chain to three.
        let volume = TextureDesc {
            depth: Some(4),
            ..desc(2, 2, None, &[16, 2, 1])
        };
        let t = texture(&volume).expect("a 3D texture");
        assert!(t.volume() && t.level_layers(1) == 2 && t.level_layers(2) == 1);
        let both = TextureDesc {
            depth: Some(4),
            ..desc(2, 2, Some(2), &[16, 2, 1])
        };
        assert!(texture(&both).is_err(), "an array is not 3D");
        // A 1D texture is one row, with layers for an array; two rows are no 1D texture.
        let line = TextureDesc {
            texture1d: true,
            ..desc(4, 1, Some(2), &[8, 4, 2])
        };
        let t = texture(&line).expect("a 1D array");
        assert!(t.line() && t.array() && t.layer_component() == Some(1));
        let tall = TextureDesc {
            texture1d: true,
            ..desc(4, 2, None, &[8])
        };
        assert!(texture(&tall).is_err(), "a 1D texture is one texel high");
    }

    #[test]
    fn an_anisotropic_filter_takes_2_to_16() {
        let desc = |filter: &str, max_anisotropy| crate::case::SamplerDesc {
            filter: filter.into(),
            address: Vec::new(),
            border: Vec::new(),
            min_lod: None,
            max_lod: None,
            compare: None,
            max_anisotropy,
        };
        let s = sampler(&desc("anisotropic", None)).expect("D3D's limit by default");
        assert!(s.linear && s.max_anisotropy == 16);
        assert_eq!(
            sampler(&desc("anisotropic", Some(4))).map(|s| s.max_anisotropy),
            Ok(4)
        );
        assert_eq!(
            sampler(&desc("linear", None)).map(|s| s.max_anisotropy),
            Ok(1)
        );
        for (f, n) in [("anisotropic", 17), ("anisotropic", 1), ("point", 4)] {
            assert!(sampler(&desc(f, Some(n))).is_err(), "{f} {n}");
        }
    }

    #[test]
    fn a_skip_shows_its_kind_when_it_has_one() {
        let kinded = RunSkip::from(Skip::new(SkipKind::Unfed, "no samplers"));
        assert_eq!(kinded.to_string(), "unfed: no samplers");
        assert_eq!(
            RunSkip::unkinded("requires_double").to_string(),
            "requires_double"
        );
    }
}
