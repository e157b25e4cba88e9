//! The adaptation catalog: one entry per documented divergence between D3D11 semantics and a
//! DXBC→WGSL translation, as data (`catalog/catalog.json`, the `catalog` crate's, embedded and parsed on first use).
//!
//! The oracle attributes a lane's difference to an entry only when the interpreter recorded, in
//! that lane, an event of one of the entry's [`Entry::domain`]s ([`Entry::allows`]) and the
//! translator's profile claims that entry. Outside its domain an entry's [`Entry::tolerance`]
//! applies. `docs/catalog.md` describes the fields.
//!
//! Organisation:
//! * the seed contract's entries come first, in its order: every `###` heading of "Adapted",
//!   "Supported mappings" and "Adapted — uniformity", every bold bullet of "Not supported (fail
//!   closed)" and "Bounded / temporary", and the "Adapted — numeric conversion edges" section
//!   (which has no `###` heading). `seed_ref` holds the heading or bullet text verbatim
//!   (whitespace of wrapped bullets joined by one space);
//! * the project's own `dxdiff/…` entries follow (`seed_ref` null), each citing its source.
//!
//! Decisions:
//! * A `###` heading under "Adapted" gets the category of what it describes, not of its section:
//!   the compute profiles and other limits are `bounded/…`, "Fail-closed intentional
//!   nontermination" and "Typed `Buffer` SRVs require bound-view metadata" are `fail-closed/…`,
//!   and the two faithful mappings ("Component-packed varyings", "`linear_noperspective`
//!   varyings") are `supported/…`.
//! * A bullet that lists several unrelated boundaries is split into several entries sharing
//!   one `seed_ref`: "Mutable relative `indexable_temp` registers" (mutable indexable temps,
//!   subroutines), "Geometry, hull, and domain stage kinds, …" (those stages, general compute),
//!   "Sampler modes other than `default`" (sampler modes, interpolation modes, minimum-precision
//!   kinds, system values).
//! * "Selected-effect package provenance", "All-body backend packaging" and "Verification
//!   contract" have no `###` headings or bold bullets and describe packaging and process, not a
//!   lowering rule, so they have no entries. The "Purpose" bullets define the categories.
//! * Tolerances are [`Band`]s, the type D3D's own per-op bands use too: the contract's kinds
//!   are `exact`, `ulp`, `abs` and `any`; `ulp_or_abs` (WGSL `log2`), `term_scaled` (fusion of
//!   mad and dot products), `rel` and `rel_or_abs` serve WGSL's and D3D's own bounds.
//!   `op_tolerance` optionally refines the tolerance per opcode mnemonic.
//! * Scope ([`Scope`]): most entries describe a translator's choice and apply when claimed;
//!   executor entries describe what a device or WGSL implementation does on its own and D3D
//!   entries what Direct3D leaves open; both apply without a claim.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::band::Band;
use crate::domain::{Domain, Events};

/// The catalog's JSON text, as the `catalog` crate ships it.
pub const CATALOG_JSON: &str = catalog::JSON;

/// The `format` field of `catalog.json`.
pub const FORMAT: &str = "dxdiff-catalog/1";

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| {
    Catalog::parse(CATALOG_JSON).expect("the embedded catalog.json is validated by catalog::tests")
});

/// The embedded catalog, parsed at first use.
pub fn catalog() -> &'static Catalog {
    &CATALOG
}

/// An entry's category; it is also the prefix of its id (`adapted/…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Accepted input whose WGSL semantics deliberately differ from D3D.
    Adapted,
    /// Input the translator rejects with a diagnostic.
    FailClosed,
    /// Supported within stated limits.
    Bounded,
    /// A mapping the seed documents as faithful.
    Supported,
    /// The project's own entry for WGSL's general latitude.
    Dxdiff,
}

impl Category {
    /// Every category, in declaration order.
    pub const ALL: [Category; 5] = [
        Category::Adapted,
        Category::FailClosed,
        Category::Bounded,
        Category::Supported,
        Category::Dxdiff,
    ];

    /// The JSON spelling, which is also the id prefix.
    pub const fn as_str(self) -> &'static str {
        match self {
            Category::Adapted => "adapted",
            Category::FailClosed => "fail-closed",
            Category::Bounded => "bounded",
            Category::Supported => "supported",
            Category::Dxdiff => "dxdiff",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whose behaviour an entry describes, which decides when it applies.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// A translator's choice of lowering: it applies only where the translation claims it.
    #[default]
    Translator,
    /// What a device or WGSL implementation does on its own (compiler folding, flushing before
    /// rounding, a driver's loop limit): no translator can prevent it, so it applies to every
    /// translation on the executors it names ([`Entry::executors`]; all of them when empty).
    Executor,
    /// What Direct3D itself leaves open (undefined results): no output can be wrong there, so
    /// it applies always.
    D3d,
}

impl Scope {
    /// The JSON spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Translator => "translator",
            Scope::Executor => "executor",
            Scope::D3d => "d3d",
        }
    }

    fn is_default(&self) -> bool {
        *self == Scope::Translator
    }
}

/// One documented divergence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Stable kebab-case id, prefixed by the category (`adapted/rcp-division`).
    pub id: String,
    /// Which kind of divergence this is; also the `id`'s prefix.
    pub category: Category,
    /// The built-in translator's profiles that claim it (`contract`, `exact`): the data
    /// behind `catalog::ids::{CONTRACT,EXACT}_CLAIMS`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claimed_by: Vec<String>,
    /// The seed-contract heading or bold-bullet text, verbatim; `None` for `dxdiff/…` entries.
    pub seed_ref: Option<String>,
    /// DXBC mnemonics covered (`dxbc::TABLE` spelling); empty for structural entries.
    pub ops: Vec<String>,
    /// Interpreter domain-event ids ([`Domain::id`]) where a difference is allowed.
    pub domain: Vec<String>,
    /// The domain in words.
    pub domain_text: String,
    /// The band the result must lie in outside the domain, for the ops the entry covers.
    pub tolerance: Band,
    /// Per-mnemonic refinements of `tolerance`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub op_tolerance: BTreeMap<String, Band>,
    /// Citation: seed section, WGSL anchor, D3D11 FS section, semantics doc section.
    pub source: String,
    /// Whose behaviour the entry describes: a translator's (applies when claimed), an
    /// executor's (applies unclaimed on matching executors) or Direct3D's (applies always).
    #[serde(default, skip_serializing_if = "Scope::is_default")]
    pub scope: Scope,
    /// For a structural entry (no ops, no domain): the program structure it is about
    /// ([`dxbc::structure::Structure::id`]), so that a program can be attributed to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<String>,
    /// For [`Scope::Executor`]: the executors it describes, as case-insensitive substrings of
    /// the adapter's name (`llvmpipe`, `nvidia`); empty means every executor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub executors: Vec<String>,
    #[serde(skip)]
    mask: Events,
}

impl Entry {
    /// Whether the entry applies to a translation that claims `claimed`, run on the executor
    /// named `adapter`: claimed (translator scope), on a matching executor (executor scope),
    /// or always (D3D scope).
    pub fn applies(&self, claimed: &[String], adapter: &str) -> bool {
        match self.scope {
            Scope::Translator => claimed.contains(&self.id),
            Scope::Executor => {
                let a = adapter.to_lowercase();
                self.executors.is_empty()
                    || self.executors.iter().any(|e| a.contains(&e.to_lowercase()))
            }
            Scope::D3d => true,
        }
    }

    /// True when any of this entry's domains is among `events`.
    pub fn allows(&self, events: Events) -> bool {
        self.mask & events != 0
    }

    /// The entry's domains as a bit set.
    pub fn domain_events(&self) -> Events {
        self.mask
    }

    /// The entry's domains.
    pub fn domains(&self) -> impl Iterator<Item = Domain> + '_ {
        crate::domain::domains(self.mask)
    }

    /// Whether the entry lists `op` (case-insensitive mnemonic).
    pub fn covers(&self, op: dxbc::Opcode) -> bool {
        self.ops
            .iter()
            .any(|m| m.eq_ignore_ascii_case(op.mnemonic()))
    }

    /// The band for `op`: its `op_tolerance` refinement, else [`Entry::tolerance`].
    pub fn tolerance_for(&self, op: dxbc::Opcode) -> Band {
        self.op_tolerance
            .iter()
            .find(|(m, _)| m.eq_ignore_ascii_case(op.mnemonic()))
            .map_or(self.tolerance, |(_, t)| *t)
    }
}

/// Why a catalog text was refused. Codes: `catalog.json`, `catalog.format`,
/// `catalog.unknown-domain`, `catalog.executors-without-scope`.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// The text is not JSON of the catalog's shape.
    #[error("catalog JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The `format` field is not the one this reader knows; holds the value found.
    #[error("catalog format is `{0}`, expected `{FORMAT}`")]
    Format(String),
    /// An entry names a domain id no [`Domain`] has.
    #[error("entry `{id}`: unknown domain `{domain}`")]
    UnknownDomain {
        /// The entry's id.
        id: String,
        /// The unknown domain id.
        domain: String,
    },
    /// An entry lists `executors` without being scoped to the executor.
    #[error("entry `{id}`: `executors` is only meaningful with scope `executor`")]
    ExecutorsWithoutScope {
        /// The entry's id.
        id: String,
    },
    /// An entry names a structure no [`dxbc::structure::Structure`] has.
    #[error("entry `{id}`: unknown structure `{structure}`")]
    UnknownStructure {
        /// The entry's id.
        id: String,
        /// The unknown structure id.
        structure: String,
    },
    /// An entry is claimed by a profile the built-in translator does not have.
    #[error("entry `{id}`: claimed by `{profile}`, not a profile of the built-in translator")]
    UnknownProfile {
        /// The entry's id.
        id: String,
        /// The unknown profile.
        profile: String,
    },
}

impl CatalogError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            CatalogError::Json(_) => "catalog.json",
            CatalogError::Format(_) => "catalog.format",
            CatalogError::UnknownDomain { .. } => "catalog.unknown-domain",
            CatalogError::ExecutorsWithoutScope { .. } => "catalog.executors-without-scope",
            CatalogError::UnknownStructure { .. } => "catalog.unknown-structure",
            CatalogError::UnknownProfile { .. } => "catalog.unknown-profile",
        }
    }
}

/// The whole catalog, in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// The catalog format string; any other value is refused.
    pub format: String,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
}

impl Catalog {
    /// Parse a catalog and resolve every domain id.
    pub fn parse(text: &str) -> Result<Catalog, CatalogError> {
        let mut c: Catalog = serde_json::from_str(text)?;
        if c.format != FORMAT {
            return Err(CatalogError::Format(c.format));
        }
        for e in &mut c.entries {
            if !e.executors.is_empty() && e.scope != Scope::Executor {
                return Err(CatalogError::ExecutorsWithoutScope { id: e.id.clone() });
            }
            e.mask = 0;
            for d in &e.domain {
                let dom = Domain::from_id(d).ok_or_else(|| CatalogError::UnknownDomain {
                    id: e.id.clone(),
                    domain: d.clone(),
                })?;
                e.mask |= dom.bit();
            }
            if let Some(p) = e
                .claimed_by
                .iter()
                .find(|p| !catalog::ids::PROFILES.contains(&p.as_str()))
            {
                return Err(CatalogError::UnknownProfile {
                    id: e.id.clone(),
                    profile: p.clone(),
                });
            }
            if let Some(s) = &e.structure
                && dxbc::structure::Structure::from_id(s).is_none()
            {
                return Err(CatalogError::UnknownStructure {
                    id: e.id.clone(),
                    structure: s.clone(),
                });
            }
        }
        Ok(c)
    }

    /// The entry with this id.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// The entries of one category, in file order.
    pub fn by_category(&self, c: Category) -> impl Iterator<Item = &Entry> + '_ {
        self.entries.iter().filter(move |e| e.category == c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn catalog_error_codes_are_distinct_and_not_empty() {
        let all = [
            CatalogError::Json(serde_json::from_str::<u32>("x").expect_err("not JSON")),
            CatalogError::Format("x".into()),
            CatalogError::UnknownDomain {
                id: "a".into(),
                domain: "b".into(),
            },
            CatalogError::ExecutorsWithoutScope { id: "a".into() },
            CatalogError::UnknownStructure {
                id: "a".into(),
                structure: "b".into(),
            },
            CatalogError::UnknownProfile {
                id: "a".into(),
                profile: "b".into(),
            },
        ];
        let codes: BTreeSet<_> = all.iter().map(CatalogError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| !c.is_empty()));
    }

    #[test]
    fn a_claim_by_an_unknown_profile_is_refused() {
        let text = CATALOG_JSON.replacen(
            r#""claimed_by": ["contract""#,
            r#""claimed_by": ["contrac""#,
            1,
        );
        assert_ne!(text, CATALOG_JSON, "the catalog has a claimed entry");
        let e = Catalog::parse(&text).expect_err("an unknown profile");
        assert_eq!(e.code(), "catalog.unknown-profile");
        assert_eq!(
            catalog()
                .entries
                .iter()
                .filter(|e| e.claimed_by.iter().any(|p| p == "exact"))
                .count(),
            catalog::ids::EXACT_CLAIMS.len()
        );
    }

    #[test]
    fn parses_with_format_and_entries_of_every_category() {
        let c = catalog();
        assert_eq!(c.format, FORMAT);
        for cat in Category::ALL {
            assert!(c.by_category(cat).count() > 0, "no {cat} entry");
        }
    }

    #[test]
    fn ids_are_unique_well_formed_and_prefixed_by_category() {
        let mut seen = BTreeSet::new();
        for e in &catalog().entries {
            assert!(seen.insert(e.id.as_str()), "duplicate id {}", e.id);
            let (prefix, rest) = e.id.split_once('/').expect("id has a category prefix");
            assert_eq!(prefix, e.category.as_str(), "{}", e.id);
            assert!(!rest.is_empty() && !rest.starts_with('-') && !rest.ends_with('-'));
            assert!(
                rest.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{} is not kebab-case",
                e.id
            );
            assert!(!e.source.trim().is_empty(), "{} has no source", e.id);
            assert!(
                !e.domain_text.trim().is_empty(),
                "{} has no domain_text",
                e.id
            );
            assert_eq!(
                e.seed_ref.is_none(),
                e.category == Category::Dxdiff,
                "{}: seed_ref is null exactly for dxdiff entries",
                e.id
            );
        }
    }

    #[test]
    fn ids_other_code_relies_on_exist() {
        for id in [
            "adapted/precise",
            "adapted/comparison-masks",
            "adapted/typeless-registers",
            "adapted/switch-default",
            "adapted/front-facing",
            "adapted/source-modifiers",
            "adapted/continue-continuing",
            "adapted/icb-const-array",
            "adapted/indexable-temps",
            "adapted/rcp-division",
            "adapted/saturate-movers",
            "adapted/min-precision-f16",
            "adapted/numeric-conversion-edges",
            "adapted/derivative-uniformity",
            "fail-closed/non-refactorable",
            "fail-closed/imul-high-half",
            "fail-closed/geometry-hull-domain",
            "fail-closed/subroutines",
            "fail-closed/typed-buffer-srv-format",
            "fail-closed/unknown-texture-dimension",
            "bounded/f16-conversions",
            "bounded/udiv",
            "dxdiff/denormals",
            "dxdiff/nan",
            "dxdiff/non-finite",
            "dxdiff/signed-zero",
            "dxdiff/builtin-accuracy",
            "dxdiff/sincos-range",
            "dxdiff/exp-range",
            "dxdiff/doubles",
            "dxdiff/min-max-nan",
            "dxdiff/fusion",
            "dxdiff/oob",
        ] {
            assert!(catalog().get(id).is_some(), "missing {id}");
        }
    }

    #[test]
    fn domains_resolve_and_ops_exist() {
        for e in &catalog().entries {
            for d in &e.domain {
                assert!(Domain::from_id(d).is_some(), "{}: domain {d}", e.id);
            }
            assert_eq!(
                e.domains().count(),
                e.domain.len(),
                "{}: repeated domain",
                e.id
            );
            for m in e.ops.iter().chain(e.op_tolerance.keys()) {
                assert!(
                    dxbc::Opcode::from_mnemonic_ci(m).is_some(),
                    "{}: unknown mnemonic {m}",
                    e.id
                );
            }
            for m in e.op_tolerance.keys() {
                assert!(e.ops.contains(m), "{}: op_tolerance for unlisted {m}", e.id);
            }
        }
    }

    #[test]
    fn allows_and_tolerances() {
        let c = catalog();
        let edges = c.get("adapted/numeric-conversion-edges").expect("entry");
        assert!(edges.allows(Domain::FtoiNan.bit()));
        assert!(edges.allows(Domain::FtouOverflow.bit() | Domain::NanInput.bit()));
        assert!(!edges.allows(Domain::NanInput.bit()));
        assert!(!edges.allows(0));
        assert_eq!(edges.tolerance, Band::Exact);
        let masks = c.get("adapted/comparison-masks").expect("entry");
        assert!(!masks.allows(u64::MAX));
        let acc = c.get("dxdiff/builtin-accuracy").expect("entry");
        assert_eq!(
            acc.tolerance_for(dxbc::Opcode::Sincos),
            Band::Abs {
                abs: 2f64.powi(-11)
            }
        );
        assert!(acc.covers(dxbc::Opcode::Exp));
        let rcp = c.get("adapted/rcp-division").expect("entry");
        assert!(rcp.allows(Domain::RcpOfZeroOrDenorm.bit()));
    }

    #[test]
    fn bad_catalogs_are_refused() {
        let bad = CATALOG_JSON.replacen("\"ftoi-nan\"", "\"ftoi-nope\"", 1);
        assert!(matches!(
            Catalog::parse(&bad),
            Err(CatalogError::UnknownDomain { .. })
        ));
        let bad = CATALOG_JSON.replacen(FORMAT, "dxdiff-catalog/0", 1);
        assert!(matches!(Catalog::parse(&bad), Err(CatalogError::Format(_))));
        assert!(Catalog::parse("{").is_err());
        let bad = CATALOG_JSON.replacen("\"scope\": \"executor\",", "", 1);
        assert!(matches!(
            Catalog::parse(&bad),
            Err(CatalogError::ExecutorsWithoutScope { .. })
        ));
    }

    #[test]
    fn scopes_decide_where_an_entry_applies() {
        let c = catalog();
        let claimed = vec!["adapted/numeric-conversion-edges".to_string()];
        let edges = c.get("adapted/numeric-conversion-edges").expect("entry");
        assert!(edges.applies(&claimed, "llvmpipe"));
        assert!(!edges.applies(&[], "llvmpipe"));
        let ftz = c.get("dxdiff/ftz-before-rounding").expect("entry");
        assert_eq!(ftz.scope, Scope::Executor);
        assert!(ftz.applies(&[], "NVIDIA H200"));
        assert!(!ftz.applies(&[], "llvmpipe (LLVM 15.0.6, 256 bits)"));
        let folded = c.get("dxdiff/f16-round-trip-folded").expect("entry");
        let inexact = crate::domain::Domain::F16Inexact.bit();
        assert!(
            folded.applies(&[], "NVIDIA H200 (DiscreteGpu, 580.159.04)") && folded.allows(inexact)
        );
        assert!(!folded.applies(&[], "llvmpipe (LLVM 15.0.6, 256 bits)"));
        let undefined = c.get("dxdiff/d3d-undefined").expect("entry");
        assert_eq!(undefined.scope, Scope::D3d);
        assert!(undefined.applies(&[], "anything"));
    }

    #[test]
    fn json_round_trips() {
        let text = serde_json::to_string(catalog()).expect("serialize");
        assert_eq!(&Catalog::parse(&text).expect("reparse"), catalog());
    }

    /// The seed contract's own text with its diff prefix removed: (section, line) pairs.
    fn seed_lines(seed: &str) -> Vec<(String, String)> {
        let mut section = String::new();
        let mut out = Vec::new();
        for l in seed.lines() {
            let Some(l) = l.strip_prefix('+') else {
                continue;
            };
            if let Some(h) = l.strip_prefix("## ") {
                section = h.to_string();
            }
            out.push((section.clone(), l.to_string()));
        }
        out
    }

    fn squash(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Every `###` heading, every bold bullet of the two bullet sections, and the numeric
    /// conversion section's `##` heading.
    fn seed_refs(seed: &str) -> Vec<String> {
        const BULLET_SECTIONS: [&str; 2] = ["Not supported (fail closed)", "Bounded / temporary"];
        let lines = seed_lines(seed);
        let mut refs = Vec::new();
        for (i, (section, l)) in lines.iter().enumerate() {
            if let Some(h) = l.strip_prefix("### ") {
                refs.push(h.to_string());
            } else if l.starts_with("## ") && section == "Adapted — numeric conversion edges" {
                refs.push(section.clone());
            } else if let Some(b) = l.strip_prefix("- **")
                && BULLET_SECTIONS.contains(&section.as_str())
            {
                // A bold text may wrap onto the bullet's continuation lines.
                let mut text = b.to_string();
                let mut j = i + 1;
                while !text.contains("**") && j < lines.len() {
                    text.push(' ');
                    text.push_str(&lines[j].1);
                    j += 1;
                }
                let bold = text.split("**").next().expect("split yields one piece");
                refs.push(squash(bold));
            }
        }
        refs
    }

    #[test]
    fn every_seed_entry_is_catalogued_verbatim() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/seeds/000_6b9a1b14760d2a97.txt"
        );
        let Ok(seed) = std::fs::read_to_string(path) else {
            println!("skipped: the seed contract {path} is not present");
            return;
        };
        let refs = seed_refs(&seed);
        assert!(
            refs.len() >= 60,
            "seed parse found only {} refs",
            refs.len()
        );
        let catalogued: BTreeSet<&str> = catalog()
            .entries
            .iter()
            .filter_map(|e| e.seed_ref.as_deref())
            .collect();
        let missing: Vec<&String> = refs
            .iter()
            .filter(|r| !catalogued.contains(r.as_str()))
            .collect();
        assert!(
            missing.is_empty(),
            "seed entries with no catalog entry: {missing:#?}"
        );
        let text = squash(
            &seed_lines(&seed)
                .iter()
                .map(|(_, l)| l.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        );
        for e in &catalog().entries {
            if let Some(r) = &e.seed_ref {
                assert!(
                    text.contains(r.as_str()),
                    "{}: seed_ref not in the seed",
                    e.id
                );
            }
        }
    }
}
