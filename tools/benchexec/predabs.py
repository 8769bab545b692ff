# BenchExec tool-info module for predabs (predicate abstraction and CEGAR for C).
#
# Use it by putting this folder on PYTHONPATH and naming the tool `predabs` in a benchmark
# definition, e.g. `PYTHONPATH=tools/benchexec benchexec --tool-directory target/native ...`
# (see docs/benchexec.md). Only the `unreach-call` property is supported.

import re

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task


class Tool(benchexec.tools.template.BaseTool2):
    """
    predabs: predicate abstraction (C2BP), BDD model checking of boolean programs (BEBOP) and
    counterexample-guided refinement (CEGAR) for C programs.

    Options of the benchmark definition are passed to `predabs check` (e.g. `--refine sp`,
    `--max-cone 0`, `--witness witness.yml`). The CPU-time limit becomes predabs' own time budget
    (`--timeout`, a few seconds below the limit) unless the options set one.
    """

    REQUIRED_PATHS = []

    def executable(self, tool_locator):
        return tool_locator.find_executable("predabs")

    def name(self):
        return "predabs"

    def project_url(self):
        return "https://github.com/predabs/predabs"

    def version(self, executable):
        # `predabs --version` prints `predabs 0.1.0`
        text = self._version_from_tool(executable, "--version")
        return text.split()[-1] if text else ""

    def cmdline(self, executable, options, task, rlimits):
        other = ("termination", "memsafety", "memcleanup", "overflow", "data-race", "coverage")
        if task.property_file and any(p in task.property_file for p in other):
            raise benchexec.tools.template.UnsupportedFeatureException(
                "predabs checks only the unreach-call property"
            )
        options = list(options)
        data_model = get_data_model_from_task(task, {ILP32: "ILP32", LP64: "LP64"})
        if data_model and "--data-model" not in options:
            options += ["--data-model", data_model]
        if rlimits.cputime and "--timeout" not in options:
            # leave time to print the verdict (and to write a witness) before the hard limit
            budget = max(1, rlimits.cputime - max(2, rlimits.cputime // 20))
            options += ["--timeout", str(budget)]
        return [executable, "check", *options, task.single_input_file]

    def determine_result(self, run):
        for line in reversed(run.output):
            match = re.match(r"^VERDICT: (SAFE|UNSAFE|UNKNOWN)", line)
            if match:
                verdict = match.group(1)
                if verdict == "SAFE":
                    return result.RESULT_TRUE_PROP
                if verdict == "UNSAFE":
                    return result.RESULT_FALSE_REACH
                if run.was_timeout:
                    return result.RESULT_TIMEOUT
                return result.RESULT_UNKNOWN
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if run.exit_code.value == 1:
            return result.RESULT_ERROR + " (program not supported)"
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # e.g. `iterations` or `reason`: the value after `identifier:` on its line
        for line in output:
            if line.startswith(identifier + ":"):
                return line[len(identifier) + 1 :].strip()
        return None
