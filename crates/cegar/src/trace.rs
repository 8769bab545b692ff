//! Mapping an abstract counterexample (boolean program steps with C origins) back to the
//! sequence of executed C statements, filling in statements the abstraction left out.

use c_ir::{ProcId, Program, StmtKind, StmtRef};
use std::collections::VecDeque;

struct Frame {
    proc: ProcId,
    last: Option<u32>,
}

/// The C statements executed along `trace` (from the entry's first statement to the error),
/// in the shape [`refine::expand_path`] expects.
pub fn trace_to_c_path(program: &Program, trace: &model_check::Trace) -> Result<Vec<StmtRef>, String> {
    let entry = program.entry.ok_or("the program has no entry procedure")?;
    let mut out: Vec<StmtRef> = Vec::new();
    let mut stack = vec![Frame { proc: entry, last: None }];
    for step in &trace.steps {
        let origin = step.origin.map(|o| StmtRef { proc: ProcId(o.proc), index: o.index });
        match step.kind {
            model_check::StepKind::Call { .. } => {
                let Some(at) = origin else { return Err("a call step without a C origin".into()) };
                advance_to(program, &mut stack, &mut out, at)?;
                let StmtKind::Call { callee, .. } = &program.stmt(at).kind else {
                    return Err(format!("a call step at a C statement that is not a call ({}:{})", at.proc.0, at.index));
                };
                if !program.proc(*callee).body.is_empty() {
                    stack.push(Frame { proc: *callee, last: None });
                }
            }
            model_check::StepKind::Return { .. } => {
                let Some(frame) = stack.last() else { return Err("return from the entry procedure".into()) };
                let body_len = program.proc(frame.proc).body.len() as u32;
                if body_len == 0 {
                    return Err("return from a procedure without body".into());
                }
                let ret = StmtRef { proc: frame.proc, index: body_len - 1 };
                advance_to(program, &mut stack, &mut out, ret)?;
                if stack.len() < 2 {
                    return Err("return without a caller".into());
                }
                stack.pop();
            }
            _ => {
                if let Some(at) = origin {
                    advance_to(program, &mut stack, &mut out, at)?;
                }
            }
        }
    }
    match out.last() {
        Some(&last) if matches!(program.stmt(last).kind, StmtKind::Error) => Ok(out),
        _ => Err("the abstract counterexample does not end at a C error statement".into()),
    }
}

/// Moves the top frame to statement `at` (same procedure), appending the statements in between
/// (shortest path through non-call statements); a repeated statement is ignored.
fn advance_to(program: &Program, stack: &mut [Frame], out: &mut Vec<StmtRef>, at: StmtRef) -> Result<(), String> {
    let Some(frame) = stack.last_mut() else { return Err("no frame".into()) };
    if frame.proc != at.proc {
        return Err(format!("a step in procedure {} while executing {}", program.proc(at.proc).name, program.proc(frame.proc).name));
    }
    let proc = program.proc(at.proc);
    if frame.last == Some(at.index) {
        // several boolean statements come from one C statement
        return Ok(());
    }
    let between = shortest_path(program, at.proc, frame.last, at.index)
        .ok_or_else(|| format!("no path in {} from statement {:?} to {}", proc.name, frame.last, at.index))?;
    for index in between {
        out.push(StmtRef { proc: at.proc, index });
    }
    out.push(at);
    frame.last = Some(at.index);
    Ok(())
}

/// The statements strictly between `from` (or the procedure start) and `to`: BFS over
/// successors avoiding calls of procedures with bodies, error statements and `assume(false)`.
fn shortest_path(program: &Program, proc_id: ProcId, from: Option<u32>, to: u32) -> Option<Vec<u32>> {
    let proc = program.proc(proc_id);
    let starts: Vec<u32> = match from {
        None => {
            if to == 0 {
                return Some(Vec::new());
            }
            vec![0]
        }
        Some(f) => {
            let succ = proc.successors(f);
            if succ.contains(&to) {
                return Some(Vec::new());
            }
            succ
        }
    };
    let n = proc.body.len();
    let mut parent: Vec<Option<u32>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut queue = VecDeque::new();
    let passable = |i: u32| -> bool {
        match &proc.body[i as usize].kind {
            StmtKind::Call { callee, .. } => program.proc(*callee).body.is_empty(),
            StmtKind::Error | StmtKind::Return { .. } => false,
            _ => true,
        }
    };
    for s in starts {
        if (s as usize) < n && !seen[s as usize] && passable(s) {
            seen[s as usize] = true;
            queue.push_back(s);
        }
    }
    while let Some(i) = queue.pop_front() {
        for s in proc.successors(i) {
            if s == to {
                let mut path = vec![i];
                let mut cur = i;
                while let Some(p) = parent[cur as usize] {
                    path.push(p);
                    cur = p;
                }
                path.reverse();
                return Some(path);
            }
            if (s as usize) < n && !seen[s as usize] && passable(s) {
                seen[s as usize] = true;
                parent[s as usize] = Some(i);
                queue.push_back(s);
            }
        }
    }
    None
}
