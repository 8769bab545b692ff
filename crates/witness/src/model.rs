//! The witness as plain data: the fields of SV-COMP's witness format 2.0 that predabs writes and
//! reads, independent of YAML and of the engine that produced the verdict.

/// The tool that produced a witness (`metadata.producer`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Producer {
    pub name: String,
    pub version: String,
    pub configuration: Option<String>,
    pub command_line: Option<String>,
}

/// The C data model of the task (`metadata.task.data_model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModel {
    Ilp32,
    Lp64,
}

impl DataModel {
    pub fn as_str(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }

    /// `ILP32` or `LP64` (case-insensitive); anything else is `None`.
    pub fn parse(text: &str) -> Option<DataModel> {
        match text.trim().to_ascii_uppercase().as_str() {
            "ILP32" => Some(DataModel::Ilp32),
            "LP64" => Some(DataModel::Lp64),
            _ => None,
        }
    }
}

/// The specification of the `unreach-call` property in SV-COMP's syntax.
pub const UNREACH_CALL: &str = "G ! call(reach_error())";

/// The verification task a witness belongs to (`metadata.task`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskInfo {
    /// The input file as given to the verifier.
    pub input_file: String,
    /// Lower-case hexadecimal SHA-256 of the input file's bytes.
    pub input_file_hash: String,
    pub specification: String,
    pub data_model: DataModel,
}

/// Provenance of one witness entry (`metadata`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    pub uuid: String,
    /// ISO 8601, e.g. `2026-11-26T14:32:01Z`.
    pub creation_time: String,
    pub producer: Producer,
    pub task: TaskInfo,
}

/// A source location: 1-based line and column (columns count characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file_name: String,
    pub line: u32,
    /// `None`: the leftmost suitable position on the line.
    pub column: Option<u32>,
    pub function: Option<String>,
}

/// What a waypoint says about the execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaypointKind {
    /// The C expression holds at the sequence point just before the location.
    Assumption { constraint: String },
    /// The branching statement whose keyword is at the location takes its `then` (true) or
    /// `else` (false) branch.
    Branching { taken: bool },
    /// The call whose closing parenthesis is at the location returns a value satisfying the
    /// ACSL constraint over `\result` (e.g. `\result == 5`).
    FunctionReturn { constraint: String },
    /// The function whose name is at the location is entered.
    FunctionEnter,
    /// The specification is violated at the location (the error call).
    Target,
}

/// `follow`: the execution passes the waypoint; `avoid`: it does not, until the segment's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Follow,
    Avoid,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waypoint {
    pub kind: WaypointKind,
    pub action: Action,
    pub location: Location,
}

/// A violation witness: one `violation_sequence` entry, its segments in order. Each segment ends
/// with its only `follow` waypoint; the last one ends with the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViolationWitness {
    pub metadata: Metadata,
    pub segments: Vec<Vec<Waypoint>>,
}

impl ViolationWitness {
    /// One segment per waypoint, all `follow` (the form predabs writes).
    pub fn from_waypoints(metadata: Metadata, waypoints: Vec<Waypoint>) -> ViolationWitness {
        ViolationWitness {
            metadata,
            segments: waypoints.into_iter().map(|w| vec![w]).collect(),
        }
    }

    /// The `follow` waypoints in order.
    pub fn follow_waypoints(&self) -> Vec<&Waypoint> {
        self.segments.iter().flatten().filter(|w| w.action == Action::Follow).collect()
    }
}

/// `loop_invariant`: holds every time the loop condition is about to be evaluated (the location
/// is the loop's keyword); `location_invariant`: holds before the statement at the location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvariantKind {
    Loop,
    Location,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    pub kind: InvariantKind,
    pub location: Location,
    /// A side-effect-free C expression over program variables in scope at the location.
    pub value: String,
}

/// A correctness witness: one `invariant_set` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrectnessWitness {
    pub metadata: Metadata,
    pub invariants: Vec<Invariant>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Witness {
    Violation(ViolationWitness),
    Correctness(CorrectnessWitness),
}

impl Witness {
    pub fn metadata(&self) -> &Metadata {
        match self {
            Witness::Violation(v) => &v.metadata,
            Witness::Correctness(c) => &c.metadata,
        }
    }
}
