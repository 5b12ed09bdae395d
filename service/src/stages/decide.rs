//! Stage 4: the decision. A request is `found` when a tool was named or its best candidate's probability
//! reaches the request cut; only tools whose probability reaches the tool cut are delivered. A
//! `not_found` carries the closest candidates and, when the request names a connected service or the
//! closest tools do something else than asked, a reason in words an agent can act on.

use super::Candidate;
use crate::actions::{Agreement, families};
use crate::analysis::Analysis;
use crate::decision::Decision;

/// How many `closest` hints a `not_found` answer carries.
pub(crate) const CLOSEST: usize = 3;

/// The outcome of deciding.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Verdict {
    /// `found`?
    pub found: bool,
    /// Candidate positions delivered, in answer order (found only).
    pub delivered: Vec<usize>,
    /// Candidate positions offered as closest (not found only).
    pub closest: Vec<usize>,
    /// Not found because this candidate, which the guard bars, outweighs every one it leaves.
    pub overshadowed_by: Option<usize>,
}

/// What the request is, as far as deciding goes.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Request {
    /// Tools it named.
    pub named: usize,
    /// It names, as the place to act, a service the catalog never mentions.
    pub missing_service: bool,
    /// It is not written in English (`language.rs`): judged by the foreign request cut.
    pub foreign: bool,
    /// It asks for writing the agent does itself (`Analysis::composes`), or a question of what differs
    /// between two things in general (`Analysis::compares_in_general`), and no tool among the first `limit`
    /// of the order is named for what it writes: nothing here serves it.
    pub composes: bool,
    /// It is an everyday question that also runs as the plain request a tool describes (`questions.rs`):
    /// what the question itself matches (with no action of its own to judge a tool by) overshadows nothing.
    pub asked: bool,
}

/// Decides over `candidates` arranged in `order`. A request is also not found when its best candidate
/// the guard does not bar has less than `overshadow` of the confidence of the best one it bars (0: never),
/// unless that candidate does what is asked to the thing the request names (`Candidate::fits`). For an
/// everyday question (`Request::asked`) the barred one's confidence is its best outside the question's own
/// pass.
pub(crate) fn decide(
    candidates: &[Candidate],
    order: &[usize],
    request: Request,
    decision: &Decision,
    limit: usize,
    overshadow: f32,
) -> Verdict {
    let Request { named, missing_service, foreign, composes, asked } = request;
    // What the guard bars counts for nothing here (`Candidate::cleared`).
    let best = candidates.iter().map(Candidate::cleared).fold(f32::MIN, f32::max);
    // A request for a service the catalog never mentions is not served by another service's look-alike.
    // A request whose best tool the guard bars, and whose best tool left is much weaker, asked for what
    // the barred tool looked like: what is left is a weaker near miss, not the thing ("void that invoice"
    // once `finalizeInvoice` is barred).
    // (The most confident candidate overshadows only when the guard bars it where it is most confident:
    // else `best` is its confidence.)
    let weight = |c: &Candidate| {
        if asked { c.probability.iter().skip(1).copied().fold(0.0, f32::max) } else { c.confidence() }
    };
    let most_confident =
        (0..candidates.len()).max_by(|&a, &b| weight(&candidates[a]).total_cmp(&weight(&candidates[b])));
    // A tool that does what is asked to the thing the request names is not overshadowed by one barred for
    // doing something else ("open an issue in gitlab …": `create_issue` beside a barred
    // `create_issue_link`).
    let best_fits = candidates.iter().any(|c| c.fits && c.cleared() >= best);
    // Nor by one barred for a reason that makes it no near miss (`Candidate::barred_quietly`).
    let overshadowed_by = most_confident
        .filter(|&c| !best_fits && !candidates[c].barred_quietly && best < overshadow * weight(&candidates[c]));
    let overshadowed = overshadowed_by.is_some();
    let found = named > 0
        || (!missing_service
            && !composes
            && !candidates.is_empty()
            && best >= decision.request_cut_for(foreign)
            && !overshadowed);
    if !found {
        let closest = order.iter().copied().take(CLOSEST).collect();
        return Verdict {
            found,
            delivered: Vec::new(),
            closest,
            overshadowed_by: overshadowed_by.filter(|_| named == 0),
        };
    }
    // Only the places the answer has: a tool the per-server cap pushed out of them does not come back in
    // through a rejected tool's place.
    let room = limit.saturating_sub(named);
    // A tool the guard bars is never delivered, whatever the tool cut (a cut of 0 keeps every probability).
    let deliverable = |c: usize| !candidates[c].barred() && decision.keeps(candidates[c].cleared(), best);
    let mut delivered: Vec<usize> = order.iter().copied().take(room).filter(|&c| deliverable(c)).collect();
    if delivered.is_empty() && named == 0 {
        // A found answer always carries its best tool (possible only when the tool cut is above the
        // request cut), never one the guard bars.
        delivered.extend(order.iter().copied().take(room).filter(|&c| !candidates[c].barred()).take(1));
        if delivered.is_empty() {
            // Every place the answer has holds a tool the guard bars.
            return Verdict {
                found: false,
                delivered,
                closest: order.iter().copied().take(CLOSEST).collect(),
                overshadowed_by: None,
            };
        }
    }
    Verdict { found, delivered, closest: Vec::new(), overshadowed_by: None }
}

/// Why nothing was found, when there is something useful to say: the named service is there but none of
/// its tools does the action, or the closest tools all do something else.
/// When nothing more specific applies and the request was not found because the guard barred its best
/// match (`Verdict::overshadowed_by`, given as server and tool), the reason says that. `composes` is the
/// decision's [`Request::composes`] (writing that no tool among the answer's is named for), not the
/// request's look alone: a request that opens with "write" but was turned down for another cause is not
/// told that it needs no tool.
pub(crate) fn reason(
    request: &Analysis,
    composes: bool,
    closest: &[(&str, &str, &[crate::actions::Family])],
    named_service: Option<&str>,
    overshadowed_by: Option<(&str, &str)>,
) -> Option<String> {
    specific_reason(request, composes, closest, named_service).or_else(|| {
        overshadowed_by.map(|(server, tool)| {
            let listed = closest.iter().map(|(s, t, _)| format!("{s}/{t}")).collect::<Vec<_>>().join(", ");
            format!(
                "the closest match, {server}/{tool}, would act on something else than asked, and the tools left \
                 match much less; closest: {listed}"
            )
        })
    })
}

/// The reason when the named service lacks the action, or the closest tools all do something else.
fn specific_reason(
    request: &Analysis,
    composes: bool,
    closest: &[(&str, &str, &[crate::actions::Family])],
    named_service: Option<&str>,
) -> Option<String> {
    let listed = closest.iter().map(|(s, t, _)| format!("{s}/{t}")).collect::<Vec<_>>().join(", ");
    if composes && request.compares_in_general {
        return Some(format!(
            "the request asks a question of general knowledge (what differs between two things) that needs no tool, and no tool here is named for it; closest: {}",
            if listed.is_empty() { "none".into() } else { listed }
        ));
    }
    if composes {
        return Some(format!(
            "the request asks for writing that needs no tool ({}), and no tool here is named for it; closest: {}",
            request.object_words.join(" "),
            if listed.is_empty() { "none".into() } else { listed }
        ));
    }
    if !request.missing_services.is_empty() {
        let table = crate::services::services();
        let missing: Vec<&str> = request.missing_services.iter().map(|&s| table.name(s)).collect();
        return Some(format!(
            "{} {} not connected: no server or tool here mentions {}; closest: {}",
            missing.join(" and "),
            if missing.len() == 1 { "is" } else { "are" },
            if missing.len() == 1 { "it" } else { "them" },
            if listed.is_empty() { "none".into() } else { listed }
        ));
    }
    let action = request.action.as_ref()?;
    let table = families();
    let object: Vec<&str> = request
        .object_words
        .iter()
        .map(String::as_str)
        .filter(|w| named_service.is_none_or(|s| !s.to_lowercase().contains(*w)))
        .collect();
    let verb = table.base_form(&action.verb);
    let what = if object.is_empty() { verb.to_string() } else { format!("{verb} {}", object.join(" ")) };
    if let Some(service) = named_service {
        return Some(format!(
            "{service} is connected, but none of its tools can {what}; closest: {}",
            if listed.is_empty() { "none".into() } else { listed }
        ));
    }
    let others: Vec<&str> = closest
        .iter()
        .filter(|(_, _, f)| table.agreement_of_sets(&request.families, f) == Agreement::Conflict)
        .map(|(_, t, _)| *t)
        .collect();
    if !closest.is_empty() && others.len() == closest.len() {
        return Some(format!(
            "no connected tool can {what}; the closest ({listed}) do something else ({})",
            closest
                .iter()
                .filter_map(|(_, _, f)| f.first().map(|f| table.name(*f).to_string()))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(tool: usize, probability: f32, guarded: bool) -> Candidate {
        Candidate {
            tool,
            server: 0,
            fused: vec![probability],
            probability: vec![probability],
            best_pass: 0,
            features: [0.0; crate::FEATURES.len()],
            guarded: vec![guarded],
            fits: false,
            barred_quietly: false,
            ruled_out: false,
        }
    }

    #[test]
    fn a_tool_the_guard_bars_is_never_delivered() {
        let decision = Decision::built_in();
        assert_eq!(decision.tool_cut(), 0.0, "the built-in cut keeps every probability: the case that matters");
        let candidates = [candidate(0, 0.9, true), candidate(1, 0.5, false), candidate(2, 0.4, true)];
        let verdict = decide(&candidates, &[0, 1, 2], Request::default(), &decision, 5, 0.0);
        assert!(verdict.found);
        assert_eq!(verdict.delivered, [1], "the barred near misses are left out, though they score higher");
        // Every tool barred: not found, and the near misses are offered as closest.
        let verdict = decide(&candidates[..1], &[0], Request::default(), &decision, 5, 0.0);
        assert!(!verdict.found);
        assert_eq!(verdict.closest, [0]);
    }

    #[test]
    fn an_overshadowed_request_says_so_when_nothing_more_specific_applies() {
        let closest: [(&str, &str, &[crate::actions::Family]); 2] = [("s", "a", &[]), ("s", "b", &[])];
        let said = reason(&Analysis::default(), false, &closest, None, Some(("s", "a"))).expect("a reason");
        assert!(said.starts_with("the closest match, s/a, would act on something else"), "{said}");
        assert!(said.ends_with("closest: s/a, s/b"), "{said}");
        assert_eq!(reason(&Analysis::default(), false, &closest, None, None), None);
        // A request that reads as writing ("write a word document …") but was turned down for the barred
        // tool, not for needing none: the reason is the barred tool's.
        let writes =
            Analysis { composes: true, object_words: vec!["word".into(), "document".into()], ..Analysis::default() };
        let said = reason(&writes, false, &closest, None, Some(("s", "a"))).expect("a reason");
        assert!(said.starts_with("the closest match, s/a"), "{said}");
        let said = reason(&writes, true, &closest, None, None).expect("a reason");
        assert!(said.starts_with("the request asks for writing that needs no tool (word document)"), "{said}");
    }

    #[test]
    fn a_request_whose_barred_best_overshadows_what_is_left_is_not_found() {
        let decision = Decision::built_in();
        // The barred best at 0.9: a tool left at 0.5 is under 0.7 of it, one at 0.7 is not.
        let weak = [candidate(0, 0.9, true), candidate(1, 0.5, false)];
        let verdict = decide(&weak, &[0, 1], Request::default(), &decision, 5, 0.7);
        assert!(!verdict.found);
        assert_eq!(verdict.closest, [0, 1], "the near misses are offered as closest");
        assert_eq!(verdict.overshadowed_by, Some(0));
        assert!(decide(&weak, &[0, 1], Request::default(), &decision, 5, 0.0).found, "0 turns it off");
        let close = [candidate(0, 0.9, true), candidate(1, 0.7, false)];
        assert!(decide(&close, &[0, 1], Request::default(), &decision, 5, 0.7).found);
        // … unless what is left does what is asked to the thing the request names.
        let mut fitting = weak.clone();
        fitting[1].fits = true;
        assert!(decide(&fitting, &[0, 1], Request::default(), &decision, 5, 0.7).found);
        // … or the barred best is barred only quietly (it reads a service the request only acts on, or does
        // what the request says not to do): no near miss.
        let mut other_part = weak.clone();
        other_part[0].barred_quietly = true;
        let verdict = decide(&other_part, &[0, 1], Request::default(), &decision, 5, 0.7);
        assert!(verdict.found);
        assert_eq!(verdict.delivered, [1], "still never delivered");
        // Nothing barred: the best is its own measure.
        let clear = [candidate(0, 0.9, false), candidate(1, 0.1, false)];
        assert!(decide(&clear, &[0, 1], Request::default(), &decision, 5, 0.7).found);
        // A request for writing no candidate is named for: nothing serves it, however close.
        let composes = Request { composes: true, ..Request::default() };
        let verdict = decide(&clear, &[0, 1], composes, &decision, 5, 0.7);
        assert!(!verdict.found && verdict.delivered.is_empty());
        assert_eq!(verdict.closest, [0, 1], "offered as closest");
        // A tool named by the request is found whatever the rest.
        let named = Request { named: 1, ..Request::default() };
        assert!(decide(&weak, &[0, 1], named, &decision, 5, 0.7).found);
    }

    #[test]
    fn what_an_everyday_question_itself_matches_overshadows_nothing() {
        let decision = Decision::built_in();
        // Two passes: the question as asked, then written plainly. The barred tool is strong only for the
        // question as asked (it matched the thing, and the question names no action to judge it by).
        let two = |p: [f32; 2], guarded: bool| Candidate {
            fused: p.to_vec(),
            probability: p.to_vec(),
            best_pass: usize::from(p[1] > p[0]),
            guarded: vec![guarded; 2],
            ..candidate(0, 0.0, guarded)
        };
        let candidates = [two([0.9, 0.2], true), Candidate { tool: 1, ..two([0.1, 0.5], false) }];
        let plain = decide(&candidates, &[0, 1], Request::default(), &decision, 5, 0.7);
        assert!(!plain.found, "read as any request, the barred best overshadows");
        let asked = Request { asked: true, ..Request::default() };
        let verdict = decide(&candidates, &[0, 1], asked, &decision, 5, 0.7);
        assert!(verdict.found);
        assert_eq!(verdict.delivered, [1]);
        // Strong where the question is written plainly too, the barred tool still overshadows.
        let strong = [two([0.9, 0.9], true), Candidate { tool: 1, ..two([0.1, 0.5], false) }];
        assert!(!decide(&strong, &[0, 1], asked, &decision, 5, 0.7).found);
    }
}
