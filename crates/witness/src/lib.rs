//! SV-COMP verification witnesses, format 2.0 (YAML; Ayaziová, Beyer, Lingsch-Rosenfeld,
//! Spiessl, Strejček: "Software Verification Witnesses 2.0", SPIN 2024): a *violation witness*
//! is a sequence of waypoints (branches taken, values of nondeterministic calls, the error call as
//! the target) that an execution follows to the error; a *correctness witness* is a set of loop
//! invariants, C expressions over program variables at the loops' keywords.
//!
//! This crate is the engine-independent part: the witness as plain data ([`model`]), YAML
//! output and input ([`yaml`]), a check of documents against the format ([`schema`]), a scanner
//! of the C source for the keywords witnesses point at ([`source`]), writing violation witnesses
//! from a replayed run and validating them in the concrete interpreter ([`violation`]), and
//! printing invariants as C and instrumenting the program with them for re-verification
//! ([`correctness`]). The CLI (`predabs check --witness`, `predabs validate`) connects it to the
//! CEGAR loop's verdicts.

pub mod correctness;
pub mod meta;
pub mod model;
pub mod schema;
pub mod source;
pub mod violation;
pub mod yaml;

pub use model::*;

/// The front end and IR the witness functions work on, for callers without their own dependency.
pub use {c_front, c_ir};

/// The answer of a validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validity {
    /// The witness is confirmed.
    Valid,
    /// The witness is refuted (its execution does not exist, or an invariant does not hold).
    Invalid,
    /// Neither could be shown.
    Unknown,
}

impl Validity {
    pub fn as_str(self) -> &'static str {
        match self {
            Validity::Valid => "VALID",
            Validity::Invalid => "INVALID",
            Validity::Unknown => "UNKNOWN",
        }
    }
}

/// Lowers `source` for witness work; the error names the first problem with its line:column.
pub fn lower(source: &str, file_name: &str, data_model: DataModel) -> Result<c_ir::Program, String> {
    let options = c_front::LowerOptions {
        data_model: match data_model {
            DataModel::Ilp32 => c_front::DataModel::Ilp32,
            DataModel::Lp64 => c_front::DataModel::Lp64,
        },
        ..c_front::LowerOptions::default()
    };
    let (program, diagnostics) = c_front::lower(source, file_name, &options);
    let index = diagnostics::LineIndex::new(source);
    if let Some(d) = diagnostics.iter().find(|d| d.is_error()) {
        return Err(format!("{file_name}:{}: {}", index.line_col(d.span.start), d.message));
    }
    program.ok_or_else(|| format!("{file_name}: the program could not be parsed"))
}

/// Metadata for a witness of `source` produced now by `producer`.
pub fn metadata(producer: Producer, file_name: &str, source: &[u8], data_model: DataModel, creation_time: String) -> Metadata {
    let hash = meta::sha256_hex(source);
    let uuid = meta::uuid_from(&format!("{hash} {creation_time} {file_name} {}", producer.name));
    Metadata {
        uuid,
        creation_time,
        producer,
        task: TaskInfo {
            input_file: file_name.to_string(),
            input_file_hash: hash,
            specification: UNREACH_CALL.to_string(),
            data_model,
        },
    }
}
