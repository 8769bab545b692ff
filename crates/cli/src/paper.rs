//! `predabs abstract` with the seed papers' conventions and precision switches (`--syntax c2bp`,
//! `--query 'LABEL: EXPR'`, `--integers wrap|ideal`, `--enforce on|off`, `--points-to on|off`,
//! `--distribute-f`, `--precision cartesian|boolean`)
//! and `predabs mc --engine pds` (BOOP ch. 6's pushdown view). The work is done by
//! `abstraction::run_abstract` and `abstraction::model_check_pds`; this module maps the flags.

use std::path::Path;
use std::process::ExitCode;

use abstraction::{AbstractCommand, AbstractionConfig, CommandOutput, Strategy, Syntax};
use clap::ValueEnum;

use crate::{file_name, read, EngineArgs, StrategyArg};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum SyntaxArg {
    /// Bebop/Moped syntax (BOOP Fig 4.2).
    #[default]
    Bebop,
    /// C2BP's C-like form (C2BP Fig 1(b)).
    C2bp,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum IntegersArg {
    /// Signed overflow wraps around (bit-precise; sound for every program).
    #[default]
    Wrap,
    /// Signed overflow is impossible (the papers' integers; sound without undefined behaviour).
    Ideal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Switch {
    On,
    Off,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum McEngine {
    /// BEBOP: path edges and summaries (C2BP §2.2).
    #[default]
    Bebop,
    /// Pushdown system and post* saturation (BOOP ch. 6, Moped).
    Pds,
}

/// The papers' conventions and precision switches of `predabs abstract`.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct PaperArgs {
    /// Print the boolean program in Bebop syntax or in C2BP's C-like form.
    #[arg(long, value_enum, default_value = "bebop")]
    pub syntax: SyntaxArg,
    /// Does the invariant at a C label imply a C expression? (`LABEL: EXPR`, repeatable)
    #[arg(long = "query", value_name = "LABEL: EXPR")]
    pub queries: Vec<String>,
    /// Signed overflow wraps, or is impossible.
    #[arg(long, value_enum, default_value = "wrap")]
    pub integers: IntegersArg,
    /// Emit `enforce !F(false)` per procedure (C2BP §5.1).
    #[arg(long, value_enum, default_value = "on")]
    pub enforce: Switch,
    /// Aliasing from the points-to analysis (on) or from types only (off).
    #[arg(long = "points-to", value_enum, default_value = "on")]
    pub points_to: Switch,
    /// Compute F on atomic formulas only, distributed over && and || (C2BP §5.2).
    #[arg(long = "distribute-f")]
    pub distribute_f: bool,
    /// Abstract each updated predicate on its own (C2BP's cartesian abstraction) or all
    /// together (the boolean abstraction, C2BP §4.6).
    #[arg(long, value_enum, default_value = "cartesian")]
    pub precision: PrecisionArg,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum PrecisionArg {
    #[default]
    Cartesian,
    Boolean,
}

impl PaperArgs {
    /// True when a flag asks for something only this module does.
    pub fn any(&self) -> bool {
        self.syntax != SyntaxArg::Bebop
            || !self.queries.is_empty()
            || self.integers != IntegersArg::Wrap
            || self.enforce == Switch::Off
            || self.points_to == Switch::Off
            || self.distribute_f
            || self.precision != PrecisionArg::Cartesian
    }
}

fn config(engine: &EngineArgs, paper: &PaperArgs) -> AbstractionConfig {
    let mut config = AbstractionConfig::new(match engine.strategy {
        StrategyArg::Lattice => Strategy::Lattice,
        StrategyArg::Exact => Strategy::Exact,
    });
    config.max_cube_length = (engine.max_cube > 0).then_some(engine.max_cube as usize);
    config.solver.int_width = (engine.int_width > 0).then_some(engine.int_width);
    config.solver.integers = match paper.integers {
        IntegersArg::Wrap => abstraction::IntegerSemantics::Wrap,
        IntegersArg::Ideal => abstraction::IntegerSemantics::Ideal,
    };
    config.enforce = paper.enforce == Switch::On;
    config.points_to = paper.points_to == Switch::On;
    config.distribute_f = paper.distribute_f;
    config.precision = match paper.precision {
        PrecisionArg::Cartesian => abstraction::Precision::Cartesian,
        PrecisionArg::Boolean => abstraction::Precision::Boolean,
    };
    config
}

fn emit(output: CommandOutput) -> ExitCode {
    eprint!("{}", output.stderr);
    print!("{}", output.stdout);
    if output.success {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `predabs abstract FILE.c` with [`PaperArgs`].
pub(crate) fn run_abstract(
    file: &Path,
    predicates: Option<&Path>,
    engine: &EngineArgs,
    paper: &PaperArgs,
    invariants: bool,
) -> Result<ExitCode, String> {
    let mut lower = c_front_options(engine);
    lower.entry = "main".into();
    let command = AbstractCommand {
        source: read(file)?,
        file_name: file_name(file),
        predicates: match predicates {
            Some(p) => read(p)?,
            None => String::new(),
        },
        lower,
        config: config(engine, paper),
        syntax: match paper.syntax {
            SyntaxArg::Bebop => Syntax::Bebop,
            SyntaxArg::C2bp => Syntax::C2bp,
        },
        queries: paper.queries.clone(),
        invariants,
    };
    Ok(emit(abstraction::run_abstract(&command)))
}

fn c_front_options(engine: &EngineArgs) -> abstraction::LowerOptions {
    let mut options = abstraction::LowerOptions::default();
    if engine.data_model.eq_ignore_ascii_case("ILP32") {
        options.data_model = abstraction::DataModel::Ilp32;
    }
    options
}

/// `predabs mc FILE.bp --engine pds`.
pub(crate) fn run_mc_pds(file: &Path, error_labels: &[String]) -> Result<ExitCode, String> {
    let text = read(file)?;
    Ok(emit(abstraction::model_check_pds(
        &text,
        &file_name(file),
        error_labels,
        false,
    )))
}
