//! The native side of `scripts/bench-browser.sh`: runs the engine benchmarks natively (build
//! it with `--profile native`) and prints the report; with `--compare BROWSER.json` also the
//! side-by-side table against the browser's report. `--save FILE` writes the native report as
//! JSON; `--native FILE` reads one instead of running (to print a saved pair's table again).
//!
//! ```text
//! bench-native [--json] [--compare FILE] [--save FILE] [--native FILE]
//!              [--solver-limit N] [--sizes N] [--no-abstraction]
//! ```

use bench_wasm::{format_comparison, format_report, run, Options, Report};

const USAGE: &str =
    "usage: bench-native [--json] [--compare BROWSER.json] [--save NATIVE.json] [--native NATIVE.json] [--solver-limit N] [--sizes N] [--no-abstraction]";

fn main() {
    let mut options = Options::default();
    let mut json = false;
    let mut compare: Option<String> = None;
    let mut save: Option<String> = None;
    let mut saved: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> usize {
            match args.next().and_then(|v| v.parse().ok()) {
                Some(n) => n,
                None => fail(&format!("{name} needs a number")),
            }
        };
        match arg.as_str() {
            "--json" => json = true,
            "--compare" => compare = Some(args.next().unwrap_or_else(|| fail("--compare needs a file"))),
            "--save" => save = Some(args.next().unwrap_or_else(|| fail("--save needs a file"))),
            "--native" => saved = Some(args.next().unwrap_or_else(|| fail("--native needs a file"))),
            "--solver-limit" => options.solver_limit = Some(number("--solver-limit")),
            "--sizes" => options.model_check_sizes = Some(number("--sizes")),
            "--no-abstraction" => options.abstraction = false,
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => fail(&format!("unknown argument {other}")),
        }
    }
    // Read the browser report first: a bad file should not cost a benchmark run.
    let browser = compare.map(|path| read_report(&path));
    let native = match saved {
        Some(path) => read_report(&path),
        None => run(&options),
    };
    if let Some(path) = save {
        let text = serde_json::to_string_pretty(&native).unwrap_or_default() + "\n";
        std::fs::write(&path, text).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&native).unwrap_or_default());
        return;
    }
    print!("{}", format_report(&native));
    if let Some(browser) = browser {
        println!("\n==================== browser vs native ====================");
        println!("browser: {} ({})", browser.platform, browser.user_agent);
        println!("native:  {}\n", native.platform);
        print!("{}", format_comparison(&browser, &native));
    }
}

fn read_report(path: &str) -> Report {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("{path}: not a report: {e}")))
}

fn fail(message: &str) -> ! {
    eprintln!("bench-native: {message}\n{USAGE}");
    std::process::exit(2);
}
