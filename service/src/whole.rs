//! What the whole request lends the analyses of its parts (`Engine::prepare`): the services a scene part
//! names, and what the request says not to do or rules out. A part read alone would lose both.

use crate::analysis::Analysis;
use crate::profile::Profiles;

/// A part that acts and names no service acts on the services its scene names as a name, written
/// capitalized ("The 'products' collection in Typesense still has a document for SKU 88-1020. Remove that
/// document from the collection" removes it from Typesense, and Chroma's `delete_documents` does not; "I'm in
/// the mood for music from the 90s. Can you suggest songs …" names no service).
///
/// A part that only tells what someone did, left out of the parts, sets the scene too: "Customer asked a
/// follow-up in Intercom conversation 21874; I need a way to post a reply to that conversation" replies in
/// Intercom.
///
/// `analyses[0]` is the whole request's; `analyses[i + 1]` is part `i`'s, a scene part when `context[i]`;
/// `told` are those of the parts that only tell what was done.
pub(crate) fn lend_scene_services(analyses: &mut [Analysis], context: &[bool], told: &[Analysis], profiles: &Profiles) {
    let written_as_name = |a: &Analysis, n: usize| {
        let server = &profiles.servers[n];
        (!server.service.is_empty() && server.service.iter().all(|t| a.proper.contains(t)))
            || server.aliases.iter().any(|t| a.proper.contains(t))
    };
    let mut scene_named: Vec<usize> = Vec::new();
    let scenes = context.iter().enumerate().filter(|&(_, c)| *c).map(|(i, _)| &analyses[i + 1]).chain(told);
    for scene in scenes {
        scene_named.extend(scene.named_servers.iter().copied().filter(|&n| written_as_name(scene, n)));
    }
    scene_named.sort_unstable();
    scene_named.dedup();
    if scene_named.is_empty() {
        return;
    }
    let whole = analyses[0].clone();
    let acted: Vec<(usize, crate::actions::Family)> =
        whole.acted_on.iter().copied().filter(|(n, _)| scene_named.contains(n)).collect();
    let read: Vec<usize> = whole.read_from.iter().copied().filter(|n| scene_named.contains(n)).collect();
    for (i, _) in context.iter().enumerate().filter(|&(_, c)| !*c) {
        let a = &mut analyses[i + 1];
        if a.named_servers.is_empty() {
            (a.named_servers, a.acted_on, a.read_from) = (scene_named.clone(), acted.clone(), read.clone());
            // As named by the words the whole request names them with (`guard::counts_as_named`).
            for &n in &scene_named {
                let server = &profiles.servers[n];
                a.known.extend(server.service.iter().chain(&server.aliases).filter(|t| whole.known.contains(t)));
                a.proper.extend(server.service.iter().filter(|t| whole.proper.contains(t)));
            }
        }
    }
}

/// What the request says not to do holds for each of its parts and other forms that does not ask it itself:
/// "Take it off the live site but keep it as a draft. Don't delete it" is not served by `delete_entry` for
/// its first part either. So does what it rules out ("I don't want the Douyin list. Get me Kuaishou's hot
/// searches"), each form judging a ruled-out head by what the whole request wants.
///
/// `analyses[0]` is the whole request's; every other analysis receives from it.
pub(crate) fn share_what_is_ruled_out(analyses: &mut [Analysis]) {
    let Some((whole, rest)) = analyses.split_first_mut() else { return };
    for a in rest {
        for &f in &whole.denied {
            if !a.families.contains(&f) && !a.denied.contains(&f) {
                a.denied.push(f);
            }
        }
        for (mine, of_whole) in [(&mut a.denied_terms, &whole.denied_terms), (&mut a.denied_heads, &whole.denied_heads)]
        {
            for &t in of_whole {
                if !mine.contains(&t) {
                    mine.push(t);
                }
            }
        }
        if !whole.denied_heads.is_empty() {
            a.wanted = whole.wanted.clone();
        }
    }
}
