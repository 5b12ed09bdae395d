//! The real model behind its pool of sessions: every session gives the same vectors, concurrent callers
//! get their own texts' vectors back, and a request's intents embedded in parallel match the batch.

use std::sync::Arc;

use toolscout_indexer::{Embedder, EmbedderConfig, FastEmbedder, Part};

fn pooled() -> FastEmbedder {
    let config =
        EmbedderConfig { sessions: 2, threads: 1, ..EmbedderConfig::installed(&toolscout_test_support::deps()) };
    FastEmbedder::load(&config).expect("embedding model (run scripts/setup-models.sh)")
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

const TEXTS: [&str; 4] = [
    "send a message to the team channel",
    "create an invoice for the customer and email it",
    "what is the weather in Lisbon tomorrow",
    "list the open pull requests of toolscout/toolscout that touch the indexer",
];

#[test]
fn sessions_agree_with_one_session_and_concurrent_callers_get_their_own_vectors() {
    let single = toolscout_test_support::embedder();
    let pool = Arc::new(pooled());
    assert_eq!(pool.sessions(), 2);
    assert_eq!(pool.member_sessions(), [2, 1], "the installed ensemble caps USE-m3 at one session (members.txt)");
    assert_eq!(pool.model_id(), single.model_id(), "the same model, whatever the pool");
    let expected: Vec<Vec<f32>> = TEXTS.iter().map(|t| single.embed_query(t).expect("embeds")).collect();
    // Four threads × 25 calls on two sessions: each call must get its own text's vector.
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let pool = pool.clone();
            let expected = expected[i].clone();
            std::thread::spawn(move || {
                for _ in 0..25 {
                    let v = pool.embed_query(TEXTS[i]).expect("embeds");
                    assert!(cosine(&v, &expected) > 0.999, "text {i} got another vector");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("caller");
    }
    // The texts are different enough that a mix-up would show.
    assert!(cosine(&expected[0], &expected[2]) < 0.9);
}

#[test]
fn intents_embedded_in_parallel_match_the_batch_in_order() {
    let pool = pooled();
    let texts: Vec<String> = TEXTS.iter().map(|t| t.to_string()).collect();
    let parallel = pool.embed_queries(&texts).expect("embeds");
    let batch = pool.embed_documents(&texts).expect("embeds");
    assert_eq!(parallel.len(), texts.len());
    for (i, (p, b)) in parallel.iter().zip(&batch).enumerate() {
        assert!(cosine(p, b) > 0.999, "intent {i}: parallel and batched vectors differ");
    }
}

/// One member of the installed ensemble, loaded alone.
fn member(name: &str) -> FastEmbedder {
    let deps = toolscout_test_support::deps();
    FastEmbedder::load(&EmbedderConfig::new(
        deps.join("models").join(name),
        deps.join(toolscout_indexer::INSTALLED_ORT),
    ))
    .expect("member model (run scripts/setup-models.sh)")
}

#[test]
fn the_default_model_is_the_ensemble_whose_cosine_is_the_mean_of_its_members() {
    let ensemble = toolscout_test_support::embedder();
    let (minilm, usem3) = (member("all-minilm-l6-v2-int8"), member("use-multilingual-v3"));
    assert_eq!((minilm.dim(), usem3.dim(), ensemble.dim()), (384, 512, 896));
    assert_eq!(ensemble.model_id(), format!("ensemble({}+{})", minilm.model_id(), usem3.model_id()));
    let texts: Vec<String> = TEXTS.iter().map(|t| t.to_string()).collect();
    let (e, a, b) = (
        ensemble.embed_documents(&texts).expect("embeds"),
        minilm.embed_documents(&texts).expect("embeds"),
        usem3.embed_documents(&texts).expect("embeds"),
    );
    for i in 0..texts.len() {
        assert!((cosine(&e[i], &e[i]) - 1.0).abs() < 1e-4, "text {i}: not unit length");
        for j in 0..texts.len() {
            let mean = (cosine(&a[i], &a[j]) + cosine(&b[i], &b[j])) / 2.0;
            assert!((cosine(&e[i], &e[j]) - mean).abs() < 1e-4, "texts {i}, {j}: not the mean of the members");
        }
    }
    // The multilingual member carries a German request to its English twin; MiniLM alone does not.
    let (de, en) = ("Wie wird das Wetter morgen in Berlin?", "What will the weather be like in Berlin tomorrow?");
    let pair = |m: &FastEmbedder| cosine(&m.embed_query(de).expect("embeds"), &m.embed_query(en).expect("embeds"));
    assert!(pair(&usem3) > pair(&minilm) + 0.2, "USE {:.3} vs MiniLM {:.3}", pair(&usem3), pair(&minilm));
}

#[test]
fn intents_read_in_context_come_from_the_request_s_one_inference() {
    let request = "look up the weather in Lisbon, and then send it to the team channel on slack";
    let spans = [0..29, 40..request.len()];
    let texts = [&request[spans[0].clone()], &request[spans[1].clone()]];
    assert_eq!(texts, ["look up the weather in Lisbon", "send it to the team channel on slack"]);
    let parts: Vec<Part<'_>> = (0..2).map(|i| Part { text: texts[i], spans: &spans[i..=i] }).collect();
    let minilm: Arc<dyn Embedder> = Arc::new(member("all-minilm-l6-v2-int8"));
    let usem3: Arc<dyn Embedder> = Arc::new(member("use-multilingual-v3"));
    for (name, model) in [("ensemble", toolscout_test_support::embedder()), ("MiniLM", minilm), ("USE-m3", usem3)] {
        let read = model.embed_in_context(request, &parts).expect("embeds");
        assert_eq!(read.len(), 3, "{name}: the request and each part");
        let alone: Vec<Vec<f32>> =
            [request, texts[0], texts[1]].iter().map(|t| model.embed_query(t).expect("embeds")).collect();
        assert!(cosine(&read[0], &alone[0]) > 0.999, "{name}: the request's vector is its vector alone");
        for i in 1..3 {
            assert!((cosine(&read[i], &read[i]) - 1.0).abs() < 1e-4, "{name}: part {i} not unit length");
            let own = cosine(&read[i], &alone[i]);
            // Read in context, a part is not what it is alone: "send it" took in what "it" is.
            assert!(own < 0.95, "{name}: part {i} read alone ({own:.3})");
            assert!(own > 0.5, "{name}: part {i} lost itself ({own:.3})");
        }
        if name == "MiniLM" {
            for i in 1..3 {
                let (own, other) = (cosine(&read[i], &alone[i]), cosine(&read[i], &alone[3 - i]));
                assert!(own > other + 0.1, "{name}: part {i}: {own:.3} to itself alone, {other:.3} to the other");
            }
        }
    }
    let model = toolscout_test_support::embedder();
    let none = model.embed_in_context(request, &[]).expect("embeds");
    assert_eq!(none.len(), 1, "no parts: the request alone");
    // A part past the model's length (256 tokens) has no token to read: it is embedded on its own.
    let long = format!("{} then send it to the team channel on slack", "please read this first. ".repeat(80));
    let tail = long.len() - "send it to the team channel on slack".len();
    let late = tail..long.len();
    let part = Part { text: &long[tail..], spans: std::slice::from_ref(&late) };
    let read = model.embed_in_context(&long, &[part]).expect("embeds");
    let alone = model.embed_query(&long[tail..]).expect("embeds");
    assert!(cosine(&read[1], &alone) > 0.999, "a part the model never read is embedded alone");
}

#[test]
fn the_model_knows_words_of_its_language_and_not_typos() {
    let known = toolscout_test_support::embedder().known_words();
    assert!(known.len() > 20_000, "MiniLM's whole words: {}", known.len());
    for word in ["saying", "funds", "shirt", "weather", "search"] {
        assert!(known.contains(word), "{word}");
    }
    for word in ["serch", "wikipeda", "wether", "calender", "##ing", "Saying"] {
        assert!(!known.contains(word), "{word}");
    }
}
