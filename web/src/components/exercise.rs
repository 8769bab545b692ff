//! The Predict toggle and the questions it puts into the reveal bar, the cube lattice and the
//! invariants view ([`crate::exercise`]: predict, then reveal). Every text from the program or
//! the engine is rendered as text; the choices are native checkboxes and buttons in a
//! fieldset, so they work from the keyboard; the mark and hint are announced (a live region).

use super::use_app;
use crate::exercise::{self, Answered, Choice, ExerciseAction, Key};
use crate::model::RunKind;
use crate::state::{Action, AppState};
use playground_api::lab::Mark;
use yew::prelude::*;

fn dispatch(state: &UseReducerHandle<AppState>, action: ExerciseAction) {
    state.dispatch(Action::Exercise(action));
}

/// The toggle and the score (Check and Abstract modes).
#[function_component(PredictToggle)]
pub fn predict_toggle() -> Html {
    let state = use_app();
    if !matches!(state.session.mode, RunKind::Check | RunKind::Abstract) {
        return html! {};
    }
    let onchange = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            dispatch(&state, ExerciseAction::SetEnabled(input.checked()));
        })
    };
    let ex = &state.exercises;
    html! {
        <div class="predict-bar" id="predict-bar">
            <label class="reveal-toggle" title="Before the engine shows its answer, you predict it: is the counterexample feasible, which predicates refinement adds (Step), which cubes imply the WP (cube lattice), which facts hold at a label (invariants)">
                <input type="checkbox" id="predict" checked={ex.enabled} {onchange} />
                { "Predict: answer before each reveal (feasibility, new predicates, cubes, invariants)" }
            </label>
            if ex.enabled || ex.asked > 0 {
                <span class="chip" id="predict-score" data-right={ex.right.to_string()} data-asked={ex.asked.to_string()}>{ format!("Score: {}", ex.score()) }</span>
            }
        </div>
    }
}

/// The mark and hint of the latest answer (announced).
fn feedback(answered: Option<&Answered>, pending: bool) -> Html {
    let body = match (answered, pending) {
        (_, true) => html! { <p class="hint">{ "Asking the engine…" }</p> },
        (None, false) => html! {},
        (Some(a), false) => {
            let (class, word) = match &a.mark {
                Mark::Right => ("right", "Right.".to_string()),
                Mark::Wrong => ("wrong", "Not right.".to_string()),
                Mark::Unreadable { message } => ("unreadable", format!("Cannot check: {message}")),
                Mark::Recorded | Mark::NotYet => ("unreadable", String::new()),
            };
            html! {
                <div class={classes!("exercise-mark", format!("is-{class}"))} data-mark={class}>
                    <strong>{ word }</strong>
                    if let Some(hint) = &a.hint {
                        { " " }<span class="exercise-hint">{ hint }</span>
                    }
                </div>
            }
        }
    };
    html! { <div class="exercise-feedback" aria-live="polite">{ body }</div> }
}

#[derive(Properties, PartialEq)]
struct ChoicesProps {
    /// `data-kind` and the ids' stem.
    question: Key,
    legend: String,
    choices: Vec<Choice>,
    /// Checks the chosen answers.
    on_check: Callback<Vec<String>>,
    /// Shows what the question hides.
    on_reveal: Option<Callback<()>>,
    reveal_label: String,
    answered: Option<Answered>,
    pending: bool,
    #[prop_or_default]
    intro: Html,
}

/// A multiple-choice question: checkboxes, Check, and (optionally) a way to see the answer.
#[function_component(Choices)]
fn choices(props: &ChoicesProps) -> Html {
    let chosen = use_state(|| props.answered.as_ref().map(|a| a.given.clone()).unwrap_or_default());
    let kind = props.question.kind();
    let toggle = |answer: String| {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let mut now: Vec<String> = (*chosen).clone();
            now.retain(|a| *a != answer);
            if input.checked() {
                now.push(answer.clone());
            }
            chosen.set(now);
        })
    };
    let check = {
        let (chosen, on_check, order) = (chosen.clone(), props.on_check.clone(), props.choices.clone());
        Callback::from(move |_: MouseEvent| {
            // in the order of the choices, not of the clicks
            let given = order.iter().filter(|c| chosen.contains(&c.answer)).map(|c| c.answer.clone()).collect();
            on_check.emit(given);
        })
    };
    let reveal = props.on_reveal.clone().map(|r| Callback::from(move |_: MouseEvent| r.emit(())));
    html! {
        <fieldset class="exercise" id={format!("exercise-{kind}")} data-kind={kind}>
            <legend>{ &props.legend }</legend>
            { props.intro.clone() }
            <ul class="exercise-choices">
                { for props.choices.iter().enumerate().map(|(i, c)| {
                    let id = format!("exercise-{kind}-{i}");
                    html! {
                        <li>
                            <input type="checkbox" id={id.clone()} data-answer={c.answer.clone()} checked={chosen.contains(&c.answer)} onchange={toggle(c.answer.clone())} />
                            <label for={id}><code>{ &c.text }</code></label>
                        </li>
                    }
                }) }
            </ul>
            <div class="exercise-actions">
                <button type="button" class="btn btn-small btn-primary" id={format!("exercise-{kind}-check")} onclick={check} disabled={props.pending}>{ "Check" }</button>
                if let Some(onclick) = reveal {
                    <button type="button" class="btn btn-small" id={format!("exercise-{kind}-reveal")} {onclick}>{ &props.reveal_label }</button>
                }
            </div>
            { feedback(props.answered.as_ref(), props.pending) }
        </fieldset>
    }
}

/// The question the reveal bar asks before its next phase (feasibility, new predicates).
#[function_component(RevealQuestion)]
pub fn reveal_question() -> Html {
    let state = use_app();
    let Some(key) = exercise::reveal_question(&state) else { return html! {} };
    let answered = state.exercises.answer(&key).cloned();
    let Some(it) = state.run.iterations.iter().find(|it| Some(it.index) == key_iteration(&key)) else { return html! {} };
    match &key {
        Key::Feasibility { .. } => {
            let answer = |word: &'static str| {
                let (state, key) = (state.clone(), key.clone());
                Callback::from(move |_: MouseEvent| dispatch(&state, ExerciseAction::Answer { key: key.clone(), given: vec![word.to_string()] }))
            };
            let chosen = answered.as_ref().and_then(|a| a.given.first().cloned());
            let pressed = |word: &str| Some((chosen.as_deref() == Some(word)).to_string());
            html! {
                <fieldset class="exercise" id="exercise-feasibility" data-kind="feasibility">
                    <legend>{ format!("Predict: is iteration {}'s abstract counterexample feasible in the C program?", it.index) }</legend>
                    <p class="hint">{ "Follow its steps in the trace view; the boolean program chose some branches freely. Answer, then reveal the feasibility check." }</p>
                    <div class="exercise-actions">
                        <button type="button" class="btn btn-small" id="exercise-feasible" aria-pressed={pressed("feasible")} onclick={answer("feasible")}>{ "Feasible: a real error path" }</button>
                        <button type="button" class="btn btn-small" id="exercise-infeasible" aria-pressed={pressed("infeasible")} onclick={answer("infeasible")}>{ "Infeasible: spurious" }</button>
                    </div>
                    { feedback(answered.as_ref(), false) }
                </fieldset>
            }
        }
        Key::NewPredicates { .. } => {
            let on_check = {
                let (state, key) = (state.clone(), key.clone());
                Callback::from(move |given: Vec<String>| dispatch(&state, ExerciseAction::Answer { key: key.clone(), given }))
            };
            html! {
                <Choices key={format!("predicates-{}", it.index)} question={key.clone()}
                    legend={format!("Predict: which predicates will refinement add at iteration {}?", it.index)}
                    intro={html! { <p class="hint">{ "The choices are the atoms of the path's conditions in the feasibility table. Check, then reveal the new predicates." }</p> }}
                    choices={exercise::predicate_choices(it)} {on_check} on_reveal={None::<Callback<()>>} reveal_label={String::new()}
                    answered={answered} pending={false} />
            }
        }
        _ => html! {},
    }
}

fn key_iteration(key: &Key) -> Option<u32> {
    match key {
        Key::Feasibility { iteration } | Key::NewPredicates { iteration } | Key::Cubes { iteration, .. } => Some(*iteration),
        Key::Holds { .. } => None,
    }
}

/// The cube lattice's question (shown instead of the diagram and `F(WP)` until settled).
#[function_component(LatticeQuestion)]
pub fn lattice_question() -> Html {
    let state = use_app();
    let Some((key, choices)) = exercise::lattice_question(&state) else { return html! {} };
    let Some(p) = state.explained_predicate() else { return html! {} };
    let answered = state.exercises.answer(&key).cloned();
    let on_check = {
        let (state, key) = (state.clone(), key.clone());
        Callback::from(move |given: Vec<String>| dispatch(&state, ExerciseAction::Answer { key: key.clone(), given }))
    };
    let on_reveal = {
        let (state, key) = (state.clone(), key.clone());
        Callback::from(move |()| dispatch(&state, ExerciseAction::Reveal(key.clone())))
    };
    let Key::Cubes { iteration, statement, predicate } = &key else { return html! {} };
    html! {
        <Choices key={format!("cubes-{iteration}-{statement}-{predicate}")} question={key.clone()}
            legend={format!("Predict: which of these cubes imply WP(s, φ) = {}?", p.positive.target)}
            intro={html! { <p class="hint">{ if p.positive.near_cone.is_empty() {
                "These are the cubes the strengthening asked the solver about (a cube whose smaller cube already implies is never asked). Tick none if none does.".to_string()
            } else {
                format!("These are the cubes over the predicates that share a variable with WP(s, φ) — {} (its cone of influence's first layer, C2BP §5.2) — that the strengthening asked the solver about (a cube whose smaller cube already implies is never asked). Tick none if none does.", p.positive.near_cone.join(", "))
            } }</p> }}
            {choices} {on_check} on_reveal={Some(on_reveal)} reveal_label={"Show the lattice".to_string()}
            answered={answered} pending={false} />
    }
}

/// The invariants view's question: which of these hold at a label?
#[function_component(HoldsQuestion)]
pub fn holds_question() -> Html {
    let state = use_app();
    let open = exercise::open_labels(&state);
    let Some((label, facts)) = open.first().cloned() else {
        // answered right: the mark stays above the invariants it revealed
        let done = state.exercises.answers.iter().rev().find(|a| matches!(a.key, Key::Holds { .. }) && a.mark.is_right());
        return match done {
            Some(a) => html! { <div class="exercise-done" id="exercise-holds-done">{ feedback(Some(a), false) }</div> },
            None => html! {},
        };
    };
    let key = Key::Holds { label: label.clone() };
    let choices = exercise::holds_choices(&facts);
    if choices.is_empty() {
        return html! {};
    }
    let pending = state.exercises.holds_ask.as_ref().is_some_and(|a| a.label == label) && state.exercises.holds_answers.is_empty();
    // the predicates of the shown run (Check mode: its final ones)
    let predicates = state.question_predicates();
    let on_check = {
        let (state, label, choices) = (state.clone(), label.clone(), choices.clone());
        Callback::from(move |given: Vec<String>| {
            dispatch(&state, ExerciseAction::AskHolds { label: label.clone(), choices: choices.clone(), given, predicates: predicates.clone() })
        })
    };
    let on_reveal = {
        let (state, key) = (state.clone(), key.clone());
        Callback::from(move |()| dispatch(&state, ExerciseAction::Reveal(key.clone())))
    };
    html! {
        <Choices key={format!("holds-{label}")} question={key.clone()}
            legend={format!("Predict: which of these hold at label {label}?")}
            intro={html! { <p class="hint">{ "The invariant at the label is hidden until you answer; the engine asks the solver whether it implies each choice." }</p> }}
            {choices} {on_check} on_reveal={Some(on_reveal)} reveal_label={format!("Show the invariant at {label}")}
            answered={state.exercises.answer(&key).cloned()} {pending} />
    }
}

/// Above a lattice whose question was answered right: the mark.
#[function_component(LatticeDone)]
pub fn lattice_done() -> Html {
    let state = use_app();
    let (Some(it), Some(statement), Some(p)) = (state.selected_iteration(), state.explain.statement, state.explained_predicate()) else {
        return html! {};
    };
    let key = Key::Cubes { iteration: it.index, statement, predicate: p.predicate.clone() };
    match state.exercises.answer(&key).filter(|a| a.mark.is_right()) {
        Some(a) => html! { <div class="exercise-done" id="exercise-cubes-done">{ feedback(Some(a), false) }</div> },
        None => html! {},
    }
}
