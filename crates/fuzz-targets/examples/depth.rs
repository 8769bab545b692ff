//! How deep the mutated inputs of the newer targets get: the share of inputs that the first
//! parser accepts (the rest test its error paths). `cargo run -p fuzz-targets --example depth`.

use fuzz_targets::{corpus, mutate, mutate_values, FuzzSession, Rng, Target};
use std::path::PathBuf;

fn main() {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let cases = 2000;
    for target in [Target::AbsFile, Target::Witness, Target::ShareFragment, Target::LabFile] {
        let seeds = corpus(target, &tests);
        let mut rng = Rng::new(33);
        if target == Target::Witness {
            for s in &seeds {
                if let Err(e) = witness::yaml::from_yaml(&s.text) {
                    println!("seed {} rejected: {e:?}", s.name);
                }
            }
        }
        let mut accepted = 0;
        for _ in 0..cases {
            let s = &seeds[rng.below(seeds.len())];
            let input = if target == Target::Witness && rng.chance(60) { mutate_values(&s.text, &mut rng) } else { mutate(&s.text, &mut rng) };
            let program = s.program.clone().unwrap_or_default();
            let ok = match target {
                Target::AbsFile => hiding::Analysis::new(&program, "f.c", &input, Default::default()).is_ok_and(|a| a.abs_diagnostics.is_empty()),
                Target::Witness => witness::yaml::from_yaml(&input).is_ok(),
                Target::LabFile => playground_api::lab::Lab::from_file(&input).is_ok() || playground_api::lab::Submission::from_file(&input).is_ok(),
                _ => matches!(playground_api::share::decode::<FuzzSession>(&playground_api::share::encode_bytes(input.as_bytes())), Ok(Some(_))),
            };
            accepted += usize::from(ok);
        }
        println!("{}: {} seeds, {accepted} of {cases} mutated inputs accepted by the parser", target.name(), seeds.len());
    }
}
